// The contact Jacobian worked by hand: the drift of a spinning box's corner (its centripetal
// acceleration) and its velocity, the total wrench of the corners' forces, and the centre of
// pressure of a wrench; and J_c with its drift from the base-frame pass of the contact dynamics
// against those placed anew.

#include <catch2/catch.hpp>

#include <optional>

#include <Eigen/Geometry>

#include <eom/algorithm/contact_jacobian.hpp>
#include <eom/multibody/configuration.hpp>

#include "algorithm/newton_euler.hpp"

#include "contact_states.hpp"
#include "matchers.hpp"
#include "models.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("the centre of pressure is where the force alone gives the moment", "[contacts]") {
  // a frame turned a quarter turn about z: its x axis is world y
  SE3 oMf;
  oMf.R = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  // 10 N pressing along z at the world point (-0.2, 0.1) has the moment p x F = (1, 2, 0) about
  // the origin; in the frame's axes that point is (0.1, 0.2)
  Vec6 wrench;
  wrench << 0, 0, 10, 1, 2, 0;
  const std::optional<Eigen::Vector2d> cop = center_of_pressure(oMf, wrench);
  REQUIRE(cop);
  CHECK_THAT(Eigen::VectorXd(*cop), AllClose(Eigen::Vector2d(0.1, 0.2), 1e-15));
  wrench[2] = -10;  // pulling: no centre of pressure
  CHECK_FALSE(center_of_pressure(oMf, wrench));
}

TEST_CASE("the friction ratio |f_t| / f_n, and -1 for a contact that pulls", "[contacts]") {
  const Vec3 up = Vec3::UnitZ();
  // 3 N sideways and 4 N tangential pressing with 10 N: |f_t| = 5 N
  CHECK(friction_ratio(Vec3(3, 4, 10), up) == Approx(0.5).epsilon(1e-15));
  CHECK(friction_ratio(Vec3(0, 0, 10), up) == 0);
  CHECK(friction_ratio(Vec3::Zero(), up) == 0);  // carries nothing
  // no friction coefficient holds a pull, nor a tangential force without a normal one
  CHECK(friction_ratio(Vec3(0, 0, -10), up) == kPullingFrictionRatio);
  CHECK(friction_ratio(Vec3(1, 0, 0), up) == kPullingFrictionRatio);
  CHECK(kPullingFrictionRatio == -1);
  // along a tilted normal: the force (0, 1, 1) pushes along (0, 1, 1) / sqrt(2) only
  CHECK(friction_ratio(Vec3(0, 1, 1), Vec3(0, 1, 1).normalized()) == Approx(0).margin(1e-15));
}

TEST_CASE("the drift of a spinning box's corner is its centripetal acceleration", "[contacts]") {
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactJacobian J(box, corners(box));
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[5] = 2;  // 2 rad/s about z
  J.compute(base_pose(box, 0.05), v);
  // omega x (omega x r) = -4 (x, y, 0) for the corner at r = (x, y, -0.05)
  CHECK_THAT(Eigen::VectorXd(J.drift().head<3>()), AllClose(Eigen::Vector3d(-0.8, -0.4, 0), 1e-12));
  CHECK_THAT(Eigen::VectorXd(J.drift().segment<3>(9)),
             AllClose(Eigen::Vector3d(0.8, 0.4, 0), 1e-12));
  // and its velocity omega x r
  CHECK_THAT(Eigen::VectorXd(J.jacobian().topRows<3>() * v),
             AllClose(Eigen::Vector3d(-0.2, 0.4, 0), 1e-12));
}

TEST_CASE("the total wrench of the corners' forces: their sum and their moments p x f",
          "[contacts]") {
  // the box's corners at (+-0.2, +-0.1, 0) with the base at z = 0.05; vertical forces 1, 2, 3, 4
  // (front left, front right, rear left, rear right) have the moment sum (y f, -x f, 0) about the
  // world origin: (0.1 - 0.2 + 0.3 - 0.4, -(0.2 + 0.4 - 0.6 - 0.8), 0) = (-0.2, 0.8, 0)
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactJacobian J(box, corners(box));
  J.compute(base_pose(box, 0.05));
  const Force total = total_contact_wrench(J, vertical_forces(1, 2, 3, 4));
  CHECK_THAT(Eigen::VectorXd(total.lin), AllClose(Eigen::Vector3d(0, 0, 10), 1e-15));
  CHECK_THAT(Eigen::VectorXd(total.ang), AllClose(Eigen::Vector3d(-0.2, 0.8, 0), 1e-15));
  // an inactive corner's force counts for nothing: without the rear right one,
  // (0.1 - 0.2 + 0.3, -(0.2 + 0.4 - 0.6), 0) = (0.2, 0, 0)
  J.set_active(3, false);
  const Force three = total_contact_wrench(J, vertical_forces(1, 2, 3, 4));
  CHECK_THAT(Eigen::VectorXd(three.lin), AllClose(Eigen::Vector3d(0, 0, 6), 1e-15));
  CHECK_THAT(Eigen::VectorXd(three.ang), AllClose(Eigen::Vector3d(0.2, 0, 0), 1e-15));
}

TEST_CASE("J_c and its drift from the base-frame pass are those placed anew, far away too",
          "[contacts]") {
  // every floating test robot, on up to three frames of its last joints: a 6d, a 3d and a 1d
  // contact (an oblique normal), then the same rows with the first one inactive
  const TestModel robot = GENERATE(
      filter([](const TestModel& m) { return m.floating_base; }, from_range(test_models())));
  INFO(robot.name);
  const Model model = robot.load();
  const ContactKind kinds[] = {ContactKind::frame, ContactKind::point, ContactKind::normal};
  ContactSet set;
  std::vector<char> taken(model.njoints, 0);
  for (int f = static_cast<int>(model.frames.size()) - 1; f >= 0 && set.contacts.size() < 3; --f) {
    const int joint = model.frames[f].parent;
    if (joint < 2 || taken[joint]) continue;
    taken[joint] = 1;
    add_contact(model, f, kinds[set.contacts.size()], Vec3(0.6, 0, 0.8), set);
  }
  Data data(model);
  ContactJacobian based(model, set), anew(model, set);
  Rng rng(robot.seed);
  for (int k = 0; k < 4; ++k) {
    const bool first_active = k < 2;
    based.set_active(0, first_active);
    anew.set_active(0, first_active);
    Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    detail::crba_nonlinear_effects(model, data, q, v);
    based.compute_in_base_frame(data, v);
    anew.compute(q, v);
    const double scale = 1 + anew.drift().norm();
    CHECK_THAT(based.jacobian(), AllClose(anew.jacobian(), 1e-12));
    CHECK_THAT(based.drift(), AllClose(anew.drift(), 1e-12 * scale));
    for (std::size_t c = 0; c < set.contacts.size(); ++c) {
      if (!based.active(static_cast<int>(c))) continue;
      const SE3& placement = based.placement(static_cast<int>(c));
      CHECK_THAT(placement.p, AllClose(anew.placement(static_cast<int>(c)).p, 1e-12));
      CHECK_THAT(placement.R, AllClose(anew.placement(static_cast<int>(c)).R, 1e-12));
    }
    // 1000 km away: the rows and the drift do not change in one bit
    const Eigen::MatrixXd J = based.jacobian();
    const Eigen::VectorXd drift = based.drift();
    q.head<3>() += Vec3(1e6, -1e6, 0);
    detail::crba_nonlinear_effects(model, data, q, v);
    based.compute_in_base_frame(data, v);
    CHECK(based.jacobian() == J);
    CHECK(based.drift() == drift);
  }
}
