// Dynamic parameter identification from logs (eom identify): the base (identifiable) parameters
// of the joint torque regressor, and weighted least squares over any number of rows with memory
// bounded by the parameter count (Gautier 1990; Gautier and Poignet 2001; Khalil and Dombre 2002,
// ch. 12).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Householder>
#include <Eigen/QR>

#include "eom/algorithm/regressor.hpp"
#include "eom/multibody/model.hpp"
#include "eom/trajectory/residuals.hpp"

namespace eom {

/// The base parameters of the regressor's columns: the largest set of independent columns and how
/// every other column depends on them. With Y P = Q [R1 R2] (column-pivoting QR, P a permutation)
/// the dependent columns are Y_2 = Y_1 K with K = R1^-1 R2, so tau = Y pi = Y_1 b with
/// b = pi_1 + K pi_2: the base parameters, the only combinations the torques determine
/// (Gautier 1990, "Numerical calculation of the base inertial parameters of robots").
struct BaseParameters {
  std::vector<int> independent;  // the columns of Y_1, ascending (r of them)
  std::vector<int> dependent;    // the others, ascending
  std::vector<int> unaffecting;  // columns that are zero at every state: no torque depends on them
  Eigen::MatrixXd combination;   // (r x columns): b = combination pi; identity on `independent`
  double tolerance = 0;          // the rank decision: |R_kk| > tolerance |R_00|
};

/// The relative pivot under which a column counts as dependent (BaseParameters::tolerance).
inline constexpr double kBaseParameterTolerance = 1e-8;
/// A residual RMS this fraction of the measured one or less is round-off (noise-free torques).
inline constexpr double kRoundOffResidual = 1e-10;

/// Base parameters from Y stacked at `states` random states (random_configuration, velocities and
/// accelerations uniform in [-1, 1]; the seed makes them reproducible): generic states find every
/// dependency the structure of the robot implies, and no other, with probability one.
BaseParameters base_parameters(const Model& model, const DriveParameters& drive, int states = 0,
                               std::uint64_t seed = 36, double tolerance = kBaseParameterTolerance);
/// The same over the regressor's columns `unknowns` alone (ascending), the others being known:
/// the combinations of those parameters that the torques determine once the known parameters'
/// torques are taken off. BaseParameters' indices and combination still count every column (the
/// known ones in no combination). With `equations` above 0, over the first `equations` rows of Y
/// alone (a floating base's six, when a log gives no joint torque): the combinations those rows
/// determine, a drive column none of them holds among the unaffecting.
BaseParameters base_parameters(const Model& model, const DriveParameters& drive,
                               const std::vector<int>& unknowns, int states = 0,
                               std::uint64_t seed = 36, double tolerance = kBaseParameterTolerance,
                               int equations = 0);

/// The regressor's columns to identify when only the bodies of `links` are (eom identify --only;
/// a payload, say): the ten of each such body and every drive column, ascending; every column
/// when `links` is empty. The other bodies stay at the model file's values. A link names a body
/// when it is the body's own link (regressor_parameter_names); an unknown name (with the names
/// near it), a link welded to another body by fixed joints (naming that body), one welded to the
/// fixed base and a body without mass in the file (massless by design, such as those between the
/// axes of a multi-axis joint: nothing to start from) are InputErrors.
std::vector<int> identified_columns(const Model& model, const DriveParameters& drive,
                                    const std::vector<std::string>& links);

/// A coefficient of a base parameter's combination under this in magnitude is a structural zero
/// (K = R1^-1 R2 from generic states gives those as round-off, 1e-17 or so, not as 0): the base
/// parameter's expression leaves it out, and alone() does not count it.
inline constexpr double kNegligibleCoefficient = 1e-10;

/// A base parameter in words: "link6.Izz + 0.0064 link6.m - link5.Iyy" (coefficients under
/// kNegligibleCoefficient in magnitude dropped, the others to 12 significant digits).
std::string base_parameter_expression(const BaseParameters& base, int k,
                                      const std::vector<std::string>& names);

/// The standard parameter set nearest `prior` (the model file's) whose base parameters are b:
/// prior + C^T (C C^T)^-1 (b - C prior), C = base.combination, so that C result = b and what the
/// torques cannot tell stays at the prior. Each combination's change is spread over its
/// parameters (in the least-squares sense), which keeps them near the file's values.
Eigen::VectorXd standard_from_base(const BaseParameters& base, const Eigen::VectorXd& b,
                                   const Eigen::VectorXd& prior);

/// Whether base parameter k is one standard parameter alone (no dependent one in its combination
/// but with a negligible coefficient): then the torques determine that parameter itself.
bool alone(const BaseParameters& base, int k);

/// Least squares A x = y over rows that come one batch at a time, each row belonging to a group
/// (a joint: its rows weighted alike later), held as one triangular factor per group: T_g, the R
/// of the QR of [A_g y_g] ((n + 1) x (n + 1): [R, Q^T y; 0, rho] with rho^2 the residual sum of
/// squares of the group's own fit). Never forms A^T A (which squares the condition number); the
/// memory is the groups times (n + 1)^2 plus a buffer of rows, whatever the row count. Rows are
/// buffered and folded into the factor by a Householder QR of [T_g; buffer] when the buffer
/// fills (the streaming QR of Gentleman 1973 in blocks), on the columns the group's rows have
/// touched only: a joint's torque depends on the bodies it carries and on its own drive
/// parameters, so the wrist's rows touch a few of an arm's columns, and the QR's cost, quadratic
/// in the columns, falls with them. add() allocates nothing; a fold allocates only when a group
/// touches a column for the first time.
class StreamingLeastSquares {
 public:
  StreamingLeastSquares(int groups, int unknowns);

  /// One row per group: A (groups x unknowns), y (groups).
  void add(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& y);
  /// Adds the rows another accumulator (of the same sizes) has seen: the result is that of one
  /// accumulator over both sets of rows, to round-off.
  void merge(StreamingLeastSquares& other);
  /// Folds the buffered rows into the factors (before factor(), or after the last add()).
  void flush();

  int groups() const { return static_cast<int>(factors_.size()); }
  int unknowns() const { return unknowns_; }
  long rows() const { return rows_; }  // per group
  /// Group g's triangular factor T_g (after flush()).
  const Eigen::MatrixXd& factor(int g) const { return factors_[g]; }
  /// Sets group g's factor (read back from a partial fit): T must be (n + 1) square, upper
  /// triangular; `rows` the rows it stands for.
  void set_factor(int g, const Eigen::MatrixXd& T, long rows);
  /// ||A_g x - y_g||^2 over group g's rows, from its factor (after flush()).
  double residual_squares(int g, const Eigen::Ref<const Eigen::VectorXd>& x) const;

  struct Solution {
    Eigen::VectorXd x;     // argmin sum_g w_g^2 ||A_g x - y_g||^2
    Eigen::VectorXd std;   // standard deviations of x: sigma sqrt(diag((R^T R)^-1)) (sigma below)
    double sigma = 0;      // weighted residual RMS with the degrees of freedom: rho / sqrt(m - n)
    double condition = 0;  // of the weighted matrix: largest over smallest singular value
    Eigen::VectorXd singular_values;  // of the weighted matrix, descending
    Eigen::VectorXd weights;          // the groups' weights w_g
  };
  /// The groups' factors weighted by `weights` and combined into one: the (n + 1) square
  /// [R, Q^T y; 0, rho] of the QR of every group's rows, each group's times its weight.
  Eigen::MatrixXd combined(const Eigen::VectorXd& weights) const;
  /// The weighted least-squares solution (after flush()). Singular or nearly (condition over
  /// `max_condition`): Solution::x is empty and `condition` and `singular_values` say why.
  Solution solve(const Eigen::VectorXd& weights, double max_condition) const;
  /// Gautier and Poignet's two-step weighted least squares (2001): an ordinary solve, then each
  /// group weighted by the inverse of its residual's standard deviation (its residual RMS with
  /// the degrees of freedom rows - unknowns) and solved again. Noise-free rows leave no residual
  /// to weight by: when a group's residual RMS is kRoundOffResidual of its y's RMS or less, the
  /// ordinary solution stands (weights one).
  Solution solve_two_step(double max_condition) const;

 private:
  // group g's touched columns (ascending, then the right-hand side n), after new touches
  void update_columns(int g);
  // factors_[g] = the R of [T_g; `rows` (the first `count` of them)] on its touched columns
  template <class Rows>
  void fold(int g, const Rows& rows, Eigen::Index count);

  int unknowns_;
  long rows_ = 0;
  int buffered_ = 0;
  std::vector<Eigen::MatrixXd> factors_;  // per group, (n + 1) x (n + 1)
  // per group, rows x (n + 1), by rows: add() writes a row at a time
  std::vector<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> buffers_;
  std::vector<std::vector<char>> touched_;  // per group and column: some row is nonzero there
  std::vector<char> new_touches_;           // per group: touched_ changed since update_columns
  std::vector<std::vector<int>> columns_;   // per group: its touched columns, then n
  std::vector<Eigen::MatrixXd> stacks_;     // per group: [T_g; rows] on columns_[g]
  std::vector<Eigen::HouseholderQR<Eigen::MatrixXd>> qrs_;  // per group, sized as stacks_
};

/// Parameter sets against measured torques over the rows of a log (eom identify's report: the
/// file's parameters and the identified ones, on the fit's logs and on held-out ones): per row the
/// regressor once, each set's torques Y pi, the residual measured - Y pi tallied per coordinate
/// (TorqueResidualScan). Allocates nothing per row.
class ParameterResiduals {
 public:
  /// Each set in the regressor's column order for `drive`.
  ParameterResiduals(const Model& model, const DriveParameters& drive,
                     std::vector<Eigen::VectorXd> sets);
  /// One row: the state and the measured torques (nv).
  void observe(ConstVec q, ConstVec v, ConstVec a, ConstVec measured, double t, int line);
  int sets() const { return static_cast<int>(scans_.size()); }
  const TorqueResidualScan& scan(int set) const { return scans_[set]; }

 private:
  const Model& model_;
  DriveParameters drive_;
  std::vector<Eigen::VectorXd> sets_;
  Data data_;
  Eigen::MatrixXd Y_;
  Eigen::VectorXd tau_, residual_;
  std::vector<TorqueResidualScan> scans_;
};

}  // namespace eom
