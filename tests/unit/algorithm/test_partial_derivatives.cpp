// Partial derivatives: sizes, the singular mass matrix named by joint, no allocation.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;

TEST_CASE("partial derivatives: wrong sizes are input errors", "[partial_derivatives]") {
  const Model model = load_urdf(test::kRobotsDir + "/ur5.urdf");
  Data data(model);
  const Eigen::VectorXd q = neutral(model), v = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd short_v = Eigen::VectorXd::Zero(model.nv - 1);
  CHECK_THROWS_AS(rnea_derivatives(model, data, q, short_v, v), InputError);
  CHECK_THROWS_AS(rnea_derivatives(model, data, q, v, short_v), InputError);
  CHECK_THROWS_AS(aba_derivatives(model, data, q, v, short_v), InputError);
  CHECK_THROWS_AS(mass_matrix_inverse(model, data, Eigen::VectorXd::Zero(model.nq + 1)),
                  InputError);
}

TEST_CASE("partial derivatives: a joint that moves no mass makes M^-1 undefined, named",
          "[partial_derivatives]") {
  const Model model = load_urdf(test::kDataDir + "/urdf/massless_leaf.urdf");
  Data data(model);
  const Eigen::VectorXd q = neutral(model), v = Eigen::VectorXd::Ones(model.nv);
  // dtau/dq and dtau/dv stay defined
  CHECK_NOTHROW(rnea_derivatives(model, data, q, v, v));
  CHECK_THROWS_WITH(mass_matrix_inverse(model, data, q), Catch::Contains("'finger_slide'"));
  CHECK_THROWS_WITH(aba_derivatives(model, data, q, v, v), Catch::Contains("'finger_slide'"));
}

TEST_CASE("partial derivatives do not allocate", "[partial_derivatives]" EOM_ALLOCATION_TAG) {
  for (const char* robot : {"/solo12.urdf", "/ur5.urdf"}) {
    for (const bool floating : {false, true}) {
      LoadOptions options;
      options.floating_base = floating;
      const Model model = load_urdf(test::kRobotsDir + robot, options);
      Data data(model);
      Rng rng(7);
      const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng),
                            a = random_tangent(model, rng);
      const long n = test::allocations_during([&] {
        rnea_derivatives(model, data, q, v, a);
        aba_derivatives(model, data, q, v, a);
        mass_matrix_inverse(model, data, q);
      });
      CHECK(n == 0);
    }
  }
  // the model with planar and mid-tree floating joints
  const Model model = load_urdf(test::kDataDir + "/robots/mixed_joints.urdf");
  Data data(model);
  Rng rng(8);
  const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng);
  CHECK(test::allocations_during([&] { aba_derivatives(model, data, q, v, v); }) == 0);
}
