// Partial derivatives of inverse and forward dynamics against the shared reference (Pinocchio
// 3.7): every sample of every reference robot, fixed and floating base.

#include <catch2/catch.hpp>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/partial_derivatives.hpp>

#include "matchers.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("reference: dtau/dq, dtau/dv, dqdd/dq, dqdd/dv", "[reference][partial_derivatives]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  const Model& model = ref.model;
  Data data(model);
  const bool fd_defined = ref.json["forward_dynamics_defined"].get<bool>();
  int index = 0;
  for (const auto& s : ref.json["samples"]) {
    INFO(name << " sample " << index++);
    const Eigen::VectorXd q = ref.q(s["q"]), v = ref.tangent(s["v"]), a = ref.tangent(s["a"]);
    rnea_derivatives(model, data, q, v, a);
    // 1e-9 relative, or absolute near zero: atol = rtol = 1e-9
    CHECK_THAT(data.dtau_dq, AllClose(ref.matrix(s["dtau_dq"]), kTolReference, kTolReference));
    CHECK_THAT(data.dtau_dv, AllClose(ref.matrix(s["dtau_dv"]), kTolReference, kTolReference));
    CHECK_THAT(data.M, AllClose(ref.matrix(s["M"]), kTolReference, kTolReference));
    CHECK_THAT(data.tau, AllClose(ref.tangent(s["tau"]), kTolReference, kTolReference));
    const Eigen::VectorXd tau_in = ref.tangent(s["tau_in"]);
    if (!fd_defined) {
      CHECK(s["dqdd_dq"].is_null());
      CHECK_THROWS_AS(aba_derivatives(model, data, q, v, tau_in), NumericalError);
      continue;
    }
    aba_derivatives(model, data, q, v, tau_in);
    CHECK_THAT(data.qdd, AllClose(ref.tangent(s["qdd"]), kTolReference, kTolReference));
    CHECK_THAT(data.dqdd_dq, AllClose(ref.matrix(s["dqdd_dq"]), kTolReference, kTolReference));
    CHECK_THAT(data.dqdd_dv, AllClose(ref.matrix(s["dqdd_dv"]), kTolReference, kTolReference));
    CHECK_THAT(data.Minv * ref.matrix(s["M"]),
               AllClose(Eigen::MatrixXd::Identity(model.nv, model.nv), kTolReference));
  }
}
