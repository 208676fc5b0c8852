// Partial derivatives of rnea and aba against central finite differences on the configuration
// manifold (q (+) h e_k by eom::integrate, the right perturbation), and M^-1 against M, on every
// test model: shipped and reference robots, fixed and floating base, and the model with planar and
// mid-tree floating joints.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/partial_derivatives.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {
// fourth-order central differences of f over the tangent directions of x, column k:
// (8 (f(x (+) h e_k) - f(x (-) h e_k)) - (f(x (+) 2h e_k) - f(x (-) 2h e_k))) / 12h; `move` gives
// x (+) dx. A large step keeps the round-off small on models with an ill-conditioned M.
template <class F, class Move>
Eigen::MatrixXd central_difference(int nv, F&& f, Move&& move) {
  const double h = 1e-3;
  Eigen::MatrixXd out(nv, nv);
  for (int k = 0; k < nv; ++k) {
    Eigen::VectorXd dx = Eigen::VectorXd::Zero(nv);
    dx[k] = h;
    const Eigen::VectorXd d1 = f(move(dx)) - f(move(-dx));
    const Eigen::VectorXd d2 = f(move(2 * dx)) - f(move(-2 * dx));
    out.col(k) = (8 * d1 - d2) / (12 * h);
  }
  return out;
}

// finite differences: truncation O(h^4) ~ 1e-12 and round-off O(eps / h) ~ 1e-13 of the values'
// size, times the condition number of M for forward dynamics
double fd_tolerance(const Eigen::MatrixXd& expected) {
  return 1e-6 * (1.0 + expected.cwiseAbs().maxCoeff());
}
}  // namespace

TEST_CASE("rnea derivatives are the finite differences of rnea on the manifold",
          "[property][partial_derivatives]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), work(model);
  Rng rng(robot.seed);
  for (int sample = 0; sample < 3; ++sample) {
    const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng),
                          a = random_tangent(model, rng);
    rnea_derivatives(model, data, q, v, a);
    const Eigen::VectorXd tau = rnea(model, work, q, v, a);
    CHECK_THAT(data.tau, AllClose(tau, kTolRoundoff * (1 + tau.cwiseAbs().maxCoeff())));
    CHECK_THAT(data.M,
               AllClose(crba(model, work, q), kTolRoundoff * (1 + data.M.cwiseAbs().maxCoeff())));

    const Eigen::MatrixXd dq = central_difference(
        model.nv,
        [&](const Eigen::VectorXd& qk) { return Eigen::VectorXd(rnea(model, work, qk, v, a)); },
        [&](const Eigen::VectorXd& d) { return integrate(model, q, d); });
    CHECK_THAT(data.dtau_dq, AllClose(dq, fd_tolerance(dq)));
    const Eigen::MatrixXd dv = central_difference(
        model.nv,
        [&](const Eigen::VectorXd& vk) { return Eigen::VectorXd(rnea(model, work, q, vk, a)); },
        [&](const Eigen::VectorXd& d) { return Eigen::VectorXd(v + d); });
    CHECK_THAT(data.dtau_dv, AllClose(dv, fd_tolerance(dv)));
  }
}

TEST_CASE("aba derivatives are the finite differences of aba on the manifold; Minv M = 1",
          "[property][partial_derivatives]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), work(model);
  Rng rng(robot.seed + 1000);
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(model.nv, model.nv);
  for (int sample = 0; sample < 3; ++sample) {
    const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng),
                          tau = random_tangent(model, rng, 5.0);
    aba_derivatives(model, data, q, v, tau);
    // qdd = M^-1 (tau - nle) agrees with aba up to round-off times the condition number of M
    const Eigen::MatrixXd M = crba(model, work, q);
    const double cond = M.norm() * data.Minv.norm();
    const Eigen::VectorXd qdd = aba(model, work, q, v, tau);
    CHECK_THAT(data.qdd, AllClose(qdd, kTolRoundoff * cond * (1 + qdd.cwiseAbs().maxCoeff())));
    // M^-1 is the inverse of M, and mass_matrix_inverse gives the same
    CHECK_THAT(data.Minv * M, AllClose(I, kTolRoundoff * cond));
    CHECK_THAT(mass_matrix_inverse(model, work, q),
               AllClose(data.Minv, kTolRoundoff * cond * data.Minv.norm()));

    const Eigen::MatrixXd dq = central_difference(
        model.nv,
        [&](const Eigen::VectorXd& qk) { return Eigen::VectorXd(aba(model, work, qk, v, tau)); },
        [&](const Eigen::VectorXd& d) { return integrate(model, q, d); });
    CHECK_THAT(data.dqdd_dq, AllClose(dq, fd_tolerance(dq)));
    const Eigen::MatrixXd dv = central_difference(
        model.nv,
        [&](const Eigen::VectorXd& vk) { return Eigen::VectorXd(aba(model, work, q, vk, tau)); },
        [&](const Eigen::VectorXd& d) { return Eigen::VectorXd(v + d); });
    CHECK_THAT(data.dqdd_dv, AllClose(dv, fd_tolerance(dv)));
  }
}
