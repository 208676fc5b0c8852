// Time derivatives of inverse dynamics (rnea_time_derivatives) on every test model, fixed and
// floating base: order 0 is rnea, and each order K = 1..6 is the central difference of order
// K - 1 along a polynomial trajectory whose derivatives are exact.

#include <vector>

#include <catch2/catch.hpp>

#include <eom/configuration.hpp>
#include <eom/data.hpp>
#include <eom/dynamics.hpp>
#include <eom/time_derivatives.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr int kDegree = 9;  // of the trajectory's tangent polynomial

// q(t) = q0 (+) delta(t), delta a polynomial in t. A joint of several coordinates (floating,
// planar) moves along one direction xi of its tangent space, delta_j(t) = phi(t) xi: then
// q0 exp(phi(t) xi) has body twist phi'(t) xi exactly, and its derivatives are delta's.
struct PolynomialTrajectory {
  Eigen::VectorXd q0;
  Eigen::MatrixXd coefficients;  // (nv x kDegree + 1): delta(t) = sum_m coefficients.col(m) t^m

  PolynomialTrajectory(const Model& model, Rng& rng)
      : q0(random_configuration(model, rng)), coefficients(model.nv, kDegree + 1) {
    coefficients.col(0).setZero();
    for (int i = 1; i < model.njoints; ++i) {
      const Joint& joint = model.joints[i];
      const Eigen::VectorXd xi = random_tangent(model, rng).head(joint.nv);
      for (int m = 1; m <= kDegree; ++m) {
        // factorial-scaled so that every derivative stays of order one
        double scale = rng.uniform(-1, 1);
        for (int f = 2; f <= m; ++f) scale /= f;
        for (int r = 0; r < joint.nv; ++r) {
          coefficients(joint.idx_v + r, m) =
              joint.nv == 1 ? rng.uniform(-1, 1) / std::tgamma(m + 1) : scale * xi[r];
        }
      }
    }
  }
  // the k-th derivative of delta at t
  Eigen::VectorXd delta(int k, double t) const {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(coefficients.rows());
    for (int m = k; m <= kDegree; ++m) {
      double factor = std::pow(t, m - k);
      for (int f = m - k + 1; f <= m; ++f) factor *= f;
      out += factor * coefficients.col(m);
    }
    return out;
  }
  Eigen::VectorXd q(const Model& model, double t) const { return integrate(model, q0, delta(0, t)); }
  // columns v, a, d3q, ... up to the order-th derivative
  Eigen::MatrixXd dq(double t, int order) const {
    Eigen::MatrixXd out(coefficients.rows(), order);
    for (int k = 1; k <= order; ++k) out.col(k - 1) = delta(k, t);
    return out;
  }
};

}  // namespace

TEST_CASE("order 0 of rnea_time_derivatives is rnea", "[property][time_derivatives]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  TimeDerivativeData series(model, 0);
  Rng rng(robot.seed);
  Eigen::MatrixXd tau(model.nv, 1);
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    Eigen::MatrixXd dq(model.nv, 2);
    dq << random_tangent(model, rng), random_tangent(model, rng);
    rnea_time_derivatives(model, series, q, dq, 0, tau);
    const Eigen::VectorXd expected = rnea(model, data, q, dq.col(0), dq.col(1));
    const Eigen::VectorXd actual = tau.col(0);
    CHECK_THAT(actual, AllClose(expected, kTolRoundoff * (1 + expected.norm()), 1e-12));
  }
}

TEST_CASE("each order of rnea_time_derivatives is the central difference of the order below",
          "[property][time_derivatives]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  constexpr int kTop = 6;
  TimeDerivativeData series(model, kTop);
  Rng rng(robot.seed);
  const PolynomialTrajectory path(model, rng);
  // tau and its derivatives up to order kTop - 1 at t
  auto orders = [&](double t) {
    Eigen::MatrixXd tau(model.nv, kTop);
    rnea_time_derivatives(model, series, path.q(model, t), path.dq(t, kTop + 1), kTop - 1, tau);
    return tau;
  };
  Eigen::MatrixXd exact(model.nv, kTop + 1);
  rnea_time_derivatives(model, series, path.q(model, 0), path.dq(0, kTop + 2), kTop, exact);
  // fourth-order central differences: truncation h^4 ~ 1e-12, round-off eps / h ~ 1e-13, of the
  // size of the derivative
  const double h = 1e-3;
  const Eigen::MatrixXd difference =
      (8 * (orders(h) - orders(-h)) - (orders(2 * h) - orders(-2 * h))) / (12 * h);
  for (int k = 1; k <= kTop; ++k) {
    INFO("order " << k);
    const Eigen::VectorXd actual = exact.col(k), expected = difference.col(k - 1);
    CHECK_THAT(actual, AllClose(expected, 1e-8 * tol_scale() * (1 + expected.cwiseAbs().maxCoeff()),
                                0));
  }
}
