// Everything known about one frame's Jacobian at a configuration, as `eom jac` reports it per
// row: the Jacobian's task rows in a reference frame, dJ/dt and dJ/dt v, the analytical Jacobian
// of an orientation parametrisation (kinematics.hpp), the singular value analysis of the task
// rows (singular.hpp) and the task-space dynamics (task_space.hpp); with the names of the
// reference frames and parametrisations.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/kinematics.hpp"
#include "eom/algorithm/singular.hpp"
#include "eom/algorithm/task_space.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// "world", "local", "local-world-aligned".
const char* reference_frame_name(ReferenceFrame reference);
/// The reference of that name; nullopt for any other name.
std::optional<ReferenceFrame> parse_reference_frame(std::string_view name);

/// "euler-zyx", "euler-xyz", "quaternion", "rotation-vector".
const char* orientation_parametrization_name(OrientationParametrization parametrization);
/// The parametrisation of that name; nullopt for any other name.
std::optional<OrientationParametrization> parse_orientation_parametrization(std::string_view name);
/// The names of the orientation parameters, in order: ez ey ex (euler-zyx), ex ey ez
/// (euler-xyz), qx qy qz qw (quaternion), rx ry rz (rotation-vector).
std::vector<std::string> orientation_parameter_names(OrientationParametrization parametrization);

/// sigma_p / sigma_1 in [0, 1] of singular values in descending order: the reciprocal of the
/// condition number, 0 at a singularity, where the condition number is infinite and no table
/// could hold it (0 as well when J = 0 or there are no singular values).
double inverse_condition(const Eigen::VectorXd& sigma);

/// What FrameJacobianAnalysis computes.
struct FrameJacobianOptions {
  int frame = 0;  // model.frames index
  ReferenceFrame reference = ReferenceFrame::local_world_aligned;
  TaskRows task = TaskRows::full();
  RankTolerance tolerance;
  bool time_variation = false;                           // dJ/dt and dJ/dt v (reads v)
  std::optional<OrientationParametrization> analytical;  // the analytical Jacobian
  TaskInverse inverse = TaskInverse::truncated;          // how the task-space Lambda is inverted
};

/// A frame's Jacobian and what follows from it, per configuration. Sized at construction;
/// compute() and compute_directions() allocate nothing.
class FrameJacobianAnalysis {
 public:
  /// Throws InputError for a task of no row (SingularityAnalysis).
  FrameJacobianAnalysis(const Model& model, const FrameJacobianOptions& options);

  /// At q (and v, read only with time_variation, else it may be empty): the Jacobian, its time
  /// variation, the analytical Jacobian, the singular values and what follows from them
  /// (SingularityAnalysis::compute_values). Throws NumericalError at a singularity of the
  /// analytical Jacobian's parametrisation.
  void compute(ConstVec q, ConstVec v);
  /// The singular vectors of the last compute(): lost and weakest directions, null space
  /// (SingularityAnalysis::compute; the singular values are then those of the SVD).
  void compute_directions();
  /// The task-space dynamics at (q, v), after compute(). Throws NumericalError when M is not
  /// positive definite.
  void compute_dynamics(ConstVec q, ConstVec v);

  const FrameJacobianOptions& options() const { return options_; }
  /// The task rows of J (task size x nv).
  const Eigen::MatrixXd& jacobian() const { return singularity_.task_jacobian(); }
  /// The task rows of dJ/dt (task size x nv) and dJ/dt v (task size), with time_variation.
  const Eigen::MatrixXd& jacobian_time_variation() const { return dJ_; }
  const Eigen::VectorXd& jacobian_time_variation_v() const { return dJv_; }
  /// J_A ((3 + parameter count) x nv), with analytical.
  const Eigen::MatrixXd& analytical_jacobian() const { return analytical_; }
  const SingularityAnalysis& singularity() const { return singularity_; }
  /// The orthonormal null-space basis of compute_directions() as rows (nv x nv): row k is the
  /// k-th basis vector, rows past the nullity are 0.
  const Eigen::MatrixXd& null_space_rows() const { return null_rows_; }
  /// After compute_dynamics().
  const TaskSpaceDynamics& dynamics() const { return dynamics_; }

 private:
  const Model& model_;
  const FrameJacobianOptions options_;
  Data data_;
  SingularityAnalysis singularity_;
  TaskSpaceDynamics dynamics_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> J_;  // the full Jacobian of the last compute()
  SE3 oMf_;                                     // the frame's placement then
  Eigen::MatrixXd dJ_, analytical_, null_rows_;
  Eigen::VectorXd dJv_;
};

}  // namespace eom
