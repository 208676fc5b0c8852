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
#include "urdf_check_cases.hpp"

using namespace eom::test::urdf_check;

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

TEST_CASE("check: the shipped robots have no errors", "[check][robots]") {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(eom::test::kRobotsDir)) {
    if (entry.path().extension() != ".urdf") continue;
    const std::string path = entry.path().string();
    for (const bool floating_base : {false, true}) {
      eom::LoadOptions options;
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
