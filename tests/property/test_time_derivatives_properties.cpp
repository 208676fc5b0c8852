// Time derivatives of inverse dynamics (rnea_time_derivatives) on every test model, fixed and
// floating base: order 0 is rnea, and each order K = 1..6 is the central difference of order
// K - 1 along a polynomial trajectory whose derivatives are exact. The Coriolis matrix: C v =
// c(q, v), dM/dt = C + C^T (so dM/dt - 2C is skew-symmetric) by finite differences of M, and
// the Christoffel symbols of M on models of 1-DoF joints. The time derivatives of M, C and g:
// order 0 is crba, C and gravity; they rebuild every order of tau by the Leibniz rule; M^(k+1)
// = C^(k) + C^(k)^T; each order is the central difference of the order below.

#include <vector>

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/time_derivatives.hpp>

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
  Eigen::VectorXd q(const Model& model, double t) const {
    return integrate(model, q0, delta(0, t));
  }
  // columns v, a, d3q, ... up to the order-th derivative
  Eigen::MatrixXd dq(double t, int order) const {
    Eigen::MatrixXd out(coefficients.rows(), order);
    for (int k = 1; k <= order; ++k) out.col(k - 1) = delta(k, t);
    return out;
  }
};

// d/dt of f at t0 by the fourth-order central difference: truncation h^4 ~ 1e-12, round-off
// eps / h ~ 1e-13 for h = 1e-3, of the size of the derivative
template <class F>
Eigen::MatrixXd central_difference(F&& f, double t0, double h = 1e-3) {
  return (8 * (f(t0 + h) - f(t0 - h)) - (f(t0 + 2 * h) - f(t0 - 2 * h))) / (12 * h);
}

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
  const Eigen::MatrixXd difference = central_difference(orders, 0);
  for (int k = 1; k <= kTop; ++k) {
    INFO("order " << k);
    const Eigen::VectorXd actual = exact.col(k), expected = difference.col(k - 1);
    CHECK_THAT(actual,
               AllClose(expected, 1e-8 * tol_scale() * (1 + expected.cwiseAbs().maxCoeff()), 0));
  }
}

TEST_CASE(
    "external wrenches in rnea_time_derivatives: order 0 is rnea - J^T F, each order the "
    "central difference of the order below",
    "[property][time_derivatives]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  constexpr int kTop = 5;
  TimeDerivativeData series(model, kTop);
  Rng rng(robot.seed + 7);
  const PolynomialTrajectory path(model, rng);
  // two frames on moving bodies (the last and one half-way), each pushed by a polynomial wrench
  // W(t) = sum_m coefficients.col(m) t^m / m!
  std::vector<int> frames;
  for (const int f :
       {static_cast<int>(model.frames.size()) - 1, static_cast<int>(model.frames.size()) / 2}) {
    if (model.frames[f].parent > 0) frames.push_back(f);
  }
  REQUIRE(!frames.empty());
  const int rows = 6 * static_cast<int>(frames.size());
  Eigen::MatrixXd coefficients(rows, kDegree + 1);
  for (int m = 0; m <= kDegree; ++m) {
    for (int r = 0; r < rows; ++r) coefficients(r, m) = rng.uniform(-1, 1);
  }
  // columns 0..order: the wrench and its derivatives at t
  const auto wrench = [&](double t, int order) {
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(rows, order + 1);
    for (int k = 0; k <= order; ++k) {
      for (int m = k; m <= kDegree; ++m) {
        out.col(k) += coefficients.col(m) * std::pow(t, m - k) / std::tgamma(m - k + 1);
      }
    }
    return out;
  };
  for (const ReferenceFrame rf : {ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
    INFO("wrench reference " << static_cast<int>(rf));
    const double t0 = 0.3;
    Eigen::MatrixXd exact(model.nv, kTop + 1);
    rnea_time_derivatives(model, series, path.q(model, t0), path.dq(t0, kTop + 2), kTop, frames,
                          wrench(t0, kTop), rf, exact);
    Eigen::VectorXd external(model.nv);
    external_torque(model, data, path.q(model, t0), frames, wrench(t0, 0).col(0), rf, external);
    const Eigen::VectorXd expected =
        rnea(model, data, path.q(model, t0), path.delta(1, t0), path.delta(2, t0)) - external;
    const Eigen::VectorXd actual = exact.col(0);
    CHECK_THAT(actual, AllClose(expected, kTolRoundoff * (1 + expected.norm()), 1e-12));
    auto orders = [&](double t) {
      Eigen::MatrixXd tau(model.nv, kTop);
      rnea_time_derivatives(model, series, path.q(model, t), path.dq(t, kTop + 1), kTop - 1, frames,
                            wrench(t, kTop - 1), rf, tau);
      return tau;
    };
    const Eigen::MatrixXd difference = central_difference(orders, t0);
    for (int k = 1; k <= kTop; ++k) {
      INFO("order " << k);
      const Eigen::VectorXd derivative = exact.col(k), numeric = difference.col(k - 1);
      CHECK_THAT(derivative,
                 AllClose(numeric, 1e-8 * tol_scale() * (1 + numeric.cwiseAbs().maxCoeff()), 0));
    }
  }
}

TEST_CASE("the Coriolis matrix: C v = c(q, v), dM/dt = C + C^T, and Christoffel symbols",
          "[property][coriolis]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  TimeDerivativeData series(model, 0);
  Rng rng(robot.seed);
  const int nv = model.nv;
  const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng);
  const Eigen::MatrixXd C = coriolis_matrix(model, series, q, v);
  const Eigen::VectorXd g = gravity_torque(model, data, q);
  const Eigen::VectorXd c = nonlinear_effects(model, data, q, v) - g;
  const Eigen::VectorXd Cv = C * v;
  CHECK_THAT(Cv, AllClose(c, kTolRoundoff * (1 + c.norm()) * 100, 1e-10));

  // fourth-order central differences of M on the manifold: along v, and along each coordinate
  auto derivative = [&](const Eigen::VectorXd& dx) -> Eigen::MatrixXd {
    return central_difference(
        [&](double s) -> Eigen::MatrixXd { return crba(model, data, integrate(model, q, s * dx)); },
        0);
  };
  const Eigen::MatrixXd Mdot = derivative(v);
  const double tol = 1e-8 * tol_scale() * (1 + Mdot.cwiseAbs().maxCoeff());
  const Eigen::MatrixXd CCt = C + C.transpose();
  CHECK_THAT(CCt, AllClose(Mdot, tol, 0));
  const Eigen::MatrixXd skew = Mdot - 2 * C, sum = skew + skew.transpose();
  CHECK_THAT(sum, AllClose(Eigen::MatrixXd::Zero(nv, nv), tol, 0));

  // Christoffel symbols of the first kind, Gamma_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2,
  // hold where velocities are coordinate rates: models of 1-DoF joints only
  bool one_dof = true;
  for (int i = 1; i < model.njoints; ++i) one_dof = one_dof && model.joints[i].nv == 1;
  if (!one_dof) return;
  std::vector<Eigen::MatrixXd> dM(nv);
  for (int k = 0; k < nv; ++k) dM[k] = derivative(Eigen::VectorXd::Unit(nv, k));
  Eigen::MatrixXd christoffel_C = Eigen::MatrixXd::Zero(nv, nv);
  for (int i = 0; i < nv; ++i) {
    for (int j = 0; j < nv; ++j) {
      for (int k = 0; k < nv; ++k) {
        christoffel_C(i, j) += 0.5 * (dM[k](i, j) + dM[j](i, k) - dM[i](j, k)) * v[k];
      }
    }
  }
  CHECK_THAT(C, AllClose(christoffel_C, tol, 0));
}

TEST_CASE(
    "time derivatives of M, C and g: order 0 is crba, C and g; the Leibniz rule rebuilds each "
    "order of tau; dM/dt = C + C^T at every order",
    "[property][coriolis]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  constexpr int kTop = 6;
  TimeDerivativeData series(model, kTop), matrices(model, kTop);
  Rng rng(robot.seed + 11);
  const PolynomialTrajectory path(model, rng);
  const double t0 = 0.2;
  const Eigen::VectorXd q = path.q(model, t0);
  const Eigen::MatrixXd dq = path.dq(t0, kTop + 2);
  mass_coriolis_gravity_time_derivatives(model, matrices, q, dq, kTop);

  const Eigen::MatrixXd M = crba(model, data, q);
  CHECK_THAT(matrices.M[0], AllClose(M, kTolRoundoff * (1 + M.norm()), 0));
  const Eigen::VectorXd g = gravity_torque(model, data, q), g0 = matrices.g.col(0);
  CHECK_THAT(g0, AllClose(g, kTolRoundoff * (1 + g.norm()), 0));
  const Eigen::VectorXd c = nonlinear_effects(model, data, q, dq.col(0)) - g;
  const Eigen::VectorXd Cv = matrices.C[0] * dq.col(0);
  CHECK_THAT(Cv, AllClose(c, kTolRoundoff * (1 + c.norm()) * 100, 0));

  // tau = M q'' + C q' + g, so tau^(k) = sum_m C(k, m) (M^(m) q^(k-m+2) + C^(m) q^(k-m+1)) + g^(k)
  Eigen::MatrixXd tau(model.nv, kTop + 1);
  rnea_time_derivatives(model, series, q, dq, kTop, tau);
  for (int k = 0; k <= kTop; ++k) {
    INFO("order " << k);
    Eigen::VectorXd rebuilt = matrices.g.col(k);
    for (int m = 0; m <= k; ++m) {
      const double w = series.choose(k, m);
      rebuilt += w * (matrices.M[m] * dq.col(k - m + 1) + matrices.C[m] * dq.col(k - m));
    }
    const Eigen::VectorXd expected = tau.col(k);
    CHECK_THAT(rebuilt, AllClose(expected, 100 * kTolRoundoff * (1 + expected.norm()), 0));
  }
  for (int k = 0; k < kTop; ++k) {
    INFO("order " << k);
    const Eigen::MatrixXd CCt = matrices.C[k] + matrices.C[k].transpose();
    CHECK_THAT(matrices.M[k + 1],
               AllClose(CCt, 100 * kTolRoundoff * (1 + CCt.cwiseAbs().maxCoeff()), 0));
  }
}

TEST_CASE("each time derivative of M, C and g is the central difference of the order below",
          "[property][coriolis]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  constexpr int kTop = 4;
  TimeDerivativeData series(model, kTop);
  Rng rng(robot.seed + 13);
  const PolynomialTrajectory path(model, rng);
  const int nv = model.nv;
  // M, C and g of orders 0..kTop - 1 at t, stacked as columns [M | C | g] per order
  auto orders = [&](double t, int top) {
    mass_coriolis_gravity_time_derivatives(model, series, path.q(model, t), path.dq(t, top + 1),
                                           top);
    Eigen::MatrixXd out(nv, (2 * nv + 1) * (top + 1));
    for (int k = 0; k <= top; ++k) {
      out.middleCols((2 * nv + 1) * k, 2 * nv + 1) << series.M[k], series.C[k], series.g.col(k);
    }
    return out;
  };
  const double t0 = -0.1;
  const Eigen::MatrixXd exact = orders(t0, kTop);
  const Eigen::MatrixXd difference =
      central_difference([&](double t) { return orders(t, kTop - 1); }, t0);
  for (int k = 1; k <= kTop; ++k) {
    INFO("order " << k);
    const Eigen::MatrixXd actual = exact.middleCols((2 * nv + 1) * k, 2 * nv + 1);
    const Eigen::MatrixXd expected = difference.middleCols((2 * nv + 1) * (k - 1), 2 * nv + 1);
    CHECK_THAT(actual,
               AllClose(expected, 1e-8 * tol_scale() * (1 + expected.cwiseAbs().maxCoeff()), 0));
  }
}
