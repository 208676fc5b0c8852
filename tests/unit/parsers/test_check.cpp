// check_urdf: the bad-URDF fixtures of tests/data/urdf, small inline cases, the shipped robots.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

namespace {

using Catch::Matchers::Contains;
using eom::Diagnostic;
constexpr auto kError = Diagnostic::Severity::error;
constexpr auto kWarning = Diagnostic::Severity::warning;

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

eom::UrdfDescription fixture(const std::string& name) {
  return eom::parse_urdf(file_text(eom::test::kDataDir + "/urdf/" + name), name);
}

struct Expected {
  Diagnostic::Severity severity;
  int line;
  std::string text;  // part of the message
};

std::string describe(const std::vector<Diagnostic>& found) {
  std::string out;
  for (const Diagnostic& d : found) {
    out += std::to_string(d.line) + (d.severity == kError ? ": error: " : ": warning: ") +
           d.message + "\n";
  }
  return out;
}

// every diagnostic, in order: severity, line and a part of the message
void require_diagnostics(const std::vector<Diagnostic>& found,
                         const std::vector<Expected>& expected) {
  INFO("found:\n" << describe(found));
  REQUIRE(found.size() == expected.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    CHECK(found[i].severity == expected[i].severity);
    CHECK(found[i].line == expected[i].line);
    CHECK_THAT(found[i].message, Contains(expected[i].text));
  }
}

void require_diagnostics(const std::string& name, const std::vector<Expected>& expected) {
  require_diagnostics(eom::check_urdf(fixture(name)), expected);
}

// a fixture parse_urdf refuses: the InputError's line and message
void require_parse_error(const std::string& name, int line, const std::string& text) {
  try {
    fixture(name);
    FAIL(name << " was parsed");
  } catch (const eom::InputError& e) {
    CHECK(e.line() == line);
    CHECK_THAT(e.message(), Contains(text));
  }
}

// <robot> on line 1, `body` from line 2
std::vector<Diagnostic> check_inline(const std::string& body, eom::UrdfOptions options = {}) {
  return eom::check_urdf(eom::parse_urdf("<robot name=\"t\">\n" + body + "</robot>\n"), options);
}

}  // namespace

TEST_CASE("check: a valid arm has no diagnostics", "[check]") {
  CHECK(eom::check_urdf(fixture("good_arm.urdf")).empty());
}

TEST_CASE("check: files parse_urdf refuses", "[check]") {
  require_parse_error("malformed_xml.urdf", 4, "malformed XML");
  require_parse_error("no_robot.urdf", 2, "expected a <robot> root element");
  require_parse_error("bad_number.urdf", 13, "'abc' is not a number");
}

TEST_CASE("check: structural errors of the fixtures", "[check]") {
  require_diagnostics("duplicate_link.urdf",
                      {{kError, 10, "link 'arm' is defined twice (lines 4 and 10)"}});
  require_diagnostics("duplicate_joint.urdf",
                      {{kError, 20, "joint 'shoulder' is defined twice (lines 16 and 20)"}});
  require_diagnostics("missing_link.urdf",
                      {{kError, 14, "joint 'wrist': child link 'hand' does not exist"}});
  require_diagnostics("two_roots.urdf", {{kError, 10, "2 root links 'base' (line 3) and 'stray'"}});
  require_diagnostics(
      "cycle.urdf", {{kError, 20, "kinematic cycle a -> b -> a through joints 'j_a_b' and 'j_b_a'"},
                     {kError, 24,
                      "link 'a' is the child of more than one joint: 'j_base_a' (line 16) and "
                      "'j_b_a' (line 24)"}});
  require_diagnostics("unknown_joint_type.urdf",
                      {{kError, 10,
                        "joint 'shoulder': unknown type 'ball' (expected revolute, continuous, "
                        "prismatic, fixed, floating or planar)"}});
  require_diagnostics("zero_axis.urdf",
                      {{kError, 10, "joint 'elbow': axis 0 0 0 must be non-zero"}});
}

TEST_CASE("check: physical errors of the fixtures", "[check]") {
  require_diagnostics("negative_mass.urdf",
                      {{kError, 5, "link 'forearm': mass -1 must be non-negative"}});
  require_diagnostics("nan_mass.urdf", {{kError, 5, "link 'forearm': mass nan must be finite"}});
  require_diagnostics("indefinite_inertia.urdf",
                      {{kError, 5,
                        "link 'forearm': inertia is not positive semi-definite (eigenvalues "
                        "-0.1, 0.1, 0.3)"}});
  require_diagnostics("lower_gt_upper.urdf",
                      {{kError, 10, "joint 'elbow': limit lower 1.5 > upper -1.5"}});
  require_diagnostics("negative_effort.urdf",
                      {{kError, 10, "joint 'slider': limit effort -20 must be non-negative"}});
  require_diagnostics("missing_limit.urdf",
                      {{kError, 10, "joint 'elbow': a revolute joint needs a <limit>"}});
}

TEST_CASE("check: warnings of the fixtures", "[check]") {
  require_diagnostics("non_physical_inertia.urdf",
                      {{kWarning, 5,
                        "link 'forearm': principal inertias 0.1, 0.1, 0.3 violate the triangle "
                        "inequality (a + b < c): not a physical rigid body"}});
  require_diagnostics("massless_leaf.urdf",
                      {{kWarning, 16,
                        "joint 'finger_slide' moves only massless links: the mass matrix is "
                        "singular (forward dynamics impossible)"}});
  require_diagnostics("mimic.urdf",
                      {{kWarning, 27,
                        "joint 'right' mimics 'left': eom's dynamics treat mimic joints as "
                        "independent joints"}});
}

TEST_CASE("check: non-finite numbers anywhere", "[check]") {
  const auto found = check_inline(R"(<link name="a">
  <inertial>
    <origin xyz="0 inf 0" rpy="0 0 0"/>
    <mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="nan" iyy="0.1" iyz="0" izz="-inf"/>
  </inertial>
</link>
<link name="b"/>
<joint name="j" type="revolute">
  <parent link="a"/>
  <child link="b"/>
  <origin xyz="0 0 0" rpy="nan 0 0"/>
  <axis xyz="0 0 inf"/>
  <limit lower="-inf" upper="1" effort="1" velocity="1"/>
  <dynamics damping="nan"/>
  <mimic joint="j" multiplier="inf"/>
</joint>
)");
  require_diagnostics(found, {{kError, 3, "link 'a': inertial origin xyz 0 inf 0 must be finite"},
                              {kError, 3, "link 'a': inertia ixz nan and izz -inf must be finite"},
                              {kError, 10, "joint 'j': origin rpy must be finite"},
                              {kError, 10, "joint 'j': axis 0 0 inf must be finite"},
                              {kError, 10, "joint 'j': limit lower -inf must be finite"},
                              {kError, 10, "joint 'j': dynamics damping nan must be finite"},
                              {kError, 10, "joint 'j': mimic multiplier inf must be finite"},
                              {kError, 10, "joint 'j' mimics itself"}});
}

TEST_CASE("check: mimic of a joint that does not exist", "[check]") {
  const auto found = check_inline(R"(<link name="a"/>
<link name="b"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="continuous">
  <parent link="a"/>
  <child link="b"/>
  <mimic joint="ghost"/>
</joint>
)");
  require_diagnostics(found, {{kError, 5, "joint 'j' mimics joint 'ghost', which does not exist"}});
}

TEST_CASE("check: limits that look off", "[check]") {
  const std::string bodies = R"(<link name="a"/>
<link name="b"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<link name="c"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
)";
  const auto found = check_inline(bodies + R"(<joint name="stuck" type="prismatic">
  <parent link="a"/>
  <child link="b"/>
  <limit lower="0.2" upper="0.2" effort="0" velocity="-1"/>
</joint>
<joint name="spin" type="continuous">
  <parent link="b"/>
  <child link="c"/>
  <limit lower="-3" upper="3" effort="1" velocity="0"/>
</joint>
)");
  require_diagnostics(
      found, {{kError, 7, "joint 'stuck': limit velocity -1 must be non-negative"},
              {kWarning, 7, "joint 'stuck': limit lower = upper = 0.2: the joint cannot move"},
              {kWarning, 7, "joint 'stuck': limit effort is 0: any actuation exceeds it"},
              {kWarning, 12, "joint 'spin': a continuous joint ignores limit lower -3 and upper 3"},
              {kWarning, 12, "joint 'spin': limit velocity is 0: any motion exceeds it"}});
  // a <limit> left at its defaults: one finding
  require_diagnostics(check_inline(R"(<link name="a"/>
<link name="b"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="revolute">
  <parent link="a"/><child link="b"/><limit/></joint>
)"),
                      {{kWarning, 5,
                        "joint 'j': limit lower = upper = effort = velocity = 0 (the defaults of "
                        "an empty <limit>): the joint cannot move and any actuation exceeds it"}});
}

TEST_CASE("check: a fixed joint's mimic tag is a note", "[check]") {
  const auto found = check_inline(R"(<link name="a"/>
<link name="b"/>
<joint name="j" type="revolute"><parent link="a"/><child link="c"/>
  <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
<link name="c"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="f" type="fixed"><parent link="c"/><child link="b"/><mimic joint="j"/></joint>
)");
  require_diagnostics(
      found, {{Diagnostic::Severity::note, 8, "joint 'f' is fixed: its mimic tag is ignored"}});
}

TEST_CASE("check: axes and limits matter only where the joint type uses them", "[check]") {
  const auto found = check_inline(R"(<link name="a"/>
<link name="b"/>
<joint name="weld" type="fixed">
  <parent link="a"/>
  <child link="b"/>
  <axis xyz="0 0 0"/>
  <limit lower="1" upper="-1" effort="-1" velocity="-1"/>
</joint>
)");
  CHECK(found.empty());
}

TEST_CASE("check: graphs that are not trees", "[check]") {
  SECTION("a cycle through every link leaves no root") {
    const auto found = check_inline(R"(<link name="a"/>
<link name="b"/>
<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>
)");
    require_diagnostics(found, {{kError, 0, "no root link: every link is the child of a joint"},
                                {kError, 4,
                                 "kinematic cycle a -> b -> a through joints 'ab' and "
                                 "'ba'"}});
  }
  SECTION("a joint from a link to itself") {
    const auto found = check_inline(R"(<link name="a"/>
<link name="b"/>
<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="loop" type="fixed"><parent link="b"/><child link="b"/></joint>
)");
    require_diagnostics(found, {{kError, 5,
                                 "link 'b' is the child of more than one joint: 'ab' (line 4) and "
                                 "'loop' (line 5)"},
                                {kError, 5, "kinematic cycle b -> b through joint 'loop'"}});
  }
  SECTION("a missing parent") {
    // the dangling joint is left out of the graph: no cascade of root or cycle errors
    const auto found = check_inline(R"(<link name="b"/>
<joint name="j" type="fixed"><parent link="ghost"/><child link="b"/></joint>
)");
    require_diagnostics(found, {{kError, 3, "joint 'j': parent link 'ghost' does not exist"}});
  }
}

TEST_CASE("check: errors come first, then warnings, each by line", "[check]") {
  const auto found = check_inline(R"(<link name="a">
  <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial>
</link>
<link name="b">
  <inertial><mass value="-2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
</link>
<joint name="j" type="revolute">
  <parent link="a"/>
  <child link="b"/>
  <limit lower="2" upper="1" effort="0" velocity="1"/>
</joint>
)");
  require_diagnostics(found, {{kError, 6, "mass -2 must be non-negative"},
                              {kError, 8, "limit lower 2 > upper 1"},
                              {kWarning, 3, "triangle inequality"},
                              {kWarning, 8, "limit effort is 0"}});
}

TEST_CASE("check: massless moving bodies", "[check]") {
  const std::string base = R"(<link name="base"/>
)";
  SECTION("a point mass off the axis is a legitimate body") {
    const auto found = check_inline(base + R"(<link name="tip"><inertial>
  <origin xyz="0.5 0 0"/><mass value="1"/>
  <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/>
  <axis xyz="0 0 1"/></joint>
)");
    CHECK(found.empty());
  }
  SECTION("a point mass on the axis of its revolute joint") {
    const auto found = check_inline(base + R"(<link name="tip"><inertial>
  <origin xyz="0 0 0.5"/><mass value="1"/>
  <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/>
  <axis xyz="0 0 1"/></joint>
)");
    require_diagnostics(found, {{kWarning, 6,
                                 "joint 'j' moves leaf body 'tip' (mass 1 kg) without inertia "
                                 "about the joint's motion: the mass matrix is singular"}});
  }
  SECTION("an inertia about the axis lost in the round-off of a far larger moment") {
    // 1 kg at 0.5 m from the axis: 0.25 kg m^2 about it, beside ixx = 1e308 (trace 1e308 +
    // 0.5): beyond a double's precision, but not "without inertia"
    const auto found = check_inline(base + R"(<link name="tip"><inertial>
  <origin xyz="0.5 0 0"/><mass value="1"/>
  <inertia ixx="1e308" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/>
  <axis xyz="0 0 1"/></joint>
)");
    require_diagnostics(
        found, {{kWarning, 3, "triangle inequality"},
                {kWarning, 6,
                 "joint 'j' moves leaf body 'tip' (mass 1 kg) whose inertia about the joint's "
                 "motion, 0.25 kg m^2, is lost in the round-off of its inertia (trace 1e+308 kg "
                 "m^2): the mass matrix is singular"}});
  }
  SECTION("an inertia whose entries are finite and whose sums are not") {
    const auto found = check_inline(base + R"(<link name="tip"><inertial>
  <origin xyz="0.5 0 0"/><mass value="1"/>
  <inertia ixx="1e308" ixy="0" ixz="0" iyy="1e308" iyz="0" izz="1e308"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/>
  <axis xyz="0 0 1"/></joint>
)");
    require_diagnostics(found, {{kError, 3,
                                 "link 'tip': inertia ixx 1e+308, iyy 1e+308 and izz 1e+308 "
                                 "overflows: the sums of its entries are beyond a double"}});
  }
  SECTION("a leaf with rotational inertia but no mass") {
    const auto found = check_inline(base + R"(<link name="tip"><inertial><mass value="0"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/></joint>
)");
    require_diagnostics(found, {{kWarning, 5,
                                 "joint 'j' moves leaf body 'tip' of zero mass (rotational "
                                 "inertia only): not a physical rigid body"}});
  }
  SECTION("a massless prismatic leaf with inertia is still singular") {
    const auto found = check_inline(base + R"(<link name="tip"><inertial><mass value="0"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="prismatic"><parent link="base"/><child link="tip"/>
  <limit lower="0" upper="1" effort="1" velocity="1"/></joint>
)");
    require_diagnostics(found, {{kWarning, 5,
                                 "joint 'j' moves leaf body 'tip' of zero mass: the mass matrix "
                                 "is singular (forward dynamics impossible)"}});
  }
  SECTION("a tiny body is not mistaken for a massless one") {
    const auto found = check_inline(base + R"(<link name="tip"><inertial><mass value="1e-6"/>
  <inertia ixx="1e-14" ixy="0" ixz="0" iyy="1e-14" iyz="0" izz="1e-14"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/></joint>
)");
    CHECK(found.empty());
  }
  SECTION("a point mass on a planar joint cannot resist rotation") {
    const auto found = check_inline(base + R"(<link name="puck"><inertial>
  <origin xyz="0.3 0.2 0"/><mass value="2"/>
  <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<joint name="slide" type="planar"><parent link="base"/><child link="puck"/>
  <axis xyz="0 0 1"/></joint>
)");
    require_diagnostics(found, {{kWarning, 6,
                                 "joint 'slide' moves leaf body 'puck' (mass 2 kg) without "
                                 "inertia about the joint's motion"}});
  }
  SECTION("mass on a link fixed to the moved link counts: its missing <inertial> is no finding") {
    const auto found = check_inline(base + R"(<link name="wrist"/>
<link name="tool"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="wrist"/></joint>
<joint name="mount" type="fixed"><parent link="wrist"/><child link="tool"/></joint>
)");
    CHECK(found.empty());
  }
  SECTION("a massless intermediate link is fine when the subtree below has mass") {
    const auto found = check_inline(base + R"(<link name="middle"><inertial><mass value="0"/>
  <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
<link name="tip"><inertial><origin xyz="1 0 0"/><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j1" type="continuous"><parent link="base"/><child link="middle"/></joint>
<joint name="j2" type="continuous"><parent link="middle"/><child link="tip"/>
  <axis xyz="0 1 0"/></joint>
)");
    CHECK(found.empty());
  }
}

TEST_CASE("check: with a floating base the root body moves too", "[check]") {
  eom::UrdfOptions floating;
  floating.floating_base = true;
  SECTION("a massless root") {
    const auto found = check_inline(R"(<link name="base"/>
<link name="arm"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>
)");
    CHECK(found.empty());
    require_diagnostics(check_inline(R"(<link name="base"/>
<link name="arm"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>
)",
                                     floating),
                        {{kWarning, 2, "root link 'base' has zero mass: with a floating base"}});
  }
  SECTION("the free-flyer's name is taken") {
    const std::string urdf = R"(<link name="base"/>
<link name="arm"><inertial><mass value="1"/>
  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="root" type="continuous"><parent link="base"/><child link="arm"/></joint>
)";
    CHECK(check_inline(urdf).empty());
    require_diagnostics(check_inline(urdf, floating),
                        {{kError, 5, "joint 'root': the name is reserved for the free-flyer"}});
  }
  SECTION("a single point mass has no rotational inertia") {
    const std::string point = R"(<link name="ball"><inertial><mass value="1"/>
  <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
)";
    CHECK(check_inline(point).empty());
    require_diagnostics(check_inline(point, floating),
                        {{kWarning, 2,
                          "the floating base joint 'root' moves leaf body 'ball' (mass 1 kg) "
                          "without inertia about the joint's motion"}});
  }
}

TEST_CASE("check: the shipped robots have no errors", "[check][robots]") {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(eom::test::kRobotsDir)) {
    if (entry.path().extension() != ".urdf") continue;
    const std::string path = entry.path().string();
    for (const bool floating_base : {false, true}) {
      eom::UrdfOptions options;
      options.floating_base = floating_base;
      const auto found = eom::check_urdf(eom::parse_urdf_file(path), options);
      INFO(path << (floating_base ? " (floating base)" : "") << ":\n" << describe(found));
      // warnings are expected on some (iiwa14's inertias violate the triangle inequality)
      CHECK(std::none_of(found.begin(), found.end(),
                         [](const Diagnostic& d) { return d.severity == kError; }));
    }
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("check: defective links welded to the world or merged into a physical body", "[check]") {
  constexpr auto kNote = Diagnostic::Severity::note;
  const std::string antenna =
      "inertia is not positive semi-definite (eigenvalues -3.5e-08, "
      "3.5e-08, 9.1e-08)";
  // fixed base: welded to the world, not used; build_model loads it and says so
  const auto fixed = eom::check_urdf(fixture("antenna.urdf"));
  require_diagnostics(
      fixed,
      {{kNote, 26, "link 'base_antenna_left_link': " + antenna + "; welded to the world: not used"},
       {kNote, 38, "link 'base_antenna_right_link': " + antenna}});
  CHECK(fixed[0].on_load);
  std::vector<Diagnostic> warnings;
  const eom::Model model = eom::build_model(fixture("antenna.urdf"), {}, &warnings);
  CHECK(model.nv == 2);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].message == fixed[0].message);

  // floating base: merged into the base, whose combined inertia is positive semi-definite
  eom::UrdfOptions floating;
  floating.floating_base = true;
  const auto merged = eom::check_urdf(fixture("antenna.urdf"), floating);
  require_diagnostics(merged,
                      {{kWarning, 26,
                        "link 'base_antenna_left_link': " + antenna +
                            "; harmless: merged by fixed joints into the floating base (root link "
                            "'base_footprint', moved by the free-flyer 'root'), whose combined "
                            "inertia is positive semi-definite"},
                       {kWarning, 38, "link 'base_antenna_right_link': " + antenna}});
  warnings.clear();
  const eom::Model floating_model = eom::build_model(fixture("antenna.urdf"), floating, &warnings);
  CHECK(floating_model.nv == 8);
  CHECK(warnings.size() == 2);
  // the body the dynamics use is the merged one: physical
  CHECK(floating_model.inertia[1].m == Approx(30.000002));

  // a moving body that is not physical once merged: refused
  require_diagnostics(
      "antenna_on_light_link.urdf",
      {{kError, 27,
        "link 'antenna_link': " + antenna +
            ", and so is the body it is merged by fixed joints into (link "
            "'mast_link', the body moved by joint 'mast_joint'; eigenvalues -3.4"}});
  CHECK_THROWS_AS(eom::build_model(fixture("antenna_on_light_link.urdf")), eom::ModelError);
}

TEST_CASE("check: numbers that overflow when bodies are merged or placed", "[check]") {
  require_diagnostics("heavy_fixed_pair.urdf",
                      {{kError, 23,
                        "links 'heavy_a' and 'heavy_b', merged by fixed joints into one body, "
                        "overflow when combined (mass inf kg)"}});
  require_diagnostics("far_origin.urdf",
                      {{kError, 23,
                        "link 'tip': mass 1 kg placed 1e+200 m from the root: its inertia about "
                        "the root overflows"}});
  CHECK_THROWS_AS(eom::build_model(fixture("heavy_fixed_pair.urdf")), eom::ModelError);
  // a chain of origins that adds up beyond a double
  require_diagnostics(check_inline(R"(<link name="a"/><link name="b"/><link name="c"/>
<joint name="ab" type="fixed"><parent link="a"/><child link="b"/><origin xyz="1e308 0 0"/></joint>
<joint name="bc" type="fixed"><parent link="b"/><child link="c"/><origin xyz="1e308 0 0"/></joint>
)"),
                      {{kError, 2, "link 'c': its placement overflows"}});
}

TEST_CASE("check: round-off is judged against the body's scale", "[check]") {
  constexpr auto kNote = Diagnostic::Severity::note;
  // -2.4e-35, 0, 2.4e-35 on a 0.5 kg point mass is zero; a link welded to the world is not used
  require_diagnostics("numerically_zero_inertia.urdf",
                      {{kNote, 12,
                        "link 'stand': principal inertias 0.1, 0.1, 0.3 violate the triangle "
                        "inequality (a + b < c); welded to the world: not used"}});
  CHECK_FALSE(eom::check_urdf(fixture("numerically_zero_inertia.urdf"))[0].on_load);
  eom::UrdfOptions floating;
  floating.floating_base = true;
  require_diagnostics(eom::check_urdf(fixture("numerically_zero_inertia.urdf"), floating),
                      {{kWarning, 12, "link 'stand': principal inertias 0.1, 0.1, 0.3 violate"}});
}
