// eom ik --velocity: for every row, the joint velocity that realises the row's task velocities
// (lecture notes section 2.9.2): frame velocity tasks read <frame>.vx .vy .vz .wx .wy .wz (the
// frame origin's velocity and the angular velocity, world axes), joint tasks read vref.<joint>.

#include "ik/ik_velocity.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/core/errors.hpp>
#include <eom/solvers/ik.hpp>

#include "cli.hpp"

namespace eom::cli {
namespace {

const NamedValues<TaskPriority> kPriorities = {{"stacked", TaskPriority::stacked},
                                               {"strict", TaskPriority::strict}};

// "a,b,c" -> {"a", "b", "c"}
std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// One --task: the library's spec and, per row of the task, its target column.
struct ParsedTask {
  VelocityTaskSpec spec;
  std::vector<std::string> columns;
};

// frame:FRAME[:COMPONENTS] or joints:NAME,NAME,...; throws InputError naming the option
ParsedTask parse_task(const Model& model, const std::string& text) {
  const std::string option = "--task " + text;
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  ParsedTask task;
  if (kind == "frame") {
    const size_t second = rest.find(':');
    const std::string frame = rest.substr(0, second);
    if (frame.empty()) throw InputError(option + ": expected frame:FRAME[:COMPONENTS]");
    int index;
    try {
      index = model.require_frame(frame);
    } catch (const InputError& e) {
      throw InputError(option + ": " + e.message());
    }
    Vec6 mask = Vec6::Zero();
    const std::string components = second == std::string::npos ? "all" : rest.substr(second + 1);
    for (const std::string& c : split(components, ',')) {
      const auto named = std::find(kTwistComponents.begin(), kTwistComponents.end(), c);
      if (named != kTwistComponents.end()) {
        mask[named - kTwistComponents.begin()] = 1;
      } else if (c == "linear" || c == "all") {
        mask.head<3>().setOnes();
        if (c == "all") mask.tail<3>().setOnes();
      } else if (c == "angular") {
        mask.tail<3>().setOnes();
      } else {
        throw InputError(option + ": unknown component '" + c +
                         "' (expected vx, vy, vz, wx, wy, wz, linear, angular or all)");
      }
    }
    if (mask.isZero()) throw InputError(option + ": the task selects no component");
    task.spec = VelocityTaskSpec::frame_velocity(index, ReferenceFrame::local_world_aligned, mask);
    for (int k = 0; k < 6; ++k) {
      if (mask[k] > 0) task.columns.push_back(column_name(frame, kTwistComponents[k]));
    }
  } else if (kind == "joints") {
    std::vector<int> indices;
    for (const std::string& name : split(rest, ',')) {
      const auto it = std::find(model.v_names.begin(), model.v_names.end(), name);
      if (it == model.v_names.end()) {
        throw InputError(option + ": the model has no joint velocity coordinate '" + name +
                         "' (`eom info` lists them)");
      }
      indices.push_back(static_cast<int>(it - model.v_names.begin()));
      task.columns.push_back(column_name("vref", name));
    }
    if (indices.empty()) throw InputError(option + ": the task selects no joint");
    task.spec = VelocityTaskSpec::joint_velocity(std::move(indices));
  } else {
    throw InputError(option + ": expected frame:FRAME[:COMPONENTS] or joints:NAME,NAME,...");
  }
  return task;
}

class IkVelocityTask final : public RowTask {
 public:
  IkVelocityTask(const Model& model, const std::vector<ParsedTask>& tasks,
                 const IkVelocityOptions& opt, const Header& in, const std::string& file)
      : model_(model),
        strict_(opt.priority == TaskPriority::strict),
        damping_(opt.damping),
        ik_(model, [&] {
          std::vector<VelocityTaskSpec> specs;
          for (const auto& t : tasks) specs.push_back(t.spec);
          return specs;
        }()) {
    for (size_t i = 0; i < tasks.size(); ++i) {
      targets_.push_back(bind_columns(in, tasks[i].columns, file));  // throws naming the missing
      const std::vector<int>& target = targets_.back();
      inputs.insert(inputs.end(), target.begin(), target.end());  // they must hold numbers
      if (!opt.weights.empty()) ik_.weights(static_cast<int>(i)) *= opt.weights[i];
    }
    for (auto& n : coordinate_columns(model, "v", Space::v)) columns.push_back(std::move(n));
    for (size_t i = 0; i < tasks.size(); ++i)
      columns.push_back(column_name("ik.residual", std::to_string(i + 1)));
  }

  void compute(const Sample& s, double* out) override {
    for (int i = 0; i < ik_.task_count(); ++i) {
      auto target = ik_.target(i);
      for (int r = 0; r < target.size(); ++r) target[r] = s.row[targets_[i][r]];
    }
    ik_.update(s.q);
    const Eigen::VectorXd& v =
        strict_ ? ik_.solve_prioritized(damping_) : ik_.solve_stacked(damping_);
    for (int k = 0; k < model_.nv; ++k) *out++ = v[k];
    for (int i = 0; i < ik_.task_count(); ++i) *out++ = ik_.residual(i);
  }

 private:
  const Model& model_;
  const bool strict_;
  const double damping_;
  DifferentialIk ik_;
  std::vector<std::vector<int>> targets_;  // per task, per row: the input column
};

}  // namespace

int run_ik_velocity(const IkVelocityOptions& opt, const RowOptions& rows, Streams& io) {
  if (opt.tasks.empty()) {
    throw InputError(
        "--velocity needs at least one --task (frame:FRAME[:COMPONENTS] or "
        "joints:NAME,NAME,...)");
  }
  if (!opt.weights.empty() && opt.weights.size() != opt.tasks.size()) {
    throw InputError("--weights: " + std::to_string(opt.weights.size()) + " given for " +
                     std::to_string(opt.tasks.size()) + " tasks; give one per --task");
  }
  if (std::any_of(opt.weights.begin(), opt.weights.end(),
                  [](double w) { return !(w > 0) || !std::isfinite(w); })) {
    throw InputError("--weights: every weight must be positive and finite");
  }
  const Model model = load_robot(rows, io, "ik");
  std::vector<ParsedTask> tasks;
  for (const auto& text : opt.tasks) tasks.push_back(parse_task(model, text));

  RowCommand command;
  command.name = "ik";
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    return std::make_unique<IkVelocityTask>(model, tasks, opt, header, file);
  };
  return run_rows(rows, model, command, io);
}

void add_ik_velocity_options(CLI::App& cmd, bool& velocity, IkVelocityOptions& opt) {
  CLI::Option* velocity_flag = cmd.add_flag(
      "--velocity", velocity,
      "Velocity level instead: for every row (q columns), the joint velocity v that "
      "realises the --task velocities (damped pseudo-inverse, stacked or strict "
      "priority); writes v.<joint> and ik.residual.<k>, |J_k v - w_k| of the k-th task");
  needs(cmd.add_option(
               "--task", opt.tasks,
               "With --velocity, a task, repeated in priority order: frame:FRAME[:COMPONENTS] "
               "(the frame's velocity, world axes, from columns <FRAME>.vx .vy .vz .wx .wy .wz; "
               "COMPONENTS comma separated among those, linear, angular, all (default)) or "
               "joints:NAME,NAME,... (joint velocities from columns vref.<NAME>)")
            ->expected(1)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll),
        velocity_flag);
  add_choice(cmd, "--priority", opt.priority, kPriorities,
             "With --velocity: stacked (equal priority, weighted least squares over all tasks; "
             "default) or strict (each task only in the null space of those before it)");
  cmd.add_option("--damping", opt.damping,
                 "With --velocity: lambda of the damped pseudo-inverse J^T (J J^T + lambda^2 I)^-1 "
                 "(default 0: the Moore-Penrose inverse)")
      ->check(kNonNegative);
  cmd.add_option("--weights", opt.weights,
                 "With --velocity: one weight per task, comma separated (default all 1): the "
                 "trade-off between tasks of --priority stacked")
      ->delimiter(',');
}

}  // namespace eom::cli
