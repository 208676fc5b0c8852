// Inverse and forward dynamics, mass matrix, bias forces, gravity, energies and centre of mass against the
// shared reference (Pinocchio 3.7), every sample of every public robot, fixed and floating base.

#include <catch2/catch.hpp>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>

#include "matchers.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("reference: rnea, crba, nle, gravity, energy, com, aba", "[reference][dynamics]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  const Model& model = ref.model;
  Data data(model);
  int index = 0;
  for (const auto& s : ref.json["samples"]) {
    INFO(name << " sample " << index++);
    const Eigen::VectorXd q = ref.q(s["q"]), v = ref.tangent(s["v"]), a = ref.tangent(s["a"]);
    // 1e-9 relative, or absolute near zero: atol = rtol = 1e-9
    CHECK_THAT(rnea(model, data, q, v, a),
               AllClose(ref.tangent(s["tau"]), kTolReference, kTolReference));
    CHECK_THAT(crba(model, data, q), AllClose(ref.matrix(s["M"]), kTolReference, kTolReference));
    CHECK_THAT(nonlinear_effects(model, data, q, v),
               AllClose(ref.tangent(s["nle"]), kTolReference, kTolReference));
    CHECK_THAT(gravity_torque(model, data, q),
               AllClose(ref.tangent(s["g"]), kTolReference, kTolReference));
    CHECK(kinetic_energy(model, data, q, v) ==
          Approx(s["kinetic_energy"].get<double>()).epsilon(kTolReference).margin(kTolReference));
    CHECK(potential_energy(model, data, q) ==
          Approx(s["potential_energy"].get<double>()).epsilon(kTolReference).margin(kTolReference));
    CHECK_THAT(center_of_mass(model, data, q),
               AllClose(vector_of(s["com"]), kTolReference, kTolReference));
    REQUIRE(ref.json["forward_dynamics_defined"].get<bool>());
    CHECK_THAT(aba(model, data, q, v, ref.tangent(s["tau_in"])),
               AllClose(ref.tangent(s["qdd"]), kTolReference, kTolReference));
  }
}
