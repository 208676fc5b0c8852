#include "eom/trajectory/consistent_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

namespace eom {
namespace {

using Mat10 = Eigen::Matrix<double, 10, 10>;

// A start strictly inside the consistent set: the pseudo-inertia's eigenvalues at least a small
// fraction of its largest (Cholesky then exists and log_cholesky is finite), a non-negative
// parameter at least a small positive value (its logarithm is finite).
constexpr double kStartEigenvalueFraction = 1e-6;
constexpr double kStartEigenvalueFloor = 1e-12;
constexpr double kStartNonNegative = 1e-6;
// The least pull toward the prior (W = 0, a pure fit, means this): it keeps the directions the
// torques cannot tell at the prior rather than let them drift, and keeps the fit off the
// boundary of the consistent set, which the log-Cholesky parameters reach only at infinity; its
// change of the fit to the data is of its square's order.
constexpr double kLeastPriorWeight = 1e-7;
// The pull of the first stage of the fit (consistent_parameters).
constexpr double kFirstPriorWeight = 1e-3;

// How each non-body parameter is kept physical: fv, fc, ia >= 0 by their logarithm; fo free.
std::vector<bool> non_negative_drive(const Eigen::Index parameters,
                                     const ConsistentFitSettings& s) {
  std::vector<bool> out;
  const DriveParameters& d = s.drive;
  const std::vector<bool> cycle = [&] {
    std::vector<bool> c;
    if (d.viscous) c.push_back(true);
    if (d.coulomb) c.push_back(true);
    if (d.offset) c.push_back(false);
    if (d.armature) c.push_back(true);
    return c;
  }();
  for (Eigen::Index k = 10 * s.bodies; k < parameters; ++k) {
    out.push_back(cycle.empty() || cycle[(k - 10 * s.bodies) % cycle.size()]);
  }
  return out;
}

// s of the prior term: the root mean square of A's column norms
double scale_of(const Eigen::MatrixXd& A) {
  return A.cols() ? A.norm() / std::sqrt(static_cast<double>(A.cols())) : 0.0;
}

Eigen::Matrix4d strictly_positive(const Eigen::Matrix4d& J) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> eigen(J);
  const double largest = std::max(eigen.eigenvalues().maxCoeff(), 0.0);
  const double floor = std::max(kStartEigenvalueFraction * largest, kStartEigenvalueFloor);
  const Eigen::Vector4d clamped = eigen.eigenvalues().cwiseMax(floor);
  return eigen.eigenvectors() * clamped.asDiagonal() * eigen.eigenvectors().transpose();
}

// The parameters theta of the fit and pi(theta) with d pi / d theta (block diagonal: bodies, then
// one entry per drive parameter).
struct Parameterisation {
  int bodies;
  std::vector<bool> non_negative;

  Eigen::VectorXd start(const Eigen::VectorXd& pi) const {
    Eigen::VectorXd theta(pi.size());
    for (int b = 0; b < bodies; ++b) {
      const InertialParameters body = pi.segment<10>(10 * b);
      theta.segment<10>(10 * b) = log_cholesky(strictly_positive(pseudo_inertia(body)));
    }
    for (size_t k = 0; k < non_negative.size(); ++k) {
      const Eigen::Index i = 10 * bodies + static_cast<Eigen::Index>(k);
      theta[i] = non_negative[k] ? std::log(std::max(pi[i], kStartNonNegative)) : pi[i];
    }
    return theta;
  }

  // pi(theta), and its Jacobian into P (dense, p x p)
  Eigen::VectorXd evaluate(const Eigen::VectorXd& theta, Eigen::MatrixXd& P) const {
    Eigen::VectorXd pi(theta.size());
    P.setZero(theta.size(), theta.size());
    Mat10 block;
    for (int b = 0; b < bodies; ++b) {
      pi.segment<10>(10 * b) = parameters_from_log_cholesky(theta.segment<10>(10 * b), &block);
      P.block<10, 10>(10 * b, 10 * b) = block;
    }
    for (size_t k = 0; k < non_negative.size(); ++k) {
      const Eigen::Index i = 10 * bodies + static_cast<Eigen::Index>(k);
      pi[i] = non_negative[k] ? std::exp(theta[i]) : theta[i];
      P(i, i) = non_negative[k] ? pi[i] : 1.0;
    }
    return pi;
  }
};

}  // namespace

Eigen::Matrix4d pseudo_inertia(const InertialParameters& pi) {
  Eigen::Matrix3d I;
  I << pi[4], pi[5], pi[6], pi[5], pi[7], pi[8], pi[6], pi[8], pi[9];
  Eigen::Matrix4d J;
  J.topLeftCorner<3, 3>() = 0.5 * I.trace() * Eigen::Matrix3d::Identity() - I;
  J.topRightCorner<3, 1>() = pi.segment<3>(1);
  J.bottomLeftCorner<1, 3>() = pi.segment<3>(1).transpose();
  J(3, 3) = pi[0];
  return J;
}

InertialParameters parameters_from_pseudo_inertia(const Eigen::Matrix4d& J) {
  const Eigen::Matrix3d S = J.topLeftCorner<3, 3>();
  const Eigen::Matrix3d I = S.trace() * Eigen::Matrix3d::Identity() - S;
  InertialParameters pi;
  pi << J(3, 3), J(0, 3), J(1, 3), J(2, 3), I(0, 0), I(0, 1), I(0, 2), I(1, 1), I(1, 2), I(2, 2);
  return pi;
}

InertialParameters parameters_from_log_cholesky(const LogCholesky& theta, Mat10* jacobian) {
  const double scale = std::exp(theta[0]);
  // U / e^alpha, and the unit positions of the other nine parameters in it
  Eigen::Matrix4d V = Eigen::Matrix4d::Zero();
  V(0, 0) = std::exp(theta[1]);
  V(1, 1) = std::exp(theta[2]);
  V(2, 2) = std::exp(theta[3]);
  V(0, 1) = theta[4];
  V(1, 2) = theta[5];
  V(0, 2) = theta[6];
  V.topRightCorner<3, 1>() = theta.tail<3>();
  V(3, 3) = 1;
  const Eigen::Matrix4d U = scale * V;
  const Eigen::Matrix4d J = U * U.transpose();
  if (jacobian) {
    static constexpr int kRow[9] = {0, 1, 2, 0, 1, 0, 0, 1, 2};
    static constexpr int kCol[9] = {0, 1, 2, 1, 2, 2, 3, 3, 3};
    // d J = dU U^T + U dU^T, and pi is linear in J; dU / d alpha = U
    jacobian->col(0) = parameters_from_pseudo_inertia(2 * J);
    for (int k = 0; k < 9; ++k) {
      Eigen::Matrix4d dU = Eigen::Matrix4d::Zero();
      dU(kRow[k], kCol[k]) = k < 3 ? U(k, k) : scale;  // d e^d / dd = e^d
      const Eigen::Matrix4d dJ = dU * U.transpose();
      jacobian->col(k + 1) = parameters_from_pseudo_inertia(dJ + dJ.transpose());
    }
  }
  return parameters_from_pseudo_inertia(J);
}

LogCholesky log_cholesky(const Eigen::Matrix4d& J) {
  // J = U U^T with U upper triangular: reversing rows and columns makes it L L^T, L lower
  const Eigen::Matrix4d reversed = J.reverse();
  const Eigen::Matrix4d L = reversed.llt().matrixL();
  const Eigen::Matrix4d U = L.reverse();
  const double scale = U(3, 3);
  LogCholesky theta;
  theta << std::log(scale), std::log(U(0, 0) / scale), std::log(U(1, 1) / scale),
      std::log(U(2, 2) / scale), U(0, 1) / scale, U(1, 2) / scale, U(0, 2) / scale, U(0, 3) / scale,
      U(1, 3) / scale, U(2, 3) / scale;
  return theta;
}

namespace {

// Levenberg-Marquardt with Marquardt's scaling from theta: minimise ||r + J d||^2 + mu ||D d||^2
// by a QR of [J; sqrt(mu) D] (never J^T J); mu shrinks after a step that lowers the cost, grows
// otherwise. evaluate(theta) sets residual and J and returns pi.
template <class Evaluate>
void levenberg_marquardt(const Evaluate& evaluate, Eigen::VectorXd& residual, Eigen::MatrixXd& J,
                         Eigen::VectorXd& theta, ConsistentFit& fit, int max_iterations) {
  const Eigen::Index n = J.rows(), p = J.cols();
  fit.pi = evaluate(theta);
  fit.cost = residual.squaredNorm();
  double mu = 1e-3;
  Eigen::MatrixXd stack(n + p, p);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + p);
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(n + p, p);
  for (int k = 0; k < max_iterations && fit.cost > 0 && mu < 1e30; ++k) {
    const Eigen::MatrixXd Jr = J;
    const Eigen::VectorXd r = residual;
    Eigen::VectorXd scaling = Jr.colwise().norm().transpose();
    scaling = scaling.cwiseMax(1e-12 * std::max(scaling.maxCoeff(), 1e-300));
    stack.topRows(n) = Jr;
    stack.bottomRows(p) = (std::sqrt(mu) * scaling).asDiagonal();
    rhs.head(n) = -r;
    qr.compute(stack);
    const Eigen::VectorXd step = qr.solve(rhs);
    const Eigen::VectorXd trial = theta + step;
    const Eigen::VectorXd pi = evaluate(trial);
    const double cost = residual.squaredNorm();
    ++fit.iterations;
    if (std::isfinite(cost) && cost < fit.cost) {
      const bool small =
          step.norm() <= 1e-15 * (1 + theta.norm()) || fit.cost - cost <= 1e-16 * fit.cost;
      theta = trial;
      fit.pi = pi;
      fit.cost = cost;
      mu = std::max(mu / 3, 1e-20);
      if (small) break;
    } else {
      mu *= 4;
      J = Jr;  // back to the accepted point's residual and Jacobian
      residual = r;
    }
  }
}

}  // namespace

ConsistentFit consistent_parameters(const Eigen::MatrixXd& A, const Eigen::VectorXd& z,
                                    const Eigen::VectorXd& prior,
                                    const ConsistentFitSettings& settings) {
  const Eigen::Index p = prior.size(), m = A.rows(), body = 10 * settings.bodies;
  const Parameterisation map{settings.bodies, non_negative_drive(p, settings)};
  const Eigen::VectorXd theta0 = map.start(prior);
  double lambda = 0;
  Eigen::MatrixXd P, J(m + p, p);
  Eigen::VectorXd residual(m + p);
  // the residual [A pi - z; lambda (phi(theta) - phi(theta0))] and its Jacobian, phi being theta
  // for the bodies (log-Cholesky) and pi for the drive parameters
  const auto evaluate = [&](const Eigen::VectorXd& theta) {
    const Eigen::VectorXd pi = map.evaluate(theta, P);
    residual.head(m) = A * pi - z;
    J.topRows(m) = A * P;
    residual.segment(m, body) = lambda * (theta - theta0).head(body);
    residual.tail(p - body) = lambda * (pi - prior).tail(p - body);
    J.bottomRows(p).setZero();
    J.block(m, 0, body, body).diagonal().setConstant(lambda);
    J.bottomRightCorner(p - body, p - body) = lambda * P.bottomRightCorner(p - body, p - body);
    return pi;
  };
  // continuation: a pull of at least kFirstPriorWeight first (it converges in a few hundred
  // steps), then ten times less at each stage down to W, each from the last stage's result
  const double target = std::max(settings.prior_weight, kLeastPriorWeight);
  Eigen::VectorXd theta = theta0;
  ConsistentFit fit;
  for (double w = std::max(target, kFirstPriorWeight);; w = std::max(w / 10, target)) {
    lambda = w * scale_of(A);
    levenberg_marquardt(evaluate, residual, J, theta, fit, settings.max_iterations);
    if (w == target) break;
  }
  return fit;
}

ConsistentFit consistent_parameters(const Eigen::MatrixXd& A, const Eigen::VectorXd& z,
                                    const Eigen::VectorXd& prior,
                                    const ConsistentFitSettings& settings,
                                    const std::vector<int>& unknowns) {
  // the unknowns' own problem: their columns of A, their prior, the bodies among them
  const Eigen::Index n = static_cast<Eigen::Index>(unknowns.size());
  Eigen::MatrixXd A_unknown(A.rows(), n);
  Eigen::VectorXd prior_unknown(n);
  ConsistentFitSettings unknown = settings;
  unknown.bodies = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    A_unknown.col(k) = A.col(unknowns[k]);
    prior_unknown[k] = prior[unknowns[k]];
    unknown.bodies += unknowns[k] < 10 * settings.bodies;
  }
  unknown.bodies /= 10;
  ConsistentFit fit = consistent_parameters(A_unknown, z, prior_unknown, unknown);
  Eigen::VectorXd pi = prior;
  for (Eigen::Index k = 0; k < n; ++k) pi[unknowns[k]] = fit.pi[k];
  fit.pi = pi;
  return fit;
}

}  // namespace eom
