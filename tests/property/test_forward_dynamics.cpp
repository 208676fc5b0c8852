// Forward dynamics by two independent paths: aba (O(n) recursion) and crba + rnea + Cholesky
// (Lynch and Park, Modern Robotics, section 8.1), on every shipped and reference robot.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("forward_dynamics_crba agrees with aba and inverts rnea",
          "[property][forward_dynamics]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  Rng rng(robot.seed + 1000);
  CHECK(joints_without_inertia(model).empty());
  for (int k = 0; k < 5; ++k) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng), a = random_tangent(model, rng);
    const Eigen::VectorXd tau = rnea(model, data, q, v, a);
    const Eigen::MatrixXd M = crba(model, data, q);
    // the error of a solve grows with the condition number of M
    const double conditioning = M.norm() * M.inverse().norm();
    const double tol = kTolRoundoff * (1 + conditioning * (1 + a.norm()));
    const Eigen::VectorXd by_crba = forward_dynamics_crba(model, data, q, v, tau);
    CHECK_THAT(by_crba, AllClose(a, tol));
    CHECK_THAT(aba(model, data, q, v, tau), AllClose(by_crba, tol));
  }
}
