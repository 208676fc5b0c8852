// MJCF: the loader against hand derivations (a capsule pendulum's inertia, the orientation
// spellings, defaults and includes) and its refusals. The comparison with MuJoCo itself is in
// tests/mujoco/.

#include <cmath>
#include <filesystem>

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
#include "scratch.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

const std::string kMjcf = kDataDir + "/mjcf/";
constexpr double kPiByHand = 3.14159265358979323846;

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
  const double m_cyl = rho * kPiByHand * r * r * h, m_sph = rho * 4.0 / 3 * kPiByHand * r * r * r;
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
  const Eigen::VectorXd q90 = Eigen::VectorXd::Constant(1, kPiByHand / 2);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(1);
  // turning +90 degrees about y takes -z to -x: the weight pulls it back down (+y torque)
  CHECK(rnea(model, data, q90, zero, zero)[0] == Approx(m * 9.81 * h / 2).epsilon(1e-13));
  CHECK(model.damping[0] == 0.5);
  CHECK(model.friction[0] == 0.25);
  CHECK(model.joint_type_name(1) == std::string("continuous"));
  CHECK_THAT(placed(model, q, "tip").p, AllClose(Vec3(0, 0, 0.5), 1e-15));
  CHECK_THAT(placed(model, q90, "tip").p, AllClose(Vec3(-0.5, 0, 1), 1e-15));
}

TEST_CASE("MJCF orientations: quat, axisangle, euler, xyaxes and zaxis agree", "[mjcf]") {
  const Model model = load_model(kMjcf + "orientations.xml");
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  const SE3 carrier = placed(model, q, "carrier");
  // euler="10 20 30" in degrees, eulerseq xyz (moving axes): Rx Ry Rz
  const double deg = kPiByHand / 180;
  const Mat3 R = about(Vec3::UnitX(), 10 * deg) * about(Vec3::UnitY(), 20 * deg) *
                 about(Vec3::UnitZ(), 30 * deg);
  CHECK_THAT(carrier.R, AllClose(R, 1e-15));
  CHECK_THAT(carrier.p, AllClose(Vec3(1, 2, 3), 1e-15));
  for (const char* spelling : {"quat", "axisangle", "euler", "xyaxes"}) {
    INFO(spelling);
    const SE3 site = placed(model, q, std::string("z90_") + spelling);
    CHECK_THAT(site.R, AllClose(R * about(Vec3::UnitZ(), kPiByHand / 2), 1e-15));
  }
  for (const char* spelling : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) {
    INFO(spelling);
    const SE3 site = placed(model, q, std::string("y90_") + spelling);
    CHECK_THAT(site.R, AllClose(R * about(Vec3::UnitY(), kPiByHand / 2), 1e-15));
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
  const double deg = kPiByHand / 180;
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
  CHECK(model.joint_type_name(joint("wrist")) == std::string("prismatic"));
  // masses: two spheres r 0.1 at 1000, a box of side 0.2 at 500, the cylinder's 2
  const double sphere = 1000 * 4.0 / 3 * kPiByHand * 1e-3;
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
  q << 30 * kPiByHand / 180, 0.25;
  CHECK_THAT(placed(model, q, "s").p, AllClose(Vec3(1, 0, 1), 1e-15));
  CHECK_THAT(placed(model, q, "c").p, AllClose(Vec3(0, 0, 0), 1e-15));
  // q = 0 turns the body -30 degrees about the anchor at x = 0.1
  q << 0, 0;
  const Vec3 turned = Vec3(0.1, 0, 1) + about(Vec3::UnitZ(), -kPiByHand / 6) * Vec3(0.9, 0, 0);
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
  CHECK_THAT(refusal("weld"), Contains("weld.xml:9: <weld> equality constraints"));
  CHECK_THAT(refusal("gravcomp"), Contains("gravcomp.xml:3: <body gravcomp>"));
  CHECK_THAT(refusal("composite"), Contains("composite.xml:4: <composite> is not supported"));
  CHECK_THAT(refusal("mesh"), Contains("mesh.xml:3: <mesh file=\"shell.stl\">: '"));
  CHECK_THAT(refusal("mesh"), Contains("bad/shell.stl': cannot open the file"));
  CHECK_THAT(refusal("massless"), Contains("massless.xml:4: joint 'j' moves no mass"));
  CHECK_THAT(refusal("self_include"), Contains("self_include_part.xml:2: <include"));
  CHECK_THAT(refusal("self_include"), Contains("includes itself"));
  CHECK_THAT(refusal("missing_include"), Contains("missing_include.xml:3: <include"));
  CHECK_THAT(refusal("two_orientations"), Contains("two_orientations.xml:3: <body> has both"));
  // an included device is refused at once, as the main file would be
  CHECK_THROWS_WITH(
      build_mjcf_model("<mujoco>\n  <include file=\"/dev/zero\"/>\n</mujoco>", "inc.xml"),
      Contains("inc.xml:2: <include file=\"/dev/zero\">: '/dev/zero': is neither a regular file "
               "nor a pipe"));
  std::vector<Diagnostic> warnings;
  load_model(kMjcf + "bad/radian_range.xml", {}, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0].message,
             Contains("<joint range> of 'j' (line 5), 'k' (line 11) span more than two turns"));
  // a joint of two turns, the UR5e's -2 pi to 2 pi, is a real range: no warning
  warnings.clear();
  build_mjcf_model(R"(<mujoco><compiler angle="radian" autolimits="true"/><worldbody>
      <body name="b"><joint name="j" range="-6.283185307179586 6.283185307179586"/>
        <geom size="0.1"/></body></worldbody></mujoco>)",
                   "<string>", {}, &warnings);
  CHECK(warnings.empty());
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
  LoadOptions moon;
  moon.gravity = Vec3(0, 0, -1.62);
  CHECK_THAT(build_mjcf_model(tilted, "<string>", moon).gravity, AllClose(moon.gravity, 0));
}

TEST_CASE("MJCF armature: on each of a joint's dofs, from the element or its default class",
          "[mjcf][armature]") {
  const Model model = load_model(kMjcf + "armature.xml");
  REQUIRE(model.nv == 9);
  Eigen::VectorXd expected(9);
  expected << 0, 0, 0, 0, 0, 0, 0.25, 0.05, 1.5;  // base (free), hip, knee, slide
  CHECK(model.armature == expected);
  CHECK(model.info[model.joint_index("hip")].armature == 0.25);
  // <freejoint> is MuJoCo's free joint with armature 0, whatever the joint defaults say; a
  // negative armature is refused by name
  const std::string text = R"(<mujoco><default><joint armature="0.5"/></default><worldbody>
      <body name="b"><freejoint name="f"/><geom size="0.1"/>
        <body name="c"><joint name="j"/><geom size="0.1"/></body></body>
      </worldbody></mujoco>)";
  const Model free = build_mjcf_model(text, "<string>");
  CHECK(free.armature.head<6>().isZero());
  CHECK(free.armature[6] == 0.5);
  CHECK_THROWS_WITH(build_mjcf_model(R"(<mujoco><worldbody><body name="b">
      <joint name="j" armature="-1"/><geom size="0.1"/></body></worldbody></mujoco>)",
                                     "neg.xml"),
                    Catch::Contains("neg.xml:2: <joint armature> is negative"));
  // MuJoCo's free-joint armature acts on the world-frame translation: refused
  CHECK_THROWS_WITH(build_mjcf_model(R"(<mujoco><worldbody><body name="b">
      <joint name="f" type="free" armature="0.1"/><geom size="0.1"/></body></worldbody></mujoco>)",
                                     "free.xml"),
                    Catch::Contains("free.xml:2: <joint type=\"free\" armature>: armature on a "
                                    "free joint is not supported"));
}

namespace {

// a model of one hinged body holding `geoms`, meshes found in tests/data/mjcf/meshes
Model mesh_model(const std::string& assets, const std::string& geoms,
                 const std::string& compiler = "") {
  const std::string text = "<mujoco><compiler meshdir=\"" + kMjcf + "meshes\" " + compiler +
                           "/><asset>" + assets + "</asset><worldbody><body name=\"b\">" +
                           "<joint name=\"j\"/>" + geoms + "</body></worldbody></mujoco>";
  return build_mjcf_model(text, "<string>");
}

std::string mesh_refusal(const std::string& assets, const std::string& geoms,
                         const std::string& compiler = "") {
  try {
    mesh_model(assets, geoms, compiler);
  } catch (const InputError& e) {
    return e.what();
  }
  return "loaded";
}

// the inertia of a solid box of density rho, corner `lo`, sides `d`, about the origin's axes
// carried to the point `at` (parallel axes)
Mat3 box_inertia_about(const Vec3& lo, const Vec3& d, double rho, const Vec3& at) {
  const double m = rho * d.prod();
  const Vec3 c = lo + d / 2 - at;
  Mat3 I = Mat3::Zero();
  I.diagonal() << m * (d[1] * d[1] + d[2] * d[2]) / 12, m * (d[0] * d[0] + d[2] * d[2]) / 12,
      m * (d[0] * d[0] + d[1] * d[1]) / 12;
  return I + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
}

}  // namespace

TEST_CASE("MJCF mesh geoms: a cube mesh (binary or ASCII STL, OBJ) weighs as the box geom",
          "[mjcf][mesh]") {
  // a cube of side a = 0.5 with a corner at the origin, density 1000: m = rho a^3, centre at
  // a/2 (1 1 1), I = m a^2 / 6 about it, by either rule (a cube is convex)
  const double a = 0.5, m = 1000 * a * a * a, I = m * a * a / 6;
  const Model box =
      mesh_model("", R"(<geom type="box" pos="0.25 0.25 0.25" size="0.25 0.25 0.25"/>)");
  CHECK(box.inertia[1].m == Approx(m).epsilon(1e-15));
  for (const char* file : {"cube.stl", "cube_ascii.stl", "cube.obj"}) {
    for (const char* compiler : {"", "exactmeshinertia=\"true\""}) {
      INFO(file << " " << compiler);
      const Model model = mesh_model(std::string("<mesh name=\"cube\" file=\"") + file + "\"/>",
                                     R"(<geom type="mesh" mesh="cube"/>)", compiler);
      const Inertia& body = model.inertia[1];
      CHECK(body.m == Approx(m).epsilon(1e-14));
      CHECK_THAT(body.c, AllClose(Vec3::Constant(a / 2), 1e-15));
      CHECK_THAT(body.I_c, AllClose(Mat3(I * Mat3::Identity()), 1e-13));
      CHECK_THAT(body.I_c, AllClose(box.inertia[1].I_c, 1e-13));
    }
  }
  // scaled (1, 2, 0.5): the box of sides 0.5, 1, 0.25; a given mass replaces density * volume
  const Model brick = mesh_model(R"(<mesh name="brick" file="cube.obj" scale="1 2 0.5"/>)",
                                 R"(<geom type="mesh" mesh="brick" mass="3"/>)");
  CHECK(brick.inertia[1].m == 3);
  CHECK_THAT(brick.inertia[1].c, AllClose(Vec3(0.25, 0.5, 0.125), 1e-15));
  CHECK_THAT(brick.inertia[1].I_c, AllClose(box_inertia_about(Vec3::Zero(), Vec3(0.5, 1, 0.25),
                                                              3 / 0.125, Vec3(0.25, 0.5, 0.125)),
                                            1e-14));
}

TEST_CASE("MJCF mesh geoms: a non-convex mesh, exactly and by MuJoCo 2.2's default rule",
          "[mjcf][mesh]") {
  // the U-shaped prism of meshes/u_prism.stl: three boxes (x from 0 to 0.25, 0.25 to 0.5 and
  // 0.5 to 0.75; y up to 0.5, 0.125 and 0.5; z up to 0.5), by hand
  const Vec3 lo[3] = {Vec3::Zero(), Vec3(0.25, 0, 0), Vec3(0.5, 0, 0)};
  const Vec3 d[3] = {Vec3(0.25, 0.5, 0.5), Vec3(0.25, 0.125, 0.5), Vec3(0.25, 0.5, 0.5)};
  double m = 0;
  Vec3 moment = Vec3::Zero();
  for (int k = 0; k < 3; ++k) {
    m += 1000 * d[k].prod();
    moment += 1000 * d[k].prod() * (lo[k] + d[k] / 2);
  }
  const Vec3 c = moment / m;
  Mat3 I = Mat3::Zero();
  for (int k = 0; k < 3; ++k) I += box_inertia_about(lo[k], d[k], 1000, c);
  const std::string asset = R"(<mesh file="u_prism.stl"/>)";
  const std::string geom = R"(<geom type="mesh" mesh="u_prism"/>)";
  const Model exact = mesh_model(asset, geom, R"(exactmeshinertia="true")");
  CHECK(exact.inertia[1].m == Approx(m).epsilon(1e-14));
  CHECK_THAT(exact.inertia[1].c, AllClose(c, 1e-15));
  CHECK_THAT(exact.inertia[1].I_c, AllClose(I, 1e-13));
  // the legacy rule (pyramids from the surface centroid, unsigned) weighs it more: MuJoCo's own
  // numbers are compared in tests/mujoco
  const Model legacy = mesh_model(asset, geom);
  CHECK(legacy.inertia[1].m > m * 1.2);
}

TEST_CASE("MJCF fromto on boxes and ellipsoids: size[0] across, half the segment along", "[mjcf]") {
  // MuJoCo 2.2: a = b = size[0], c = |to - from| / 2, the frame's z along the segment
  const Model box = mesh_model("", R"(<geom type="box" fromto="0 0 0 0 0 1" size="0.1 0.7"/>)");
  CHECK(box.inertia[1].m == Approx(1000 * 8 * 0.1 * 0.1 * 0.5).epsilon(1e-15));
  const double m = box.inertia[1].m;
  CHECK_THAT(box.inertia[1].c, AllClose(Vec3(0, 0, 0.5), 1e-15));
  CHECK_THAT(Vec3(box.inertia[1].I_c.diagonal()),
             AllClose(Vec3(m * (0.01 + 0.25) / 3, m * (0.01 + 0.25) / 3, m * 0.02 / 3), 1e-14));
  const Model ellipsoid =
      mesh_model("", R"(<geom type="ellipsoid" fromto="0 0 0 1 0 0" size="0.1"/>)");
  const double me = 1000 * 4.0 / 3 * kPiByHand * 0.1 * 0.1 * 0.5;
  CHECK(ellipsoid.inertia[1].m == Approx(me).epsilon(1e-15));
  // along x now: I_xx = m (a^2 + b^2) / 5, the others m (a^2 + c^2) / 5
  CHECK_THAT(Vec3(ellipsoid.inertia[1].I_c.diagonal()),
             AllClose(Vec3(me * 0.02 / 5, me * 0.26 / 5, me * 0.26 / 5), 1e-14));
}

TEST_CASE("MJCF mesh refusals name the file, the element and the line", "[mjcf][mesh]") {
  using Catch::Matchers::Contains;
  const std::string geom = R"(<geom type="mesh" mesh="m"/>)";
  const std::string bad = kMjcf + "bad/";
  CHECK_THAT(mesh_refusal(R"(<mesh name="m" file="no_such.stl"/>)", geom),
             Contains("<mesh file=\"no_such.stl\">: '") && Contains("no_such.stl': cannot open"));
  CHECK_THAT(mesh_refusal("<mesh name=\"m\" file=\"" + bad + "truncated.stl\"/>", geom),
             Contains("truncated.stl': a truncated or corrupt binary STL: its header says 12 "
                      "triangles, 84 + 50 * 12 bytes, the file has 659"));
  // open: refused when weighed exactly (the legacy rule weighs any surface, as MuJoCo does)
  CHECK_THAT(mesh_refusal("<mesh name=\"m\" file=\"" + bad + "open_box.stl\"/>", geom,
                          R"(exactmeshinertia="true")"),
             Contains("open_box.stl' is not a closed surface with outward faces (4 edges"));
  CHECK_THAT(mesh_refusal(R"(<mesh name="m" file="cube.stl"/>)", R"(<geom type="mesh" mesh="x"/>)"),
             Contains("<string>:1: <geom mesh='x'>: no <mesh> of that name"));
  CHECK_THAT(mesh_refusal(R"(<mesh name="m" file="cube.ply"/>)", geom),
             Contains("eom reads STL and OBJ meshes"));
  CHECK_THAT(mesh_refusal("", R"(<geom type="box" mesh="m" size="1 1 1"/>)"),
             Contains("a primitive fitted to a mesh is not supported"));
  // a mesh that links to a device (/dev/zero never ends) is refused before a byte is read
  const std::string zero = scratch_path("zero.stl");
  std::filesystem::create_symlink("/dev/zero", zero);
  CHECK_THAT(mesh_refusal("<mesh name=\"m\" file=\"" + zero + "\"/>", geom),
             Contains("zero.stl': is neither a regular file nor a pipe (a device may never end): "
                      "not read as a mesh"));
  // a massless mesh geom needs no file
  CHECK(mesh_model(R"(<mesh name="m" file="no_such.stl"/>)",
                   R"(<geom type="mesh" mesh="m" mass="0"/><geom size="0.1"/>)")
            .nv == 1);
}

TEST_CASE("MJCF actuators: the joints' effort limits are their actuators' force limits",
          "[mjcf][actuator]") {
  std::vector<Diagnostic> warnings;
  const Model model = load_model(kMjcf + "actuators.xml", {}, &warnings);
  const auto effort = [&](const char* joint) {
    return model.effort_limit[model.joints[model.joint_index(joint)].idx_v];
  };
  CHECK(effort("j1") == 5);          // main's default forcerange
  CHECK(effort("j2") == 2 * 40);     // class "strong": gear 2, forcerange +-40
  CHECK(effort("j3") == 0.5 * 7);    // |gear| times the larger bound of -3 .. 7
  CHECK(effort("j4") == 3 * 5 + 1);  // two actuators add
  CHECK(effort("j5") == INFINITY);   // forcelimited="false"
  CHECK(effort("j6") == INFINITY);   // no actuator
  std::string said;
  for (const Diagnostic& w : warnings) said += w.message + "\n";
  CHECK_THAT(said, Catch::Contains("asymmetric <actuator forcerange> (line 41)"));
  CHECK_THAT(said, Catch::Contains("<actuator> gains, control ranges and dynamics"));

  const auto refusal = [](const std::string& compiler, const std::string& actuator) {
    try {
      build_mjcf_model("<mujoco>" + compiler +
                           R"(<worldbody><body name="b"><joint name="j"/><geom size="0.1"/>
      </body></worldbody><actuator>)" +
                           actuator + "</actuator></mujoco>",
                       "act.xml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  const std::string autolimits = R"(<compiler autolimits="true"/>)";
  CHECK_THAT(refusal("", R"(<motor joint="j" forcerange="-1 1"/>)"),
             Catch::Contains("act.xml:2: <motor forcerange> without forcelimited=\"true\""));
  CHECK_THAT(refusal(autolimits, R"(<motor joint="k" forcerange="-1 1"/>)"),
             Catch::Contains("<motor joint=\"k\">: no joint 'k' in the model"));
  CHECK_THAT(refusal(autolimits, R"(<motor joint="j" forcerange="1 -1"/>)"),
             Catch::Contains("<motor forcerange>: the lower limit must be below the upper"));
  CHECK_THAT(refusal(autolimits, R"(<motor joint="j" forcelimited="true"/>)"),
             Catch::Contains("<motor forcerange>: the lower limit must be below the upper"));
  CHECK_THAT(refusal(autolimits, R"(<motor joint="j" forcelimited="yes"/>)"),
             Catch::Contains("<motor forcelimited=\"yes\">: expected true, false or auto"));
  CHECK_THAT(refusal(autolimits, R"(<motor joint="j" class="none" forcerange="-1 1"/>)"),
             Catch::Contains("<motor> uses the undefined <default> class 'none'"));
  CHECK_THAT(refusal(autolimits, R"(<motor joint="j" forcerange="-1 1" gear="1 2 3 4 5 6 7"/>)"),
             Catch::Contains("<motor gear>: expected 1 to 6 numbers"));
  // tendon and site transmissions drive no joint: said, not read
  CHECK(refusal(autolimits, R"(<motor site="s" forcerange="-1 1"/>)") == "loaded");
}

TEST_CASE("MJCF joint actuatorfrcrange bounds the sum of its actuators' forces (MuJoCo 3)",
          "[mjcf][actuator]") {
  std::vector<Diagnostic> warnings;
  const Model model = build_mjcf_model(R"(<mujoco><compiler autolimits="true"/><worldbody>
      <body name="a"><joint name="j1" actuatorfrcrange="-10 10"/><geom size="0.1"/>
      <body name="b"><joint name="j2" actuatorfrcrange="-7 3"/><geom size="0.1"/>
      <body name="c"><joint name="j3" actuatorfrcrange="-50 50"/><geom size="0.1"/>
      </body></body></body></worldbody><actuator>
      <motor joint="j1" forcerange="-20 20"/><motor joint="j3" gear="2" forcerange="-4 4"/>
      </actuator></mujoco>)",
                                       "frc.xml", {}, &warnings);
  const auto effort = [&](const char* joint) {
    return model.effort_limit[model.joints[model.joint_index(joint)].idx_v];
  };
  CHECK(effort("j1") == 10);  // the joint's bound below its actuator's 20
  CHECK(effort("j2") == 7);   // no actuator: the joint's own bound, its larger side
  CHECK(effort("j3") == 8);   // the actuator's 2 * 4 below the joint's 50
  REQUIRE_FALSE(warnings.empty());
  CHECK_THAT(warnings.front().message,
             Catch::Contains("asymmetric <joint actuatorfrcrange> (line 3)"));
  CHECK_THROWS_WITH(
      build_mjcf_model(R"(<mujoco><worldbody><body name="a">
      <joint name="j" actuatorfrcrange="-1 1"/><geom size="0.1"/></body></worldbody></mujoco>)",
                       "frc.xml"),
      Catch::Contains("frc.xml:2: <joint actuatorfrcrange> without actuatorfrclimited=\"true\""));
}
