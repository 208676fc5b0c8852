#include "eom/algorithm/task_space.hpp"

#include <algorithm>
#include <cmath>

#include "eom/algorithm/dynamics.hpp"
#include "eom/core/errors.hpp"
#include "core/sizes.hpp"

namespace eom {

TaskSpaceDynamics::TaskSpaceDynamics(const Model& model, TaskSpaceOptions options)
    : options_(options),
      llt_(model.nv),
      svd_(options.task.size, std::max(model.nv, 1), Eigen::ComputeFullU),
      Ct_(Eigen::MatrixXd::Zero(options.task.size, model.nv)),
      J_(Eigen::MatrixXd::Zero(options.task.size, model.nv)),
      dJ_(Eigen::MatrixXd::Zero(options.task.size, model.nv)),
      MinvJt_(Eigen::MatrixXd::Zero(model.nv, options.task.size)),
      Linv_(Eigen::MatrixXd::Zero(options.task.size, options.task.size)),
      Lambda_(Eigen::MatrixXd::Zero(options.task.size, options.task.size)),
      Jbar_(Eigen::MatrixXd::Zero(model.nv, options.task.size)),
      b_(Eigen::VectorXd::Zero(model.nv)),
      g_(Eigen::VectorXd::Zero(model.nv)),
      eigenvalues_(Eigen::VectorXd::Zero(options.task.size)),
      mu_(Eigen::VectorXd::Zero(options.task.size)),
      p_(Eigen::VectorXd::Zero(options.task.size)),
      task_bias_(Eigen::VectorXd::Zero(options.task.size)) {
  if (options.task.size < 1 || options.task.size > 6) throw InputError("a task has 1 to 6 rows");
}

void TaskSpaceDynamics::compute(const Model& model, Data& data, ConstVec q, ConstVec v, int frame,
                                ReferenceFrame reference) {
  const int m = options_.task.size;
  detail::check_size(J_.cols(), model.nv, "the model's nv (TaskSpaceDynamics was built for)");
  // M and its Cholesky factor
  crba(model, data, q);
  llt_.compute(data.M);
  if (llt_.info() != Eigen::Success) {
    throw NumericalError(
        "the mass matrix is not positive definite: task-space dynamics is "
        "undefined");
  }
  // b = C v and g
  nonlinear_effects(model, data, q, v);
  gravity_torque(model, data, q);
  b_ = data.tau - data.g;
  g_ = data.g;
  // J and dJ/dt, task rows
  frame_jacobian_time_variation(model, data, q, v, frame, reference);
  for (int k = 0; k < m; ++k) {
    J_.row(k) = data.J.row(options_.task.rows[k]);
    dJ_.row(k) = data.dJ.row(options_.task.rows[k]);
  }
  // C^T = J L^-T with M = L L^T: J M^-1 J^T = C^T C, whose eigenvalues are the squared singular
  // values of C^T and eigenvectors its left singular vectors. From that SVD an eigenvalue
  // lambda_i = sigma_i^2 errs by O(eps sigma_1 sigma_i), not O(eps lambda_max) as from an
  // eigen-solver on J M^-1 J^T: at a singularity it is ~eps^2 lambda_max instead of round-off
  // noise of ~eps lambda_max, which the damped inverse would amplify by 1 / t^2 (to ~1e8 /
  // lambda_max for t = 1e-12 lambda_max, in a direction the noise also picks).
  MinvJt_ = J_.transpose();
  llt_.matrixL().solveInPlace(MinvJt_);  // C
  Ct_ = MinvJt_.transpose();
  const bool moves = model.nv > 0;  // else J M^-1 J^T = 0: every direction is lost
  if (moves) svd_.compute(Ct_);
  llt_.matrixU().solveInPlace(MinvJt_);  // L^-T C = M^-1 J^T
  Linv_.noalias() = J_ * MinvJt_;
  const Eigen::VectorXd& sigma = svd_.singularValues();  // descending, min(nv, m)
  const Eigen::Index p = moves ? sigma.size() : 0;
  const double lambda_max = p > 0 ? sigma[0] * sigma[0] : 0;
  threshold_ = options_.tolerance.threshold(lambda_max);
  rank_ = 0;
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1> inv(m);  // by column of U
  for (int k = 0; k < m; ++k) {
    const double l = k < p ? sigma[k] * sigma[k] : 0;
    eigenvalues_[m - 1 - k] = l;
    if (l > threshold_) ++rank_;
    if (options_.inverse == TaskInverse::truncated) {
      inv[k] = l > threshold_ ? 1 / l : 0;
    } else {
      inv[k] = l > 0 ? l / (l * l + threshold_ * threshold_) : 0;  // 0 also when t = 0
    }
  }
  if (moves) {
    const Eigen::MatrixXd& U = svd_.matrixU();
    // U diag(inv) in fixed storage: a dynamic temporary would allocate
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> scaled =
        U * inv.asDiagonal();
    Lambda_.noalias() = scaled * U.transpose();
  } else {
    Lambda_.setZero();
  }
  // mu = Lambda (J M^-1 b - dJ v), p = Lambda J M^-1 g
  llt_.solveInPlace(b_);
  llt_.solveInPlace(g_);
  task_bias_.noalias() = J_ * b_;
  task_bias_.noalias() -= dJ_ * v;
  mu_.noalias() = Lambda_ * task_bias_;
  task_bias_.noalias() = J_ * g_;
  p_.noalias() = Lambda_ * task_bias_;
  // Jbar = M^-1 J^T Lambda
  Jbar_.noalias() = MinvJt_ * Lambda_;
}

}  // namespace eom
