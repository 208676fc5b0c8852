// Dynamics with contacts held, worked by hand: constrained forward dynamics (the box stays on its
// corners, a slack hopper's body falls along its leg at g; Baumgarte stabilisation pulls a drifted
// box back), impacts (a rod falling flat onto one end, the box landing flat on its four corners),
// the contact ranks of the box, and no allocation per row for all the contact algorithms.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "contact_states.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

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
  const ContactSet foot = point_contacts(hopper, {"foot"});
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
  const ContactSet end = point_contacts(rod, {"end_right"});
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
  ContactSet set;
  add_contact(box, box.require_frame("front_left"), ContactKind::frame, Vec3::UnitZ(), set);
  add_contact(box, box.require_frame("front_right"), ContactKind::normal, Vec3::UnitZ(), set);
  add_contact(box, box.require_frame("rear_left"), ContactKind::point, Vec3::UnitZ(), set);
  add_contact(box, box.require_frame("rear_right"), ContactKind::point, Vec3::UnitZ(), set);
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
  ContactSet foot;
  add_contact(hopper, hopper.require_frame("foot"), ContactKind::frame, Vec3::UnitZ(), foot);
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
