// frame_velocity_product, dJ v without dJ: equal to frame_jacobian_time_variation's dJ times v
// (local-world-aligned) on a floating quadruped's feet and a fixed arm's flange.

#include <catch2/catch.hpp>

#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>

#include "matchers.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("frame_velocity_product: dJ v of frame_jacobian_time_variation", "[kinematics]") {
  LoadOptions floating;
  floating.floating_base = true;
  const std::pair<Model, std::vector<std::string>> cases[] = {
      {load_urdf(kRobotsDir + "/solo12.urdf", floating), {"FL_FOOT", "HR_FOOT"}},
      {load_urdf(kRobotsDir + "/panda.urdf"), {"panda_link8"}}};
  for (const auto& [model, frames] : cases) {
    Data data(model), reference(model);
    Rng rng(3);
    for (int trial = 0; trial < 8; ++trial) {
      const Eigen::VectorXd q = random_configuration(model, rng);
      const Eigen::VectorXd v = random_tangent(model, rng, 2.0);
      forward_kinematics(model, data, q);
      for (const std::string& name : frames) {
        INFO(name);
        const int frame = model.require_frame(name);
        const Eigen::VectorXd expected =
            frame_jacobian_time_variation(model, reference, q, v, frame,
                                          ReferenceFrame::local_world_aligned) *
            v;
        const Eigen::VectorXd drift = frame_velocity_product(model, data, v, frame);
        CHECK_THAT(drift, AllClose(expected, 1e-12 * std::max(1.0, expected.norm())));
      }
    }
  }
}
