// Inverse kinematics over the rows of a table of targets, as `eom ik` solves them: where each
// row's seed comes from (the table's q columns, the run's seed, or the previous row's solution
// along a path), the jumps of a path, and the statistics of the rows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "eom/io/table.hpp"
#include "eom/multibody/model.hpp"
#include "eom/solvers/ik.hpp"
#include "eom/trajectory/row_statistics.hpp"

namespace eom {

/// The default seed: the middle of every bounded coordinate's limits (the TRAC-IK benchmark's
/// nominal seed), neutral for the others (continuous joints, the free-flyer).
Eigen::VectorXd nominal_seed(const Model& model);

/// "NAME=VALUE" -> the index of the q coordinate NAME and VALUE. Throws InputError starting with
/// "<option> <item>: " when the item is not NAME=VALUE with a number or names no q coordinate.
std::pair<int, double> coordinate_value(const Model& model, const std::string& item,
                                        const std::string& option);
/// q (nq) with the coordinate_value of every item set.
Eigen::VectorXd with_coordinate_values(const Model& model, Eigen::VectorXd q,
                                       const std::vector<std::string>& items,
                                       const std::string& option);

/// The objective named seed, centre (or center) or none; nullopt for any other name.
std::optional<NullSpaceObjective> parse_null_space_objective(std::string_view name);

/// What the rows of a table gave.
struct IkRowStatistics {
  long rows = 0, converged = 0;
  long iterations = 0, restarts = 0;            // over all rows
  long most_iterations = 0, most_restarts = 0;  // in one row
  LogScaleHistogram solve_time_us;
  RowTally failures;  // rows that did not converge; worst: the position error
  RowTally jumps;     // path rows whose solution jumps from the previous one; worst: the jump
  RowTally timeouts;  // rows the wall-clock cap stopped; worst: the solve time (us)
  double first_failure_position_error = 0, first_failure_orientation_error = 0;
};

/// Solves the rows of a table of targets in order. A row starts from the table's q values where
/// it has q columns and from the run's seed elsewhere; a table with time and no q column is a
/// path (unless `independent`): each row starts from the previous converged solution, and a
/// joint step larger than jump_threshold is counted as a jump. Allocates nothing per row beyond
/// what IkSolver::solve does.
class IkPath {
 public:
  /// The rows of a table with `header`: q.<coordinate> columns seed their coordinate, `seed`
  /// (nq) the others; time_column names the time column that makes a table without q columns a
  /// path.
  IkPath(const Model& model, const Eigen::VectorXd& seed, const Header& header,
         const std::string& time_column, bool independent, double jump_threshold);

  /// The row on line `line` at time t: its target `problem`, the table's q (nq, read where the
  /// table has q columns).
  const IkResult& solve(const IkProblem& problem, ConstVec table_q, int line, double t,
                        const IkOptions& options);

  /// After the second row of a path whose solution jumped away from the first's: the first row
  /// solved again from the second's solution, when that converges nearer to it. A first row at a
  /// singular configuration has a family of solutions, of which its seed chose one; the next rows
  /// decide which member the path goes on from (the wrist of a UR5 starting stretched). Null when
  /// the first row stands. `first` is the first row's target.
  const IkResult* resolve_first(const IkProblem& first, const IkOptions& options);
  /// Whether rows start from the previous solution.
  bool is_path() const { return path_; }
  const IkRowStatistics& statistics() const { return statistics_; }

 private:
  const Model& model_;
  IkSolver solver_;
  const Eigen::VectorXd base_seed_;
  Eigen::VectorXd seed_, previous_;
  bool first_converged_ = false;
  double second_jump_ = 0, second_t_ = 0;  // the second row's jump from the first, and its row
  int second_line_ = 0;
  std::vector<char> seeded_by_table_;  // per q coordinate: the table has its column
  bool path_;
  const double jump_threshold_;
  IkRowStatistics statistics_;
};

}  // namespace eom
