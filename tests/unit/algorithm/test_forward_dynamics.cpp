// Forward dynamics: singular mass matrices are refused by one rule, whatever the method, saying
// whether at every configuration or at this one; nothing allocates per call.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("joints_without_inertia names the joint that moves a massless link",
          "[forward_dynamics]") {
  const Model model = load_urdf(kDataDir + "/urdf/massless_leaf.urdf");
  const std::vector<int> joints = joints_without_inertia(model);
  REQUIRE(joints.size() == 1);
  CHECK(model.joint_names[joints[0]] == "finger_slide");
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  CHECK_THROWS_WITH(forward_dynamics_crba(model, data, neutral(model), zero, zero),
                    Catch::Contains("joint 'finger_slide' moves no mass or inertia along its "
                                    "motion: the mass matrix is singular at every configuration"));
}

TEST_CASE("a mass matrix singular at one configuration only: every method refuses it alike",
          "[forward_dynamics]") {
  // tests/data/urdf/gimbal_bob.urdf: at pitch = 0 the point mass sits on the yaw axis
  const Model model = load_urdf(kDataDir + "/urdf/gimbal_bob.urdf");
  CHECK(joints_without_inertia(model).empty());
  Data data(model);
  const int yaw = model.joint_index("yaw"), pitch = model.joint_index("pitch");
  Eigen::VectorXd q = neutral(model);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 0.1);
  const Eigen::VectorXd tau = Eigen::VectorXd::Constant(model.nv, 0.01);
  const auto here = Catch::Contains(
      "the mass matrix is singular at this configuration (not at every one): joint 'yaw' moves no "
      "mass or inertia beyond what the joints after it move; the joint velocities v.yaw = 1 move "
      "no mass or inertia");
  CHECK_THROWS_WITH(aba(model, data, q, v, tau), here);
  CHECK_THROWS_WITH(forward_dynamics_crba(model, data, q, v, tau), here);
  CHECK_THROWS_WITH(mass_matrix_inverse(model, data, q), here);
  CHECK_THROWS_WITH(aba_derivatives(model, data, q, v, tau), here);
  // a little pitch: the yaw turns the mass round a circle of radius 0.5 sin(pitch), M = diag(m r^2,
  // m 0.25) with no coupling (the two motions of the mass are orthogonal), and gravity pulls the
  // pitch by m g 0.5 sin(pitch); at v = 0, qdd = M^-1 (tau - g(q))
  q[model.joints[pitch].idx_q] = 1e-3;
  const double r = 0.5 * std::sin(1e-3);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  Eigen::VectorXd expected(model.nv);
  expected[model.joints[yaw].idx_v] = 0.01 / (r * r);
  expected[model.joints[pitch].idx_v] = (0.01 + 9.81 * r) / 0.25;
  CHECK_THAT(aba(model, data, q, zero, tau), AllClose(expected, 0, 1e-9));
  CHECK_THAT(forward_dynamics_crba(model, data, q, zero, tau), AllClose(expected, 0, 1e-9));
}

TEST_CASE("joints_without_inertia is empty for a robot with mass everywhere",
          "[forward_dynamics]") {
  CHECK(joints_without_inertia(load_urdf(kRobotsDir + "/ur5.urdf")).empty());
}

TEST_CASE("aba and forward_dynamics_crba allocate nothing",
          "[forward_dynamics]" EOM_ALLOCATION_TAG) {
  for (const bool floating : {false, true}) {
    LoadOptions options;
    options.floating_base = floating;
    const Model model = load_urdf(kRobotsDir + "/solo12.urdf", options);
    Data data(model);
    Rng rng(3);
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng), tau = random_tangent(model, rng);
    CHECK(allocations_during([&] {
            aba(model, data, q, v, tau);
            forward_dynamics_crba(model, data, q, v, tau);
          }) == 0);
  }
}
