// check_urdf's passes over masses and inertias: massless moving bodies, a floating base's root,
// defective links welded to the world or merged into a physical body, numbers that overflow when
// merged or placed, and round-off judged against the body's scale.

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/parsers/urdf.hpp>

#include "urdf_check_cases.hpp"

using namespace eom::test::urdf_check;

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
  eom::LoadOptions floating;
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
  eom::LoadOptions floating;
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
  eom::LoadOptions floating;
  floating.floating_base = true;
  require_diagnostics(eom::check_urdf(fixture("numerically_zero_inertia.urdf"), floating),
                      {{kWarning, 12, "link 'stand': principal inertias 0.1, 0.1, 0.3 violate"}});
}
