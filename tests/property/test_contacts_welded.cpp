// A free-flyer welded to the world by one 6d contact at its own body is a fixed-base robot: on
// every reference robot with a floating base, the constrained forward dynamics give the fixed-base
// accelerations (aba of the URDF loaded without the free-flyer) and leave the base at rest, and
// the contact's wrench is the base wrench the floating inverse dynamics needs (eom id's
// tau.root.*: the wrench the ground would have to exert). The base stands 1000 km from the origin,
// turned: gravity in the base's axes is what the fixed-base robot feels.

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>

#include "matchers.hpp"
#include "models.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// the frame of the free-flyer's own body (on joint 1, at its origin)
int base_frame(const Model& model) {
  for (std::size_t f = 0; f < model.frames.size(); ++f) {
    const Frame& frame = model.frames[f];
    if (frame.parent == 1 && frame.placement.p.isZero(0) && frame.placement.R.isIdentity(0)) {
      return static_cast<int>(f);
    }
  }
  return -1;
}

}  // namespace

TEST_CASE("a free-flyer welded by a 6d contact at its body is the fixed-base robot",
          "[property][contacts]") {
  std::vector<TestModel> floating;
  for (const TestModel& m : test_models()) {
    if (m.floating_base) floating.push_back(m);
  }
  const TestModel robot = GENERATE_COPY(from_range(floating));
  INFO(robot.name);
  const Model model = robot.load();
  Rng rng(robot.seed + 300);
  // the base turned by R and 1000 km away: the fixed-base robot feels gravity R^T g
  const Eigen::VectorXd q_float = random_configuration(model, rng);
  const Mat3 R =
      Eigen::Quaterniond(q_float[6], q_float[3], q_float[4], q_float[5]).toRotationMatrix();
  Eigen::VectorXd q = q_float;
  q.head<3>() = Vec3(1e6, -2e6, 5e5);
  LoadOptions fixed_options;
  fixed_options.gravity = R.transpose() * model.gravity;
  const Model fixed = load_urdf(robot.path, fixed_options);
  REQUIRE(fixed.nv == model.nv - 6);
  REQUIRE(std::vector<std::string>(model.v_names.begin() + 6, model.v_names.end()) ==
          fixed.v_names);

  ContactSet weld;
  Contact contact;
  contact.frame = base_frame(model);
  contact.kind = ContactKind::frame;
  REQUIRE(contact.frame >= 0);
  weld.contacts.push_back(contact);
  ContactForwardDynamics fd(model, weld);
  Data data(model), fixed_data(fixed);

  for (int k = 0; k < 3; ++k) {
    const Eigen::VectorXd q_joints = q.tail(model.nq - 7);
    const Eigen::VectorXd v_joints = random_tangent(fixed, rng);
    const Eigen::VectorXd tau_joints = random_tangent(fixed, rng, 10);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv), tau = Eigen::VectorXd::Zero(model.nv);
    v.tail(fixed.nv) = v_joints;  // the welded base is at rest
    tau.tail(fixed.nv) = tau_joints;

    fd.solve(q, v, tau);
    const Eigen::VectorXd a_fixed = aba(fixed, fixed_data, q_joints, v_joints, tau_joints);
    const double scale = 1 + a_fixed.norm();
    CHECK_THAT(Eigen::VectorXd(fd.accelerations().tail(fixed.nv)), AllClose(a_fixed, 1e-9 * scale));
    CHECK(fd.accelerations().head<6>().norm() < 1e-9 * scale);

    // the weld's wrench (world axes, about the base origin) is the floating base wrench of rnea
    // (base axes) turned into the world
    Eigen::VectorXd a = Eigen::VectorXd::Zero(model.nv);
    a.tail(fixed.nv) = a_fixed;
    const Eigen::VectorXd b = rnea(model, data, q, v, a);
    Vec6 base_wrench;
    base_wrench << R * b.head<3>(), R * b.segment<3>(3);
    const double force_scale = 1 + b.head<6>().norm();
    CHECK_THAT(Eigen::VectorXd(fd.forces()),
               AllClose(Eigen::VectorXd(base_wrench), 1e-9 * force_scale));
    CHECK(fd.rank() == 6);
    q.tail(model.nq - 7) = random_configuration(fixed, rng);
  }
}
