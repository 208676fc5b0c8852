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

TEST_CASE("a ball joint: a unit quaternion, three rotational dofs, no axis", "[joint]") {
  const Joint ball = Joint::make(JointKind::ball, Vec3::UnitZ(), 2, 1, true);
  CHECK(ball.nq == 4);
  CHECK(ball.nv == 3);
  CHECK_FALSE(ball.bounded);  // no limits, whatever was asked
  CHECK(is_spherical(ball));
  CHECK(has_quaternion(ball));
  CHECK(quaternion_offset(ball) == 0);
  CHECK(quaternion_offset(Joint::make(JointKind::floating, Vec3::UnitZ(), 0, 0, false)) == 3);
  CHECK(quaternion_offset(Joint::make(JointKind::planar, Vec3::UnitZ(), 0, 0, false)) == -1);
  CHECK_FALSE(is_floating(ball));
  CHECK_FALSE(is_one_dof(ball));
  for (int k = 0; k < 4; ++k) CHECK_FALSE(coordinate_is_angle(ball, k));
  // S = (0; 1): angular columns, spatial.hpp's linear-first order
  Eigen::Matrix<double, 6, 3> S = Eigen::Matrix<double, 6, 3>::Zero();
  S.bottomRows<3>().setIdentity();
  CHECK(ball.S == S);
  CHECK(joint_suffixes(JointKind::ball, Space::q) ==
        std::vector<std::string>{"qx", "qy", "qz", "qw"});
  CHECK(joint_suffixes(JointKind::ball, Space::v) == std::vector<std::string>{"wx", "wy", "wz"});
  CHECK(joint_suffixes(JointKind::ball, Space::tau) == std::vector<std::string>{"mx", "my", "mz"});

  Eigen::VectorXd q = Eigen::VectorXd::Constant(6, 7.0);
  joint_neutral(ball, q);
  CHECK(q.segment<4>(2) == Eigen::Vector4d(0, 0, 0, 1));
  // a quarter turn about x: q = (sin(pi/4), 0, 0, cos(pi/4)) turns y to z about the joint origin
  Eigen::VectorXd v = Eigen::VectorXd::Zero(4);
  v[1] = M_PI / 2;
  Eigen::VectorXd q1 = q;
  joint_integrate(ball, q, v, q1);
  CHECK(q1.segment<4>(2).isApprox(Eigen::Vector4d(std::sqrt(0.5), 0, 0, std::sqrt(0.5)), 1e-15));
  const SE3 M = joint_transform(ball, q1);
  CHECK(M.p == Vec3::Zero());
  CHECK((M.R * Vec3::UnitY()).isApprox(Vec3::UnitZ(), 1e-15));
  Eigen::VectorXd back = Eigen::VectorXd::Zero(4);
  joint_difference(ball, q, q1, back);
  CHECK(back.isApprox(v, 1e-15));
  // a scaled quaternion is renormalised, a zero one refused
  q1.segment<4>(2) *= 3;
  CHECK(quaternion_deviation(ball, q1) == Approx(2));
  CHECK(joint_normalize(ball, q1));
  CHECK(q1.segment<4>(2).norm() == Approx(1).epsilon(1e-15));
  q1.segment<4>(2).setZero();
  CHECK_FALSE(joint_normalize(ball, q1));
  // the moment of a force, S^T f
  const Force f{Vec3(1, 2, 3), Vec3(4, 5, 6)};
  CHECK(joint_force(ball, f).head<3>() == Vec3(4, 5, 6));
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

TEST_CASE("walk_links: fixed joints merge links into a body, moving joints open the next",
          "[joint][urdf]") {
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
  std::vector<std::vector<int>> child_joints(urdf.links.size());
  for (size_t j = 0; j < urdf.joints.size(); ++j) {
    child_joints[index(urdf.joints[j].parent)].push_back(static_cast<int>(j));
  }
  const auto child_link = [&](int joint) { return index(urdf.joints[joint].child); };
  struct Visit {
    std::string link;
    int body;
    Vec3 at;
  };
  std::vector<Visit> links;
  std::vector<std::pair<std::string, Vec3>> moving;
  const auto on_link = [&](int link, int body, const SE3& at) {
    links.push_back({urdf.links[link].name, body, at.p});
  };
  const auto expect_link = [&](size_t k, const std::string& name, int body, const Vec3& at) {
    INFO("visit " << k);
    REQUIRE(k < links.size());
    CHECK(links[k].link == name);
    CHECK(links[k].body == body);
    CHECK(links[k].at == at);
  };

  // stopping at moving joints: the links of the root body only
  detail::walk_links(urdf, child_joints, child_link, index("base"), 0, SE3::Identity(), on_link,
                     [&](int joint, int child, int, const SE3& at) {
                       moving.emplace_back(urdf.joints[joint].name + ">" + urdf.links[child].name,
                                           at.p);
                       return std::optional<std::pair<int, SE3>>{};
                     });
  REQUIRE(links.size() == 3);
  expect_link(0, "base", 0, Vec3(0, 0, 0));
  expect_link(1, "plate", 0, Vec3(1, 0, 0));
  expect_link(2, "cover", 0, Vec3(0, 0, 4));
  // the moving joint leaves the body at its origin in the body frame; its child is not walked
  REQUIRE(moving.size() == 1);
  CHECK(moving[0] == std::make_pair(std::string("r>arm"), Vec3(1, 2, 0)));

  // descending: the moving joint opens body 1 with its child at the body's origin, depth-first
  links.clear();
  detail::walk_links(urdf, child_joints, child_link, index("base"), 0, SE3::Identity(), on_link,
                     [&](int, int, int carrier, const SE3&) {
                       CHECK(carrier == 0);
                       return std::optional<std::pair<int, SE3>>{{1, SE3::Identity()}};
                     });
  REQUIRE(links.size() == 5);
  expect_link(0, "base", 0, Vec3(0, 0, 0));
  expect_link(1, "plate", 0, Vec3(1, 0, 0));
  expect_link(2, "arm", 1, Vec3(0, 0, 0));
  expect_link(3, "tool", 1, Vec3(0, 0, 3));
  expect_link(4, "cover", 0, Vec3(0, 0, 4));
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
