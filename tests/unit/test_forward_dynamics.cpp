// Forward dynamics: singular models are refused by name, and nothing allocates per call.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
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
                    Catch::Contains("joint 'finger_slide' moves no mass or inertia"));
}

TEST_CASE("joints_without_inertia is empty for a robot with mass everywhere",
          "[forward_dynamics]") {
  CHECK(joints_without_inertia(load_urdf(kRobotsDir + "/ur5.urdf")).empty());
}

TEST_CASE("aba and forward_dynamics_crba allocate nothing",
          "[forward_dynamics]" EOM_ALLOCATION_TAG) {
  for (const bool floating : {false, true}) {
    UrdfOptions options;
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
