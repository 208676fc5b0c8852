// christoffel_symbols: the planar 2R arm's closed form, the Christoffel formula over finite
// differences of M, C(q, v) = sum_k Gamma_ijk v_k, sizes and no allocation.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/algorithm/christoffel.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;

namespace {
// Gamma_ijk as christoffel_symbols stores it
double gamma_at(const Eigen::MatrixXd& gamma, int nv, int i, int j, int k) {
  return gamma(i + j * nv, k);
}
}  // namespace

TEST_CASE("christoffel_symbols of the planar 2R arm: the textbook closed form", "[christoffel]") {
  // point masses m1 = 1 at l1 = 1, m2 = 0.5 at l2 = 0.8 (robots/planar_2r.urdf): M_00 = m1 l1^2 +
  // m2 (l1^2 + l2^2 + 2 l1 l2 cos q2), M_01 = m2 (l2^2 + l1 l2 cos q2), M_11 = m2 l2^2, so with
  // b = m2 l1 l2 = 0.4: Gamma_001 = Gamma_010 = Gamma_011 = -b sin q2, Gamma_100 = b sin q2, and
  // the other four are 0
  const Model model = load_urdf(test::kRobotsDir + "/planar_2r.urdf");
  TimeDerivativeData series(model, 0);
  Eigen::MatrixXd gamma(4, 2);
  for (const double q2 : {0.0, 0.7, -2.1, 3.0}) {
    const Eigen::Vector2d q(-0.4, q2);
    christoffel_symbols(model, series, q, gamma);
    const double bs = 0.4 * std::sin(q2);
    const double expected[2][2][2] = {{{0, -bs}, {-bs, -bs}}, {{bs, 0}, {0, 0}}};
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        for (int k = 0; k < 2; ++k) {
          CHECK(gamma_at(gamma, 2, i, j, k) == Approx(expected[i][j][k]).margin(1e-12));
        }
      }
    }
  }
}

TEST_CASE("christoffel_symbols: (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2 by central differences",
          "[christoffel]") {
  const Model model = load_urdf(test::kRobotsDir + "/ur5.urdf");
  const int nv = model.nv;
  TimeDerivativeData series(model, 0);
  Data data(model);
  Rng rng(11);
  const Eigen::VectorXd q = random_configuration(model, rng);
  Eigen::MatrixXd gamma(nv * nv, nv);
  christoffel_symbols(model, series, q, gamma);
  // dM/dq_k, fourth-order central differences of crba (revolute joints: q + h e_k)
  std::vector<Eigen::MatrixXd> dM(nv);
  const double h = 1e-3;
  for (int k = 0; k < nv; ++k) {
    auto M_at = [&](double step) {
      Eigen::VectorXd p = q;
      p[k] += step;
      return Eigen::MatrixXd(crba(model, data, p));
    };
    dM[k] = (8 * (M_at(h) - M_at(-h)) - (M_at(2 * h) - M_at(-2 * h))) / (12 * h);
  }
  for (int i = 0; i < nv; ++i) {
    for (int j = 0; j < nv; ++j) {
      for (int k = 0; k < nv; ++k) {
        const double expected = (dM[k](i, j) + dM[j](i, k) - dM[i](j, k)) / 2;
        CHECK(gamma_at(gamma, nv, i, j, k) == Approx(expected).margin(1e-8));
      }
    }
  }
}

TEST_CASE("christoffel_symbols contract with v into coriolis_matrix, fixed and floating base",
          "[christoffel]") {
  LoadOptions floating;
  floating.floating_base = true;
  // and ball joints on a free body (MJCF)
  for (const Model& model : {load_urdf(test::kRobotsDir + "/solo12.urdf"),
                             load_urdf(test::kRobotsDir + "/solo12.urdf", floating),
                             load_model(test::kDataDir + "/mjcf/ball_free.xml")}) {
    const int nv = model.nv;
    TimeDerivativeData series(model, 0);
    Rng rng(5);
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    Eigen::MatrixXd gamma(nv * nv, nv);
    christoffel_symbols(model, series, q, gamma);
    const Eigen::MatrixXd C = coriolis_matrix(model, series, q, v);
    // column k of gamma is C(q, e_k) stacked column by column
    const Eigen::VectorXd contracted = gamma * v;
    const Eigen::MatrixXd sum = Eigen::Map<const Eigen::MatrixXd>(contracted.data(), nv, nv);
    CHECK((sum - C).cwiseAbs().maxCoeff() <= 1e-10 * (1 + C.cwiseAbs().maxCoeff()));
    // and symbol by symbol: column k is the Coriolis matrix of the unit velocity e_k, which
    // coriolis_matrix computes by its own sweep over every body's twist
    for (int k = 0; k < nv; ++k) {
      const Eigen::MatrixXd Ck = coriolis_matrix(model, series, q, Eigen::VectorXd::Unit(nv, k));
      const Eigen::VectorXd stacked = Eigen::Map<const Eigen::VectorXd>(Ck.data(), nv * nv);
      CHECK((gamma.col(k) - stacked).cwiseAbs().maxCoeff() <= 1e-12 * (1 + stacked.norm()));
    }
  }
}

TEST_CASE("christoffel_symbols refuses wrong sizes and allocates nothing",
          "[christoffel]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
  const int nv = model.nv;
  TimeDerivativeData series(model, 0);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.3);
  Eigen::MatrixXd wrong(nv * nv, nv - 1);
  CHECK_THROWS_AS(christoffel_symbols(model, series, q, wrong), InputError);
  Eigen::MatrixXd gamma(nv * nv, nv);
  const long n = test::allocations_during([&] { christoffel_symbols(model, series, q, gamma); });
  CHECK(n == 0);
}
