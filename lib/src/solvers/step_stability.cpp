#include "eom/solvers/step_stability.hpp"

#include <cmath>
#include <complex>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "eom/algorithm/dynamics.hpp"
#include "eom/multibody/configuration.hpp"
#include "core/tolerances.hpp"

namespace eom {
namespace {

// The step matrix S(h) of `integrator` for [x; v]' = A [x; v], A = [0 I; -P -Q].
Eigen::MatrixXd step_matrix(Integrator integrator, const Eigen::MatrixXd& P,
                            const Eigen::MatrixXd& Q, const Eigen::MatrixXd& A, double h) {
  const Eigen::Index n = P.rows();
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(2 * n, 2 * n);
  if (integrator == Integrator::euler) return I + h * A;
  if (integrator == Integrator::semi_implicit_euler) {
    // v1 = v0 + h (-P x0 - Q v0), x1 = x0 + h v1
    const Eigen::MatrixXd In = Eigen::MatrixXd::Identity(n, n);
    Eigen::MatrixXd S(2 * n, 2 * n);
    S.topLeftCorner(n, n) = In - h * h * P;
    S.topRightCorner(n, n) = h * (In - h * Q);
    S.bottomLeftCorner(n, n) = -h * P;
    S.bottomRightCorner(n, n) = In - h * Q;
    return S;
  }
  // RK4: I + Z + Z^2/2 + Z^3/6 + Z^4/24 (Horner), Z = hA
  const Eigen::MatrixXd Z = h * A;
  return I + Z * (I + Z * (I + Z * (I + Z / 4) / 3) / 2);
}

double spectral_radius(const Eigen::MatrixXd& S) {
  const Eigen::EigenSolver<Eigen::MatrixXd> eigen(S, false);
  return eigen.eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace

StepLimit stable_step(Integrator integrator, const Eigen::MatrixXd& M, const Eigen::MatrixXd& K,
                      const Eigen::MatrixXd& D) {
  StepLimit limit;
  const Eigen::Index n = M.rows();
  if (integrator == Integrator::rk45 || n == 0) return limit;
  const Eigen::LDLT<Eigen::MatrixXd> factor(M);
  if (factor.info() != Eigen::Success) return limit;
  const Eigen::MatrixXd P = factor.solve(K), Q = factor.solve(D);
  if (!P.allFinite() || !Q.allFinite()) return limit;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n).setIdentity();
  A.bottomLeftCorner(n, n) = -P;
  A.bottomRightCorner(n, n) = -Q;

  // the fastest mode: its rate, and the velocity coordinate it moves most
  const Eigen::EigenSolver<Eigen::MatrixXd> modes(A);
  Eigen::Index fastest = 0;
  limit.rate = modes.eigenvalues().cwiseAbs().maxCoeff(&fastest);
  if (!(limit.rate > 0)) return limit;
  Eigen::Index coordinate = 0;
  modes.eigenvectors().col(fastest).tail(n).cwiseAbs().maxCoeff(&coordinate);
  limit.coordinate = static_cast<int>(coordinate);

  // Euler and RK4 are polynomials R of hA, so the eigenvalues of S(h) are R(h λ) (spectral
  // mapping); symplectic Euler's S(h) is not, and is taken whole
  const Eigen::VectorXcd lambda = modes.eigenvalues();
  const auto stable = [&](double h) {
    if (integrator == Integrator::semi_implicit_euler) {
      return spectral_radius(step_matrix(integrator, P, Q, A, h)) <=
             1 + detail::kSpectralRadiusSlack;
    }
    for (Eigen::Index i = 0; i < lambda.size(); ++i) {
      const std::complex<double> z = h * lambda[i];
      const std::complex<double> R =
          integrator == Integrator::euler
              ? 1.0 + z
              : 1.0 + z * (1.0 + z / 2.0 * (1.0 + z / 3.0 * (1.0 + z / 4.0)));
      if (std::abs(R) > 1 + detail::kSpectralRadiusSlack) return false;
    }
    return true;
  };
  // stable from h = 0 up to the limit: scan up by half, then bisect
  double lo = 1e-3 / limit.rate;
  if (!stable(lo)) {
    limit.max_step = 0;
    return limit;
  }
  double hi = lo * 1.5;
  while (stable(hi)) {
    lo = hi;
    hi *= 1.5;
    if (hi > 1e3 / limit.rate) return limit;  // stable at every step (no scheme here is)
  }
  for (int k = 0; k < 30; ++k) {
    const double mid = 0.5 * (lo + hi);
    (stable(mid) ? lo : hi) = mid;
  }
  limit.max_step = lo;
  return limit;
}

Integrator stepping_scheme(const SimulationOptions& options) {
  return time_stepped_contacts(options) ? Integrator::semi_implicit_euler : options.integrator;
}

StepLimit closed_loop_step_limit(const Model& model, Data& data, Controller& controller, double t,
                                 ConstVec q, const SimulationOptions& options) {
  Eigen::MatrixXd K(model.nv, model.nv), D(model.nv, model.nv);
  controller.feedback(model, data, t, q, K, D);
  if (model.floating_base) {  // the free-flyer is unactuated: no feedback reaches its rows
    K.middleRows<6>(model.joints[1].idx_v).setZero();
    D.middleRows<6>(model.joints[1].idx_v).setZero();
  }
  if (options.friction) {
    const Friction friction =
        options.friction_parameters ? *options.friction_parameters : Friction::from_model(model);
    // Coulomb friction is bounded by Fs whatever its slope at v = 0 (1 / eps when smoothed): a
    // step too long for that slope chatters about v = 0 but cannot diverge
    D.diagonal() += friction.viscous;
  }
  const Eigen::MatrixXd M = crba(model, data, q);
  return stable_step(stepping_scheme(options), M, K, D);
}

PDGains default_gains(const Model& model, Data& data, ConstVec q, Integrator integrator, double dt,
                      bool computed_torque, double effort_error) {
  const Eigen::VectorXd shape = computed_torque ? Eigen::VectorXd::Ones(model.nv)
                                                : Eigen::VectorXd(crba(model, data, q).diagonal());
  const Integrator rule = integrator == Integrator::rk45 ? Integrator::rk4 : integrator;
  // the stable step of the closed loop at ω = 1, at q, at the neutral configuration and at
  // kSampledConfigurations random ones: the gains stay those of q while M(q) changes along the
  // motion, most near where joint axes align (the neutral configuration of most arms), where
  // the inertia that tells two aligned joints apart is small)
  double unit_step = std::numeric_limits<double>::infinity();
  Rng rng(20261127);
  for (int k = 0; k < kSampledConfigurations + 2; ++k) {
    const Eigen::VectorXd at = k == 0   ? Eigen::VectorXd(q)
                               : k == 1 ? neutral(model)
                                        : random_configuration(model, rng);
    const Eigen::MatrixXd M = crba(model, data, at);
    Eigen::MatrixXd K = shape.asDiagonal();
    if (computed_torque) K = M * K;
    unit_step = std::min(unit_step, stable_step(rule, M, K, 2 * K).max_step);
  }
  PDGains gains;
  gains.bandwidth = std::isfinite(unit_step) ? unit_step / (kStepMargin * dt) : 0;
  if (effort_error > 0) {
    // the feedback's torque at an error e on coordinate k is about M_kk(q) ω² e (pd: kp_k e;
    // computed torque: (M kp e)_k): at most its effort limit when e = effort_error
    const Eigen::VectorXd inertia = crba(model, data, q).diagonal();
    const int first = model.floating_base ? model.joints[1].idx_v + 6 : 0;
    for (int k = first; k < model.nv; ++k) {
      const double effort = model.effort_limit[k];
      if (effort > 0 && std::isfinite(effort) && inertia[k] > 0)
        gains.bandwidth =
            std::min(gains.bandwidth, std::sqrt(effort / (effort_error * inertia[k])));
    }
  }
  gains.kp = shape * (gains.bandwidth * gains.bandwidth);
  gains.kd = shape * (2 * gains.bandwidth);
  return gains;
}

}  // namespace eom
