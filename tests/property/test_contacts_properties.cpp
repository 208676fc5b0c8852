// Contact inverse dynamics on every floating reference robot, held at up to four leaf frames (the
// first a 6d contact, the others points): Newton's law for the whole robot at rest (the contact
// forces and the residual hold the weight), the equations of motion with a contact Jacobian built
// frame by frame, min-torque never needing more torque than min-norm, the same forces 1000 km
// from the origin, and constrained forward dynamics giving back the motion and forces of the
// inverse dynamics (with J_c a + dJ_c v = 0 after it); impacts that stop the contacts
// (J_c v+ = -e J_c v-), lose the same energy in generalized coordinates and in contact space, and
// change v only by what the contacts' impulses do (M (v+ - v-) = J_c^T p).

#include <catch2/catch.hpp>

#include <Eigen/QR>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// up to four frames at the tips of the tree (on joints without children), one per joint
ContactSet leaf_contacts(const Model& model) {
  std::vector<bool> has_child(model.njoints, false);
  for (int j = 1; j < model.njoints; ++j) has_child[model.parent[j]] = true;
  ContactSet set;
  std::vector<bool> taken(model.njoints, false);
  for (int f = static_cast<int>(model.frames.size()) - 1; f >= 0 && set.contacts.size() < 4; --f) {
    const int joint = model.frames[f].parent;
    if (joint == 0 || has_child[joint] || taken[joint]) continue;
    taken[joint] = true;
    Contact contact;
    contact.frame = f;
    contact.kind = set.contacts.empty() ? ContactKind::frame : ContactKind::point;
    set.contacts.push_back(contact);
  }
  return set;
}

std::vector<TestModel> floating_models() {
  std::vector<TestModel> out;
  for (const auto& m : test_models()) {
    if (m.floating_base) out.push_back(m);
  }
  return out;
}

// the sum of the contact forces (the force part of each)
Vec3 total_force(const ContactSet& set, const Eigen::VectorXd& f) {
  Vec3 sum = Vec3::Zero();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int row = set.offset(static_cast<int>(k));
    sum += set.contacts[k].kind == ContactKind::normal ? Vec3(f[row] * set.contacts[k].normal)
                                                       : Vec3(f.segment<3>(row));
  }
  return sum;
}

// a floating robot held at its leaf frames, its workspace and random numbers
struct Stance {
  Stance(const TestModel& robot, unsigned salt)
      : model(robot.load()), set(leaf_contacts(model)), data(model), rng(robot.seed + salt) {}
  Model model;
  ContactSet set;
  Data data;
  Rng rng;
};

}  // namespace

TEST_CASE("at rest the contacts and the residual hold the weight: sum f + r = -m g",
          "[property][contacts]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 0);
  auto& [model, set, data, rng] = stance;
  REQUIRE(!set.contacts.empty());
  for (const auto rule : {ContactForceRule::min_norm, ContactForceRule::min_torque}) {
    ContactInverseDynamics id(model, set, rule);
    for (int k = 0; k < 5; ++k) {
      const Eigen::VectorXd q = random_configuration(model, rng);
      const Eigen::VectorXd b = gravity_torque(model, data, q);
      id.solve(q, b);
      // Newton for the whole robot: the external forces (contacts, and the residual wrench on the
      // base) balance gravity on the total mass
      const Vec3 weight = -model.total_mass * model.gravity;
      const Vec3 held = total_force(set, id.forces()) + id.residual().head<3>();
      CHECK_THAT(Eigen::VectorXd(held), AllClose(Eigen::VectorXd(weight), 1e-9 * weight.norm()));
    }
  }
}

TEST_CASE("b = S^T tau + J_c^T f + the residual on the base, J_c frame by frame",
          "[property][contacts]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 100);
  auto& [model, set, data, rng] = stance;
  ContactInverseDynamics min_norm(model, set, ContactForceRule::min_norm);
  ContactInverseDynamics min_torque(model, set, ContactForceRule::min_torque);
  for (int k = 0; k < 5; ++k) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    const Eigen::VectorXd a = random_tangent(model, rng);
    const Eigen::VectorXd b = rnea(model, data, q, v, a);
    const double scale = 1 + b.norm();
    for (ContactInverseDynamics* id : {&min_norm, &min_torque}) {
      id->solve(q, b);
      Eigen::VectorXd supplied = id->torques();
      for (std::size_t c = 0; c < set.contacts.size(); ++c) {
        const int rows = constraint_count(set.contacts[c].kind);
        const Eigen::MatrixXd J = frame_jacobian(model, data, q, set.contacts[c].frame,
                                                 ReferenceFrame::local_world_aligned)
                                      .topRows(rows);
        supplied += J.transpose() * id->forces().segment(set.offset(static_cast<int>(c)), rows);
      }
      // the free-flyer's rows leave the residual, in the base's axes about its origin (it is
      // given about the centre of mass c, world axes: n_o = n_c + (c - o) x f)
      const SE3 base = place_joint(model, data, 1, q);
      const Vec3 arm = center_of_mass(model, data, q) - base.p;
      const Vec3 force = id->residual().head<3>();
      const Mat3& R = base.R;
      Eigen::VectorXd residual_base(6);
      residual_base << R.transpose() * force,
          R.transpose() * (id->residual().tail<3>() + arm.cross(force));
      supplied.head<6>() += residual_base;
      CHECK_THAT(supplied, AllClose(b, 1e-9 * scale));
    }
    // with both residuals zero (every base wrench reachable), min-torque needs no more torque
    if (min_norm.residual().norm() < 1e-9 * scale && min_torque.residual().norm() < 1e-9 * scale) {
      CHECK(min_torque.torques().norm() <= min_norm.torques().norm() * (1 + 1e-9) + 1e-9 * scale);
    }
  }
}

TEST_CASE("1000 km from the origin the contact forces are the same", "[property][contacts]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 200);
  auto& [model, set, data, rng] = stance;
  ContactInverseDynamics near(model, set, ContactForceRule::min_norm);
  ContactInverseDynamics far(model, set, ContactForceRule::min_norm);
  for (int k = 0; k < 3; ++k) {
    Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    const Eigen::VectorXd a = random_tangent(model, rng);
    near.solve(q, rnea(model, data, q, v, a));
    q.head<3>() += Vec3(1e6, -1e6, 0);
    far.solve(q, rnea(model, data, q, v, a));
    const double scale = 1 + near.forces().norm() + near.torques().norm();
    CHECK_THAT(far.forces(), AllClose(near.forces(), 1e-9 * scale));
    CHECK_THAT(far.torques(), AllClose(near.torques(), 1e-9 * scale));
    CHECK_THAT(far.residual(), AllClose(near.residual(), 1e-9 * scale));
  }
}

TEST_CASE("the contact Jacobians from rnea's placements are those placed anew, far away too",
          "[property][contacts]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 250);
  auto& [model, set, data, rng] = stance;
  for (const auto rule : {ContactForceRule::min_norm, ContactForceRule::min_torque}) {
    ContactInverseDynamics placed(model, set, rule);
    ContactInverseDynamics anew(model, set, rule);
    for (const double x : {0.0, 1e6}) {
      Eigen::VectorXd q = random_configuration(model, rng);
      q.head<3>() += Vec3(x, -x, 0);
      const Eigen::VectorXd v = random_tangent(model, rng);
      const Eigen::VectorXd a = random_tangent(model, rng);
      const Eigen::VectorXd b = rnea(model, data, q, v, a);
      placed.solve(data, b);
      anew.solve(q, b);
      // the same operations on the same joint placements: the same bits
      CHECK(placed.jacobian().jacobian() == anew.jacobian().jacobian());
      CHECK(placed.forces() == anew.forces());
      CHECK(placed.torques() == anew.torques());
      CHECK(placed.residual() == anew.residual());
      for (std::size_t c = 0; c < set.contacts.size(); ++c) {
        const int contact = static_cast<int>(c);
        CHECK(placed.jacobian().placement(contact).p == anew.jacobian().placement(contact).p);
      }
    }
  }
}

TEST_CASE("min-torque: the torques and forces of the projection by the SVD (ETH eq. 3.100)",
          "[property][contacts]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 400);
  auto& [model, stance_set, data, rng] = stance;
  // the stance, whose contacts hold the base, and one point alone, which cannot
  ContactSet point;
  point.contacts.push_back(stance_set.contacts.back());
  point.contacts.back().kind = ContactKind::point;
  const int na = model.nv - 6;
  for (int k = 0; k < 6; ++k) {
    const ContactSet& set = k % 2 == 0 ? stance_set : point;
    ContactInverseDynamics id(model, set, ContactForceRule::min_torque);
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd b =
        rnea(model, data, q, random_tangent(model, rng), random_tangent(model, rng));
    id.solve(q, b);
    // independently: J_c^T = U Sigma V^T; the columns of U past the rank span what no contact
    // force supplies, N^T b = N^T S^T tau; the least-norm tau, then f = (J_c^T)^+ (b - S^T tau)
    Eigen::MatrixXd Jt(model.nv, set.size());
    for (std::size_t c = 0; c < set.contacts.size(); ++c) {
      const int rows = constraint_count(set.contacts[c].kind);
      Jt.middleCols(set.offset(static_cast<int>(c)), rows) =
          frame_jacobian(model, data, q, set.contacts[c].frame, ReferenceFrame::local_world_aligned)
              .topRows(rows)
              .transpose();
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> contact_svd(Jt, Eigen::ComputeFullU | Eigen::ComputeFullV);
    contact_svd.setThreshold(1e-9);
    const Eigen::Index rank = contact_svd.rank();
    const Eigen::MatrixXd N = contact_svd.matrixU().rightCols(model.nv - rank);
    const Eigen::MatrixXd NtSt = N.bottomRows(na).transpose();
    Eigen::JacobiSVD<Eigen::MatrixXd> torque_svd(NtSt, Eigen::ComputeThinU | Eigen::ComputeThinV);
    torque_svd.setThreshold(1e-9);
    Eigen::VectorXd tau = torque_svd.solve(Eigen::VectorXd(N.transpose() * b));
    Eigen::VectorXd rest = b;
    rest.tail(na) -= tau;
    Eigen::VectorXd f = contact_svd.solve(rest);
    if (k % 2 == 1) {
      // one point cannot hold the base: the base wrench left is the least force, then the least
      // moment about the centre of mass, whatever the rule (issue 38 item 18). A point supplies
      // any force, so it carries the whole force the base needs, R f_b in world axes, and the
      // torques follow
      f = place_joint(model, data, 1, q).R * b.head<3>();
      tau = b.tail(na) - (Jt * f).tail(na);
    }
    const double scale = 1 + b.norm() + f.norm();
    CHECK_THAT(Eigen::VectorXd(id.torques().tail(na)), AllClose(tau, 1e-9 * scale));
    CHECK_THAT(id.forces(), AllClose(f, 1e-9 * scale));
    Eigen::JacobiSVD<Eigen::MatrixXd> base_svd(Jt.topRows(6));
    base_svd.setThreshold(1e-9);
    CHECK(id.base_rank() == base_svd.rank());
  }
}

TEST_CASE("id --contacts then fd --contacts gives back a and f, and the contacts stay held",
          "[property][contacts]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 300);
  auto& [model, set, data, rng] = stance;
  ContactInverseDynamics id(model, set, ContactForceRule::min_norm);
  ContactForwardDynamics fd(model, set);
  ContactJacobian contacts(model, set);
  int checked = 0;
  for (int k = 0; k < 5; ++k) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    // an acceleration that keeps the contacts held: a random one, corrected by the least-norm
    // change (Eigen's complete orthogonal decomposition) that brings J a + dJ v to zero
    contacts.compute(q, v);
    const Eigen::MatrixXd& J = contacts.jacobian();
    Eigen::VectorXd a = random_tangent(model, rng);
    a -= J.completeOrthogonalDecomposition().solve(J * a + contacts.drift());
    const Eigen::VectorXd b = rnea(model, data, q, v, a);
    id.solve(q, b);
    const double scale = 1 + b.norm() + id.forces().norm();
    // only where the contacts supply the base (no residual) and determine their forces (J of
    // full row rank): then the forces of fd are unique and must be id's
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J);
    svd.setThreshold(1e-6);
    if (id.residual().norm() > 1e-9 * scale || svd.rank() < J.rows()) continue;
    ++checked;
    fd.solve(q, v, id.torques());
    CHECK_THAT(fd.accelerations(), AllClose(a, 1e-7 * (1 + a.norm())));
    CHECK_THAT(fd.forces(), AllClose(id.forces(), 1e-7 * scale));
    contacts.compute(q, v);
    const Eigen::VectorXd held = J * fd.accelerations() + contacts.drift();
    CHECK(held.norm() <= 1e-7 * (1 + a.norm()));
  }
  // a stance of every floating robot with points only (no 6d) is checked on the quadrupeds
  if (robot.name.find("solo12") != std::string::npos) CHECK(checked > 0);
}

TEST_CASE("an impact stops the contacts (J_c v+ = -e J_c v-), the two energy losses agree",
          "[property][contacts][impact]") {
  const TestModel robot = GENERATE(from_range(floating_models()));
  INFO(robot.name);
  Stance stance(robot, 400);
  auto& [model, set, data, rng] = stance;
  ContactImpact impact(model, set);
  ContactJacobian contacts(model, set);
  for (int k = 0; k < 5; ++k) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    for (const double e : {0.0, 0.3, 1.0}) {
      INFO("e = " << e);
      impact.solve(q, v, e);
      contacts.compute(q);
      const Eigen::MatrixXd& J = contacts.jacobian();
      const Eigen::VectorXd& after = impact.velocities();
      const double scale = 1 + (J * v).norm();
      CHECK_THAT(J * after, AllClose(-e * J * v, kTolReference * scale));
      // the impulses alone change the momentum
      const Eigen::MatrixXd& M = crba(model, data, q);
      CHECK_THAT(M * (after - v),
                 AllClose(J.transpose() * impact.impulses(), kTolReference * (1 + (M * v).norm())));
      // the two expressions of the notes are equal but for round-off, of the order of |M| |v|^2
      // (the products by M); so is the kinetic energy lost, 1/2 v-^T M v- - 1/2 v+^T M v+; e = 1
      // loses nothing
      const double roundoff = kTolRoundoff * (1 + M.norm() * v.squaredNorm());
      CHECK(std::abs(impact.energy_loss() - impact.energy_loss_generalized()) <= roundoff);
      const double lost = 0.5 * (v.dot(M * v) - after.dot(M * after));
      CHECK(std::abs(impact.energy_loss() - lost) <= roundoff);
      CHECK(impact.energy_loss() >= 0);
      if (e == 1) CHECK(std::abs(impact.energy_loss()) <= roundoff);
    }
  }
}
