// One checker for every model format (parsers/physical_bounds.hpp): a length, mass or joint scale
// beyond the bounds of core/tolerances.hpp is refused by the URDF, MJCF and JSON loaders alike,
// with one message naming the joint; the same robot just within the bounds loads.

#include <string>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/mjcf.hpp>
#include <eom/parsers/urdf.hpp>

#include "core/tolerances.hpp"

using namespace eom;

namespace {

// one revolute joint moving a point mass `mass` kg at `x` m along the link, in each format
std::string urdf(const std::string& mass, const std::string& x) {
  return R"(<robot name="r"><link name="base"/>
  <link name="arm"><inertial><origin xyz=")" +
         x + R"( 0 0"/><mass value=")" + mass + R"("/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
  </joint></robot>)";
}
std::string mjcf(const std::string& mass, const std::string& x) {
  return R"(<mujoco><worldbody><body name="arm"><joint name="j" axis="0 0 1"/>
    <inertial pos=")" +
         x + R"( 0 0" mass=")" + mass + R"(" diaginertia="1 1 1"/></body></worldbody></mujoco>)";
}
std::string dh(const std::string& mass, const std::string& a) {
  return R"({"format": "dh", "joints": [{"name": "j", "type": "revolute", "a": )" + a +
         R"(, "alpha": 0, "d": 0, "theta": 0, "mass": )" + mass +
         R"(, "com": [0, 0, 0], "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]})";
}
// a product-of-exponentials joint about z whose screw axis has norm `w`
std::string poe(const std::string& w) {
  return R"({"format": "poe", "joints": [{"name": "j", "type": "revolute"}],
    "M": [[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]], [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]],
    "S": [[0, 0, )" +
         w + R"(, 0, 0, 0]],
    "G": [[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],
           [0,0,0,0,0,1]]]})";
}

using Builder = std::string (*)(const std::string&, const std::string&);

Model build(Builder format, const std::string& mass, const std::string& x) {
  const std::string text = format(mass, x);
  if (format == &urdf) return build_model(parse_urdf(text, "r.urdf"));
  if (format == &mjcf) return build_mjcf_model(text, "r.xml");
  return build_json_model(text, "r.json");
}

}  // namespace

TEST_CASE("every model format is held to the same physical bounds", "[physical_bounds]") {
  for (const Builder format : {&urdf, &mjcf, &dh}) {
    // at the bounds (a 1e9 kg body 1e6 m out): a model, whatever its format
    CHECK(build(format, "1e9", "1e6").total_mass == 1e9);
    // a mass, then a length, beyond them: one message, whatever the format
    CHECK_THROWS_WITH(build(format, "1e308", "0.5"),
                      Catch::Contains("has mass 1e+308 kg, beyond the 1e+09 kg a model may state"));
    // (1e100: its square is still a double; at 1e308 a URDF's own check finds the overflow)
    CHECK_THROWS_WITH(build(format, "1", "1e100"),
                      Catch::Contains("1e+100 m from its joint's frame, beyond the 1e+06 m a "
                                      "model may state"));
    CHECK_THROWS_AS(build(format, "2e9", "0.5"), ModelError);
    CHECK_THROWS_AS(build(format, "1", "2e6"), ModelError);
  }
}

TEST_CASE("a URDF's bound error names the joint's line", "[physical_bounds]") {
  try {
    build(&urdf, "1e308", "0");
    FAIL("refused");
  } catch (const ModelError& e) {
    CHECK(e.file() == "r.urdf");
    CHECK(e.line() == 4);  // the <joint> element
    CHECK_THAT(e.message(), Catch::StartsWith("link 'arm' (the body moved by joint 'j')"));
  }
}

TEST_CASE("a screw axis whose norm is beyond the joint-scale bound is refused",
          "[physical_bounds]") {
  std::vector<Diagnostic> warnings;
  CHECK(build_json_model(poe("1e6"), "r.json", {}, &warnings).joints[1].scale == 1e6);
  // the norm of 1e200 is 1e200 (not an overflow shown as "null"), outside 1e-6 to 1e6
  CHECK_THROWS_WITH(build_json_model(poe("1e200"), "r.json"),
                    Catch::Contains("(the norm of its screw axis) is 1e+200, outside 1e-06 to "
                                    "1e+06"));
  CHECK_THROWS_WITH(build_json_model(poe("1e-7"), "r.json"), Catch::Contains("is 1e-07, outside"));
}
