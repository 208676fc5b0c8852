// The world and local frame Jacobians against the reference (Pinocchio 3.7) local-world-aligned
// Jacobians, moved to the other references with the reference frame placements, every sample
// of every reference robot, fixed and floating base.

#include <catch2/catch.hpp>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/kinematics.hpp>

#include "matchers.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("reference: frame Jacobians (world, local)", "[reference][jacobian]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  Data data(ref.model);
  int checked = 0;
  for (const auto& sample : ref.json["samples"]) {
    for (const auto& [frame, J] : sample["jacobian_world"].items()) {
      if (!sample["frames"].contains(frame)) continue;
      INFO(name << " frame " << frame);
      const int f = ref.model.frame_index(frame);
      REQUIRE(f >= 0);
      const Eigen::MatrixXd lwa = ref.columns(J);
      const Eigen::Vector3d p = vector_of(sample["frames"][frame]["p"]);
      const Eigen::Matrix3d R = matrix3_of(sample["frames"][frame]["R"]);
      Eigen::MatrixXd world = lwa, local = lwa;
      for (Eigen::Index c = 0; c < lwa.cols(); ++c) {
        const Eigen::Vector3d v = lwa.col(c).head<3>(), w = lwa.col(c).tail<3>();
        world.col(c).head<3>() = v - w.cross(p);  // velocity of the point at the world origin
        local.col(c).head<3>() = R.transpose() * v;
        local.col(c).tail<3>() = R.transpose() * w;
      }
      const Eigen::VectorXd q = ref.q(sample["q"]);
      const Eigen::MatrixXd Jw = frame_jacobian(ref.model, data, q, f, ReferenceFrame::world);
      CHECK_THAT(Jw, AllClose(world, 1e-10, 1e-10));
      const Eigen::MatrixXd Jl = frame_jacobian(ref.model, data, q, f, ReferenceFrame::local);
      CHECK_THAT(Jl, AllClose(local, 1e-10, 1e-10));
      ++checked;
    }
  }
  CHECK(checked > 0);
}
