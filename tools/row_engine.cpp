#include "row_engine.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>

#include <eom/io/columns.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/core/errors.hpp>
#include <eom/trajectory/finite_difference.hpp>

#include <nlohmann/json.hpp>

namespace eom::cli {

void add_row_options(CLI::App& cmd, RowOptions& opt, bool reads_derivatives) {
  cmd.add_option("TABLE", opt.tables, "Input tables (CSV, JSON, NDJSON); - reads stdin")
      ->required();
  cmd.add_option("--from", opt.from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_output_options(cmd, opt.output);
  cmd.add_option("--output-dir", opt.output_dir,
                 "Write one output per input into DIR, same base name (batch mode)");
  cmd.add_option("-j,--jobs", opt.jobs,
                 "Threads (default: all cores): tables in parallel in batch mode; for one table, "
                 "reading overlaps computing unless --jobs 1")
      ->check(CLI::Range(0, 4096).description("an integer from 0 (all cores) to 4096"));
  cmd.add_option("--keep", opt.keep,
                 "Input columns to pass through, comma separated; NAME:NEW passes NAME as NEW")
      ->delimiter(',');
  cmd.add_flag("--keep-input", opt.keep_input, "Pass every input column through");
  cmd.add_option("--time-column", opt.time_column, "The column holding time (default t)");
  cmd.add_option("--time-scale", opt.time_scale,
                 "Seconds per unit of the time column (1e-9 for ROS nanoseconds); the output's "
                 "t is in seconds")
      ->check(CLI::PositiveNumber);
  if (reads_derivatives) {
    cmd.add_flag("--no-derive", opt.no_derive, "Missing derivative columns are an error");
    cmd.add_option("--derive-window", opt.derive_window,
                   "Rows of the least-squares fits used when orders 3 and up are derived (default "
                   "4 * degree + 1, at most 63)")
        ->check(CLI::Range(3, PolynomialFit::kMaxSamples));
  }
  add_summary_option(cmd, opt.summary);
  cmd.add_flag("-q,--quiet", opt.quiet, "Print errors only");
}

namespace {

// ---------------------------------------------------------------------------------------------
// Binding: where each coordinate of q and of its derivatives comes from

// A joint whose columns a table lacks: a mimic joint follows its leader, a joint the command
// does not need stays neutral.
struct Fill {
  int joint = 0;
  int leader = -1;  // mimic leader joint, or -1: neutral
  double multiplier = 1, offset = 0;
};

// One stage of derivation: orders `targets` from order `source` (0: q on the manifold).
struct Stage {
  int source = 0;
  std::vector<int> targets;
  int degree = 2, window = 3;
};

struct Binding {
  int t = -1;                            // time column
  std::vector<std::vector<int>> column;  // [order][coordinate]: input column, -1 when filled
  std::vector<std::vector<Fill>> fills;  // [order]: joints filled instead of read
  std::vector<Stage> stages;             // derivations, in order
  std::vector<int> keep;                 // passed-through input columns
  std::vector<std::string> keep_names;   // ... and their output names
  std::vector<std::string> derived;      // what was derived and how, for the warning
};

// The column prefixes of order k present in the header (with the aliases jerk and snap).
std::string present_prefix(const Header& header, int k, const std::string& file) {
  std::vector<std::string> prefixes{derivative_prefix(k)};
  if (k == 3) prefixes.push_back("jerk");
  if (k == 4) prefixes.push_back("snap");
  std::string found;
  for (const auto& prefix : prefixes) {
    const bool any = std::any_of(header.names.begin(), header.names.end(), [&](const auto& n) {
      return n.size() > prefix.size() + 1 && n.compare(0, prefix.size(), prefix) == 0 &&
             n[prefix.size()] == '.';
    });
    if (!any) continue;
    if (!found.empty()) {
      throw InputError(file, 1, 0,
                       "both " + found + ".* and " + prefix + ".* columns: give one of them");
    }
    found = prefix;
  }
  return found;
}

std::vector<std::string> coordinate_names(const Model& model, int order) {
  return order == 0 ? model.q_names : model.v_names;
}

// Binds the coordinates of one order with `prefix`: columns of needed joints must all be there,
// a joint without any column is filled (mimic leader, or neutral when not needed).
void bind_order(const Model& model, const Header& header, const std::string& file,
                const std::vector<bool>& needed, int order, const std::string& prefix, Binding& b) {
  const Space space = order == 0 ? Space::q : Space::v;
  std::vector<int>& column = b.column[order];
  column.assign(space == Space::q ? model.nq : model.nv, -1);
  std::vector<std::string> required;
  std::vector<int> required_at;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    const int begin = space == Space::q ? j.idx_q : j.idx_v;
    const int size = space == Space::q ? j.nq : j.nv;
    const auto& names = coordinate_names(model, order);
    int present = 0;
    for (int k = begin; k < begin + size; ++k) {
      column[k] = header.index(prefix + "." + names[k]);
      present += column[k] >= 0;
    }
    if (present == size) continue;
    const JointInfo& info = model.info[i];
    const int leader = info.mimic_joint ? model.joint_index(*info.mimic_joint) : -1;
    if (present == 0 && leader > 0) {
      b.fills[order].push_back(
          {i, leader, info.mimic_multiplier, order == 0 ? info.mimic_offset : 0});
      continue;
    }
    if (present == 0 && !(needed.empty() || needed[i])) {
      b.fills[order].push_back({i, -1, 1, 0});
      continue;
    }
    for (int k = begin; k < begin + size; ++k) {
      if (column[k] < 0) {
        required.push_back(prefix + "." + names[k]);
        required_at.push_back(k);
      }
    }
  }
  if (!required.empty()) bind_columns(header, required, file);  // throws, naming them
}

std::string join(const std::vector<std::string>& items, size_t cap = 8) {
  std::string out;
  for (size_t k = 0; k < items.size() && k < cap; ++k) out += (k ? ", " : "") + items[k];
  if (items.size() > cap) out += " and " + std::to_string(items.size() - cap) + " more";
  return out;
}

// The derivation plan for the orders a table lacks: v (and a) from q on the configuration
// manifold, then each run of missing orders from the highest order below it, as plain vectors.
void plan_derivation(const std::vector<bool>& given, const RowOptions& opt, Binding& b) {
  const int order = static_cast<int>(given.size()) - 1;
  std::vector<bool> present = given;
  auto describe = [&](const Stage& s) {
    std::vector<std::string> names;
    for (int k : s.targets) names.push_back(derivative_prefix(k));
    std::string how = s.window == 3 ? "three-point differences"
                                    : "least-squares fits of degree " + std::to_string(s.degree) +
                                          " over " + std::to_string(s.window) + " rows";
    b.derived.push_back(
        join(names) + " from " +
        (s.source == 0 ? "q (on the configuration manifold)" : derivative_prefix(s.source)) +
        " and t by " + how);
  };
  // up to a: the three-point formulas; beyond, least-squares fits of degree order + 2
  const int degree = order + 2;
  // wide windows: high derivatives of sampled data are limited by round-off, which a wider fit
  // averages away (--derive-window narrows it for slowly sampled data, where the truncation of
  // the polynomial dominates)
  const int window = opt.derive_window > 0 ? opt.derive_window
                                           : std::min(4 * degree + 1, PolynomialFit::kMaxSamples);
  if (order > 2 && window < degree + 1) {
    throw InputError("--derive-window " + std::to_string(window) +
                     " is too small for fits of degree " + std::to_string(degree) +
                     ": give at least " + std::to_string(degree + 1) + " rows");
  }
  auto add = [&](int source, std::vector<int> targets) {
    Stage s;
    s.source = source;
    s.targets = std::move(targets);
    if (order > 2) {
      s.degree = degree;
      s.window = window;
    }
    for (int k : s.targets) present[k] = true;
    describe(s);
    b.stages.push_back(std::move(s));
  };
  // v from q on the configuration manifold (with a, when only three-point formulas are needed);
  // then each run of missing orders from the order below it, as plain vectors
  if (order >= 1 && !present[1]) {
    add(0, order == 2 && !present[2] ? std::vector<int>{1, 2} : std::vector<int>{1});
  }
  for (int k = 2; k <= order; ++k) {
    if (present[k]) continue;
    std::vector<int> targets;
    for (int m = k; m <= order && !present[m]; ++m) targets.push_back(m);
    add(k - 1, std::move(targets));
  }
}

Binding bind(const Model& model, const Header& header, const std::string& file,
             const RowOptions& opt, const RowCommand& command, const Notes& notes) {
  check_coordinate_columns(header, model, file);
  Binding b;
  const int order = command.order;
  b.column.resize(order + 1);
  b.fills.resize(order + 1);
  b.t = header.index(opt.time_column);
  if (b.t < 0 && opt.time_column != "t") {
    throw InputError(file, 1, 0, "--time-column: no column " + opt.time_column);
  }

  std::vector<bool> given(order + 1, false);
  given[0] = true;
  bind_order(model, header, file, command.joints, 0, "q", b);
  for (int k = 1; k <= order; ++k) {
    const std::string prefix = present_prefix(header, k, file);
    if (prefix.empty() && !opt.no_derive) continue;
    bind_order(model, header, file, command.joints, k,
               prefix.empty() ? derivative_prefix(k) : prefix, b);
    given[k] = true;
  }
  plan_derivation(given, opt, b);
  if (!b.stages.empty()) {
    if (b.t < 0) {
      throw InputError(file, 1, 0,
                       "missing column " + opt.time_column + " (needed to derive " +
                           b.derived.front().substr(0, b.derived.front().find(" from")) + ")");
    }
    for (const auto& how : b.derived) {
      notes.warning(file + ": derived " + how + " (--no-derive forbids this)");
    }
  }
  // a mimic joint following a leader the table gives (one following a neutral leader is as
  // neutral as the joints the command does not need: nothing to say)
  std::vector<std::string> mimics;
  const auto filled = [&](int joint) {
    return std::any_of(b.fills[0].begin(), b.fills[0].end(),
                       [&](const Fill& f) { return f.joint == joint; });
  };
  for (const Fill& f : b.fills[0]) {
    if (f.leader > 0 && !filled(f.leader)) mimics.push_back(model.joint_names[f.joint]);
  }
  if (!mimics.empty()) {
    notes.warning(file + ": mimic joint" + (mimics.size() > 1 ? "s " : " ") + join(mimics) +
                  " filled from the leader (q = multiplier * q_leader + offset)");
  }

  // pass-through columns, in input order: time (as t, in seconds), --keep and --keep-input
  std::vector<std::pair<std::string, std::string>> keep;  // source, output name
  for (const auto& item : opt.keep) {
    const size_t colon = item.find(':');
    const std::string source = item.substr(0, colon);
    const std::string target = colon == std::string::npos ? source : item.substr(colon + 1);
    if (source.empty() || target.empty()) {
      throw InputError("--keep " + item + ": expected NAME or NAME:NEW_NAME");
    }
    if (header.index(source) < 0) throw InputError(file, 1, 0, "--keep: no column " + source);
    keep.emplace_back(source, target);
  }
  for (int c = 0; c < header.size(); ++c) {
    const std::string& name = header.names[c];
    std::string output;
    for (const auto& [source, target] : keep) {
      if (source == name) output = target;
    }
    if (c == b.t) output = "t";
    if (output.empty() && opt.keep_input) output = name;
    if (output.empty()) continue;
    b.keep.push_back(c);
    b.keep_names.push_back(output);
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// Samples: rows read and bound, then passed through the derivation stages

class SampleSource {
 public:
  virtual ~SampleSource() = default;
  /// The next sample into `out` (same sizes each time: no allocation); false at the end.
  virtual bool next(Sample& out) = 0;
};

// shortest round-trip form, as in tables
std::string number(double x) {
  std::string s;
  if (std::isfinite(x)) {
    append_number(s, x);
  } else {
    s = std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
  }
  return s;
}

class TableSource final : public SampleSource {
 public:
  TableSource(const Model& model, TableReader& in, const Binding& b, const RowOptions& opt,
              const Notes& notes)
      : model_(model),
        in_(in),
        b_(b),
        scale_(opt.time_scale),
        notes_(notes),
        check_time_(!b.stages.empty()) {}

  // after the last row: the renormalised quaternions, said once per table
  void report() const {
    if (quaternion_rows_ > 0) {
      notes_.warning(in_.name() + ": " + std::to_string(quaternion_rows_) + " row" +
                     (quaternion_rows_ > 1 ? "s have" : " has") +
                     " a quaternion far from unit norm (first at line " +
                     std::to_string(quaternion_line_) +
                     ", |norm - 1| = " + number(quaternion_deviation_) + "): renormalised");
    }
  }
  nlohmann::json renormalised() const {
    const bool any = quaternion_rows_ > 0;
    return {{"rows", quaternion_rows_},
            {"first_line", any ? nlohmann::json(quaternion_line_) : nlohmann::json()},
            {"first_deviation", any ? nlohmann::json(quaternion_deviation_) : nlohmann::json()}};
  }

  bool next(Sample& s) override {
    if (!in_.next(s.row)) return false;
    s.line = in_.line();
    s.t = b_.t >= 0 ? s.row[b_.t] * scale_ : 0;
    gather(s.row, b_.column[0], s.q);
    for (size_t k = 1; k < b_.column.size(); ++k) {
      if (!b_.column[k].empty()) gather(s.row, b_.column[k], s.dq.col(static_cast<int>(k) - 1));
    }
    fill(s);
    double deviation = 0;
    try {
      deviation = normalize(model_, s.q);
    } catch (const InputError& e) {
      throw InputError(in_.name(), s.line, 0, e.message());
    }
    // more than float round-off: the data is not what its writer thought
    if (deviation > 1e-6 && quaternion_rows_++ == 0) {
      quaternion_line_ = s.line;
      quaternion_deviation_ = deviation;
    }
    if (check_time_) check_time(s);
    return true;
  }

 private:
  static void gather(const std::vector<double>& row, const std::vector<int>& index, VecRef out) {
    for (size_t k = 0; k < index.size(); ++k) {
      if (index[k] >= 0) out[static_cast<Eigen::Index>(k)] = row[index[k]];
    }
  }

  void fill(Sample& s) const {
    for (size_t order = 0; order < b_.fills.size(); ++order) {
      for (const Fill& f : b_.fills[order]) {
        const Joint& j = model_.joints[f.joint];
        if (order == 0) {
          if (f.leader < 0) {
            joint_neutral(j, s.q);
          } else {
            s.q[j.idx_q] = f.multiplier * s.q[model_.joints[f.leader].idx_q] + f.offset;
          }
        } else {
          auto d = s.dq.col(static_cast<int>(order) - 1);
          if (f.leader < 0) {
            d.segment(j.idx_v, j.nv).setZero();
          } else {
            d[j.idx_v] = f.multiplier * d[model_.joints[f.leader].idx_v];
          }
        }
      }
    }
  }

  // derivatives need t strictly increasing, without gaps far larger than the steps around them
  void check_time(const Sample& s) {
    if (rows_++ > 0) {
      const double step = s.t - last_t_;
      if (!(step > 0)) {
        throw InputError(in_.name(), s.line, 0,
                         "t is not strictly increasing (t = " + number(s.t) + " after " +
                             number(last_t_) + "): cannot derive " + derived_names());
      }
      if (last_step_ > 0 && (step > 10 * last_step_ || last_step_ > 10 * step)) {
        throw InputError(in_.name(), s.line, 0,
                         "the step in t changes from " + number(last_step_) + " to " +
                             number(step) +
                             " s: derivatives across it cannot be trusted (split "
                             "the table there, or give the derivative columns)");
      }
      last_step_ = step;
    }
    last_t_ = s.t;
  }

  std::string derived_names() const {
    std::vector<std::string> names;
    for (const Stage& stage : b_.stages) {
      for (int k : stage.targets) names.push_back(derivative_prefix(k));
    }
    return join(names);
  }

  const Model& model_;
  TableReader& in_;
  const Binding& b_;
  const double scale_;
  const Notes& notes_;
  const bool check_time_;
  long rows_ = 0;
  double last_t_ = 0, last_step_ = 0;
  long quaternion_rows_ = 0;
  int quaternion_line_ = 0;
  double quaternion_deviation_ = 0;
};

// One derivation stage: keeps a window of rows and emits each row once the rows its fit needs
// have been read (half a window later), the first and last rows with one-sided windows.
class DerivativeSource final : public SampleSource {
 public:
  DerivativeSource(const Model& model, SampleSource& upstream, const Stage& stage,
                   const std::string& file, int order)
      : model_(model),
        upstream_(upstream),
        stage_(stage),
        file_(file),
        half_(stage.window / 2),
        window_(stage.window, Sample(model, order)),
        displacement_(model.nv),
        derivative_(model.nv) {}

  bool next(Sample& out) override {
    const long w = stage_.window;
    for (;;) {
      // row `emitted_` needs rows up to emitted_ + half (at least the first w)
      if (count_ >= w && (emitted_ + half_ < count_ || (ended_ && emitted_ < count_))) {
        emit(out);
        return true;
      }
      if (ended_) {
        if (count_ > 0 && count_ < w) {
          throw InputError(file_, 0, 0,
                           "deriving " + derivative_prefix(stage_.targets.front()) +
                               " needs at least " + std::to_string(w) + " rows, the table has " +
                               std::to_string(count_));
        }
        return false;
      }
      if (!upstream_.next(window_[count_ % w])) {
        ended_ = true;
        continue;
      }
      ++count_;
    }
  }

 private:
  void emit(Sample& out) {
    const long w = stage_.window;
    const long start = std::max(0L, std::min(emitted_ - half_, count_ - w));
    double t[PolynomialFit::kMaxSamples];
    for (long j = 0; j < w; ++j) t[j] = window_[(start + j) % w].t;
    const int at = static_cast<int>(emitted_ - start);
    const auto& weights = fit_(t, static_cast<int>(w), at, stage_.degree);
    out = window_[emitted_ % w];
    for (int k : stage_.targets) {
      const int r = k - stage_.source;
      if (stage_.source == 0) {
        // the tangent displacements from this row to the others; its own is zero
        derivative_.setZero();
        for (long j = 0; j < w; ++j) {
          if (j == at) continue;
          difference(model_, out.q, window_[(start + j) % w].q, displacement_);
          derivative_ += weights(r, j) * displacement_;
        }
      } else {
        const int m = stage_.source - 1;
        derivative_ = weights(r, 0) * window_[start % w].dq.col(m);
        for (long j = 1; j < w; ++j)
          derivative_ += weights(r, j) * window_[(start + j) % w].dq.col(m);
      }
      out.dq.col(k - 1) = derivative_;
    }
    ++emitted_;
  }

  const Model& model_;
  SampleSource& upstream_;
  const Stage& stage_;
  const std::string& file_;
  const long half_;
  std::vector<Sample> window_;  // row r at r % window
  PolynomialFit fit_;
  Eigen::VectorXd displacement_, derivative_;
  long count_ = 0, emitted_ = 0;
  bool ended_ = false;
};

// ---------------------------------------------------------------------------------------------
// Output rows

// Passed-through columns, then the task's, checked finite (a non-finite result names the row
// that caused it, not just the output).
class RowSink {
 public:
  RowSink(RowTask& task, const Binding& b, TableWriter& out, const std::string& file, bool flush)
      : task_(task), b_(b), out_(out), file_(file), flush_(flush), result_(out.header().size()) {}

  void write(const Sample& s) {
    size_t k = 0;
    for (size_t c = 0; c < b_.keep.size(); ++c) {
      result_[k++] = static_cast<int>(b_.keep[c]) == b_.t ? s.t : s.row[b_.keep[c]];
    }
    task_.compute(s, result_.data() + k);
    for (size_t c = k; c < result_.size(); ++c) {
      if (!std::isfinite(result_[c])) fail(s, c);
    }
    out_.write_row(result_.data());
    if (flush_) out_.flush();
    ++rows_;
  }

  long rows() const { return rows_; }

 private:
  [[noreturn]] void fail(const Sample& s, size_t c) const {
    // the inputs are finite (the reader makes sure): the numbers of this row overflow
    std::string largest;
    double magnitude = -1;
    for (int i = 0; i < static_cast<int>(s.row.size()); ++i) {
      if (std::abs(s.row[i]) > magnitude) {
        magnitude = std::abs(s.row[i]);
        largest = number(s.row[i]);
      }
    }
    throw InputError(file_, s.line, 0,
                     out_.header().names[c] + " came out as " + number(result_[c]) +
                         ": the numbers of this row overflow (its largest input is " + largest +
                         ")");
  }

  RowTask& task_;
  const Binding& b_;
  TableWriter& out_;
  const std::string& file_;
  const bool flush_;
  std::vector<double> result_;
  long rows_ = 0;
};

// Reading overlapped with computing and writing: a reader thread fills blocks of samples that
// this thread computes and writes in order. Blocks cycle through a fixed pool: no allocation
// once the first rows have sized them.
void run_pipelined(const Model& model, int order, const TableReader& in, SampleSource& source,
                   RowSink& sink, Progress& progress) {
  constexpr int kBlockRows = 512, kBlocks = 4;
  struct Block {
    std::vector<Sample> samples;
    int count = 0;
    bool last = false;
  };
  std::vector<Block> blocks(kBlocks);
  for (Block& b : blocks) b.samples.assign(kBlockRows, Sample(model, order));
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
        while (b.count < kBlockRows && source.next(b.samples[b.count])) ++b.count;
        b.last = b.count < kBlockRows;
        progress.done_to(in.offset());
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
      for (int i = 0; i < b.count; ++i) sink.write(b.samples[i]);
      progress.add_rows(b.count);
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

// Only the columns eom reads must be numbers: the time, q and its derivatives, the task's
// inputs, and what is passed through (eom writes numbers only, so a text column cannot be kept).
void read_used_columns(TableReader& in, const Binding& b, const RowTask& task,
                       const RowOptions& opt) {
  const int n = in.header().size();
  std::vector<bool> used(n, false);
  std::vector<std::string> why(n);
  for (const auto& order : b.column) {
    for (int c : order) {
      if (c >= 0) used[c] = true;
    }
  }
  for (int c : task.inputs) used[c] = true;
  if (b.t >= 0) used[b.t] = true;
  for (int c : b.keep) {
    if (used[c]) continue;
    used[c] = true;
    why[c] = opt.keep_input ? "--keep-input passes every column through and eom writes numbers "
                              "only: name the numeric columns with --keep instead"
                            : "--keep passes it through and eom writes numbers only";
  }
  in.read_columns(std::move(used), std::move(why));
}

bool stdin_is_stream() {
  struct stat s;
  return fstat(0, &s) == 0 && !S_ISREG(s.st_mode);
}

// One input table to one output; returns the exit code and leaves its messages in notes and,
// when `summary` is given, the table's summary object there (notes.log then holds its messages).
int run_table(const RowOptions& opt, const Model& model, const RowCommand& command,
              const std::string& in_path, const std::string& out_path, bool pipelined,
              const Notes& notes, Progress& progress, nlohmann::json* summary) {
  auto in = open_input(InputOptions{in_path, opt.from});
  const Binding b = bind(model, in->header(), in->name(), opt, command, notes);
  const std::unique_ptr<RowTask> task = command.make_task(in->header(), in->name(), notes);

  Header header;
  header.names = b.keep_names;
  header.names.insert(header.names.end(), task->columns.begin(), task->columns.end());
  for (size_t k = 0; k + 1 < header.names.size(); ++k) {
    if (std::find(header.names.begin() + k + 1, header.names.end(), header.names[k]) !=
        header.names.end()) {
      throw InputError("output column " + header.names[k] +
                       " would appear twice (rename a kept column with --keep NAME:NEW_NAME)");
    }
  }
  read_used_columns(*in, b, *task, opt);
  OutputOptions output = opt.output;
  output.path = out_path;
  auto out = open_output(output, header);
  // rows of an endless stream go out as soon as they are computed
  const bool streaming = in_path == "-" && stdin_is_stream();

  TableSource table(model, *in, b, opt, notes);
  std::vector<std::unique_ptr<DerivativeSource>> stages;
  SampleSource* source = &table;
  for (const Stage& stage : b.stages) {
    stages.push_back(
        std::make_unique<DerivativeSource>(model, *source, stage, in->name(), command.order));
    source = stages.back().get();
  }
  RowSink sink(*task, b, *out, in->name(), streaming);
  if (pipelined && !streaming) {
    run_pipelined(model, command.order, *in, *source, sink, progress);
  } else {
    Sample s(model, command.order);
    while (source->next(s)) {
      sink.write(s);
      if ((sink.rows() & 1023) == 0) {
        progress.done_to(in->offset());
        progress.add_rows(1024);
      }
    }
  }
  const int rc = task->finish(notes);
  if (rc == kExitOk) {
    out->commit();
  } else if (out_path != "-") {
    // like a failed Make recipe: no output file, so the next run does not think it up to date
    notes.error(out_path + " not written: the run failed (see above)");
  }
  table.report();
  if (summary) {
    *summary =
        summary_object(command.name, in_path, out_path, rc == kExitOk, sink.rows(), rc, *notes.log);
    (*summary)["quaternions_renormalised"] = table.renormalised();
    task->summarize(*summary);
  }
  return rc;
}

}  // namespace

TimeTable read_time_table(const std::string& path) {
  const auto reader = TableReader::open(path, format_for(path, std::nullopt));
  TimeTable table{path, reader->header(), TimeSeries(reader->header().size())};
  const int t_col = table.header.index("t");
  if (t_col < 0) throw InputError(path, 1, 0, "missing the time column 't'");
  std::vector<double> row;
  while (reader->next(row)) {
    try {
      table.series.append(row[t_col], row.data());
    } catch (const InputError& e) {
      throw InputError(path, reader->line(), t_col + 1, e.message());
    }
  }
  if (table.series.rows() == 0) throw InputError(path, 1, 0, "the table has no rows");
  return table;
}

Model load_robot(const RowOptions& opt, Streams& io, const std::string& command) {
  for (const auto& table : opt.tables) {
    if (table == "-" && opt.robot.path == "-") {
      throw InputError("ROBOT and TABLE cannot both be stdin: give one of them as a file");
    }
  }
  return load_robot(opt.robot, io, command, opt.quiet);
}

int run_rows(const RowOptions& opt, const Model& model, const RowCommand& command, Streams& io) {
  const bool summarize = !opt.summary.empty();
  MessageLog log;
  const Notes notes{io.err, command.name, opt.quiet, summarize ? &log : nullptr};
  std::error_code error;
  const auto size = opt.tables.size() == 1 && opt.tables[0] != "-"
                        ? std::filesystem::file_size(opt.tables[0], error)
                        : 0;
  Progress progress(command.name, !opt.quiet, opt.tables.size(),
                    error ? 0 : static_cast<double>(size));

  if (opt.output_dir.empty()) {
    if (opt.tables.size() > 1) throw InputError("several tables need --output-dir DIR");
    check_destinations(opt.tables, opt.robot.path, {opt.output.path}, opt.summary);
    // one table: a second thread reads while this one computes and writes
    const bool pipelined = opt.jobs != 1 && std::thread::hardware_concurrency() > 1;
    nlohmann::json summary;
    const int rc = run_table(opt, model, command, opt.tables[0], opt.output.path, pipelined, notes,
                             progress, summarize ? &summary : nullptr);
    if (summarize) write_summary(opt.summary, nlohmann::json::array({summary}));
    return rc;
  }

  // batch: files are independent; each thread has its own task and workspace, messages are
  // printed in input order so the run is deterministic
  const std::vector<std::string> outputs = batch_outputs(opt.tables, opt.output_dir, opt.output);
  check_destinations(opt.tables, opt.robot.path, outputs, opt.summary);
  const size_t n = opt.tables.size();
  std::vector<std::string> messages(n);
  std::vector<int> rc(n, kExitOk);
  std::vector<MessageLog> logs(n);
  std::vector<nlohmann::json> summaries(n);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < n;) {
      std::ostringstream out;
      const Notes file_notes{out, command.name, opt.quiet, summarize ? &logs[i] : nullptr};
      try {
        rc[i] = run_table(opt, model, command, opt.tables[i], outputs[i], false, file_notes,
                          progress, summarize ? &summaries[i] : nullptr);
      } catch (const std::exception& e) {
        file_notes.error(e.what());
        rc[i] = kExitUsage;
      }
      messages[i] = out.str();
      progress.file_done();
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>(n, opt.jobs > 0 ? opt.jobs : cores);
  std::vector<std::thread> pool;
  for (size_t k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (const auto& s : messages) io.err << s;
  const int worst = *std::max_element(rc.begin(), rc.end());
  if (summarize && worst != kExitUsage) write_summary(opt.summary, summaries);  // input order
  return worst;
}

}  // namespace eom::cli
