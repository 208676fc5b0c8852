// Task-space (operational-space) dynamics of a frame: the inertia the task sees, its bias forces
// and the dynamically consistent pseudo-inverse, with singular configurations handled by a
// truncated or damped inverse whose tolerance is reported.
//
// Khatib's operational-space formulation as the ETH Zurich "Robot Dynamics" lecture notes give
// it (3.9.2, eqs. 3.86-3.89) and Lynch and Park, "Modern Robotics" 9.6 for a square Jacobian:
//   Lambda w_dot + mu + p = F,   Lambda = (J M^-1 J^T)^-1,
//   mu = Lambda J M^-1 b - Lambda dJ v   (b = C v, Coriolis and centrifugal),
//   p  = Lambda J M^-1 g                 (gravity),
// with w = J v the frame's velocity in the chosen reference frame and task rows, and F the
// wrench on the frame in the same axes (tau = J^T F). The dynamically consistent pseudo-inverse
// is Jbar = M^-1 J^T Lambda: J Jbar = 1 at full rank, and Jbar^T maps tau to the task.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SVD>

#include "eom/multibody/data.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/model.hpp"
#include "eom/algorithm/singular.hpp"

namespace eom {

/// How Lambda = (J M^-1 J^T)^-1 is inverted. With the eigen-decomposition J M^-1 J^T =
/// sum lambda_i u_i u_i^T and threshold t = max(absolute, relative * lambda_max):
enum class TaskInverse {
  truncated,  // sum over lambda_i > t of u_i u_i^T / lambda_i (the pseudo-inverse): directions
              // the configuration cannot move carry no inertia
  damped,     // sum over all of lambda_i / (lambda_i^2 + t^2) u_i u_i^T, bounded by 1 / (2 t)
};

struct TaskSpaceOptions {
  TaskRows task = TaskRows::full();
  TaskInverse inverse = TaskInverse::truncated;
  /// On the eigenvalues of J M^-1 J^T (units 1/kg, 1/(kg m^2)): they scale like sigma^2 of J, so
  /// the default relative 1e-12 matches the singularity analysis' 1e-6 on singular values.
  RankTolerance tolerance{0, 1e-12};
};

/// Task-space dynamics of one frame. Sized at construction; compute() allocates nothing.
class TaskSpaceDynamics {
 public:
  explicit TaskSpaceDynamics(const Model& model, TaskSpaceOptions options = {});

  /// Everything at (q, v) for the frame in the given reference. Uses data (crba, the Jacobian
  /// and its time variation, nonlinear effects, gravity). Throws NumericalError if M is not
  /// positive definite.
  void compute(const Model& model, Data& data, ConstVec q, ConstVec v, int frame,
               ReferenceFrame reference);

  const TaskSpaceOptions& options() const { return options_; }
  /// J M^-1 J^T (m x m), the inverse task inertia.
  const Eigen::MatrixXd& inverse_inertia() const { return Linv_; }
  /// Its eigenvalues, ascending (m).
  const Eigen::VectorXd& eigenvalues() const { return eigenvalues_; }
  /// The threshold t of the inverse.
  double threshold() const { return threshold_; }
  /// Eigenvalues above the threshold.
  int rank() const { return rank_; }
  /// True when some eigenvalue is at or below the threshold: Lambda is then the truncated or
  /// damped inverse, not (J M^-1 J^T)^-1, which does not exist or is dominated by round-off.
  bool singular() const { return rank_ < options_.task.size; }
  /// The task-space inertia Lambda (m x m).
  const Eigen::MatrixXd& inertia() const { return Lambda_; }
  /// Bias terms mu (Coriolis and centrifugal) and p (gravity) (m).
  const Eigen::VectorXd& coriolis() const { return mu_; }
  const Eigen::VectorXd& gravity() const { return p_; }
  /// Jbar = M^-1 J^T Lambda (nv x m).
  const Eigen::MatrixXd& pseudo_inverse() const { return Jbar_; }
  /// The task rows of J and dJ/dt (m x nv).
  const Eigen::MatrixXd& jacobian() const { return J_; }
  const Eigen::MatrixXd& jacobian_time_variation() const { return dJ_; }

 private:
  TaskSpaceOptions options_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;  // of C^T = J L^-T (M = L L^T)
  Eigen::MatrixXd Ct_, J_, dJ_, MinvJt_, Linv_, Lambda_, Jbar_;
  Eigen::VectorXd b_, g_, eigenvalues_, mu_, p_, task_bias_;
  double threshold_ = 0;
  int rank_ = 0;
};

}  // namespace eom
