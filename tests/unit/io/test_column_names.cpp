// The column naming contract (eom/io/column_names.hpp): the names are spelled out here by hand,
// as DESIGN.md and doc/tables.md give them, independently of the code under test.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <eom/io/column_names.hpp>
#include <eom/parsers/urdf.hpp>

using namespace eom;
using Names = std::vector<std::string>;

namespace {

// one revolute joint under a floating base: nq = 8, nv = 7
Model floating_arm() {
  LoadOptions options;
  options.floating_base = true;
  return build_model(parse_urdf(R"(<robot name="arm">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <joint name="elbow" type="continuous">
    <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
  </joint>
</robot>)",
                                "arm.urdf"),
                     options);
}

}  // namespace

TEST_CASE("coordinate columns name the free-flyer root and the joints", "[columns]") {
  const Model model = floating_arm();
  CHECK(coordinate_columns(model, "q", Space::q) == Names{"q.root.x", "q.root.y", "q.root.z",
                                                          "q.root.qx", "q.root.qy", "q.root.qz",
                                                          "q.root.qw", "q.elbow"});
  CHECK(coordinate_columns(model, "a", Space::v) == Names{"a.root.vx", "a.root.vy", "a.root.vz",
                                                          "a.root.wx", "a.root.wy", "a.root.wz",
                                                          "a.elbow"});
  CHECK(coordinate_columns(model, "d1tau", Space::tau) ==
        Names{"d1tau.root.fx", "d1tau.root.fy", "d1tau.root.fz", "d1tau.root.mx", "d1tau.root.my",
              "d1tau.root.mz", "d1tau.elbow"});
}

TEST_CASE("matrix columns are row-major, named by velocity coordinates", "[columns]") {
  const Model model = floating_arm();
  const Names names = matrix_columns(model, "M");
  REQUIRE(names.size() == 49);
  CHECK(names[0] == "M.root.vx.root.vx");
  CHECK(names[6] == "M.root.vx.elbow");
  CHECK(names[7] == "M.root.vy.root.vx");
  CHECK(names[48] == "M.elbow.elbow");
}

TEST_CASE("derivative prefixes and their aliases", "[columns]") {
  CHECK(derivative_prefix(0) == "q");
  CHECK(derivative_prefix(1) == "v");
  CHECK(derivative_prefix(2) == "a");
  CHECK(derivative_prefix(3) == "d3q");
  CHECK(derivative_prefix(12) == "d12q");
  CHECK(std::string(derivative_alias(3)) == "jerk");
  CHECK(std::string(derivative_alias(4)) == "snap");
  CHECK(derivative_alias(2) == nullptr);
  CHECK(derivative_alias(5) == nullptr);
  CHECK(time_derivative_prefix("tau", 0) == "tau");
  CHECK(time_derivative_prefix("tau", 2) == "d2tau");
  CHECK(time_derivative_prefix("wrench", 1) == "d1wrench");
}

TEST_CASE("coordinate prefixes", "[columns]") {
  for (const char* prefix : {"q", "v", "a", "tau", "jerk", "snap", "d3q", "d10q", "d1tau"}) {
    INFO(prefix);
    CHECK(is_coordinate_prefix(prefix));
  }
  for (const char* prefix :
       {"", "t", "dq", "dtau", "d3", "d3v", "M", "g", "tau_gravity", "wrench"}) {
    INFO(prefix);
    CHECK_FALSE(is_coordinate_prefix(prefix));
  }
}

TEST_CASE("pose and wrench columns of a frame", "[columns]") {
  CHECK(pose_columns("tool") ==
        Names{"tool.x", "tool.y", "tool.z", "tool.qx", "tool.qy", "tool.qz", "tool.qw"});
  CHECK(wrench_columns("d2wrench", "foot") == Names{"d2wrench.foot.fx", "d2wrench.foot.fy",
                                                    "d2wrench.foot.fz", "d2wrench.foot.mx",
                                                    "d2wrench.foot.my", "d2wrench.foot.mz"});
  CHECK(column_name("tau", "elbow") == "tau.elbow");
}

TEST_CASE("the contact columns", "[columns]") {
  CHECK(frame_column(kContactForcePrefix, "foot", "fz") == "f.foot.fz");
  CHECK(frame_column(kContactImpulsePrefix, "foot", "fn") == "p.foot.fn");
  CHECK(contact_activity_column("foot") == "contact.foot");
  CHECK(contact_activity_frame("contact.foot") == "foot");
  CHECK(contact_activity_frame("contact.rank") == "rank");
  CHECK(contact_activity_frame("contact.") == "");
  CHECK(contact_activity_frame("contacts.foot") == "");
  CHECK(contact_activity_frame("f.foot.fz") == "");
  CHECK(contact_rank_columns() ==
        Names{"contact.rank", "contact.base_rank", "contact.internal", "contact.full"});
  CHECK(friction_ratio_column("foot") == "friction.foot");
  CHECK(center_of_pressure_columns("foot") == Names{"cop.foot.x", "cop.foot.y"});
  CHECK(residual_columns() == Names{"residual.fx", "residual.fy", "residual.fz", "residual.mx",
                                    "residual.my", "residual.mz", "residual.norm"});
}

TEST_CASE("the energy columns: one name for the energy an impact dissipates", "[columns]") {
  CHECK(std::string(kImpactEnergyLossColumn) == "impact.energy_loss");
  CHECK(energy_columns() == Names{"energy.kinetic", "energy.potential", "energy.total"});
}
