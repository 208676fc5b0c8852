// eom id: inverse dynamics (RNEA) for every row of trajectory tables, with its terms, friction,
// external wrenches, effort-limit reports and batch mode.

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include <eom/columns.hpp>
#include <eom/configuration.hpp>
#include <eom/data.hpp>
#include <eom/dynamics.hpp>
#include <eom/errors.hpp>
#include <eom/finite_difference.hpp>

#include "cli.hpp"

namespace eom::cli {
namespace {

struct IdOptions {
  RobotOptions robot;
  std::vector<std::string> tables;
  std::string from;  // input format when the extension does not tell
  OutputOptions output;
  std::string output_dir;  // batch: one output per input
  int jobs = 0;            // threads for batch work; 0 = all cores
  bool terms = false;      // also write the decomposition of tau
  bool friction = false;   // add URDF (or --friction-file) joint friction
  std::string friction_file;
  double friction_smoothing = 0;  // eps of tanh(v / eps); 0 = exact sign
  std::string wrench_frame = "world";
  bool no_derive = false;  // missing v / a is an error instead of derived
  bool fail_on_limit = false;
  bool power = false;             // power.<joint> = tau v and power.total
  std::vector<std::string> keep;  // input columns passed through
  bool keep_input = false;        // pass every input column through
};

const char* const kWrenchSuffixes[] = {"fx", "fy", "fz", "mx", "my", "mz"};

// --friction-file: {"<joint>": {"damping": Fv, "friction": Fs}, ...} overriding the URDF values
Friction load_friction(const Model& model, const IdOptions& opt) {
  Friction friction = Friction::from_model(model);
  friction.smoothing = opt.friction_smoothing;
  if (opt.friction_file.empty()) return friction;
  std::ifstream in(opt.friction_file);
  if (!in) throw InputError(opt.friction_file, 0, 0, "cannot open the file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(opt.friction_file, 0, 0, std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) {
    throw InputError(opt.friction_file, 0, 0,
                     "expected an object {\"<joint>\": {\"damping\": x, \"friction\": y}}");
  }
  for (const auto& [name, values] : j.items()) {
    const int i = model.joint_index(name);
    if (i < 0 || model.joints[i].nv != 1) {
      throw InputError(opt.friction_file, 0, 0, "'" + name + "' is no 1-DoF joint of the model");
    }
    for (const auto& [key, value] : values.items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
        throw InputError(opt.friction_file, 0, 0,
                         name + "." + key + ": expected a finite number >= 0");
      }
      const int k = model.joints[i].idx_v;
      if (key == "damping") {
        friction.viscous[k] = value;
      } else if (key == "friction") {
        friction.coulomb[k] = value;
      } else {
        throw InputError(opt.friction_file, 0, 0,
                         name + ": unknown key '" + key + "' (expected damping or friction)");
      }
    }
  }
  return friction;
}

// per-coordinate record of effort-limit excesses, for the summary on stderr
struct LimitReport {
  struct Excess {
    long rows = 0;
    double first_t = 0, worst = 0, worst_t = 0;
    int first_line = 0;
  };
  std::vector<Excess> excess;  // (nv)

  explicit LimitReport(const Model& model) : excess(model.nv) {}
  void observe(const Model& model, const Eigen::VectorXd& tau, double t, int line) {
    for (int k = 0; k < model.nv; ++k) {
      if (!(std::abs(tau[k]) > model.effort_limit[k])) continue;
      Excess& e = excess[k];
      if (e.rows++ == 0) {
        e.first_t = t;
        e.first_line = line;
      }
      if (std::abs(tau[k]) > std::abs(e.worst)) {
        e.worst = tau[k];
        e.worst_t = t;
      }
    }
  }
  bool exceeded() const {
    return std::any_of(excess.begin(), excess.end(), [](const Excess& e) { return e.rows > 0; });
  }
  void print(const Model& model, const std::string& file, std::ostream& err) const {
    for (int k = 0; k < model.nv; ++k) {
      const Excess& e = excess[k];
      if (e.rows == 0) continue;
      err << "eom id: warning: " << file << ": tau." << model.tau_names[k]
          << " exceeds its effort limit " << model.effort_limit[k] << " in " << e.rows
          << (e.rows == 1 ? " row" : " rows") << ": first at t=" << e.first_t << " (line "
          << e.first_line << "), worst " << e.worst << " at t=" << e.worst_t << "\n";
    }
  }
};

// the columns of one input table, bound once
struct Binding {
  std::vector<int> q, v, a;  // v / a empty: derived from q and t
  int t = -1;
  std::vector<int> keep;           // passed-through input columns
  std::vector<int> wrench_frames;  // frames with wrench.<frame>.* columns
  std::vector<int> wrench;         // 6 per frame
};

Binding bind(const Model& model, const Header& header, const std::string& file,
             const IdOptions& opt, std::ostream& notes) {
  check_coordinate_columns(header, model, file);
  Binding b;
  b.q = bind_columns(header, coordinate_columns(model, "q", Space::q), file);
  b.t = header.index("t");
  for (const char* prefix : {"v", "a"}) {
    const auto names = coordinate_columns(model, prefix, Space::v);
    const bool any = std::any_of(names.begin(), names.end(),
                                 [&](const std::string& n) { return header.index(n) >= 0; });
    if (any || opt.no_derive) {
      (prefix[0] == 'v' ? b.v : b.a) = bind_columns(header, names, file);
    }
  }
  if (b.v.empty() || b.a.empty()) {
    if (b.t < 0) throw InputError(file, 1, 0, "missing column t (needed to derive v and a from q)");
    notes << "eom id: warning: " << file << ": no " << (b.v.empty() ? "v or a" : "a")
          << " columns: derived from " << (b.v.empty() ? "q" : "v")
          << " and t by three-point differences (--no-derive forbids this)\n";
  }

  // pass-through columns: t first, then what was asked for, in input order
  for (int c = 0; c < header.size(); ++c) {
    const std::string& name = header.names[c];
    if (name == "t" || opt.keep_input ||
        std::find(opt.keep.begin(), opt.keep.end(), name) != opt.keep.end()) {
      b.keep.push_back(c);
    }
  }
  for (const auto& name : opt.keep) {
    if (header.index(name) < 0) throw InputError(file, 1, 0, "--keep: no column " + name);
  }

  // external wrenches: wrench.<frame>.fx .fy .fz .mx .my .mz
  for (const auto& name : header.names) {
    if (name.rfind("wrench.", 0) != 0 || name.size() < 11 ||
        name.compare(name.size() - 3, 3, ".fx")) {
      continue;
    }
    const std::string frame = name.substr(7, name.size() - 10);
    int f = -1;
    try {
      f = model.require_frame(frame);
    } catch (const InputError& e) {
      throw InputError(file, 1, 0, "column " + name + ": " + e.message());
    }
    b.wrench_frames.push_back(f);
    std::vector<std::string> names;
    for (const char* s : kWrenchSuffixes) names.push_back("wrench." + frame + "." + s);
    for (int c : bind_columns(header, names, file)) b.wrench.push_back(c);
  }
  for (const auto& name : header.names) {
    if (name.rfind("wrench.", 0) == 0 &&
        std::find(b.wrench.begin(), b.wrench.end(), header.index(name)) == b.wrench.end()) {
      throw InputError(file, 1, 0,
                       "column " + name + ": expected wrench.<frame>.fx .fy .fz .mx .my .mz");
    }
  }
  return b;
}

Header output_header(const Model& model, const Header& in, const Binding& b, const IdOptions& opt) {
  Header h;
  for (int c : b.keep) h.names.push_back(in.names[c]);
  auto add = [&](const char* prefix) {
    for (auto& n : coordinate_columns(model, prefix, Space::tau)) h.names.push_back(std::move(n));
  };
  add("tau");
  if (opt.terms) {
    add("tau_inertial");
    add("tau_coriolis");
    add("tau_gravity");
    if (opt.friction) add("tau_friction");
    if (!b.wrench_frames.empty()) add("tau_external");
  }
  if (opt.power) {
    for (const auto& n : model.v_names) h.names.push_back("power." + n);
    h.names.push_back("power.total");
  }
  for (size_t k = 0; k + 1 < h.names.size(); ++k) {
    if (std::find(h.names.begin() + k + 1, h.names.end(), h.names[k]) != h.names.end()) {
      throw InputError("output column " + h.names[k] + " would appear twice (check --keep)");
    }
  }
  return h;
}

// one sample of the trajectory, with its derivatives once known
struct Sample {
  std::vector<double> row;
  Eigen::VectorXd q, v, a;
  double t = 0;
  int line = 0;

  explicit Sample(const Model& model) : q(model.nq), v(model.nv), a(model.nv) {}
};

// Stage 1: rows of the input as samples with q, v, a, deriving v and a when the table lacks them
// (three-point differences need the next row, so a sample comes out one row late).
class SampleReader {
 public:
  SampleReader(const Model& model, TableReader& in, const Binding& b)
      : model_(model),
        in_(in),
        b_(b),
        deriving_(b.v.empty() || b.a.empty()),
        window_{Sample(model), Sample(model), Sample(model)},
        differentiate_(model),
        scratch_(model.nv) {}

  // the next sample, copied into `out` (same sizes each time: no allocation); false at the end
  bool next(Sample& out) {
    if (!deriving_) return read(out);
    // the window holds samples count_-3 .. count_-1; a sample is emitted once its successor is
    // read (central formula), the first and the last with the one-sided formulas
    for (;;) {
      if (count_ >= 3 && (emitted_ < count_ - 1 || (ended_ && emitted_ < count_))) {
        return emit(static_cast<int>(emitted_ - (count_ - 3)), out);
      }
      if (ended_) {
        if (count_ > 0 && count_ < 3) {
          throw InputError(
              in_.name(), 0, 0,
              "deriving v and a needs at least 3 rows, the table has " + std::to_string(count_));
        }
        return false;
      }
      Sample& s = window_[count_ % 3];
      if (!read(s)) {
        ended_ = true;
        continue;
      }
      if (count_ > 0 && !(s.t > window_[(count_ - 1) % 3].t)) {
        throw InputError(in_.name(), s.line, 0,
                         "t is not strictly increasing (t = " + number(s.t) + " after " +
                             number(window_[(count_ - 1) % 3].t) + "): cannot derive v and a");
      }
      ++count_;
    }
  }

 private:
  bool read(Sample& s) {
    if (!in_.next(s.row)) return false;
    s.line = in_.line();
    s.t = b_.t >= 0 ? s.row[b_.t] : 0;
    gather(s.row, b_.q, s.q);
    if (!b_.v.empty()) gather(s.row, b_.v, s.v);
    if (!b_.a.empty()) gather(s.row, b_.a, s.a);
    try {
      normalize(model_, s.q);
    } catch (const InputError& e) {
      throw InputError(in_.name(), s.line, 0, e.message());
    }
    return true;
  }

  // derivatives at position `at` (0 oldest, 2 newest) of the last three samples read
  bool emit(int at, Sample& out) {
    const Sample* w[3];
    for (int k = 0; k < 3; ++k) w[k] = &window_[(count_ - 3 + k) % 3];
    const std::array<double, 3> t{w[0]->t, w[1]->t, w[2]->t};
    out = *w[at];
    if (b_.v.empty()) {
      differentiate_(t, {&w[0]->q, &w[1]->q, &w[2]->q}, at, out.v, scratch_);
      if (b_.a.empty()) out.a = scratch_;
    } else {
      const ThreePointWeights d = three_point_weights(t, at);
      out.a = d.d1[0] * w[0]->v + d.d1[1] * w[1]->v + d.d1[2] * w[2]->v;
    }
    ++emitted_;
    return true;
  }

  static std::string number(double x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
  }

  const Model& model_;
  TableReader& in_;
  const Binding& b_;
  const bool deriving_;
  std::array<Sample, 3> window_;
  ConfigurationDifferentiator differentiate_;
  Eigen::VectorXd scratch_;
  long count_ = 0, emitted_ = 0;
  bool ended_ = false;
};

// Stage 2: tau (and its terms) of a sample, written as one output row.
class RowWriter {
 public:
  RowWriter(const Model& model, const Friction& friction, const IdOptions& opt, const Binding& b,
            TableWriter& out, bool flush_each_row)
      : model_(model),
        friction_(friction),
        opt_(opt),
        b_(b),
        out_(out),
        flush_each_row_(flush_each_row),
        wrench_frame_(opt.wrench_frame == "local" ? ReferenceFrame::local
                                                  : ReferenceFrame::local_world_aligned),
        data_(model),
        limits_(model),
        tau_(model.nv),
        term_(model.nv),
        friction_term_(model.nv),
        external_term_(model.nv),
        wrenches_(6 * b.wrench_frames.size()),
        result_(out.header().size()) {}

  void write(const Sample& s) {
    const int nv = model_.nv;
    size_t k = 0;
    for (int c : b_.keep) result_[k++] = s.row[c];
    tau_ = rnea(model_, data_, s.q, s.v, s.a);
    if (opt_.friction) {
      friction_torque(friction_, s.v, friction_term_);
      tau_ += friction_term_;
    }
    if (!b_.wrench_frames.empty()) {
      gather(s.row, b_.wrench, wrenches_);
      // the actuators need J^T F less when the environment pushes with F
      external_torque(model_, data_, s.q, b_.wrench_frames, wrenches_, wrench_frame_,
                      external_term_);
      external_term_ = -external_term_;
      tau_ += external_term_;
    }
    auto put = [&](const Eigen::VectorXd& x) {
      for (int i = 0; i < nv; ++i) result_[k++] = x[i];
    };
    put(tau_);
    if (opt_.terms) {
      // tau = M a + c(q, v) + g(q) + friction - J^T F, each computed on its own
      term_.noalias() = crba(model_, data_, s.q) * s.a;
      put(term_);
      const Eigen::VectorXd& g = gravity_torque(model_, data_, s.q);
      term_ = nonlinear_effects(model_, data_, s.q, s.v) - g;
      put(term_);
      put(g);
      if (opt_.friction) put(friction_term_);
      if (!b_.wrench_frames.empty()) put(external_term_);
    }
    if (opt_.power) {
      double total = 0;
      for (int i = 0; i < nv; ++i) {
        result_[k++] = tau_[i] * s.v[i];
        total += tau_[i] * s.v[i];
      }
      result_[k++] = total;
    }
    limits_.observe(model_, tau_, s.t, s.line);
    out_.write_row(result_.data());
    if (flush_each_row_) out_.flush();
  }

  const LimitReport& limits() const { return limits_; }

 private:
  const Model& model_;
  const Friction& friction_;
  const IdOptions& opt_;
  const Binding& b_;
  TableWriter& out_;
  const bool flush_each_row_;
  const ReferenceFrame wrench_frame_;
  Data data_;
  LimitReport limits_;
  Eigen::VectorXd tau_, term_, friction_term_, external_term_, wrenches_;
  std::vector<double> result_;
};

// Reading overlapped with computing and writing: a reader thread fills blocks of samples that
// this thread computes and writes in order. Blocks cycle through a fixed pool: no allocation
// once the first rows have sized them.
void run_pipelined(const Model& model, SampleReader& reader, RowWriter& writer) {
  constexpr int kBlockRows = 512, kBlocks = 4;
  struct Block {
    std::vector<Sample> samples;
    int count = 0;
    bool last = false;
  };
  std::vector<Block> blocks(kBlocks);
  for (Block& b : blocks) b.samples.assign(kBlockRows, Sample(model));
  std::mutex mutex;
  std::condition_variable changed;
  int filled = 0, consumed = 0;  // blocks handed over and given back, counting up
  bool cancelled = false;
  std::exception_ptr failure;

  std::thread producer([&] {
    try {
      for (int n = 0;; ++n) {
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] { return n - consumed < kBlocks || cancelled; });
          if (cancelled) return;
        }
        Block& b = blocks[n % kBlocks];
        b.count = 0;
        while (b.count < kBlockRows && reader.next(b.samples[b.count])) ++b.count;
        b.last = b.count < kBlockRows;
        std::lock_guard<std::mutex> lock(mutex);
        ++filled;
        changed.notify_all();
        if (b.last) return;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      failure = std::current_exception();
      changed.notify_all();
    }
  });

  auto stop = [&] {
    {
      std::lock_guard<std::mutex> lock(mutex);
      cancelled = true;
    }
    changed.notify_all();
    producer.join();
  };
  try {
    for (int n = 0;; ++n) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return filled > n || failure; });
        if (filled <= n) std::rethrow_exception(failure);
      }
      const Block& b = blocks[n % kBlocks];
      for (int i = 0; i < b.count; ++i) writer.write(b.samples[i]);
      std::lock_guard<std::mutex> lock(mutex);
      ++consumed;
      changed.notify_all();
      if (b.last) break;
    }
  } catch (...) {
    stop();
    throw;
  }
  stop();
}

bool stdin_is_stream() {
  struct stat s;
  return fstat(0, &s) == 0 && !S_ISREG(s.st_mode);
}

// Runs one input table to one output; returns the exit code and leaves its messages in notes.
int run_file(const Model& model, const Friction& friction, const IdOptions& opt,
             const std::string& in_path, const std::string& out_path, bool pipelined,
             std::ostream& notes) {
  auto in = open_input(InputOptions{in_path, opt.from});
  const Binding b = bind(model, in->header(), in->name(), opt, notes);
  OutputOptions output = opt.output;
  output.path = out_path;
  auto out = open_output(output, output_header(model, in->header(), b, opt));
  // rows of an endless stream go out as soon as they are computed
  const bool streaming = in_path == "-" && stdin_is_stream();

  SampleReader reader(model, *in, b);
  RowWriter writer(model, friction, opt, b, *out, streaming);
  if (pipelined && !streaming) {
    run_pipelined(model, reader, writer);
  } else {
    Sample s(model);
    while (reader.next(s)) writer.write(s);
  }
  out->commit();

  writer.limits().print(model, in->name(), notes);
  return opt.fail_on_limit && writer.limits().exceeded() ? kExitFailure : kExitOk;
}

std::string output_path_for(const IdOptions& opt, const std::string& input) {
  const std::filesystem::path in(input);
  std::string extension = in.extension().string();
  if (!opt.output.format.empty()) extension = "." + opt.output.format;
  return (std::filesystem::path(opt.output_dir) / in.stem()).string() + extension;
}

int run_id(const IdOptions& opt, Streams& io) {
  const Model model = load_robot(opt.robot);
  for (const auto& name : model.mimic_joints()) {
    warn(io, "id",
         "joint '" + name +
             "' has a mimic tag: eom treats it as an independent joint "
             "and uses its q, v, a columns as given");
  }
  const Friction friction = load_friction(model, opt);

  if (opt.output_dir.empty()) {
    if (opt.tables.size() > 1) throw InputError("several tables need --output-dir DIR");
    // one table: a second thread reads while this one computes and writes
    const bool pipelined = opt.jobs != 1 && std::thread::hardware_concurrency() > 1;
    return run_file(model, friction, opt, opt.tables[0], opt.output.path, pipelined, io.err);
  }

  // batch: files are independent; each thread has its own Data, messages are printed in input
  // order so the run is deterministic
  if (opt.output.path != "-") throw InputError("-o and --output-dir exclude each other");
  std::filesystem::create_directories(opt.output_dir);
  const size_t n = opt.tables.size();
  std::vector<std::string> notes(n);
  std::vector<int> rc(n, kExitOk);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < n;) {
      std::ostringstream out;
      try {
        if (opt.tables[i] == "-") throw InputError("batch mode reads files, not stdin");
        rc[i] = run_file(model, friction, opt, opt.tables[i], output_path_for(opt, opt.tables[i]),
                         false, out);
      } catch (const std::exception& e) {
        out << "eom id: error: " << e.what() << "\n";
        rc[i] = kExitUsage;
      }
      notes[i] = out.str();
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>(n, opt.jobs > 0 ? opt.jobs : cores);
  std::vector<std::thread> pool;
  for (size_t k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (const auto& s : notes) io.err << s;
  return *std::max_element(rc.begin(), rc.end());
}

}  // namespace

void register_id(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<IdOptions>();
  CLI::App* cmd = app.add_subcommand(
      "id",
      "Inverse dynamics (recursive Newton-Euler) for every row of trajectory tables.\n"
      "Reads t, q.<joint>, v.<joint>, a.<joint> (v and a derived from q and t when absent) and\n"
      "optional wrench.<frame>.fx .fy .fz .mx .my .mz; writes t and tau.<joint>.");
  add_robot_options(*cmd, opt->robot);
  cmd->add_option("TABLE", opt->tables, "Input tables (CSV, JSON, NDJSON); - reads stdin")
      ->required();
  cmd->add_option("--from", opt->from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_output_options(*cmd, opt->output);
  cmd->add_option("--output-dir", opt->output_dir,
                  "Write one output per input into DIR, same base name (batch mode)");
  cmd->add_option("-j,--jobs", opt->jobs,
                  "Threads (default: all cores): tables in parallel in batch mode; for one table, "
                  "reading overlaps computing unless --jobs 1")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag(
      "--terms", opt->terms,
      "Also write tau_inertial (M a), tau_coriolis (c), tau_gravity (g), tau_friction and "
      "tau_external (-J^T F) columns, which sum to tau");
  cmd->add_flag("--friction", opt->friction,
                "Add joint friction Fv v + Fs sgn(v) from URDF damping and friction");
  cmd->add_option("--friction-file", opt->friction_file,
                  "JSON {\"<joint>\": {\"damping\": Fv, \"friction\": Fs}} overriding the URDF "
                  "values (implies --friction)");
  cmd->add_option("--friction-smoothing", opt->friction_smoothing,
                  "Replace sgn(v) by tanh(v / EPS) (default 0: exact sign, sgn(0) = 0)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--wrench-frame", opt->wrench_frame,
                  "Axes of wrench.<frame>.* columns: world (default) or local (the frame's own); "
                  "the wrench acts at the frame origin")
      ->check(CLI::IsMember({"world", "local"}));
  cmd->add_flag("--no-derive", opt->no_derive, "Missing v or a columns are an error");
  cmd->add_flag("--fail-on-limit", opt->fail_on_limit,
                "Exit 1 when a torque exceeds its URDF effort limit");
  cmd->add_flag("--power", opt->power, "Also write power.<joint> = tau v and power.total");
  cmd->add_option("--keep", opt->keep, "Input columns to pass through (comma separated)")
      ->delimiter(',');
  cmd->add_flag("--keep-input", opt->keep_input, "Pass every input column through");
  dispatch.on(cmd, [opt](Streams& io) {
    if (!opt->friction_file.empty()) opt->friction = true;
    return run_id(*opt, io);
  });
}

}  // namespace eom::cli
