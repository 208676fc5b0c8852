// Inverse dynamics with contacts worked by hand: a 2 kg box standing on its four bottom corners (a
// quarter of the weight each with the centre of mass centred, the lever rule with it shifted,
// shares set by the weights), a one-leg hopper upright (foot: the total weight, leg: the body's
// weight) and tilted (a residual), a planar arm held at its tip (the contact takes the whole load).

#include <catch2/catch.hpp>

#include <eom/algorithm/contact_inverse_dynamics.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/parsers/urdf.hpp>

#include "contact_states.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("a box on its four corners: a quarter each, the lever rule, shares by weight",
          "[contacts]") {
  const double weight = 2 * kG;
  for (const auto rule : {ContactForceRule::min_norm, ContactForceRule::min_torque}) {
    const Model box = load_floating_test_urdf("box_corners_centred.urdf");
    // far from the origin too: the contact rows are world-aligned at each corner
    for (const double x : {0.0, 1e6}) {
      const Eigen::VectorXd q = base_pose(box, 0.05, 0, x);
      ContactInverseDynamics id(box, corners(box), rule);
      id.solve(q, static_load(box, q));
      const double w = weight / 4;
      CHECK_THAT(id.forces(), AllClose(vertical_forces(w, w, w, w), 1e-12));
      CHECK(id.residual().norm() < 1e-12);
      CHECK(id.base_rank() == 6);
    }
  }
  // centre of mass 0.05 forward, corners 0.2 forward and back: (1 +- 0.05 / 0.2) / 4 of the
  // weight; the least-norm forces are f_i = W / 4 (1 + x_i x_c / a^2), which is the lever rule
  const Model shifted = load_floating_test_urdf("box_corners_shifted.urdf");
  const Eigen::VectorXd q = base_pose(shifted, 0.05);
  ContactInverseDynamics id(shifted, corners(shifted), ContactForceRule::min_norm);
  id.solve(q, static_load(shifted, q));
  const double front = weight * 1.25 / 4, rear = weight * 0.75 / 4;
  CHECK_THAT(id.forces(), AllClose(vertical_forces(front, front, rear, rear), 1e-12));
  CHECK(id.residual().norm() < 1e-12);

  // weights 2 on the diagonal front_left / rear_right, 1 on the other: by the box's symmetry
  // under a half turn (which swaps the corners of each diagonal) no moment arises, and the
  // least weighted norm makes f_i / w_i equal: W / 3 on the heavy diagonal, W / 6 on the other
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactSet set = corners(box);
  set.contacts[set.find(box.require_frame("front_left"))].weight = 2;
  set.contacts[set.find(box.require_frame("rear_right"))].weight = 2;
  ContactInverseDynamics weighted(box, set, ContactForceRule::min_norm);
  const Eigen::VectorXd level = base_pose(box, 0.05);
  weighted.solve(level, static_load(box, level));
  CHECK_THAT(weighted.forces(),
             AllClose(vertical_forces(weight / 3, weight / 6, weight / 6, weight / 3), 1e-12));

  // a corner that lets go carries nothing; the other three hold the box, whose centre of mass
  // lies on the diagonal front_right / rear_left: the rear right corner carries nothing either
  ContactInverseDynamics three(box, corners(box), ContactForceRule::min_norm);
  three.jacobian().set_active(0, false);
  three.solve(level, static_load(box, level));
  CHECK_THAT(three.forces(), AllClose(vertical_forces(0, weight / 2, weight / 2, 0), 1e-12));
  CHECK(three.residual().norm() < 1e-12);
}

TEST_CASE("an inactive contact carries exactly no force, whatever the rule", "[contacts]") {
  // the box tilted so that no force is zero by symmetry: the solves leave round-off (about
  // 1e-15 N) where a contact is inactive unless it is set to zero, and measured columns may hold
  // anything there
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  Eigen::VectorXd q = base_pose(box, 0.05, 0.1);
  for (const auto rule :
       {ContactForceRule::min_norm, ContactForceRule::min_torque, ContactForceRule::measured}) {
    ContactInverseDynamics id(box, corners(box), rule);
    for (int lifted = 0; lifted < 4; ++lifted) {
      CAPTURE(static_cast<int>(rule), lifted);
      for (int k = 0; k < 4; ++k) id.jacobian().set_active(k, k != lifted);
      if (rule == ContactForceRule::measured) {
        id.solve_measured(q, static_load(box, q), Eigen::VectorXd::Constant(12, 0.3));
      } else {
        id.solve(q, static_load(box, q));
      }
      CHECK(id.forces().segment<3>(3 * lifted).isZero(0));  // exact zeros
      CHECK_FALSE(id.forces().isZero(1e-3));                // the others carry the box
    }
  }
}

TEST_CASE("a one-leg hopper: upright it stands, tilted it cannot", "[contacts]") {
  const Model hopper = load_floating_test_urdf("hopper.urdf");
  const ContactSet foot = point_contacts(hopper, {"foot"});
  const int knee = hopper.joints[hopper.joint_index("knee")].idx_v;
  for (const auto rule : {ContactForceRule::min_norm, ContactForceRule::min_torque}) {
    ContactInverseDynamics id(hopper, foot, rule);
    const Eigen::VectorXd upright = base_pose(hopper, 0.5);
    id.solve(upright, static_load(hopper, upright));
    CHECK_THAT(id.forces(), AllClose(Eigen::Vector3d(0, 0, 4 * kG), 1e-12));
    // the leg pushes the body up along its axis (-z of the body): +3 g
    CHECK(id.torques()[knee] == Approx(3 * kG).epsilon(1e-12));
    CHECK(id.torques().head<6>().isZero());
    CHECK(id.residual().norm() < 1e-12);
    CHECK(id.base_rank() == 3);

    // tilted by 0.2 rad the foot is off the vertical through the centre of mass: the base needs
    // a moment the foot cannot give with the vertical force the weight needs
    const Eigen::VectorXd tilted = base_pose(hopper, 0.5, 0.2);
    id.solve(tilted, static_load(hopper, tilted));
    CHECK(id.residual().norm() > 0.1);
  }

  // measured: the torques of given forces; the residual is what they leave over
  ContactInverseDynamics measured(hopper, foot, ContactForceRule::measured);
  const Eigen::VectorXd upright = base_pose(hopper, 0.5);
  measured.solve_measured(upright, static_load(hopper, upright), Eigen::Vector3d(0, 0, 3 * kG));
  CHECK(measured.torques()[knee] == Approx(2 * kG).epsilon(1e-12));
  // one g short, world z: the base needs kG more upwards
  CHECK_THAT(measured.residual(), AllClose((Vec6() << 0, 0, kG, 0, 0, 0).finished(), 1e-12));
}

TEST_CASE("a fixed-base arm held at its tip: min-torque lets the contact carry the load",
          "[contacts]") {
  const Model arm = load_urdf(kRobotsDir + "/planar_2r.urdf");
  const Eigen::VectorXd q = Eigen::Vector2d(0.3, 0.7);
  const Eigen::VectorXd b = static_load(arm, q);
  ContactInverseDynamics min_norm(arm, point_contacts(arm, {"tip"}), ContactForceRule::min_norm);
  min_norm.solve(q, b);
  // no unactuated equation: no force is needed, the joints hold the arm
  CHECK(min_norm.forces().isZero());
  CHECK_THAT(min_norm.torques(), AllClose(b, 0));
  // two joints, a point held in three directions: J^T has full row rank and the least torques
  // are zero
  ContactInverseDynamics min_torque(arm, point_contacts(arm, {"tip"}),
                                    ContactForceRule::min_torque);
  min_torque.solve(q, b);
  CHECK(min_torque.torques().norm() < 1e-12);
  CHECK(min_torque.residual().isZero());
}

// The residual of contacts that cannot hold the base (issue 38 item 18) is the same wrench
// whatever the frames: of the wrenches they leave, the least force, then the least moment about
// the centre of mass, in world axes. The shifted box's centre of mass (0.05, 0, 0) is off the
// line of its front corners (x = 0.2, z = -0.05, along y), so a least-squares residual in the
// base's frame would show a force there.
namespace {

// the free-flyer at p, turned by `yaw` about world z
Eigen::VectorXd yawed_pose(const Model& model, const Vec3& p, double yaw) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q.head<3>() = p;
  q.segment<4>(3) << 0, 0, std::sin(yaw / 2), std::cos(yaw / 2);
  return q;
}

// b with the base wrench (force, moment about the base origin, base axes) and nothing else
Eigen::VectorXd base_wrench_load(const Model& model, const Vec6& wrench) {
  Eigen::VectorXd b = Eigen::VectorXd::Zero(model.nv);
  b.head<6>() = wrench;
  return b;
}

Vec6 turned(const Mat3& R, const Vec6& w) {
  return (Vec6() << R * w.head<3>(), R * w.tail<3>()).finished();
}

}  // namespace

TEST_CASE("two point feet leave a pure moment about their line, wherever the robot stands",
          "[contacts]") {
  const Model box = load_floating_test_urdf("box_corners_shifted.urdf");
  const ContactSet feet = point_contacts(box, {"front_left", "front_right"});
  const Vec3 foot(0.2, 0.1, -0.05);  // a point of the support line, from the base origin
  const Vec3 line = Vec3::UnitY();
  const double yaw = 0.7;
  const Mat3 R = Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix();
  const Eigen::VectorXd near = yawed_pose(box, Vec3(0, 0, 0.05), 0);
  const Eigen::VectorXd far = yawed_pose(box, Vec3(1000, -300, 0.05), yaw);
  for (const auto rule : {ContactForceRule::min_norm, ContactForceRule::min_torque}) {
    CAPTURE(static_cast<int>(rule));
    ContactInverseDynamics id(box, feet, rule);
    // only a moment about the support line: that moment is the residual, no force
    const Vec6 twist_about_line = (Vec6() << 0, 0, 0, 0, 1.5, 0).finished();
    id.solve(near, base_wrench_load(box, twist_about_line));
    CHECK_THAT(id.residual(), AllClose(twist_about_line, 1e-12));
    CHECK(id.base_rank() == 5);
    // the same 1 km away and turned: the same wrench, turned with the robot
    id.solve(far, base_wrench_load(box, twist_about_line));
    CHECK_THAT(id.residual(), AllClose(turned(R, twist_about_line), 1e-12));

    // any base wrench: the residual is its moment about the line, u . (n - p x f), along the
    // line; the two feet supply the rest, force and moment about the centre of mass alike
    const Vec6 wrench = (Vec6() << 1, -2, 30, 0.4, -0.5, 0.6).finished();
    const double about_line = line.dot(wrench.tail<3>() - foot.cross(Vec3(wrench.head<3>())));
    const Vec6 expected = (Vec6() << 0, 0, 0, about_line * line).finished();
    id.solve(near, base_wrench_load(box, wrench));
    CHECK_THAT(id.residual(), AllClose(expected, 1e-12));
    const Vec3 com(0.05, 0, 0);
    Vec6 supplied = id.residual();
    for (int k = 0; k < 2; ++k) {
      const Vec3 f = id.forces().segment<3>(3 * k);
      const Vec3 arm = id.jacobian().placement(k).p - near.head<3>() - com;
      supplied.head<3>() += f;
      supplied.tail<3>() += arm.cross(f);
    }
    const Vec6 at_com =
        (Vec6() << wrench.head<3>(), wrench.tail<3>() - com.cross(Vec3(wrench.head<3>())))
            .finished();
    CHECK_THAT(supplied, AllClose(at_com, 1e-12));
    id.solve(far, base_wrench_load(box, wrench));
    CHECK_THAT(id.residual(), AllClose(turned(R, expected), 1e-11));
  }
}

TEST_CASE("a contact that pushes along its normal only leaves the sideways force missing",
          "[contacts]") {
  // one 1d contact along world z at the front left corner of the centred box (centre of mass
  // at the base origin), a base force (fx, 0, fz): the contact pushes fz, the residual is the
  // force fx and the moment of what it did not take about the centre of mass, -p x (fz z) =
  // fz (-p_y, p_x, 0)
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactSet set;
  add_contact(box, box.require_frame("front_left"), ContactKind::normal, Vec3::UnitZ(), set);
  const Vec3 p(0.2, 0.1, -0.05);
  const double fx = 3, fz = 20;
  for (const auto rule : {ContactForceRule::min_norm, ContactForceRule::min_torque}) {
    CAPTURE(static_cast<int>(rule));
    ContactInverseDynamics id(box, set, rule);
    for (const Vec3& at : {Vec3(0, 0, 0.05), Vec3(-1000, 500, 0.05)}) {
      id.solve(yawed_pose(box, at, 0),
               base_wrench_load(box, (Vec6() << fx, 0, fz, 0, 0, 0).finished()));
      CHECK(id.forces()[0] == Approx(fz).epsilon(1e-12));
      CHECK_THAT(id.residual(),
                 AllClose((Vec6() << fx, 0, 0, -fz * p.y(), fz * p.x(), 0).finished(), 1e-12));
    }
  }
}
