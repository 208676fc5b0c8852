// DynamicsTerms against the four passes it replaces: rnea, crba, gravity_torque and
// nonlinear_effects each called on its own give the same bits (the same operations in the same
// order), on fixed and floating robots with armature, at random states; and the terms add up to
// tau (M a + nle = tau, to round-off: the identity of the equations of motion, not the code).

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/dynamics_terms.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// every entry equal, bit for bit (NaN compares unequal: none is expected)
bool same_bits(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
  return x.rows() == y.rows() && x.cols() == y.cols() && (x.array() == y.array()).all();
}

}  // namespace

TEST_CASE("DynamicsTerms: the bits of rnea, crba, gravity_torque and nonlinear_effects",
          "[dynamics]") {
  LoadOptions floating;
  floating.floating_base = true;
  const std::pair<std::string, LoadOptions> robots[] = {{kRobotsDir + "/ur5.urdf", LoadOptions{}},
                                                        {kRobotsDir + "/panda.urdf", LoadOptions{}},
                                                        {kRobotsDir + "/solo12.urdf", floating},
                                                        {kDataDir + "/urdf/hopper.urdf", floating}};
  for (const auto& [path, options] : robots) {
    INFO(path);
    Model model = load_urdf(path, options);
    // rotor inertia on M's diagonal and in tau only
    for (int k = 0; k < model.nv; ++k) model.armature[k] = 0.01 * (k + 1);
    Data apart(model), together(model);
    DynamicsTerms terms(model);
    Rng rng(5);
    for (int sample = 0; sample < 5; ++sample) {
      const Eigen::VectorXd q = random_configuration(model, rng);
      const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, -1.5, 2.0);
      const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(model.nv, 3.0, -0.5);
      const Eigen::VectorXd tau = rnea(model, apart, q, v, a);
      const Eigen::MatrixXd M = crba(model, apart, q);
      const Eigen::VectorXd g = gravity_torque(model, apart, q);
      const Eigen::VectorXd nle = nonlinear_effects(model, apart, q, v);

      CHECK(same_bits(terms.compute(model, together, q, v, a), tau));
      CHECK(same_bits(together.M, M));
      CHECK(same_bits(together.g, g));
      CHECK(same_bits(terms.nonlinear_effects(), nle));
      // M a + nle = tau: the same quantity by two routes, equal to round-off
      CHECK_THAT(Eigen::VectorXd(M * a + nle), AllClose(tau, 1e-10, 1e-12));
    }
  }
}

TEST_CASE("DynamicsTerms allocates nothing per row", "[dynamics]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/panda.urdf");
  Data data(model);
  DynamicsTerms terms(model);
  const Eigen::VectorXd q = neutral(model);
  const Eigen::VectorXd v = Eigen::VectorXd::Ones(model.nv);
  const long n = allocations_during([&] { terms.compute(model, data, q, v, v); });
  CHECK(n == 0);
}
