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
  const int window = opt.derive_window > 0 ? opt.derive_window : default_derivation_window(degree);
  const bool derives = std::find(given.begin(), given.end(), false) != given.end();
  if (derives && !three_point && window < degree + 1) {
    throw InputError(Setting::derive_window +
                     (" " + std::to_string(window) + " is too small for fits of degree " +
                      std::to_string(degree) + ": give at least " + std::to_string(degree + 1) +
                      " rows"));
  }
  b.stages = plan_derivation(given, window,
                             three_point ? DerivationMethod::three_point : DerivationMethod::fit);
  for (const DerivationStage& s : b.stages) {
    std::vector<std::string> names;
    for (int k : s.targets) names.push_back(derivative_prefix(k));
    std::string how = three_point ? "three-point differences"
                                  : "least-squares fits of degree " + std::to_string(s.degree) +
                                        " over " + std::to_string(s.window) + " rows";
    b.derived.push_back(
        join(names) + " from " +
        (s.source == 0 ? "q (on the configuration manifold)" : derivative_prefix(s.source)) +
        " and t by " + how);
  }
}

}  // namespace

Binding bind(const Model& model, const Header& header, const std::string& file,
             const RowOptions& opt, const RowCommand& command, const Notes& notes) {
  check_coordinate_columns(header, model, file);
  Binding b;
  const int order = command.order;
  b.column.resize(order + 1);
  b.fills.resize(order + 1);
  b.time = bind_time_columns(header, opt.time, file, false);

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
  if (!b.stages.empty()) {
    if (b.time.stamp < 0) {
      throw InputError(file, 1, 0,
                       "missing column " + opt.time.column + " (needed to derive " +
                           b.derived.front().substr(0, b.derived.front().find(" from")) + ")");
    }
  }
  // a mimic joint following a leader the table gives (one following a neutral leader is as
  // neutral as the joints the command does not need: nothing to say)
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

  // pass-through columns, in input order: time (as t, in seconds, where its column is), --keep
  // and --keep-input (the time column too, under its own name unless it is t)
  std::vector<std::pair<std::string, std::string>> keep;  // source, output name
  for (const auto& item : opt.keep) {
    const size_t colon = item.find(':');
    const std::string source = item.substr(0, colon);
    const std::string target = colon == std::string::npos ? source : item.substr(colon + 1);
    if (source.empty() || target.empty()) {
      throw InputError(Setting::keep + (" " + item + ": expected NAME or NAME:NEW_NAME"));
    }
    if (header.index(source) < 0)
      throw InputError(file, 1, 0, Setting::keep + (": no column " + source));
    keep.emplace_back(source, target);
  }
  for (int c = 0; c < header.size(); ++c) {
    const std::string& name = header.names[c];
    std::string output;
    for (const auto& [source, target] : keep) {
      if (source == name) output = target;
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
        limited_angles_(limited_wrapping_angles(model, b)),
        previous_q_(model.nq) {}

  // after the last row: the gaps, the wrapped angles of limited joints and the renormalised
  // quaternions, each said once per table
  void report(long rows_near_gaps) const {
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
    if (!in_.next(s.row)) return false;
    s.line = in_.line();
    keep(s);
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
        throw InputError(in_.name(), s.line, 0,
                         "t is not strictly increasing (t = " + number(s.t) + " after " +
                             number(previous_t) + "): cannot derive " + derived_names());
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
  const bool check_time_, split_gaps_;
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

// One derivation stage (DerivativeWindow) over the samples of the stage before it.
class DerivativeSource final : public SampleSource {
 public:
  DerivativeSource(const Model& model, SampleSource& upstream, const DerivationStage& stage,
                   const std::string& file, int order)
      : upstream_(upstream),
        stage_(stage),
        file_(file),
        samples_(DerivativeWindow::slots_needed(stage), Sample(model, order)),
        window_(model, stage, slots(samples_)) {}

  bool next(Sample& out) override {
    for (;;) {
      if (window_.ready()) {
        out = samples_[window_.slot_to_emit()];
        window_.derive(out.dq);
        return true;
      }
      if (window_.too_few_rows()) too_few_rows();
      if (window_.next_segment()) continue;
      if (window_.ended()) return false;
      Sample& in = samples_[window_.slot_to_fill()];
      if (!upstream_.next(in)) {
        window_.end();
        continue;
      }
      window_.filled(in.segment_start);
    }
  }

  long rows_near_gaps() const { return window_.rows_near_gaps(); }

 private:
  static std::vector<DerivativeWindow::Slot> slots(const std::vector<Sample>& samples) {
    std::vector<DerivativeWindow::Slot> slots;
    for (const Sample& s : samples) slots.push_back({&s.elapsed, &s.q, &s.dq});
    return slots;
  }

  [[noreturn]] void too_few_rows() const {
    const std::string what = "deriving " + derivative_prefix(stage_.targets.front()) +
                             " needs at least " + std::to_string(window_.min_rows()) +
                             " rows (a fit of degree " + std::to_string(stage_.degree) + ")";
    const long n = window_.segment_rows();
    if (window_.whole_table()) {
      // the three-point rule derives v and a from as few as three rows
      const bool three_rows_do = n >= 3 && stage_.targets.back() <= 2;
      throw InputError(
          file_, 0, 0,
          what + ", the table has " + std::to_string(n) +
              (three_rows_do ? " (" + Setting::derive + " three-point needs only 3)" : Phrase()));
    }
    const int first = samples_[window_.segment_slot(0)].line;
    const int last = samples_[window_.segment_slot(n - 1)].line;
    throw InputError(file_, first, 0,
                     what + ", the segment of lines " + std::to_string(first) + "-" +
                         std::to_string(last) + " between gaps in t has " + std::to_string(n) +
                         " (give the derivative columns, or fill or cut out the segment)");
  }

  SampleSource& upstream_;
  const DerivationStage& stage_;
  const std::string& file_;
  std::vector<Sample> samples_;  // the rows of the window and one read ahead
  DerivativeWindow window_;
};

TableSamples::TableSamples(const Model& model, TableReader& in, const Binding& b,
                           const RowOptions& opt, const Notes& notes, int order)
    : table_(std::make_unique<TableSource>(model, in, b, opt, notes)),
      last_(table_.get()),
      file_(in.name()),
      binding_(b),
      notes_(notes) {
  for (const DerivationStage& stage : b.stages) {
    auto derivation = std::make_unique<DerivativeSource>(model, *last_, stage, in.name(), order);
    if (!first_derivation_) first_derivation_ = derivation.get();
    last_ = derivation.get();
    stages_.push_back(std::move(derivation));
  }
}

TableSamples::~TableSamples() = default;

void TableSamples::report() const {
  for (const std::string& how : binding_.derived) {
    notes_.warning(file_ + ": derived " + how + " (" + Setting::no_derive + " forbids this)");
  }
  table_->report(first_derivation_ ? first_derivation_->rows_near_gaps() : 0);
}

nlohmann::json TableSamples::renormalised() const { return table_->renormalised(); }

}  // namespace eom::rows
