// eom id: inverse dynamics (RNEA) for every row of trajectory tables, with its terms, friction,
// external wrenches, effort-limit reports and batch mode.

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
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
  std::string from;                  // input format when the extension does not tell
  OutputOptions output;
  std::string output_dir;            // batch: one output per input
  int jobs = 0;                      // threads for batch work; 0 = all cores
  bool terms = false;                // also write the decomposition of tau
  bool friction = false;             // add URDF (or --friction-file) joint friction
  std::string friction_file;
  double friction_smoothing = 0;     // eps of tanh(v / eps); 0 = exact sign
  std::string wrench_frame = "world";
  bool no_derive = false;            // missing v / a is an error instead of derived
  bool fail_on_limit = false;
  bool power = false;                // power.<joint> = tau v and power.total
  std::vector<std::string> keep;     // input columns passed through
  bool keep_input = false;           // pass every input column through
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
      err << "eom id: warning: " << file << ": tau." << model.tau_names[k] << " exceeds its effort limit "
          << model.effort_limit[k] << " in " << e.rows << (e.rows == 1 ? " row" : " rows")
          << ": first at t=" << e.first_t << " (line " << e.first_line << "), worst " << e.worst
          << " at t=" << e.worst_t << "\n";
    }
  }
};

// the columns of one input table, bound once
struct Binding {
  std::vector<int> q, v, a;          // v / a empty: derived from q and t
  int t = -1;
  std::vector<int> keep;             // passed-through input columns
  std::vector<int> wrench_frames;    // frames with wrench.<frame>.* columns
  std::vector<int> wrench;           // 6 per frame
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
    if (name.rfind("wrench.", 0) != 0 || name.size() < 11 || name.compare(name.size() - 3, 3, ".fx")) {
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
    if (name.rfind("wrench.", 0) == 0 && std::find(b.wrench.begin(), b.wrench.end(),
                                                   header.index(name)) == b.wrench.end()) {
      throw InputError(file, 1, 0, "column " + name + ": expected wrench.<frame>.fx .fy .fz .mx .my .mz");
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
};

bool stdin_is_stream() {
  struct stat s;
  return fstat(0, &s) == 0 && !S_ISREG(s.st_mode);
}

// Runs one input table to one output; returns the exit code and leaves its messages in notes.
int run_file(const Model& model, const Friction& friction, const IdOptions& opt,
             const std::string& in_path, const std::string& out_path, std::ostream& notes) {
  InputOptions input{in_path, opt.from};
  auto in = open_input(input);
  const std::string& file = in->name();
  const Binding b = bind(model, in->header(), file, opt, notes);
  const ReferenceFrame wrench_frame =
      opt.wrench_frame == "local" ? ReferenceFrame::local : ReferenceFrame::local_world_aligned;
  OutputOptions output = opt.output;
  output.path = out_path;
  auto out = open_output(output, output_header(model, in->header(), b, opt));
  const bool flush_each_row = in_path == "-" && stdin_is_stream();

  // one workspace for the whole table: no allocation per row
  Data data(model);
  ConfigurationDifferentiator differentiate(model);
  LimitReport limits(model);
  const int nv = model.nv;
  Eigen::VectorXd tau(nv), term(nv), wrenches(6 * b.wrench_frames.size()), scratch(nv);
  std::vector<double> result(out->header().size());
  std::array<Sample, 3> window;
  for (Sample& s : window) {
    s.q.resize(model.nq);
    s.v.resize(nv);
    s.a.resize(nv);
  }

  auto compute = [&](const Sample& s) {
    size_t k = 0;
    for (int c : b.keep) result[k++] = s.row[c];
    tau = rnea(model, data, s.q, s.v, s.a);
    if (opt.friction) {
      friction_torque(friction, s.v, scratch);
      tau += scratch;
    }
    if (!b.wrench_frames.empty()) {
      gather(s.row, b.wrench, wrenches);
      // the actuators need J^T F less when the environment pushes with F
      external_torque(model, data, s.q, b.wrench_frames, wrenches, wrench_frame, term);
      tau -= term;
    }
    auto put = [&](const Eigen::VectorXd& x) {
      for (int i = 0; i < nv; ++i) result[k++] = x[i];
    };
    put(tau);
    if (opt.terms) {
      // tau = M a + c(q, v) + g(q) + friction - J^T F, each computed on its own
      term.noalias() = crba(model, data, s.q) * s.a;
      put(term);
      const Eigen::VectorXd& g = gravity_torque(model, data, s.q);
      term = nonlinear_effects(model, data, s.q, s.v) - g;
      put(term);
      put(g);
      if (opt.friction) put(scratch);
      if (!b.wrench_frames.empty()) {
        external_torque(model, data, s.q, b.wrench_frames, wrenches, wrench_frame, term);
        term = -term;
        put(term);
      }
    }
    if (opt.power) {
      double total = 0;
      for (int i = 0; i < nv; ++i) {
        result[k++] = tau[i] * s.v[i];
        total += tau[i] * s.v[i];
      }
      result[k++] = total;
    }
    limits.observe(model, tau, s.t, s.line);
    out->write_row(result.data());
    if (flush_each_row) out->flush();
  };

  // derivatives of a window of three samples at position `at` (0, 1, 2)
  auto derive = [&](int newest, int at) -> Sample& {
    std::array<int, 3> order;
    for (int k = 0; k < 3; ++k) order[k] = (newest + 1 + k) % 3;  // oldest first
    Sample& s = window[order[at]];
    const std::array<double, 3> t{window[order[0]].t, window[order[1]].t, window[order[2]].t};
    if (b.v.empty()) {
      std::array<const Eigen::VectorXd*, 3> q{&window[order[0]].q, &window[order[1]].q,
                                              &window[order[2]].q};
      differentiate(t, q, at, s.v, scratch);
      if (b.a.empty()) s.a = scratch;
    } else {
      const ThreePointWeights w = three_point_weights(t, at);
      s.a = w.d1[0] * window[order[0]].v + w.d1[1] * window[order[1]].v + w.d1[2] * window[order[2]].v;
    }
    return s;
  };

  const bool deriving = b.v.empty() || b.a.empty();
  long count = 0;
  int newest = 0;
  for (;; ++count) {
    Sample& s = window[newest = static_cast<int>(count % 3)];
    if (!in->next(s.row)) break;
    s.line = in->line();
    s.t = b.t >= 0 ? s.row[b.t] : 0;
    gather(s.row, b.q, s.q);
    if (!b.v.empty()) gather(s.row, b.v, s.v);
    if (!b.a.empty()) gather(s.row, b.a, s.a);
    try {
      normalize(model, s.q);
    } catch (const InputError& e) {
      throw InputError(file, s.line, 0, e.message());
    }
    if (!deriving) {
      compute(s);
      continue;
    }
    if (count > 0 && !(s.t > window[(count - 1) % 3].t)) {
      throw InputError(file, s.line, 0, "t is not strictly increasing (t = " + std::to_string(s.t) +
                                            " after " + std::to_string(window[(count - 1) % 3].t) +
                                            "): cannot derive v and a");
    }
    if (count == 2) compute(derive(newest, 0));
    if (count >= 2) compute(derive(newest, 1));
  }
  if (deriving) {
    if (count < 3) {
      throw InputError(file, 0, 0, "deriving v and a needs at least 3 rows, the table has " +
                                       std::to_string(count));
    }
    compute(derive(static_cast<int>((count - 1) % 3), 2));
  }
  out->commit();

  limits.print(model, file, notes);
  return opt.fail_on_limit && limits.exceeded() ? kExitFailure : kExitOk;
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
    warn(io, "id", "joint '" + name + "' has a mimic tag: eom treats it as an independent joint "
                   "and uses its q, v, a columns as given");
  }
  const Friction friction = load_friction(model, opt);

  if (opt.output_dir.empty()) {
    if (opt.tables.size() > 1) throw InputError("several tables need --output-dir DIR");
    return run_file(model, friction, opt, opt.tables[0], opt.output.path, io.err);
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
        rc[i] = run_file(model, friction, opt, opt.tables[i], output_path_for(opt, opt.tables[i]), out);
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
  cmd->add_option("TABLE", opt->tables, "Input tables (CSV, JSON, NDJSON); - reads stdin")->required();
  cmd->add_option("--from", opt->from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_output_options(*cmd, opt->output);
  cmd->add_option("--output-dir", opt->output_dir,
                  "Write one output per input into DIR, same base name (batch mode)");
  cmd->add_option("-j,--jobs", opt->jobs, "Threads for batch mode (default: all cores)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--terms", opt->terms,
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
