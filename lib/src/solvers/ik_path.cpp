#include "eom/solvers/ik_path.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <tuple>

#include "eom/core/errors.hpp"
#include "eom/io/table.hpp"
#include "eom/multibody/configuration.hpp"

namespace eom {

Eigen::VectorXd nominal_seed(const Model& model) {
  Eigen::VectorXd q = neutral(model);
  for (int k = 0; k < model.nq; ++k) {
    if (std::isfinite(model.lower_limit[k]) && std::isfinite(model.upper_limit[k]))
      q[k] = 0.5 * (model.lower_limit[k] + model.upper_limit[k]);
  }
  return q;
}

std::pair<int, double> coordinate_value(const Model& model, const std::string& item,
                                        const std::string& option) {
  const size_t eq = item.find('=');
  const std::string name = item.substr(0, eq);
  if (eq == std::string::npos) throw InputError(option + " " + item + ": expected NAME=VALUE");
  const std::string text = item.substr(eq + 1);
  const auto value = parse_number(text);
  if (!value) {
    // a number beyond a double is said as in tables; anything else is not a finite number
    double x = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
    throw InputError(option + " " + item + ": " +
                     (error == std::errc::result_out_of_range && end == text.data() + text.size()
                          ? out_of_range_message(text)
                          : "expected NAME=VALUE with a finite number, not " + quote_input(text)));
  }
  const auto it = std::find(model.q_names.begin(), model.q_names.end(), name);
  if (it == model.q_names.end()) {
    throw InputError(option + " " + item + ": the model has no joint coordinate '" + name +
                     "' (`eom info` lists them)");
  }
  return {static_cast<int>(it - model.q_names.begin()), *value};
}

Eigen::VectorXd with_coordinate_values(const Model& model, Eigen::VectorXd q,
                                       const std::vector<std::string>& items,
                                       const std::string& option) {
  for (const auto& item : items) {
    const auto [k, value] = coordinate_value(model, item, option);
    q[k] = value;
  }
  return q;
}

std::optional<NullSpaceObjective> parse_null_space_objective(std::string_view name) {
  if (name == "seed") return NullSpaceObjective::seed;
  if (name == "centre" || name == "center") return NullSpaceObjective::centre;
  if (name == "none") return NullSpaceObjective::none;
  return std::nullopt;
}

IkPath::IkPath(const Model& model, const Eigen::VectorXd& seed, const Header& header,
               const std::string& time_column, bool independent, double jump_threshold)
    : model_(model),
      solver_(model),
      base_seed_(seed),
      seed_(seed),
      previous_(seed),
      seeded_by_table_(model.nq),
      path_(false),
      jump_threshold_(jump_threshold) {
  bool any = false;
  for (int k = 0; k < model.nq; ++k) {
    seeded_by_table_[k] = header.index("q." + model.q_names[k]) >= 0;
    any = any || seeded_by_table_[k];
  }
  // without q columns, a table with time is a path: each row from the previous solution
  path_ = !any && !independent && header.index(time_column) >= 0;
}

const IkResult& IkPath::solve(const IkProblem& problem, ConstVec table_q, int line, double t,
                              const IkOptions& options) {
  if (path_) {
    seed_ = previous_;
  } else {
    for (int k = 0; k < model_.nq; ++k) seed_[k] = seeded_by_table_[k] ? table_q[k] : base_seed_[k];
  }
  const IkResult& r = solver_.solve(problem, seed_, options);

  IkRowStatistics& s = statistics_;
  ++s.rows;
  s.solve_time_us.add(r.time_us);
  s.iterations += r.iterations;
  s.restarts += r.restarts;
  s.most_iterations = std::max<long>(s.most_iterations, r.iterations);
  s.most_restarts = std::max<long>(s.most_restarts, r.restarts);
  if (r.converged()) {
    ++s.converged;
    previous_ = r.q;
    if (path_ && s.rows > 1 && r.jump > jump_threshold_) s.jumps.add(r.jump, t, line);
    if (s.rows == 2) std::tie(second_jump_, second_t_, second_line_) = std::tuple(r.jump, t, line);
  } else {
    s.failures.add(r.position_error, t, line);
    if (s.failures.rows == 1) {
      s.first_failure_position_error = r.position_error;
      s.first_failure_orientation_error = r.orientation_error;
    }
  }
  if (r.timed_out) s.timeouts.add(r.time_us, t, line);
  if (s.rows == 1) first_converged_ = r.converged();
  return r;
}

const IkResult* IkPath::resolve_first(const IkProblem& first, const IkOptions& options) {
  IkRowStatistics& s = statistics_;
  // the second row converged from the first's solution and jumped
  if (!path_ || s.rows != 2 || !first_converged_ || s.converged != 2 ||
      !(second_jump_ > jump_threshold_)) {
    return nullptr;
  }
  const IkResult& r = solver_.solve(first, previous_, options);
  s.iterations += r.iterations;
  s.restarts += r.restarts;
  // r.jump is the step from the second row's solution, its seed
  if (!r.converged() || !(r.jump < second_jump_)) return nullptr;
  s.jumps = RowTally{};
  if (r.jump > jump_threshold_) s.jumps.add(r.jump, second_t_, second_line_);
  return &r;
}

}  // namespace eom
