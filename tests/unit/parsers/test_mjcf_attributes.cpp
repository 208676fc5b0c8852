// MJCF attribute reading: typed values from the element or its <default> class, orientations in
// each spelling against rotations built by hand, and refusals that name the file and the line.

#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <eom/core/errors.hpp>

#include "parsers/mjcf_attributes.hpp"

using namespace eom;
using namespace eom::detail;
using tinyxml2::XMLElement;

namespace {

// a document whose lines are numbered as written: line 1 <mujoco>, line 2 the first child
struct Document {
  explicit Document(const char* text, const std::string& file = "model.xml")
      : attributes(file, &warnings) {
    REQUIRE(doc.Parse(text) == tinyxml2::XML_SUCCESS);
    attributes.add_source(&doc, {file, nullptr, 0});
  }
  // the n-th child of <mujoco> (0-based)
  const XMLElement* child(int n) const {
    const XMLElement* e = doc.RootElement()->FirstChildElement();
    for (int k = 0; k < n; ++k) e = e->NextSiblingElement();
    return e;
  }
  tinyxml2::XMLDocument doc;
  std::vector<Diagnostic> warnings;
  MjcfAttributes attributes;
};

// the ModelError an attribute read throws
template <class Read>
ModelError error_of(Read read) {
  try {
    read();
  } catch (const ModelError& e) {
    return e;
  }
  FAIL("no ModelError");
  return ModelError("");
}

}  // namespace

TEST_CASE("typed values from the element, else its class, else the fallback", "[mjcf_attributes]") {
  Document d(R"(<mujoco>
<joint pos="1 2.5 -3" damping="+0.5" limited="true"/>
<geom/>
</mujoco>)");
  d.attributes.settings.defaults["arm"]["geom"]["size"] = "0.25 4";
  d.attributes.settings.defaults["arm"]["joint"]["damping"] = "7";
  const XMLElement* joint = d.child(0);
  const XMLElement* geom = d.child(1);
  CHECK(d.attributes.fixed<3>(joint, "pos", "arm", Vec3::Zero()) == Vec3(1, 2.5, -3));
  // the element's own value wins over its class's
  CHECK(d.attributes.number(joint, "damping", "arm", 0) == 0.5);
  CHECK(d.attributes.fixed<2>(geom, "size", "arm", Eigen::Vector2d::Zero()) ==
        Eigen::Vector2d(0.25, 4));
  CHECK(d.attributes.number(geom, "mass", "arm", 3) == 3);
  CHECK(d.attributes.flag(joint, "limited", "", false));
  CHECK(d.attributes.text(geom, "type", "main", "sphere") == "sphere");
  CHECK(d.attributes.get(geom, "size", "main") == nullptr);
  CHECK(d.attributes.has_class("arm"));
  CHECK_FALSE(d.attributes.has_class("leg"));
}

TEST_CASE("angles in degrees unless the compiler says radians", "[mjcf_attributes]") {
  Document d("<mujoco/>");
  CHECK(d.attributes.angle(90) == Approx(kPi / 2).epsilon(1e-15));
  d.attributes.settings.degrees = false;
  CHECK(d.attributes.angle(1.5) == 1.5);
}

TEST_CASE("orientations in each spelling", "[mjcf_attributes]") {
  Document d(R"(<mujoco>
<body quat="0 0 0 1"/>
<body axisangle="0 0 2 90"/>
<body euler="90 0 90"/>
<body xyaxes="0 1 0 -1 0 0"/>
<body zaxis="0 0 -1"/>
<geom fromto="0 0 0 0 2 0"/>
</mujoco>)");
  const MjcfAttributes& a = d.attributes;
  const Mat3 Rz90 = Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()).toRotationMatrix();
  const Mat3 Rx90 = Eigen::AngleAxisd(kPi / 2, Vec3::UnitX()).toRotationMatrix();
  // w x y z: a half turn about z
  CHECK(a.orientation(d.child(0), "").isApprox(Vec3(-1, -1, 1).asDiagonal().toDenseMatrix()));
  CHECK(a.orientation(d.child(1), "").isApprox(Rz90));
  // "xyz": about x, then about the moved z
  CHECK(a.orientation(d.child(2), "").isApprox(Rx90 * Rz90));
  CHECK(a.orientation(d.child(3), "").isApprox(Rz90));
  // z to -z by the shortest arc: a half turn about x
  CHECK(a.orientation(d.child(4), "").isApprox(Vec3(1, -1, -1).asDiagonal().toDenseMatrix()));
  // fromto: at the midpoint, z along the segment
  const SE3 M = a.pose(d.child(5), "");
  CHECK(M.p.isApprox(Vec3(0, 1, 0)));
  CHECK((M.R * Vec3::UnitZ()).isApprox(Vec3::UnitY()));
}

TEST_CASE("refusals name the file and the element's line", "[mjcf_attributes]") {
  Document d(R"(<mujoco>
<joint pos="1 two 3"/>
<joint range="1 2 3"/>

<joint limited="yes"/>
<body quat="1 0 0 0" euler="0 0 0"/>
</mujoco>)",
             "robot.xml");
  const MjcfAttributes& a = d.attributes;
  const ModelError number = error_of([&] { a.fixed<3>(d.child(0), "pos", "", Vec3::Zero()); });
  CHECK(number.file() == "robot.xml");
  CHECK(number.line() == 2);
  CHECK(number.message() == "<joint pos=\"1 two 3\">: 'two' is not a number");
  const ModelError count =
      error_of([&] { a.fixed<2>(d.child(1), "range", "", Eigen::Vector2d::Zero()); });
  CHECK(count.line() == 3);
  CHECK(count.message() == "<joint range=\"1 2 3\">: expected 2 numbers, found 3");
  const ModelError flag = error_of([&] { a.flag(d.child(2), "limited", "", false); });
  CHECK(flag.line() == 5);
  CHECK(flag.message() == "<joint limited=\"yes\">: expected true or false");
  const ModelError both = error_of([&] { a.orientation(d.child(3), ""); });
  CHECK(both.line() == 6);
  CHECK(both.message() == "<body> has both 'quat' and 'euler': give one orientation");
}

TEST_CASE("an element of an included file is placed in that file", "[mjcf_attributes]") {
  Document d("<mujoco>\n<geom/>\n</mujoco>");
  tinyxml2::XMLDocument part;
  REQUIRE(part.Parse("<mujoco>\n\n<joint pos=\"x\"/>\n</mujoco>") == tinyxml2::XML_SUCCESS);
  d.attributes.add_source(&part, {"parts/arm.xml", &d.doc, 1});
  const XMLElement* joint = part.RootElement()->FirstChildElement();
  CHECK(d.attributes.place(joint) == "parts/arm.xml:3");
  CHECK(d.attributes.place(d.child(0)) == "line 2");
  const ModelError e = error_of([&] { d.attributes.number(joint, "pos", "", 0); });
  CHECK(e.file() == "parts/arm.xml");
  CHECK(e.line() == 3);
  d.attributes.warn("a warning");
  REQUIRE(d.warnings.size() == 1);
  CHECK(d.warnings[0].on_load);
}
