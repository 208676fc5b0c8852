// eom export (write_urdf): the URDF written from a loaded model loads back into the same model, on
// every test robot, fixed and floating, and with locked joints: the same coordinates in the same
// order, the same frames where they were, the same rnea and mass matrix at random states.

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/mjcf.hpp>
#include <eom/parsers/reduced_model.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/parsers/urdf_writer.hpp>

#include "frame_checks.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// write `model`, load the text back (with the free-flyer it could not write), compare
void check_round_trip(const Model& model, unsigned seed) {
  std::ostringstream urdf;
  const std::vector<std::string> left_out = write_urdf(model, urdf);
  CHECK(left_out.size() == (model.floating_base ? 1u : 0u));
  LoadOptions options;
  options.floating_base = model.floating_base;
  const Model back = build_model(parse_urdf(urdf.str(), "export"), options);
  INFO(urdf.str());
  REQUIRE(back.q_names == model.q_names);
  REQUIRE(back.v_names == model.v_names);
  // the same root link, unless the model places it away from the world (a DH model's base):
  // then a link "world" is the root and the model's root link one of its frames
  const SE3& root = model.frames[model.frame_index(model.root_link)].placement;
  const bool at_world = root.p == Vec3::Zero() && root.R == Mat3::Identity();
  CHECK(back.root_link == (at_world || model.floating_base ? model.root_link : "world"));
  for (int i = 1; i < model.njoints; ++i) {
    CHECK(std::string(back.joint_type_name(i)) == model.joint_type_name(i));
    CHECK(back.info[i].lower == model.info[i].lower);
    CHECK(back.info[i].upper == model.info[i].upper);
    CHECK(back.info[i].effort == model.info[i].effort);
    CHECK(back.info[i].damping == model.info[i].damping);
    CHECK(back.info[i].armature == model.info[i].armature);
    CHECK(back.info[i].mimic_joint == model.info[i].mimic_joint);
  }

  Rng rng(seed);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng), a = random_tangent(model, rng);
  Data d(model), db(back);
  frame_placements(model, d, q);
  frame_placements(back, db, q);
  // (a DH model's joints get body links of their own: more frames, none moved)
  check_same_frames(model, d, back, db);
  const Eigen::VectorXd tau = rnea(model, d, q, v, a);
  CHECK_THAT(rnea(back, db, q, v, a), AllClose(tau, kTolRoundoff * (1 + magnitude(tau))));
  const Eigen::MatrixXd M = crba(model, d, q);
  CHECK_THAT(crba(back, db, q), AllClose(M, kTolRoundoff * (1 + magnitude(M))));
}

}  // namespace

TEST_CASE("an exported URDF loads back into the same model", "[property]") {
  for (const TestModel& tm : test_models()) {
    SECTION(tm.name) {
      const Model model = tm.load();
      const bool ball = std::any_of(model.joints.begin() + 1, model.joints.end(), is_spherical);
      if (!ball) {
        check_round_trip(model, tm.seed);
      } else {
        // URDF has no ball joint: refused, naming the first
        std::ostringstream urdf;
        CHECK_THROWS_WITH(write_urdf(model, urdf), Catch::Contains("is a ball joint: URDF has no"));
      }
    }
  }
}

TEST_CASE("an MJCF model with armature exports to a URDF with the same mass matrix",
          "[property][armature]") {
  // eom's URDF extension <dynamics armature> carries the MJCF <joint armature> (from the element
  // and from a default class) through the URDF (hinges without a range: URDF's continuous joints,
  // whose limits and effort read back as the same infinities)
  const Model model = build_mjcf_model(R"(<mujoco><compiler angle="radian"/>
      <default><default class="motor"><joint armature="0.2" damping="0.1"/></default></default>
      <worldbody><body name="a"><joint name="j1" axis="0 1 0" class="motor"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
        <body name="b" pos="0.3 0 0"><joint name="j2" axis="1 0 1" armature="3"/>
          <geom type="box" size="0.05 0.04 0.03"/></body></body></worldbody></mujoco>)",
                                       "geared.xml");
  REQUIRE(model.armature == Eigen::Vector2d(0.2, 3));
  check_round_trip(model, 5);
}

TEST_CASE("an exported reduced model keeps its locked joints fixed", "[property]") {
  const Model full = load_urdf(kDataDir + "/urdf/massless_gripper.urdf");
  std::vector<int> locked{full.joint_index("finger_joint_1"), full.joint_index("finger_joint_3")};
  Eigen::VectorXd q = neutral(full);
  q[full.joints[locked[0]].idx_q] = 0.03;
  q[full.joints[locked[1]].idx_q] = 0.2;
  lock_mimic_followers(full, locked, q);
  const Model reduced = build_reduced_model(full, locked, q);
  check_round_trip(reduced, 7);
}

TEST_CASE("an exported DH or PoE model loads back as the same model", "[property]") {
  for (const char* name : {"puma_like.dh.json", "puma_like.mdh.json", "arm_rp.poe.json"}) {
    SECTION(name) { check_round_trip(load_model(kDataDir + "/models/" + name), 11); }
  }
  // a scaled screw axis (the textbook's S1 = (1, 0, 1, 0, 1, 0)) has no URDF joint
  std::ostringstream urdf;
  CHECK_THROWS_WITH(write_urdf(load_model(kDataDir + "/models/textbook_3link.json"), urdf),
                    Catch::Contains("joint 'joint1' moves 1.41421 per unit of q"));
}

TEST_CASE("an export keeps the joint order, the mass welded to the world and 'no limit'",
          "[property]") {
  // the Menagerie Go1's order: a body's child joints FR before FL (not in name order, which URDF
  // readers follow), a slide without a range and a hinge with a range but no effort; the torso
  // carries 3 kg that a fixed base welds to the world
  const std::string mjcf = R"(<mujoco><compiler angle="radian" autolimits="true"/><worldbody>
      <body name="trunk"><inertial pos="0.1 0 0" mass="3" diaginertia="0.1 0.2 0.3"/>
        <body name="FR" pos="0.2 -0.1 0"><joint name="FR_hip" axis="1 0 0" range="-1 1"/>
          <geom size="0.05"/></body>
        <body name="FL" pos="0.2 0.1 0"><joint name="FL_hip" axis="1 0 0"/>
          <geom size="0.05"/>
          <body name="FL_foot"><joint name="FL_slide" type="slide" axis="0 0 1"/>
            <geom size="0.02"/></body></body></body></worldbody></mujoco>)";
  const Model model = build_mjcf_model(mjcf, "go1ish.xml");
  REQUIRE(model.q_names == std::vector<std::string>{"FR_hip", "FL_hip", "FL_slide"});
  std::ostringstream urdf;
  write_urdf(model, urdf);
  INFO(urdf.str());
  const Model back = build_model(parse_urdf(urdf.str(), "export"));
  CHECK(back.q_names == model.q_names);
  // no limit reads back as none: not the largest double
  CHECK(back.effort_limit == model.effort_limit);
  CHECK(std::isinf(back.effort_limit[0]));
  CHECK(back.lower_limit == model.lower_limit);
  CHECK(back.upper_limit == model.upper_limit);
  CHECK_FALSE(back.info[3].has_limit);
  CHECK(back.total_mass == Approx(model.total_mass).epsilon(1e-15));
  check_round_trip(model, 11);
}

TEST_CASE("a fixed-base export keeps the root link's mass for a floating reload", "[property]") {
  // Solo12 loaded without --floating-base welds its base (1.16 kg) to the world; its export
  // reloaded with a floating base carries it, as the original loaded so does
  LoadOptions floating;
  floating.floating_base = true;
  const std::string solo = kRobotsDir + "/solo12.urdf";
  std::ostringstream urdf;
  write_urdf(load_urdf(solo), urdf);
  const Model original = load_urdf(solo, floating);
  const Model back = build_model(parse_urdf(urdf.str(), "export"), floating);
  REQUIRE(original.inertia[1].m > 1);
  CHECK(back.inertia[1].m == Approx(original.inertia[1].m).epsilon(1e-15));
  CHECK_THAT(back.inertia[1].c, AllClose(original.inertia[1].c, 1e-15));
  CHECK(back.total_mass == Approx(original.total_mass).epsilon(1e-15));
}
