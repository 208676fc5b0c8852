// URDF parsing and model building: layout, merging of fixed joints, ordering, joint kinds, errors.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "matchers.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// base -> (b_joint, revolute) -> arm -> (tool_joint, fixed) -> tool (2 kg at x = 0.5)
//      -> (a_joint, continuous, axis 0 0 2) -> wheel
const char* kTree = R"(<?xml version="1.0"?>
<robot name="tree">
  <link name="base"><inertial><mass value="5"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="b_joint" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="2" effort="10" velocity="3"/>
    <dynamics damping="0.5" friction="0.25"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="0.25 0 0"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial>
  </link>
  <joint name="tool_joint" type="fixed">
    <parent link="arm"/><child link="tool"/><origin xyz="0.5 0 0"/>
  </joint>
  <link name="tool">
    <inertial><mass value="2"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
  </link>
  <joint name="a_joint" type="continuous">
    <parent link="base"/><child link="wheel"/><axis xyz="0 0 2"/>
  </joint>
  <link name="wheel">
    <inertial><mass value="0.5"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.02"/></inertial>
  </link>
  <transmission name="t"><joint name="b_joint"/></transmission>
</robot>)";

Model build(const std::string& text, bool floating_base = false) {
  LoadOptions options;
  options.floating_base = floating_base;
  return build_model(parse_urdf(text, "tree.urdf"), options);
}

}  // namespace

TEST_CASE("URDF tree: order, sizes, limits, frames", "[urdf]") {
  const Model model = build(kTree);
  REQUIRE(model.njoints == 3);
  // siblings in byte-wise order of joint names: a_joint before b_joint
  CHECK(model.joint_names[1] == "a_joint");
  CHECK(model.joint_names[2] == "b_joint");
  CHECK(model.nq == 2);
  CHECK(model.nv == 2);
  CHECK(model.root_link == "base");
  CHECK(model.parent[1] == 0);
  CHECK(model.parent[2] == 0);
  // continuous: one angle, unbounded; axis normalised
  CHECK_FALSE(model.joints[1].bounded);
  CHECK_THAT(model.joints[1].axis, AllClose(Vec3::UnitZ(), kTolRoundoff));
  CHECK(std::isinf(model.lower_limit[0]));
  CHECK(model.lower_limit[1] == -1);
  CHECK(model.upper_limit[1] == 2);
  CHECK(model.effort_limit[1] == 10);
  CHECK(model.velocity_limit[1] == 3);
  CHECK(model.damping[1] == 0.5);
  CHECK(model.friction[1] == 0.25);
  CHECK(model.total_mass == 8.5);
  // every link is a frame, plus world
  for (const char* name : {"world", "base", "arm", "tool", "wheel"})
    CHECK(model.frame_index(name) >= 0);
  CHECK(model.frames[model.frame_index("tool")].parent == 2);
  CHECK_THAT(model.frames[model.frame_index("tool")].placement.p, AllClose(Vec3(0.5, 0, 0), 0));
  CHECK_THROWS_WITH(model.require_frame("tol"), Catch::Contains("did you mean 'tool'"));
}

TEST_CASE("fixed joints merge mass, centre of mass and inertia into the parent body", "[urdf]") {
  const Model model = build(kTree);
  const Inertia& arm = model.inertia[2];
  // 1 kg at 0.25 and 2 kg at 0.5: com at (0.25 + 1.0) / 3
  CHECK(arm.m == 3);
  CHECK_THAT(arm.c, AllClose(Vec3(1.25 / 3, 0, 0), kTolRoundoff));
  // about the com: own inertias + m d^2 on y and z
  const double d1 = 0.25 - 1.25 / 3, d2 = 0.5 - 1.25 / 3;
  const double parallel = 1 * d1 * d1 + 2 * d2 * d2;
  CHECK(arm.I_c(0, 0) == Approx(0.011).epsilon(1e-14));
  CHECK(arm.I_c(1, 1) == Approx(0.021 + parallel).epsilon(1e-14));
  CHECK(arm.I_c(2, 2) == Approx(0.021 + parallel).epsilon(1e-14));
  // the root body is welded to the world: its mass is kept apart from the dynamics
  CHECK(model.inertia[0].m == 5);
}

TEST_CASE("floating base adds the free-flyer root joint", "[urdf]") {
  const Model model = build(kTree, true);
  CHECK(model.joint_names[1] == "root");
  CHECK(model.nq == 9);
  CHECK(model.nv == 8);
  CHECK(model.joints[1].kind == JointKind::floating);
  CHECK(model.inertia[1].m == 5);
  CHECK(model.q_names[0] == "root.x");
  CHECK(model.q_names[6] == "root.qw");
  CHECK(model.v_names[5] == "root.wz");
  CHECK(model.tau_names[0] == "root.fx");
  CHECK(neutral(model)[6] == 1);
}

TEST_CASE("planar and floating URDF joints", "[urdf]") {
  const char* text = R"(<robot name="p">
    <link name="ground"/>
    <joint name="slide" type="planar"><parent link="ground"/><child link="puck"/><axis xyz="0 0 1"/></joint>
    <link name="puck"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <joint name="drone" type="floating"><parent link="puck"/><child link="body"/></joint>
    <link name="body"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  </robot>)";
  const Model model = build(text);
  CHECK(model.nq == 10);
  CHECK(model.nv == 9);
  CHECK(model.q_names[2] == "slide.theta");
  CHECK(model.v_names[2] == "slide.w");
  CHECK(model.q_names[9] == "drone.qw");
  Rng rng(7);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  CHECK_THAT(difference(model, q, integrate(model, q, v)), AllClose(v, 1e-12));
}

TEST_CASE("URDF input errors name the file and line", "[urdf]") {
  CHECK_THROWS_WITH(parse_urdf("<robot name='x'>\n<link name='a'>\n</robot>", "bad.urdf"),
                    Catch::StartsWith("bad.urdf:") && Catch::Contains("malformed XML"));
  CHECK_THROWS_WITH(parse_urdf("<model/>", "m.urdf"),
                    Catch::Contains("expected a <robot> root element"));
  const char* bad_number =
      "<robot name='x'>\n<link name='a'/>\n<joint name='j' type='revolute'>\n"
      "<parent link='a'/><child link='b'/>\n<origin xyz='1 abc 0'/>\n</joint>\n"
      "<link name='b'/></robot>";
  CHECK_THROWS_WITH(parse_urdf(bad_number, "n.urdf"),
                    Catch::StartsWith("n.urdf:5:") && Catch::Contains("'abc' is not a number"));
  const char* missing =
      "<robot name='x'>\n<link name='a'/>\n<joint name='j' type='revolute'>\n"
      "<child link='b'/></joint><link name='b'/></robot>";
  CHECK_THROWS_WITH(parse_urdf(missing, "m.urdf"),
                    Catch::StartsWith("m.urdf:3:") && Catch::Contains("<parent"));
  CHECK_THROWS_AS(load_urdf("/nonexistent/robot.urdf"), InputError);
  // build_model refuses what check_urdf calls an error
  const char* negative =
      "<robot name='x'><link name='a'/><joint name='j' type='continuous'>"
      "<parent link='a'/><child link='b'/></joint><link name='b'><inertial>"
      "<mass value='-1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/>"
      "</inertial></link></robot>";
  CHECK_THROWS_AS(build_model(parse_urdf(negative, "neg.urdf")), ModelError);
}

TEST_CASE("URDF numbers beyond a double, and long ones, in messages", "[urdf]") {
  const auto with_mass = [](const std::string& mass) {
    return "<robot name='x'><link name='a'><inertial>\n<mass value='" + mass +
           "'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
           "</robot>";
  };
  CHECK_THROWS_WITH(parse_urdf(with_mass("1e-400"), "m.urdf"),
                    "m.urdf:2: <mass value=\"1e-400\">: '1e-400' underflows to 0 (below the "
                    "smallest double, 4.9e-324)");
  CHECK_THROWS_WITH(parse_urdf(with_mass("-1e400"), "m.urdf"),
                    "m.urdf:2: <mass value=\"-1e400\">: '-1e400' is out of the range of a double "
                    "(beyond 1.8e308)");
  // a subnormal is a double: read as it is
  CHECK(parse_urdf(with_mass("1e-310"), "m.urdf").links[0].mass == 1e-310);
  // 1 MB of digits: the message shows 60 of them and the length, twice
  const std::string digits(1000000, '7');
  CHECK_THROWS_WITH(parse_urdf(with_mass(digits + "x"), "m.urdf"),
                    "m.urdf:2: <mass value=\"" + digits.substr(0, 60) +
                        "... (1000001 bytes)\">: '" + digits.substr(0, 60) +
                        "...' (1000001 bytes) is not a number");
}

TEST_CASE("unprocessed xacro files are named as such, with what to run", "[urdf]") {
  const auto xacro = [](const std::string& text, int line, const std::string& what) {
    INFO(text);
    try {
      parse_urdf(text, "arm.urdf.xacro");
      FAIL("parsed");
    } catch (const InputError& e) {
      CHECK(e.line() == line);
      CHECK(e.message() == "an unprocessed xacro file (" + what +
                               "): run `xacro arm.urdf.xacro > out.urdf` and give eom out.urdf");
    }
  };
  // xacro keeps the namespace in its output: that alone is no sign
  CHECK(parse_urdf("<robot name='a' xmlns:xacro='http://www.ros.org/wiki/xacro'>\n<link name='b'/>"
                   "</robot>")
            .links.size() == 1);
  xacro(
      "<robot name='a' xmlns:xacro='http://www.ros.org/wiki/xacro'>\n<link name='b'/>\n"
      "<xacro:property name='m' value='1'/></robot>",
      3, "it has a <xacro:property> element");
  xacro(
      "<robot name='a'>\n<link name='b'>\n<inertial><mass value='${m}'/></inertial></link></robot>",
      3, "it has value=\"${m}\" in <mass>");
  xacro(
      "<robot name='a'>\n<link name='b'><visual><geometry><mesh filename='$(find p)/m.stl'/>"
      "</geometry></visual></link></robot>",
      2, "it has filename=\"$(find p)/m.stl\" in <mesh>");
  xacro("<robot name='a'>\n<link name='b'/>\n<xacro:arm side='l'/></robot>", 3,
        "it has a <xacro:arm> element");
  xacro("<robot name='a'>\n<include filename='x.urdf'/><link name='b'/></robot>", 2,
        "it has an <include> element");
  // a deep document is searched without recursion
  std::string deep = "<robot name='a'><link name='b'/><gazebo>";
  for (int k = 0; k < 60; ++k) deep += "<g>";
  deep += "<x v='${y}'/>";
  for (int k = 0; k < 60; ++k) deep += "</g>";
  deep += "</gazebo></robot>";
  xacro(deep, 1, "it has v=\"${y}\" in <x>");
}
