// What a joint is (asked by property, not by kind), the pivot rule, and the walk that merges
// links by fixed joints.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <eom/multibody/joint.hpp>
#include <eom/parsers/urdf.hpp>

#include "core/pivot.hpp"
#include "parsers/fixed_joints.hpp"

using namespace eom;

TEST_CASE("joint predicates answer by kind", "[joint]") {
  const Joint revolute = Joint::make(JointKind::revolute, Vec3::UnitZ(), 0, 0, true);
  const Joint prismatic = Joint::make(JointKind::prismatic, Vec3::UnitX(), 0, 0, true);
  const Joint planar = Joint::make(JointKind::planar, Vec3::UnitZ(), 0, 0, false);
  const Joint floating = Joint::make(JointKind::floating, Vec3::UnitZ(), 0, 0, false);

  CHECK(is_one_dof(revolute));
  CHECK(is_one_dof(prismatic));
  CHECK_FALSE(is_one_dof(planar));
  CHECK_FALSE(is_one_dof(floating));

  CHECK(is_revolute(revolute));
  CHECK_FALSE(is_revolute(prismatic));
  CHECK_FALSE(is_revolute(planar));

  CHECK(is_floating(floating));
  CHECK(has_quaternion(floating));
  CHECK_FALSE(is_floating(planar));
  CHECK_FALSE(has_quaternion(revolute));

  CHECK(coordinate_is_angle(revolute, 0));
  CHECK_FALSE(coordinate_is_angle(prismatic, 0));
  // planar q = (x, y, theta)
  CHECK_FALSE(coordinate_is_angle(planar, 0));
  CHECK_FALSE(coordinate_is_angle(planar, 1));
  CHECK(coordinate_is_angle(planar, 2));
  // floating q = (x, y, z, qx, qy, qz, qw): no angle among them
  for (int k = 0; k < 7; ++k) CHECK_FALSE(coordinate_is_angle(floating, k));
}

TEST_CASE("quaternion deviation: | |quaternion| - 1 |, 0 without a quaternion", "[joint]") {
  const Joint floating = Joint::make(JointKind::floating, Vec3::UnitZ(), 1, 0, false);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(8);
  q.segment<4>(4) << 0, 0, 0, 2;  // x y z w at idx_q + 3
  CHECK(quaternion_deviation(floating, q) == 1.0);
  q.segment<4>(4) << 0, 0.6, 0, 0.8;
  CHECK(quaternion_deviation(floating, q) == Approx(0).margin(1e-15));
  const Joint revolute = Joint::make(JointKind::revolute, Vec3::UnitZ(), 0, 0, true);
  CHECK(quaternion_deviation(revolute, q) == 0.0);
}

TEST_CASE("pivot rule: positive beyond 1e-12 of the scale", "[joint][pivot]") {
  CHECK(detail::kPivotTolerance == 1e-12);
  CHECK(detail::pivot_positive(2e-12, 1.0));
  CHECK_FALSE(detail::pivot_positive(5e-13, 1.0));
  CHECK_FALSE(detail::pivot_positive(0.0, 0.0));
  CHECK_FALSE(detail::pivot_positive(-1.0, 1.0));
  // relative: a tiny pivot of a tiny matrix is positive, the same pivot of a heavy one is not
  CHECK(detail::pivot_positive(1e-14, 3e-14));
  CHECK_FALSE(detail::pivot_positive(1e-14, 1e3));
}

TEST_CASE("walk_body: the links fixed joints merge into one body", "[joint][urdf]") {
  // base -fixed-> plate -revolute-> arm -fixed-> tool; base -fixed-> cover
  const UrdfDescription urdf = parse_urdf(R"(<robot name="t">
<link name="base"/><link name="plate"/><link name="arm"/><link name="tool"/><link name="cover"/>
<joint name="f1" type="fixed"><parent link="base"/><child link="plate"/>
  <origin xyz="1 0 0"/></joint>
<joint name="r" type="revolute"><parent link="plate"/><child link="arm"/><origin xyz="0 2 0"/>
  <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
<joint name="f2" type="fixed"><parent link="arm"/><child link="tool"/><origin xyz="0 0 3"/></joint>
<joint name="f3" type="fixed"><parent link="base"/><child link="cover"/>
  <origin xyz="0 0 4"/></joint>
</robot>)");
  auto index = [&](const std::string& name) {
    for (size_t i = 0; i < urdf.links.size(); ++i) {
      if (urdf.links[i].name == name) return static_cast<int>(i);
    }
    return -1;
  };
  const auto children = [&](int link, const auto& f) {
    for (size_t j = 0; j < urdf.joints.size(); ++j) {
      if (index(urdf.joints[j].parent) == link) f(static_cast<int>(j), index(urdf.joints[j].child));
    }
  };
  std::vector<std::pair<std::string, Vec3>> links;
  std::vector<std::pair<std::string, Vec3>> moving;
  detail::walk_body(
      urdf, index("base"), SE3::Identity(), children,
      [&](int link, const SE3& at) { links.emplace_back(urdf.links[link].name, at.p); },
      [&](int joint, int child, const SE3& at) {
        moving.emplace_back(urdf.joints[joint].name + ">" + urdf.links[child].name, at.p);
      });
  REQUIRE(links.size() == 3);
  CHECK(links[0] == std::make_pair(std::string("base"), Vec3(0, 0, 0)));
  CHECK(links[1] == std::make_pair(std::string("plate"), Vec3(1, 0, 0)));
  CHECK(links[2] == std::make_pair(std::string("cover"), Vec3(0, 0, 4)));
  // the moving joint leaves the body at its origin in the body frame; its child is not walked
  REQUIRE(moving.size() == 1);
  CHECK(moving[0] == std::make_pair(std::string("r>arm"), Vec3(1, 2, 0)));
}

TEST_CASE("link_inertia: the URDF inertia about the centre of mass, in link axes", "[urdf]") {
  UrdfLink link;
  link.mass = 2;
  link.inertial_origin = SE3{rpy_to_matrix(Vec3(0, 0, M_PI / 2)), Vec3(1, 0, 0)};
  link.inertia = Vec3(1, 2, 3).asDiagonal();
  const Inertia I = detail::link_inertia(link);
  CHECK(I.m == 2);
  CHECK(I.c == Vec3(1, 0, 0));
  // a quarter turn about z swaps the x and y moments
  CHECK(I.I_c(0, 0) == Approx(2));
  CHECK(I.I_c(1, 1) == Approx(1));
  CHECK(I.I_c(2, 2) == Approx(3));
}
