// Contacts worked by hand: a 2 kg box standing on its four bottom corners (a quarter of the weight
// each with the centre of mass centred, the lever rule with it shifted, shares set by the
// weights), a one-leg hopper upright (foot: the total weight, leg: the body's weight) and tilted
// (a residual), the drift of a spinning box's corner (the centripetal acceleration), a planar arm
// held at its tip (the contact takes the whole load), constrained forward dynamics (the box stays
// on its corners, a slack hopper's body falls along its leg at g; Baumgarte stabilisation pulls a
// drifted box back), impacts (a rod falling flat onto
// one end, the box landing flat on its four corners), the contact ranks of the box, the parsing of
// contact texts and no allocation per row.

#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include <Eigen/Geometry>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr double kG = 9.81;

// the free-flyer at (x, y, z), turned by `angle` about world x
Eigen::VectorXd base_pose(const Model& model, double z, double angle = 0, double x = 0) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q.head<3>() << x, 0, z;
  q.segment<4>(3) << std::sin(angle / 2), 0, 0, std::cos(angle / 2);
  return q;
}

ContactSet corners(const Model& model) {
  return parse_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"},
                        Vec3::UnitZ());
}

// the generalized force a static pose needs: gravity only
Eigen::VectorXd static_load(const Model& model, const Eigen::VectorXd& q) {
  Data data(model);
  return gravity_torque(model, data, q);
}

Eigen::VectorXd vertical_forces(double a, double b, double c, double d) {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(12);
  f[2] = a;
  f[5] = b;
  f[8] = c;
  f[11] = d;
  return f;
}

}  // namespace

TEST_CASE("contact texts: kinds, normals, weights and what is refused", "[contacts]") {
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  const ContactSet set =
      parse_contacts(box, {"front_left", "front_right:1d", "rear_left:6d"}, Vec3(0, 0.6, 0.8));
  REQUIRE(set.contacts.size() == 3);
  CHECK(set.contacts[0].kind == ContactKind::point);
  CHECK(set.contacts[1].kind == ContactKind::normal);
  CHECK(set.contacts[1].normal.isApprox(Vec3(0, 0.6, 0.8)));
  CHECK(set.contacts[2].kind == ContactKind::frame);
  CHECK(set.size() == 10);
  CHECK(set.offset(2) == 4);
  CHECK(set.find(box.require_frame("rear_left")) == 2);
  CHECK(contact_force_components(ContactKind::normal) == std::vector<std::string>{"fn"});

  auto refused = [&](const std::vector<std::string>& texts, const Vec3& normal,
                     const std::string& expected) {
    CHECK_THROWS_WITH(parse_contacts(box, texts, normal), Catch::Contains(expected));
  };
  refused({"front_lft"}, Vec3::UnitZ(), "did you mean 'front_left'");
  refused({"front_left:2d"}, Vec3::UnitZ(), "unknown contact kind '2d'");
  refused({"front_left:1d"}, Vec3(0, 0, 2), "expected a unit vector (its norm is 2)");
  refused({"front_left:1d"}, Vec3::Zero(), "its norm is 0");
  refused({"front_left", "front_left:6d"}, Vec3::UnitZ(), "is given twice");
  // the normal matters only to 1d contacts
  CHECK_NOTHROW(parse_contacts(box, {"front_left"}, Vec3::Zero()));
  // on a fixed base the box's corners are welded to the world
  const Model welded = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf");
  CHECK_THROWS_WITH(parse_contacts(welded, {"front_left"}, Vec3::UnitZ()),
                    Catch::Contains("constrains nothing"));

  ContactSet weighted = corners(box);
  parse_contact_weight(box, "rear_right=2.5", weighted);
  CHECK(weighted.contacts[3].weight == 2.5);
  CHECK_THROWS_WITH(parse_contact_weight(box, "rear_right=0", weighted),
                    Catch::Contains("expected a finite weight > 0"));
  CHECK_THROWS_WITH(parse_contact_weight(box, "rear_right=x", weighted),
                    Catch::Contains("expected a finite weight > 0"));
  CHECK_THROWS_WITH(parse_contact_weight(box, "rear_right", weighted),
                    Catch::Contains("expected FRAME=WEIGHT"));
  CHECK_THROWS_WITH(parse_contact_weight(box, "box=1", weighted),
                    Catch::Contains("is not one of the --contacts"));
}

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
  parse_contact_weight(box, "front_left=2", set);
  parse_contact_weight(box, "rear_right=2", set);
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

TEST_CASE("a one-leg hopper: upright it stands, tilted it cannot", "[contacts]") {
  const Model hopper = load_floating_test_urdf("hopper.urdf");
  const ContactSet foot = parse_contacts(hopper, {"foot"}, Vec3::UnitZ());
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

TEST_CASE("a fixed-base arm held at its tip: min-torque lets the contact carry the load",
          "[contacts]") {
  const Model arm = load_urdf(kRobotsDir + "/planar_2r.urdf");
  const Eigen::VectorXd q = Eigen::Vector2d(0.3, 0.7);
  const Eigen::VectorXd b = static_load(arm, q);
  ContactInverseDynamics min_norm(arm, parse_contacts(arm, {"tip"}, Vec3::UnitZ()),
                                  ContactForceRule::min_norm);
  min_norm.solve(q, b);
  // no unactuated equation: no force is needed, the joints hold the arm
  CHECK(min_norm.forces().isZero());
  CHECK_THAT(min_norm.torques(), AllClose(b, 0));
  // two joints, a point held in three directions: J^T has full row rank and the least torques
  // are zero
  ContactInverseDynamics min_torque(arm, parse_contacts(arm, {"tip"}, Vec3::UnitZ()),
                                    ContactForceRule::min_torque);
  min_torque.solve(q, b);
  CHECK(min_torque.torques().norm() < 1e-12);
  CHECK(min_torque.residual().isZero());
}

TEST_CASE("constrained forward dynamics: the box stays, the hopper's body falls along its leg",
          "[contacts]") {
  // the box at rest on four corners: it stays, and the redundant corners (12 constraints of a
  // rigid body: rank 6) share its weight by least norm, a quarter each
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactForwardDynamics held(box, corners(box));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  held.solve(base_pose(box, 0.05), zero, zero);
  CHECK(held.accelerations().norm() < 1e-12);
  const double w = 2 * kG / 4;
  CHECK_THAT(held.forces(), AllClose(vertical_forces(w, w, w, w), 1e-12));
  CHECK(held.rank() == 6);

  const Model hopper = load_floating_test_urdf("hopper.urdf");
  const ContactSet foot = parse_contacts(hopper, {"foot"}, Vec3::UnitZ());
  ContactForwardDynamics fd(hopper, foot);
  const Eigen::VectorXd upright = base_pose(hopper, 0.5);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(7);
  const int knee = hopper.joints[hopper.joint_index("knee")].idx_v;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(7);
  // the knee holds the body (3 g): nothing moves, the foot carries the total weight
  tau[knee] = 3 * kG;
  fd.solve(upright, v, tau);
  CHECK(fd.accelerations().norm() < 1e-12);
  CHECK_THAT(fd.forces(), AllClose(Eigen::Vector3d(0, 0, 4 * kG), 1e-12));
  CHECK(fd.rank() == 3);
  // a slack knee: the body falls freely along the leg (its q shrinks at g), the leg stands on
  // its foot, which carries only the leg's weight
  tau[knee] = 0;
  fd.solve(upright, v, tau);
  Eigen::VectorXd falling = Eigen::VectorXd::Zero(7);
  falling[2] = -kG;
  falling[knee] = -kG;
  CHECK_THAT(fd.accelerations(), AllClose(falling, 1e-12));
  CHECK_THAT(fd.forces(), AllClose(Eigen::Vector3d(0, 0, kG), 1e-12));
}

TEST_CASE("a rod falling flat onto one end: 3v/4, 3v/(2L), a quarter of the energy lost",
          "[contacts][impact]") {
  // a uniform rod (m = 2 kg, L = 1 m, I = m L^2 / 12 about its centre) falls flat at speed v and
  // its right end (L/2 along x) hits. The impulse P up at the end stops the end (e = 0) or turns
  // its velocity back (e): with the centre's velocity -v + P / m and the spin w_y = -P (L/2) / I,
  // the end moves at -v + P / m + P (L/2)^2 / I = -v + 4 P / m, so P = (1 + e) m v / 4: the
  // centre keeps -v (3 - e) / 4 (3v/4 down for e = 0), the rod spins at (1 + e) 3v / (2L), and
  // the energy lost is (1 - e^2) m v^2 / 8 of m v^2 / 2: a quarter for e = 0 (3/4 kept).
  const Model rod = load_floating_test_urdf("rod.urdf");
  const ContactSet end = parse_contacts(rod, {"end_right"}, Vec3::UnitZ());
  ContactImpact impact(rod, end);
  const double m = 2, L = 1, v = 2;
  Eigen::VectorXd before = Eigen::VectorXd::Zero(6);
  before[2] = -v;
  for (const double e : {0.0, 0.5, 1.0}) {
    INFO("e = " << e);
    impact.solve(base_pose(rod, 0.5), before, e);
    Eigen::VectorXd after = Eigen::VectorXd::Zero(6);
    after[2] = -v * (3 - e) / 4;
    after[4] = -(1 + e) * 3 * v / (2 * L);
    CHECK_THAT(impact.velocities(), AllClose(after, 1e-12));
    CHECK_THAT(impact.impulses(), AllClose(Eigen::Vector3d(0, 0, (1 + e) * m * v / 4), 1e-12));
    CHECK(impact.energy_loss() == Approx((1 - e * e) * m * v * v / 8).margin(1e-12));
    CHECK(impact.energy_loss_generalized() == Approx((1 - e * e) * m * v * v / 8).margin(1e-12));
    CHECK(impact.rank() == 3);
  }
  // e = 0: the kinetic energy kept is 3/4 of m v^2 / 2
  impact.solve(base_pose(rod, 0.5), before, 0);
  Data data(rod);
  CHECK(kinetic_energy(rod, data, base_pose(rod, 0.5), impact.velocities()) ==
        Approx(0.75 * m * v * v / 2).epsilon(1e-12));
  // the end inactive: nothing happens
  impact.jacobian().set_active(0, false);
  impact.solve(base_pose(rod, 0.5), before, 0);
  CHECK_THAT(impact.velocities(), AllClose(before, 0));
  CHECK(impact.energy_loss() == 0);
  CHECK(impact.rank() == 0);
}

TEST_CASE("impacts on redundant contacts: the box lands flat on its four corners",
          "[contacts][impact]") {
  // 12 constraints of rank 6: the box stops dead (every corner's velocity is the base's), each
  // corner takes a quarter of the momentum m v by least norm, and all of m v^2 / 2 is lost
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactImpact impact(box, corners(box));
  Eigen::VectorXd before = Eigen::VectorXd::Zero(6);
  before[2] = -3;
  impact.solve(base_pose(box, 0.05), before, 0);
  CHECK(impact.velocities().norm() < 1e-12);
  CHECK_THAT(impact.impulses(), AllClose(vertical_forces(1.5, 1.5, 1.5, 1.5), 1e-12));
  CHECK(impact.rank() == 6);
  CHECK(impact.energy_loss() == Approx(2 * 9.0 / 2).epsilon(1e-12));
  CHECK(impact.energy_loss_generalized() == Approx(2 * 9.0 / 2).epsilon(1e-12));
}

TEST_CASE("Baumgarte stabilisation pulls a drifted box back onto its corners", "[contacts]") {
  // the box's corners are anchored where they are on the first solve (the base at z = 0.05);
  // raised 0.01 m and moving up at 0.5 m/s, with kp = 100 and kd = 10 the corners (and the box,
  // which does not turn) accelerate at -kd 0.5 - kp 0.01 = -6 m/s^2, and the four corners share
  // m (a + g) = 2 (9.81 - 6) N
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactForwardDynamics fd(box, corners(box));
  fd.set_baumgarte(100, 10);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  fd.solve(base_pose(box, 0.05), zero, zero);
  CHECK(fd.accelerations().norm() < 1e-12);
  Eigen::VectorXd up = zero;
  up[2] = 0.5;
  fd.solve(base_pose(box, 0.06), up, zero);
  Eigen::VectorXd expected = zero;
  expected[2] = -6;
  CHECK_THAT(fd.accelerations(), AllClose(expected, 1e-12));
  const double share = 2 * (kG - 6) / 4;
  CHECK_THAT(fd.forces(), AllClose(vertical_forces(share, share, share, share), 1e-12));
  // a contact let go and taken again is anchored anew: where it is, no error
  for (int k = 0; k < 4; ++k) fd.jacobian().set_active(k, false);
  fd.solve(base_pose(box, 0.06), zero, zero);
  for (int k = 0; k < 4; ++k) fd.jacobian().set_active(k, true);
  fd.solve(base_pose(box, 0.06), zero, zero);
  CHECK(fd.accelerations().norm() < 1e-12);
}

TEST_CASE("contact ranks of a rigid box: points of one body constrain it as a rigid body",
          "[contacts][rank]") {
  // the box has no joints: J_c = J_c,b, nothing is internal. One corner fixes a point (3), two a
  // line about which the box can still turn (5), three or four the whole box (6: fully
  // constrained, ETH notes section 2.10.4)
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  ContactRankAnalysis ranks(box, corners(box));
  const int expected[] = {3, 5, 6, 6};
  for (int active = 1; active <= 4; ++active) {
    INFO(active << " corners");
    for (int k = 0; k < 4; ++k) ranks.jacobian().set_active(k, k < active);
    ranks.compute(base_pose(box, 0.05, 0.3));
    CHECK(ranks.rank() == expected[active - 1]);
    CHECK(ranks.base_rank() == expected[active - 1]);
    CHECK(ranks.internal() == 0);
    CHECK(ranks.fully_constrained() == (active >= 3));
  }
}

TEST_CASE("contact Jacobians, dynamics, impacts and ranks allocate nothing per row",
          "[contacts]" EOM_ALLOCATION_TAG) {
  const Model box = load_floating_test_urdf("box_corners_shifted.urdf");
  ContactSet set = parse_contacts(
      box, {"front_left:6d", "front_right:1d", "rear_left", "rear_right"}, Vec3::UnitZ());
  ContactJacobian J(box, set);
  ContactInverseDynamics min_norm(box, set, ContactForceRule::min_norm);
  ContactInverseDynamics min_torque(box, set, ContactForceRule::min_torque);
  ContactInverseDynamics measured(box, set, ContactForceRule::measured);
  ContactForwardDynamics fd(box, set);
  ContactImpact impact(box, set);
  ContactRankAnalysis ranks(box, set);
  ContactForwardDynamics stabilised(box, set);
  stabilised.set_baumgarte(100, 10);
  const Eigen::VectorXd q = base_pose(box, 0.05, 0.1);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(6, 0.3);
  const Eigen::VectorXd b = static_load(box, q);
  const Eigen::VectorXd f = Eigen::VectorXd::Ones(set.size());
  // the hopper has actuated joints (the torque rows of min-torque)
  const Model hopper = load_floating_test_urdf("hopper.urdf");
  const ContactSet foot = parse_contacts(hopper, {"foot:6d"}, Vec3::UnitZ());
  ContactInverseDynamics hopper_torque(hopper, foot, ContactForceRule::min_torque);
  ContactInverseDynamics hopper_norm(hopper, foot, ContactForceRule::min_norm);
  Data hopper_data(hopper);
  Rng rng(7);
  const Eigen::VectorXd hopper_q = random_configuration(hopper, rng);
  const Eigen::VectorXd hopper_v = Eigen::VectorXd::Constant(hopper.nv, 0.2);
  const long n = allocations_during([&] {
    for (int k = 0; k < 2; ++k) {
      J.set_active(1, k == 0);
      J.compute(q, v);
      min_norm.solve(q, b);
      min_torque.solve(q, b);
      hopper_torque.jacobian().set_active(0, k == 0);
      hopper_torque.solve(hopper_data, rnea(hopper, hopper_data, hopper_q, hopper_v, hopper_v));
      hopper_norm.solve(hopper_data, hopper_data.tau);
      measured.solve_measured(q, b, f);
      fd.solve(q, v, b);
      impact.solve(q, v, 0.5);
      ranks.compute(q);
      stabilised.solve(q, v, b);
    }
  });
  CHECK(n == 0);
}
