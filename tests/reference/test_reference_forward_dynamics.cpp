// forward_dynamics_crba against the shared reference (Pinocchio 3.7 aba), every sample.

#include <catch2/catch.hpp>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>

#include "matchers.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("reference: forward_dynamics_crba", "[reference][forward_dynamics]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  const Model& model = ref.model;
  Data data(model);
  const bool defined = ref.json["forward_dynamics_defined"].get<bool>();
  CHECK(joints_without_inertia(model).empty() == defined);
  if (!defined) return;
  int index = 0;
  for (const auto& s : ref.json["samples"]) {
    INFO(name << " sample " << index++);
    const Eigen::VectorXd q = ref.q(s["q"]), v = ref.tangent(s["v"]);
    CHECK_THAT(forward_dynamics_crba(model, data, q, v, ref.tangent(s["tau_in"])),
               AllClose(ref.tangent(s["qdd"]), kTolReference, kTolReference));
  }
}
