// load_model: the format of a robot file told apart by its content, whatever its name says (each
// file here ends in .txt), byte-order mark and leading white space included.

#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>
#include <eom/parsers/load_model.hpp>

#include "scratch.hpp"

using namespace eom;
using namespace eom::test;

namespace {

const std::string kBom = "\xEF\xBB\xBF";

// a file named without a format's extension, holding `text`
std::string file_with(const std::string& name, const std::string& text) {
  const std::string path = scratch_path(name + ".txt");
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// one joint in each format, named after the format so that the model says which parser built it
const std::string kJson = R"({"format": "dh", "name": "from_json", "joints": [
  {"name": "j", "type": "prismatic", "a": 0, "alpha": 0, "d": 0, "theta": 0, "mass": 1,
   "com": [0, 0, 0], "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]})";
const std::string kMjcfText = R"(<?xml version="1.0"?>
<!-- a comment naming <robot> first -->
<mujoco model="from_mjcf">
  <worldbody>
    <body name="b">
      <joint name="j" type="ball"/>
      <geom type="sphere" size="0.1"/>
    </body>
  </worldbody>
</mujoco>)";
const std::string kUrdf = R"(<robot name="from_urdf">
  <link name="base"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>
</robot>)";

}  // namespace

TEST_CASE("load_model tells a JSON model, MJCF and URDF apart by content", "[load_model]") {
  const Model json = load_model(file_with("json", kJson));
  CHECK(json.name == "from_json");
  CHECK(json.joint_type_name(1) == std::string("prismatic"));

  const Model mjcf = load_model(file_with("mjcf", kMjcfText));
  CHECK(mjcf.name == "from_mjcf");
  CHECK(mjcf.joint_type_name(1) == std::string("ball"));
  CHECK(mjcf.nq == 4);

  const Model urdf = load_model(file_with("urdf", kUrdf));
  CHECK(urdf.name == "from_urdf");
  CHECK(urdf.joint_type_name(1) == std::string("continuous"));
}

TEST_CASE("load_model reads past a byte-order mark and leading white space", "[load_model]") {
  CHECK(load_model(file_with("json_bom", kBom + " \n\t" + kJson)).name == "from_json");
  CHECK(load_model(file_with("mjcf_bom", kBom + kMjcfText)).name == "from_mjcf");
  CHECK(load_model(file_with("urdf_bom", kBom + kUrdf)).name == "from_urdf");
  CHECK(load_model(file_with("urdf_space", "\n  " + kUrdf)).name == "from_urdf");
}

TEST_CASE("load_model reads what is neither JSON nor MJCF as URDF", "[load_model]") {
  // a <robot> parser's message, not a JSON or MJCF one
  CHECK_THROWS_WITH(load_model(file_with("other", "<model/>")), Catch::Contains("<robot>"));
  CHECK_THROWS_AS(load_model(file_with("empty", "")), InputError);
}

TEST_CASE("load_model gives the options to every format", "[load_model]") {
  LoadOptions options;
  options.floating_base = true;
  const Model json = load_model(file_with("json_floating", kJson), options);
  CHECK(json.joint_type_name(1) == std::string("free-flyer"));
  const Model urdf = load_model(file_with("urdf_floating", kUrdf), options);
  CHECK(urdf.joint_type_name(1) == std::string("free-flyer"));
  CHECK(urdf.joint_type_name(2) == std::string("continuous"));
  // an MJCF model floats by its own <freejoint>, not by the option
  CHECK_THROWS_AS(load_model(file_with("mjcf_floating", kMjcfText), options), ModelError);
}

TEST_CASE("load_model refuses nesting beyond its bound in every format, naming it",
          "[load_model]") {
  // 100,000 levels, generated here: JSON lists, URDF and MJCF elements (a body chain)
  const int levels = 100000;
  const std::string lists = std::string(levels, '[') + std::string(levels, ']');
  std::string bodies, ends;
  for (int k = 0; k < levels; ++k) {
    bodies += "<body><joint/><geom size=\"0.1\"/>";
    ends += "</body>";
  }
  std::string elements, closes;
  for (int k = 0; k < levels; ++k) {
    elements += "<link>";
    closes += "</link>";
  }
  const std::pair<std::string, std::string> cases[] = {
      {"deep_json", R"({"format": "dh", "name": )" + lists + "}"},
      {"deep_mjcf", "<mujoco>\n<worldbody>" + bodies + ends + "</worldbody></mujoco>"},
      {"deep_urdf", "<robot name=\"r\">\n" + elements + closes + "</robot>"},
  };
  for (const auto& [name, text] : cases) {
    CAPTURE(name);
    try {
      load_model(file_with(name, text));
      FAIL("loaded");
    } catch (const InputError& e) {
      CHECK(e.line() > 0);
      CHECK_THAT(e.message(), Catch::Matches("(malformed XML: elements|objects and lists) nested "
                                             "more than (98|100) deep, the most eom reads"));
    }
  }
}

TEST_CASE("load_model reads no device and no file beyond 64 MiB", "[load_model]") {
  CHECK_THROWS_WITH(load_model("/dev/zero"), Catch::StartsWith("/dev/zero: is neither a regular "
                                                               "file nor a pipe"));
  // a sparse file: its size is refused before a byte is read
  const std::string big = file_with("big", kUrdf);
  std::filesystem::resize_file(big, (std::uintmax_t{64} << 20) + 1);
  CHECK_THROWS_WITH(load_model(big),
                    Catch::EndsWith("big.txt: larger than 64 MiB, the most eom reads of a robot "
                                    "file"));
}
