// MJCF: the loader against hand derivations (a capsule pendulum's inertia, the orientation
// spellings, defaults and includes) and its refusals. The comparison with MuJoCo itself is in
// tests/mujoco/.

#include <cmath>

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/mjcf.hpp>

#include "matchers.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

const std::string kMjcf = kDataDir + "/mjcf/";
constexpr double kPi = 3.14159265358979323846;

Mat3 about(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// the placement of a frame at q
SE3 placed(const Model& model, const Eigen::VectorXd& q, const std::string& frame) {
  Data data(model);
  frame_placements(model, data, q);
  return data.oMf[model.require_frame(frame)];
}

}  // namespace

TEST_CASE("MJCF is told apart by its root element", "[mjcf]") {
  CHECK(is_mjcf("<mujoco model=\"x\"/>"));
  CHECK(is_mjcf("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- a <robot> -->\n<mujoco>"));
  CHECK_FALSE(is_mjcf("<robot name=\"r\">"));
  CHECK_FALSE(is_mjcf("<mujocox/>"));
  CHECK_FALSE(is_mjcf("{\"format\": \"poe\"}"));
}

TEST_CASE("MJCF pendulum: a capsule's mass and inertia as MuJoCo's compiler gives them", "[mjcf]") {
  std::vector<Diagnostic> warnings;
  const Model model = load_model(kMjcf + "pendulum.xml", {}, &warnings);
  CHECK(warnings.empty());
  REQUIRE(model.nv == 1);
  CHECK(model.joint_names[1] == "swing");
  CHECK_FALSE(model.floating_base);
  // capsule r = 0.05 along z from 0 to -0.5: a cylinder of height h = 0.5 and two hemispheres
  const double r = 0.05, h = 0.5, rho = 1000;
  const double m_cyl = rho * kPi * r * r * h, m_sph = rho * 4.0 / 3 * kPi * r * r * r;
  const double m = m_cyl + m_sph;
  CHECK(model.total_mass == Approx(m).epsilon(1e-14));
  // about its centre, across the axis: cylinder m(3r^2 + h^2)/12; each hemisphere 83/320 m r^2
  // about its own centroid, which sits h/2 + 3r/8 from the centre
  const double m_half = m_sph / 2, d = h / 2 + 3 * r / 8;
  const double I_across =
      m_cyl * (3 * r * r + h * h) / 12 + 2 * (83.0 / 320 * m_half * r * r + m_half * d * d);
  // the hinge at the capsule's top end: the centre is h/2 below
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(1);
  Data data(model);
  CHECK(crba(model, data, q)(0, 0) == Approx(I_across + m * h * h / 4).epsilon(1e-13));
  // gravity torque at 90 degrees: the centre of mass h/2 out along x, g down
  const Eigen::VectorXd q90 = Eigen::VectorXd::Constant(1, kPi / 2);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(1);
  // turning +90 degrees about y takes -z to -x: the weight pulls it back down (+y torque)
  CHECK(rnea(model, data, q90, zero, zero)[0] == Approx(m * 9.81 * h / 2).epsilon(1e-13));
  CHECK(model.damping[0] == 0.5);
  CHECK(model.friction[0] == 0.25);
  CHECK(model.info[1].urdf_type == "continuous");
  CHECK_THAT(placed(model, q, "tip").p, AllClose(Vec3(0, 0, 0.5), 1e-15));
  CHECK_THAT(placed(model, q90, "tip").p, AllClose(Vec3(-0.5, 0, 1), 1e-15));
}

TEST_CASE("MJCF orientations: quat, axisangle, euler, xyaxes and zaxis agree", "[mjcf]") {
  const Model model = load_model(kMjcf + "orientations.xml");
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  const SE3 carrier = placed(model, q, "carrier");
  // euler="10 20 30" in degrees, eulerseq xyz (moving axes): Rx Ry Rz
  const double deg = kPi / 180;
  const Mat3 R = about(Vec3::UnitX(), 10 * deg) * about(Vec3::UnitY(), 20 * deg) *
                 about(Vec3::UnitZ(), 30 * deg);
  CHECK_THAT(carrier.R, AllClose(R, 1e-15));
  CHECK_THAT(carrier.p, AllClose(Vec3(1, 2, 3), 1e-15));
  for (const char* spelling : {"quat", "axisangle", "euler", "xyaxes"}) {
    INFO(spelling);
    const SE3 site = placed(model, q, std::string("z90_") + spelling);
    CHECK_THAT(site.R, AllClose(R * about(Vec3::UnitZ(), kPi / 2), 1e-15));
  }
  for (const char* spelling : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) {
    INFO(spelling);
    const SE3 site = placed(model, q, std::string("y90_") + spelling);
    CHECK_THAT(site.R, AllClose(R * about(Vec3::UnitY(), kPi / 2), 1e-15));
  }
  // the slide's axis is the body's x
  Eigen::VectorXd moved = q;
  moved[0] = 0.5;
  CHECK_THAT(placed(model, moved, "carrier").p, AllClose(Vec3(1, 2, 3) + 0.5 * R.col(0), 1e-15));
}

TEST_CASE("MJCF eulerseq: capitals turn about fixed axes", "[mjcf]") {
  const Model fixed = load_model(kMjcf + "euler_fixed_axes.xml");
  const Model moving = load_model(kMjcf + "euler_moving_axes.xml");
  const Mat3 R = about(Vec3::UnitZ(), 0.1) * about(Vec3::UnitY(), -0.2) * about(Vec3::UnitX(), 0.3);
  const Eigen::VectorXd none(0);
  CHECK_THAT(placed(fixed, none, "fixed_axes").R, AllClose(R, 1e-15));
  CHECK_THAT(placed(moving, none, "moving_axes").R, AllClose(R, 1e-15));
}

TEST_CASE("MJCF defaults: nested classes, childclass, class, and an included body", "[mjcf]") {
  const Model model = load_model(kMjcf + "defaults.xml");
  REQUIRE(model.nv == 4);
  const auto joint = [&](const char* name) {
    const int j = model.joint_index(name);
    REQUIRE(j > 0);
    return j;
  };
  const double deg = kPi / 180;
  // main: damping 1, axis y, no limits
  CHECK(model.info[joint("plain")].damping == 1);
  CHECK_FALSE(model.info[joint("plain")].has_limit);
  CHECK_THAT(model.joints[joint("plain")].axis, AllClose(Vec3::UnitY(), 0));
  // childclass arm: damping 2, range +-90 degrees (autolimits)
  CHECK(model.info[joint("shoulder")].damping == 2);
  CHECK(model.info[joint("shoulder")].upper == Approx(90 * deg));
  // class wrist inherits arm's and adds frictionloss; its own axis wins
  CHECK(model.info[joint("elbow")].damping == 2);
  CHECK(model.info[joint("elbow")].friction == 0.5);
  CHECK_THAT(model.joints[joint("elbow")].axis, AllClose(Vec3::UnitX(), 0));
  // the included body takes arm from its parent's childclass
  CHECK(model.info[joint("wrist")].damping == 2);
  CHECK(model.info[joint("wrist")].upper == 0.1);
  CHECK(model.info[joint("wrist")].urdf_type == "prismatic");
  // masses: two spheres r 0.1 at 1000, a box of side 0.2 at 500, the cylinder's 2
  const double sphere = 1000 * 4.0 / 3 * kPi * 1e-3;
  CHECK(model.total_mass == Approx(2 * sphere + 500 * 0.008 + 2).epsilon(1e-14));
}

TEST_CASE("MJCF joint ref: at q = ref the body is where the file puts it", "[mjcf]") {
  const std::string text = R"(<mujoco><worldbody>
      <body name="b" pos="0 0 1"><joint name="h" axis="0 0 1" pos="0.1 0 0" ref="30"/>
        <geom size="0.1"/><site name="s" pos="1 0 0"/></body>
      <body name="c"><joint name="p" type="slide" axis="0 2 0" ref="0.25"/>
        <geom size="0.1"/></body></worldbody></mujoco>)";
  const Model model = build_mjcf_model(text, "<string>");
  Eigen::VectorXd q(2);
  q << 30 * kPi / 180, 0.25;
  CHECK_THAT(placed(model, q, "s").p, AllClose(Vec3(1, 0, 1), 1e-15));
  CHECK_THAT(placed(model, q, "c").p, AllClose(Vec3(0, 0, 0), 1e-15));
  // q = 0 turns the body -30 degrees about the anchor at x = 0.1
  q << 0, 0;
  const Vec3 turned = Vec3(0.1, 0, 1) + about(Vec3::UnitZ(), -kPi / 6) * Vec3(0.9, 0, 0);
  CHECK_THAT(placed(model, q, "s").p, AllClose(turned, 1e-15));
  CHECK_THAT(placed(model, q, "c").p, AllClose(Vec3(0, -0.25, 0), 1e-15));
}

TEST_CASE("MJCF free joint: the floating base, named as in the file", "[mjcf]") {
  const Model model = load_model(kMjcf + "floating.xml");
  CHECK(model.floating_base);
  CHECK(model.joint_names[1] == "base");
  CHECK(model.q_names[0] == "base.x");
  CHECK(model.v_names[5] == "base.wz");
  CHECK(model.root_link == "torso");
  // the free body's pose is its q: the file's pos and quat are only MuJoCo's qpos0
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q[6] = 1;
  CHECK_THAT(placed(model, q, "torso").p, AllClose(Vec3::Zero(), 0));
  CHECK_THAT(placed(model, q, "imu").p, AllClose(Vec3(0.05, 0, 0.02), 1e-15));
}

TEST_CASE("MJCF refusals name the element, the file and the line", "[mjcf]") {
  const auto refusal = [](const std::string& name) {
    try {
      load_model(kMjcf + "bad/" + name + ".xml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(refusal("ball_axis"),
             Contains("ball_axis.xml:4: <joint type=\"ball\" axis>: a ball joint turns about "
                      "every axis, it has none"));
  CHECK_THAT(refusal("ball_range"),
             Contains("ball_range.xml:5: <joint type=\"ball\" range>: a ball joint's limit"));
  CHECK_THAT(refusal("armature"), Contains("armature.xml:7: <joint armature> is not supported"));
  CHECK_THAT(refusal("weld"), Contains("weld.xml:9: <weld> equality constraints"));
  CHECK_THAT(refusal("gravcomp"), Contains("gravcomp.xml:3: <body gravcomp>"));
  CHECK_THAT(refusal("composite"), Contains("composite.xml:4: <composite> is not supported"));
  CHECK_THAT(refusal("mesh"), Contains("mesh.xml:8: <geom type=\"mesh\">: eom does not read"));
  CHECK_THAT(refusal("massless"), Contains("massless.xml:4: joint 'j' moves no mass"));
  CHECK_THAT(refusal("self_include"), Contains("self_include_part.xml:2: <include"));
  CHECK_THAT(refusal("self_include"), Contains("includes itself"));
  CHECK_THAT(refusal("missing_include"), Contains("missing_include.xml:3: <include"));
  CHECK_THAT(refusal("two_orientations"), Contains("two_orientations.xml:3: <body> has both"));
  std::vector<Diagnostic> warnings;
  load_model(kMjcf + "bad/radian_range.xml", {}, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0].message, Contains("line 5: <joint range> spans more than 2 pi"));
}

TEST_CASE("MJCF <frame>: its placement composes into the bodies and sites inside", "[mjcf]") {
  const std::string text = R"(<mujoco><compiler angle="radian"/><worldbody>
      <frame pos="1 0 0" euler="0 0 1.5707963267948966">
        <site name="s" pos="1 0 0"/>
        <body name="b" pos="0 1 0"><joint name="j" type="slide" axis="1 0 0"/>
          <geom size="0.1"/></body>
      </frame></worldbody></mujoco>)";
  const Model model = build_mjcf_model(text, "<string>");
  Eigen::VectorXd q = Eigen::VectorXd::Zero(1);
  CHECK_THAT(placed(model, q, "s").p, AllClose(Vec3(1, 1, 0), 1e-15));
  CHECK_THAT(placed(model, q, "b").p, AllClose(Vec3(0, 0, 0), 1e-15));
  q[0] = 0.5;  // along the body's x, the world's y
  CHECK_THAT(placed(model, q, "b").p, AllClose(Vec3(0, 0.5, 0), 1e-15));
}

TEST_CASE("MJCF gravity: <option gravity> and <flag gravity=\"disable\">, --gravity wins",
          "[mjcf]") {
  const std::string tilted = R"(<mujoco><option gravity="0 -1 -2"/><worldbody/></mujoco>)";
  CHECK_THAT(build_mjcf_model(tilted, "<string>").gravity, AllClose(Vec3(0, -1, -2), 0));
  const std::string off = R"(<mujoco><option><flag gravity="disable"/></option><worldbody/>
      </mujoco>)";
  CHECK_THAT(build_mjcf_model(off, "<string>").gravity, AllClose(Vec3::Zero(), 0));
  UrdfOptions moon;
  moon.gravity = Vec3(0, 0, -1.62);
  CHECK_THAT(build_mjcf_model(tilted, "<string>", moon).gravity, AllClose(moon.gravity, 0));
}
