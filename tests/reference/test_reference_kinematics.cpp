// Frame placements and Jacobians against the shared reference (Pinocchio 3.7), every sample of
// every public robot, fixed and floating base.

#include <catch2/catch.hpp>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/kinematics.hpp>

#include "matchers.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("reference: model layout matches", "[reference][kinematics]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  INFO(name);
  const int ncontinuous =
      static_cast<int>(std::count(ref.continuous.begin(), ref.continuous.end(), true));
  CHECK(ref.model.nv == ref.json["nv"].get<int>());
  CHECK(ref.model.nq == ref.json["nq"].get<int>() - ncontinuous);
  CHECK(ref.model.njoints - 1 == static_cast<int>(ref.json["joint_names"].size()));
  // the reference's total_mass is what Pinocchio sums over its joints' bodies: the moving mass,
  // without the links welded to the world (its README says otherwise; the numbers say this)
  double moving_mass = 0;
  for (int i = 1; i < ref.model.njoints; ++i) moving_mass += ref.model.inertia[i].m;
  CHECK(moving_mass == Approx(ref.json["total_mass"].get<double>()).epsilon(1e-12));
  // eom orders joints as the reference does (depth-first, siblings by joint name)
  for (size_t k = 0; k < ref.json["joint_names"].size(); ++k) {
    CHECK(ref.joint(ref.json["joint_names"][k]) == static_cast<int>(k) + 1);
  }
}

TEST_CASE("reference: frame placements", "[reference][kinematics]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  Data data(ref.model);
  for (const auto& sample : ref.json["samples"]) {
    frame_placements(ref.model, data, ref.q(sample["q"]));
    for (const auto& [frame, pose] : sample["frames"].items()) {
      INFO(name << " frame " << frame);
      const int f = ref.model.frame_index(frame);
      REQUIRE(f >= 0);
      CHECK_THAT(data.oMf[f].p, AllClose(vector_of(pose["p"]), kTolKinematics));
      CHECK_THAT(data.oMf[f].R, AllClose(matrix3_of(pose["R"]), kTolKinematics));
    }
  }
}

TEST_CASE("reference: frame Jacobians (local world aligned)", "[reference][kinematics]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  Data data(ref.model);
  for (const auto& sample : ref.json["samples"]) {
    for (const auto& [frame, J] : sample["jacobian_world"].items()) {
      INFO(name << " frame " << frame);
      const int f = ref.model.frame_index(frame);
      REQUIRE(f >= 0);
      const Eigen::MatrixXd actual = frame_jacobian(ref.model, data, ref.q(sample["q"]), f,
                                                    ReferenceFrame::local_world_aligned);
      CHECK_THAT(actual, AllClose(ref.columns(J), kTolKinematics, kTolKinematics));
    }
  }
}
