#include "eom/rows/row_input.hpp"

#include <algorithm>
#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/configuration.hpp>

#include <nlohmann/json.hpp>

#include "core/constants.hpp"
#include "core/tolerances.hpp"
#include "rows/derivative_source.hpp"
#include "rows/filter_source.hpp"

namespace eom::rows {

using detail::kPi;

namespace {

// The column prefixes of order k present in the header (with the aliases jerk and snap).
std::string present_prefix(const Header& header, int k, const std::string& file) {
  std::vector<std::string> prefixes{derivative_prefix(k)};
  if (const char* alias = derivative_alias(k)) prefixes.push_back(alias);
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
      column[k] = header.index(column_name(prefix, names[k]));
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
        required.push_back(column_name(prefix, names[k]));
        required_at.push_back(k);
      }
    }
  }
  if (!required.empty()) bind_columns(header, required, file);  // throws, naming them
  order_leaders_first(b.fills[order]);
}

std::string join(const std::vector<std::string>& items, size_t cap = 8) {
  std::string out;
  for (size_t k = 0; k < items.size() && k < cap; ++k) out += (k ? ", " : "") + items[k];
  if (items.size() > cap) out += " and " + std::to_string(items.size() - cap) + " more";
  return out;
}

// The derivation plan for the orders a table lacks (plan_derivation), said in b.derived.
void plan(const std::vector<bool>& given, const RowOptions& opt, Binding& b) {
  const int order = static_cast<int>(given.size()) - 1;
  const bool three_point = opt.derive == "three-point";
  if (three_point && opt.derive_window > 0) {
    throw InputError(Setting::derive_window + " sets the rows of fits: it does not go with " +
                     Setting::derive + " three-point");
  }
  const int degree = derivation_degree(order);
  const int window = opt.derive_window;  // 0: chosen from the data, stage by stage
  const bool derives = std::find(given.begin(), given.end(), false) != given.end();
  if (derives && !three_point && window > 0 && window < degree + 1) {
    throw InputError(Setting::derive_window +
                     (" " + std::to_string(window) + " is too small for fits of degree " +
                      std::to_string(degree) + ": give at least " + std::to_string(degree + 1) +
                      " rows"));
  }
  b.method = three_point ? DerivationMethod::three_point : DerivationMethod::fit;
  b.stages = plan_derivation(given, window, b.method);
  for (const DerivationStage& s : b.stages) {
    std::vector<std::string> names;
    for (int k : s.targets) names.push_back(derivative_prefix(k));
    // the rows of the fits are said once known (TableSamples::report): the data may choose them
    std::string how = three_point ? "three-point differences"
                                  : "least-squares fits of degree " + std::to_string(s.degree);
    b.derived.push_back(
        join(names) + " from " +
        (s.source == 0 ? "q (on the configuration manifold)" : derivative_prefix(s.source)) +
        " and t by " + how);
  }
}

}  // namespace

namespace {

// q and the derivatives the command needs: the orders the table gives bound, a plan to derive the
// others (which needs a time column)
void bind_derivatives(const Model& model, const Header& header, const std::string& file,
                      const RowOptions& opt, const RowCommand& command, Binding& b) {
  const int order = command.order;
  b.column.resize(order + 1);
  b.fills.resize(order + 1);
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
  plan(given, opt, b);
  if (!b.stages.empty() && b.time.stamp < 0) {
    throw InputError(file, 1, 0,
                     "missing column " + opt.time.column + " (needed to derive " +
                         b.derived.front().substr(0, b.derived.front().find(" from")) + ")");
  }
}

// a mimic joint following a leader the table gives (one following a neutral leader is as neutral
// as the joints the command does not need: nothing to say)
void warn_mimics(const Model& model, const Binding& b, const std::string& file,
                 const Notes& notes) {
  std::vector<std::string> mimics;
  const auto filled = [&](int joint) {
    return std::any_of(b.fills[0].begin(), b.fills[0].end(),
                       [&](const JointFill& f) { return f.joint == joint; });
  };
  for (const JointFill& f : b.fills[0]) {
    if (f.leader > 0 && !filled(f.leader)) mimics.push_back(model.joint_names[f.joint]);
  }
  if (!mimics.empty()) {
    notes.warning(file + ": mimic joint" + (mimics.size() > 1 ? "s " : " ") + join(mimics) +
                  " filled from the leader (q = multiplier * q_leader + offset)");
  }
}

// --keep's items as (source, output name), each checked against the header: NAME, NAME:NEW_NAME
// or a glob, which keeps every column it matches under its own name ('contact.*', as plot --y)
std::vector<std::pair<std::string, std::string>> keep_items(const Header& header,
                                                            const std::string& file,
                                                            const RowOptions& opt) {
  std::vector<std::pair<std::string, std::string>> keep;
  for (const auto& item : opt.keep) {
    const size_t colon = item.find(':');
    const std::string source = item.substr(0, colon);
    const std::string target = colon == std::string::npos ? source : item.substr(colon + 1);
    if (source.empty() || target.empty()) {
      throw InputError(Setting::keep + (" " + item + ": expected NAME or NAME:NEW_NAME"));
    }
    const bool glob = is_glob(source);
    if (glob && colon != std::string::npos) {
      throw InputError(Setting::keep + (" " + item + ": a glob keeps columns under their own " +
                                        "names; rename one column at a time"));
    }
    const bool found =
        glob ? std::any_of(header.names.begin(), header.names.end(),
                           [&](const std::string& n) { return glob_match(source, n); })
             : header.index(source) >= 0;
    if (!found) {
      const std::string what = glob ? " " + quote_input(source) + " matches no column"
                                    : ": no column " + quote_input(source);
      throw InputError(file, 1, 0, Setting::keep + (what + did_you_mean(header.names, source)));
    }
    keep.emplace_back(source, target);
  }
  return keep;
}

// the pass-through columns, in input order: time (as t, in seconds, where its column is), --keep
// and --keep-input (the time column too, under its own name unless it is t)
void bind_kept(const Header& header, const std::string& file, const RowOptions& opt, Binding& b) {
  const auto keep = keep_items(header, file, opt);
  for (int c = 0; c < header.size(); ++c) {
    const std::string& name = header.names[c];
    std::string output;
    for (const auto& [source, target] : keep) {
      if (source == name) output = target;
      if (is_glob(source) && glob_match(source, name)) output = name;
    }
    if (output.empty() && opt.keep_input) output = name;
    if (c == b.time.stamp) {
      b.keep.push_back(-1);
      b.keep_names.push_back("t");
      if (output == "t") continue;  // a time column named t is the output's t
    }
    if (output.empty()) continue;
    b.keep.push_back(c);
    b.keep_names.push_back(output);
  }
}

}  // namespace

Binding bind(const Model& model, const Header& header, const std::string& file,
             const RowOptions& opt, const RowCommand& command, const Notes& notes) {
  check_coordinate_columns(header, model, file);
  Binding b;
  b.time = bind_time_columns(header, opt.time, file, false);
  bind_derivatives(model, header, file, opt, command, b);
  warn_mimics(model, b, file, notes);
  bind_kept(header, file, opt, b);
  return b;
}

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

// The output's t of each row (doc/tables.md "Time"): the stamp in seconds written with every
// digit (a field of kind number) when the scale is a power of ten, else as a double; or, with
// --time-origin first, the seconds since the first row. Sample::elapsed is always the latter.
class RowTime {
 public:
  RowTime(const Binding& b, const RowOptions& opt)
      : time_(b.time, opt.time.scale),
        present_(b.time.stamp >= 0),
        from_first_(opt.time.from_first) {}

  // s.t, s.elapsed and the time's field of s.kept from the current row of `in`
  void read(const TableReader& in, int line, Sample& s, std::string& text) {
    if (!present_) return;
    time_.read(in, line);
    s.elapsed = time_.elapsed();
    if (from_first_) {
      s.t = s.elapsed;
      return;
    }
    s.t = time_.seconds();
    exact_text_ = time_.append_seconds(text);
  }

  // the kind of the time's field in Sample::kept: the number written, or none (the double)
  FieldKind kind() const { return exact_text_ ? FieldKind::number : FieldKind::none; }
  // the sign of the step from the stamp before, exactly as written (TableTime::step_sign)
  int step_sign() const { return present_ ? time_.step_sign() : 1; }

 private:
  TableTime time_;
  const bool present_, from_first_;
  bool exact_text_ = false;
};

// (RowTime is not in an anonymous namespace: TableSource, declared in row_input.hpp, holds one.)
class TableSource final : public SampleSource {
 public:
  TableSource(const Model& model, TableReader& in, const Binding& b, const RowOptions& opt,
              const Notes& notes)
      : model_(model),
        in_(in),
        b_(b),
        time_(b, opt),
        notes_(notes),
        check_time_(!b.stages.empty()),
        split_gaps_(opt.gaps != "refuse"),
        drop_duplicates_(opt.drop_duplicates && b.time.stamp >= 0),
        seconds_per_unit_(opt.time.scale),
        limited_angles_(limited_wrapping_angles(model, b)),
        previous_q_(model.nq) {}

  // after the last row: the gaps, the wrapped angles of limited joints and the renormalised
  // quaternions, each said once per table
  void report(long rows_near_gaps) const {
    if (check_time_ && time_steps_.usual_step() > kLongestLogStep) warn_time_scale();
    if (duplicates_ > 0) {
      notes_.warning(in_.name() + ":" + std::to_string(duplicate_line_) + ": " +
                     std::to_string(duplicates_) + " row" + (duplicates_ > 1 ? "s" : "") +
                     " repeating the stamp of the row before dropped (" + Setting::duplicates +
                     " drop), the first here");
    }
    if (gaps_ > 0) {
      std::string where;
      for (int k = 0; k < gaps_ && k < kGapsListed; ++k) {
        where += (k ? ", " : "") + std::string("line ") + std::to_string(gap_line_[k]) + " (t " +
                 number(gap_from_[k]) + " to " + number(gap_to_[k]) + ")";
      }
      if (gaps_ > kGapsListed) where += " and " + std::to_string(gaps_ - kGapsListed) + " more";
      notes_.warning(in_.name() + ": " + std::to_string(gaps_) + " gap" + (gaps_ > 1 ? "s" : "") +
                     " in t (a step over " + number(TimeStepCheck::kGapFactor) +
                     " times the usual one), before " + where + ": " + derived_names() +
                     " derived within each segment, " + std::to_string(rows_near_gaps) + " row" +
                     (rows_near_gaps == 1 ? "" : "s") + " near the gaps from one-sided windows (" +
                     Setting::gaps + " refuse makes a gap an error)");
    }
    if (wraps_ > 0) {
      notes_.warning(in_.name() + ":" + std::to_string(wrap_line_) + ": q." +
                     model_.q_names[wrap_coordinate_] + " jumps from " + number(wrap_from_) +
                     " to " + number(wrap_to_) + " (" + std::to_string(wraps_) + " jump" +
                     (wraps_ > 1 ? "s" : "") +
                     " of nearly 2 pi in all): its limits are more than " +
                     "a turn apart, so this is taken as the angle wrapping around and its " +
                     "derivatives are taken on the circle");
    }
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
    do {
      if (!in_.next(s.row)) return false;
      s.line = in_.line();
      keep(s);
    } while (repeats_stamp(s));
    s.segment_start = false;
    gather(s.row, b_.column[0], s.q);
    for (size_t k = 1; k < b_.column.size(); ++k) {
      if (!b_.column[k].empty()) gather(s.row, b_.column[k], s.dq.col(static_cast<int>(k) - 1));
    }
    fill_configuration(model_, b_.fills[0], s.q);
    for (size_t k = 1; k < b_.fills.size(); ++k) {
      fill_derivative(model_, b_.fills[k], s.dq.col(static_cast<int>(k) - 1));
    }
    double deviation = 0;
    try {
      deviation = normalize(model_, s.q);
    } catch (const InputError& e) {
      throw InputError(in_.name(), s.line, 0, e.phrase());
    }
    // more than float round-off: the data is not what its writer thought
    if (deviation > detail::kGivenUnitNorm && quaternion_rows_++ == 0) {
      quaternion_line_ = s.line;
      quaternion_deviation_ = deviation;
    }
    if (check_time_) check_time(s);
    if (!limited_angles_.empty()) check_wraps(s);
    return true;
  }

 private:
  // the passed-through fields into s.kept, the time's computed (s.t, s.elapsed too: a table with
  // a time column passes it through as t)
  void keep(Sample& s) {
    KeptFields& kept = s.kept;
    const size_t n = b_.keep.size();
    if (kept.end.size() != n) {
      kept.end.resize(n);
      kept.kind.resize(n);
    }
    kept.text.clear();
    for (size_t k = 0; k < n; ++k) {
      if (b_.keep[k] < 0) {
        time_.read(in_, s.line, s, kept.text);
        kept.kind[k] = time_.kind();
      } else {
        const Field field = in_.field(b_.keep[k]);
        kept.text += field.text;
        kept.kind[k] = field.kind;
      }
      kept.end[k] = static_cast<uint32_t>(kept.text.size());
    }
  }

  static constexpr int kGapsListed = 5;

  // Robot logs sample far faster than this (s): a usual step above it is a time column in
  // smaller units read as seconds, whose derivatives all but vanish (gravity-only torques).
  static constexpr double kLongestLogStep = 100;

  // the usual step is implausible: say so, and which unit makes it a step between 10 us and 1 s
  void warn_time_scale() const {
    static constexpr struct {
      double seconds;
      const char *scale, *unit;
    } kUnits[] = {{1e-3, "1e-3", "milliseconds"},
                  {1e-6, "1e-6", "microseconds"},
                  {1e-9, "1e-9", "nanoseconds"}};
    const double step = time_steps_.usual_step();
    Phrase advice;
    for (const auto& unit : kUnits) {
      const double seconds = step * unit.seconds;
      if (seconds_per_unit_ != 1 || seconds >= 1 || seconds < 1e-5) continue;
      advice = std::string("; in ") + unit.unit + "? " + Setting::time_scale + " " + unit.scale +
               " makes it " + number_text(seconds) + " s";
      break;
    }
    notes_.warning(in_.name() + ": the usual step in t is " + number_text(step) +
                   " s, implausible for a robot log: the derivatives taken from it all but "
                   "vanish" +
                   advice);
  }

  // with --duplicates drop: does this row repeat the stamp of the row before, exactly (then it
  // is dropped, counted)?
  bool repeats_stamp(const Sample& s) {
    if (!drop_duplicates_ || time_.step_sign() != 0) return false;
    if (duplicates_++ == 0) duplicate_line_ = s.line;
    return true;
  }

  // The wrapping angles (wrapping_angles) of joints with limits, when q is differentiated: a jump
  // of theirs is worth a word (a continuous joint is expected to wrap).
  static std::vector<int> limited_wrapping_angles(const Model& model, const Binding& b) {
    std::vector<int> angles;
    const bool from_q = std::any_of(b.stages.begin(), b.stages.end(),
                                    [](const DerivationStage& s) { return s.source == 0; });
    if (!from_q) return angles;
    for (int c : wrapping_angles(model)) {
      if (std::isfinite(model.upper_limit[c] - model.lower_limit[c])) angles.push_back(c);
    }
    return angles;
  }

  static void gather(const std::vector<double>& row, const std::vector<int>& index, VecRef out) {
    for (size_t k = 0; k < index.size(); ++k) {
      if (index[k] >= 0) out[static_cast<Eigen::Index>(k)] = row[index[k]];
    }
  }

  // derivatives need t strictly increasing (on the seconds since the first row: exact steps,
  // where t may be 1.7e9 s); a gap starts a new segment (or is an error with --gaps refuse)
  void check_time(Sample& s) {
    const double previous_t = previous_t_;
    previous_t_ = s.t;
    switch (time_steps_(s.elapsed)) {
      case TimeStepCheck::Result::ok:
        return;
      case TimeStepCheck::Result::not_increasing:
        not_increasing(s, previous_t);
      case TimeStepCheck::Result::gap:
        if (!split_gaps_) {
          throw InputError(in_.name(), s.line, 0,
                           "the step in t changes from " + number(time_steps_.usual_step()) +
                               " to " + number(time_steps_.step()) +
                               " s: derivatives across it cannot be trusted (" + Setting::gaps +
                               " refuse; split the table there, or give the derivative columns)");
        }
        s.segment_start = true;
        if (gaps_ < kGapsListed) {
          gap_line_[gaps_] = s.line;
          gap_from_[gaps_] = s.t - time_steps_.step();
          gap_to_[gaps_] = s.t;
        }
        ++gaps_;
        return;
    }
  }

  // t did not increase in seconds: a stamp that increases by less than they resolve, a repeated
  // one (loggers write some: the option that drops them), or one that goes back
  [[noreturn]] void not_increasing(const Sample& s, double previous_t) const {
    const int sign = time_.step_sign();
    if (sign > 0) {
      throw InputError(in_.name(), s.line, 0,
                       "t increases by less than a double resolves in the seconds since the first "
                       "row (t = " +
                           number(s.t) + " after " + number(previous_t) + "): cannot derive " +
                           derived_names() + " over such a step");
    }
    throw InputError(in_.name(), s.line, 0,
                     "t is not strictly increasing (t = " + number(s.t) + " after " +
                         number(previous_t) + "): cannot derive " + derived_names() +
                         (sign == 0 ? Phrase("; the row repeats the stamp of the row before (" +
                                             Setting::duplicates + " drop skips such rows)")
                                    : Phrase()));
  }

  // a jump of more than half a turn between rows of a limited angle that wraps
  void check_wraps(const Sample& s) {
    if (rows_++ > 0) {
      for (int c : limited_angles_) {
        if (std::abs(s.q[c] - previous_q_[c]) > kPi && wraps_++ == 0) {
          wrap_line_ = s.line;
          wrap_coordinate_ = c;
          wrap_from_ = previous_q_[c];
          wrap_to_ = s.q[c];
        }
      }
    }
    previous_q_ = s.q;
  }

  std::string derived_names() const {
    std::vector<std::string> names;
    for (const DerivationStage& stage : b_.stages) {
      for (int k : stage.targets) names.push_back(derivative_prefix(k));
    }
    return join(names);
  }

  const Model& model_;
  TableReader& in_;
  const Binding& b_;
  RowTime time_;
  const Notes& notes_;
  const bool check_time_, split_gaps_, drop_duplicates_;
  const double seconds_per_unit_;
  long duplicates_ = 0;
  int duplicate_line_ = 0;
  const std::vector<int> limited_angles_;
  TimeStepCheck time_steps_;
  double previous_t_ = 0;  // the output's t of the row before
  int gaps_ = 0;
  int gap_line_[kGapsListed] = {};
  double gap_from_[kGapsListed] = {}, gap_to_[kGapsListed] = {};
  Eigen::VectorXd previous_q_;  // (nq)
  long rows_ = 0, wraps_ = 0;
  int wrap_line_ = 0, wrap_coordinate_ = 0;
  double wrap_from_ = 0, wrap_to_ = 0;
  long quaternion_rows_ = 0;
  int quaternion_line_ = 0;
  double quaternion_deviation_ = 0;
};

TableSamples::TableSamples(const Model& model, TableReader& in, const Binding& b,
                           const RowOptions& opt, const Notes& notes, int order,
                           const std::vector<int>& inputs)
    : table_(std::make_unique<TableSource>(model, in, b, opt, notes)),
      last_(table_.get()),
      file_(in.name()),
      binding_(b),
      notes_(notes) {
  if (opt.low_pass > 0) {
    low_pass_ =
        std::make_unique<LowPassSource>(model, *last_, opt.low_pass, b, inputs, file_, order);
    last_ = low_pass_.get();
  }
  for (const DerivationStage& stage : b.stages) {
    auto derivation = std::make_unique<DerivativeSource>(model, *last_, stage, in.name(), order);
    if (!first_derivation_) first_derivation_ = derivation.get();
    last_ = derivation.get();
    stages_.push_back(std::move(derivation));
  }
  if (opt.decimate > 1) {
    decimation_ = std::make_unique<DecimationSource>(*last_, opt.decimate);
    last_ = decimation_.get();
  }
}

nlohmann::json TableSamples::dropped() const {
  return {{"filter_edges", low_pass_ ? low_pass_->dropped() : 0},
          {"decimation", decimation_ ? decimation_->dropped() : 0}};
}

TableSamples::~TableSamples() = default;

void TableSamples::report() const {
  if (low_pass_ && low_pass_->taps() > 0) notes_.warning(file_ + ": " + low_pass_->description());
  for (size_t k = 0; k < stages_.size(); ++k) {
    const DerivationStage& stage = stages_[k]->stage();
    const WindowChoice& choice = stages_[k]->choice();
    Phrase rows;
    if (stage.choose_window) {
      rows = (" over " + std::to_string(stage.window) + " rows (" +
              (choice.rows > 0 ? "chosen from the first " + std::to_string(choice.rows) +
                                     " rows, noise " + number_text(choice.noise, 2)
                               : std::string("too few rows to choose from")) +
              "; " + Setting::derive_window + " sets them)");
    } else if (binding_.method == DerivationMethod::fit) {
      rows = " over " + std::to_string(stage.window) + " rows";
    }
    notes_.warning(file_ + ": derived " + binding_.derived[k] + rows + " (" + Setting::no_derive +
                   " forbids this)");
  }
  table_->report(first_derivation_ ? first_derivation_->rows_near_gaps() : 0);
}

nlohmann::json TableSamples::renormalised() const { return table_->renormalised(); }

nlohmann::json TableSamples::derivation() const {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& source : stages_) {
    const DerivationStage& stage = source->stage();
    const WindowChoice& choice = source->choice();
    nlohmann::json targets = nlohmann::json::array();
    for (int k : stage.targets) targets.push_back(derivative_prefix(k));
    const bool fit = binding_.method == DerivationMethod::fit;
    stages.push_back(
        {{"derived", targets},
         {"from", stage.source == 0 ? std::string("q") : derivative_prefix(stage.source)},
         {"method", fit ? "fit" : "three-point"},
         {"degree", stage.degree},
         {"window", stage.window},
         {"window_chosen", stage.choose_window},
         {"chosen_from_rows", stage.choose_window ? nlohmann::json(choice.rows) : nlohmann::json()},
         {"noise", stage.choose_window && choice.rows > 0 ? nlohmann::json(choice.noise)
                                                          : nlohmann::json()}});
  }
  return stages;
}

}  // namespace eom::rows
