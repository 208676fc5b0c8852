#include "row_input.hpp"

#include <algorithm>
#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/configuration.hpp>

#include <nlohmann/json.hpp>

namespace eom::cli {

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
  const int degree = derivation_degree(order);
  const int window = opt.derive_window > 0 ? opt.derive_window : default_derivation_window(degree);
  if (order > 2 && window < degree + 1) {
    throw InputError("--derive-window " + std::to_string(window) +
                     " is too small for fits of degree " + std::to_string(degree) +
                     ": give at least " + std::to_string(degree + 1) + " rows");
  }
  b.stages = plan_derivation(given, window);
  for (const DerivationStage& s : b.stages) {
    std::vector<std::string> names;
    for (int k : s.targets) names.push_back(derivative_prefix(k));
    std::string how = s.window == 3 ? "three-point differences"
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
  plan(given, opt, b);
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
                       [&](const JointFill& f) { return f.joint == joint; });
  };
  for (const JointFill& f : b.fills[0]) {
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
    fill_configuration(model_, b_.fills[0], s.q);
    for (size_t k = 1; k < b_.fills.size(); ++k) {
      fill_derivative(model_, b_.fills[k], s.dq.col(static_cast<int>(k) - 1));
    }
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

  // derivatives need t strictly increasing, without gaps far larger than the steps around them
  void check_time(const Sample& s) {
    switch (time_steps_(s.t)) {
      case TimeStepCheck::Result::ok:
        return;
      case TimeStepCheck::Result::not_increasing:
        throw InputError(in_.name(), s.line, 0,
                         "t is not strictly increasing (t = " + number(s.t) + " after " +
                             number(time_steps_.previous_t()) + "): cannot derive " +
                             derived_names());
      case TimeStepCheck::Result::step_jump:
        throw InputError(in_.name(), s.line, 0,
                         "the step in t changes from " + number(time_steps_.previous_step()) +
                             " to " + number(time_steps_.step()) +
                             " s: derivatives across it cannot be trusted (split "
                             "the table there, or give the derivative columns)");
    }
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
  const double scale_;
  const Notes& notes_;
  const bool check_time_;
  TimeStepCheck time_steps_;
  long quaternion_rows_ = 0;
  int quaternion_line_ = 0;
  double quaternion_deviation_ = 0;
};

namespace {

// One derivation stage (DerivativeWindow) over the samples of the stage before it.
class DerivativeSource final : public SampleSource {
 public:
  DerivativeSource(const Model& model, SampleSource& upstream, const DerivationStage& stage,
                   const std::string& file, int order)
      : upstream_(upstream),
        stage_(stage),
        file_(file),
        samples_(stage.window, Sample(model, order)),
        window_(model, stage, slots(samples_)) {}

  bool next(Sample& out) override {
    for (;;) {
      if (window_.ready()) {
        out = samples_[window_.slot_to_emit()];
        window_.derive(out.dq);
        return true;
      }
      if (window_.ended()) {
        if (window_.too_few_rows()) {
          throw InputError(file_, 0, 0,
                           "deriving " + derivative_prefix(stage_.targets.front()) +
                               " needs at least " + std::to_string(stage_.window) +
                               " rows, the table has " + std::to_string(window_.rows()));
        }
        return false;
      }
      if (!upstream_.next(samples_[window_.slot_to_fill()])) {
        window_.end();
        continue;
      }
      window_.filled();
    }
  }

 private:
  static std::vector<DerivativeWindow::Slot> slots(const std::vector<Sample>& samples) {
    std::vector<DerivativeWindow::Slot> slots;
    for (const Sample& s : samples) slots.push_back({&s.t, &s.q, &s.dq});
    return slots;
  }

  SampleSource& upstream_;
  const DerivationStage& stage_;
  const std::string& file_;
  std::vector<Sample> samples_;  // the rows of the window, row r at r % window
  DerivativeWindow window_;
};

}  // namespace

TableSamples::TableSamples(const Model& model, TableReader& in, const Binding& b,
                           const RowOptions& opt, const Notes& notes, int order)
    : table_(std::make_unique<TableSource>(model, in, b, opt, notes)), last_(table_.get()) {
  for (const DerivationStage& stage : b.stages) {
    stages_.push_back(std::make_unique<DerivativeSource>(model, *last_, stage, in.name(), order));
    last_ = stages_.back().get();
  }
}

TableSamples::~TableSamples() = default;

void TableSamples::report() const { table_->report(); }

nlohmann::json TableSamples::renormalised() const { return table_->renormalised(); }

}  // namespace eom::cli
