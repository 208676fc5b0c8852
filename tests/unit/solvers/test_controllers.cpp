// The controllers against the closed forms of the planar 2R arm with point masses at its link
// ends (robots/planar_2r.urdf: l1 = 1, l2 = 0.8 m, m1 = 1, m2 = 0.5 kg; robots/README.md), and
// computed torque over contacts against a box's weight.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/controllers.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr double kL1 = 1.0, kL2 = 0.8, kM1 = 1.0, kM2 = 0.5, kG = 9.81;

Eigen::Vector2d vec2(double a, double b) { return Eigen::Vector2d(a, b); }

// g(q): both angles from the horizontal, gravity in the arm's plane
Eigen::Vector2d gravity(const Eigen::Vector2d& q) {
  const double c1 = std::cos(q[0]), c12 = std::cos(q[0] + q[1]);
  return vec2((kM1 + kM2) * kG * kL1 * c1 + kM2 * kG * kL2 * c12, kM2 * kG * kL2 * c12);
}

Eigen::Matrix2d mass(const Eigen::Vector2d& q) {
  const double c2 = std::cos(q[1]);
  Eigen::Matrix2d M;
  M(0, 0) = kM1 * kL1 * kL1 + kM2 * (kL1 * kL1 + kL2 * kL2 + 2 * kL1 * kL2 * c2);
  M(0, 1) = M(1, 0) = kM2 * (kL2 * kL2 + kL1 * kL2 * c2);
  M(1, 1) = kM2 * kL2 * kL2;
  return M;
}

// C(q, v) v
Eigen::Vector2d coriolis(const Eigen::Vector2d& q, const Eigen::Vector2d& v) {
  const double h = kM2 * kL1 * kL2 * std::sin(q[1]);
  return vec2(-h * (2 * v[0] * v[1] + v[1] * v[1]), h * v[0] * v[0]);
}

struct PlanarArm {
  Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  Data data{model};
  Eigen::VectorXd q = vec2(0.3, -0.7), v = vec2(0.4, -1.1), tau = Eigen::VectorXd::Zero(2);
};

}  // namespace

TEST_CASE("the open-loop controllers give their torques", "[controllers]") {
  PlanarArm arm;
  ZeroTorque zero;
  arm.tau.setOnes();
  zero.torque(arm.model, arm.data, 0, arm.q, arm.v, arm.tau);
  CHECK(arm.tau.isZero(0));
  ConstantTorque constant(vec2(1.5, -2));
  constant.torque(arm.model, arm.data, 3, arm.q, arm.v, arm.tau);
  CHECK(arm.tau == vec2(1.5, -2));
  TorqueCallback callback([](double t, ConstVec q, ConstVec v, VecRef tau) { tau = t * q + v; });
  callback.torque(arm.model, arm.data, 2, arm.q, arm.v, arm.tau);
  CHECK(arm.tau.isApprox(vec2(1.0, -2.5), 1e-15));
  GravityCompensation hold;
  hold.torque(arm.model, arm.data, 0, arm.q, arm.v, arm.tau);
  CHECK(arm.tau.isApprox(gravity(arm.q), 1e-12));
  // torques that do not depend on the state have no feedback
  Eigen::MatrixXd K = Eigen::MatrixXd::Ones(2, 2), D = K;
  hold.feedback(arm.model, arm.data, 0, arm.q, K, D);
  CHECK(K.isZero(0));
  CHECK(D.isZero(0));
}

TEST_CASE("a set-point is a reference at rest", "[controllers]") {
  const ReferenceFunction reference = set_point(vec2(0.5, 1.5));
  Eigen::VectorXd q(2), v = Eigen::VectorXd::Ones(2), a = Eigen::VectorXd::Ones(2);
  reference(7, q, v, a);
  CHECK(q == vec2(0.5, 1.5));
  CHECK(v.isZero(0));
  CHECK(a.isZero(0));
}

TEST_CASE("the tracking error: e = q_ref - q and e_dot = v_ref - v at the reference's time",
          "[controllers]") {
  PlanarArm arm;
  // a reference moving at constant speed (1, -2) from (1, 0.5): at t = 0.25, q_ref = (1.25, 0)
  const ReferenceFunction ramp = [](double t, VecRef q, VecRef v, VecRef a) {
    q << 1 + t, 0.5 - 2 * t;
    v << 1, -2;
    a.setZero();
  };
  TrackingError tracking(arm.model, ramp, vec2(20, 10), vec2(2, 1));
  tracking.update(arm.model, 0.25, arm.q);
  CHECK(tracking.e().isApprox(vec2(1.25 - 0.3, 0 + 0.7), 1e-15));
  CHECK(tracking.v_ref() == vec2(1, -2));
  CHECK(tracking.a_ref().isZero(0));
  CHECK(tracking.kp() == vec2(20, 10));
  CHECK(tracking.kd() == vec2(2, 1));
  CHECK_THROWS_WITH(TrackingError(arm.model, ramp, vec2(1, 1), Eigen::VectorXd::Ones(3)),
                    Catch::Contains("Kd"));
}

TEST_CASE("PD: tau = Kp e + Kd e_dot (+ g)", "[controllers]") {
  PlanarArm arm;
  const Eigen::Vector2d kp(20, 10), kd(2, 1), goal(1.0, 0.5);
  const Eigen::Vector2d by_hand(20 * (1.0 - 0.3) + 2 * -0.4, 10 * (0.5 + 0.7) + 1 * 1.1);
  PD pd(arm.model, set_point(goal), kp, kd);
  pd.torque(arm.model, arm.data, 0, arm.q, arm.v, arm.tau);
  CHECK(arm.tau.isApprox(by_hand, 1e-14));
  PD compensated(arm.model, set_point(goal), kp, kd, true);
  compensated.torque(arm.model, arm.data, 0, arm.q, arm.v, arm.tau);
  CHECK(arm.tau.isApprox(by_hand + gravity(arm.q), 1e-12));
  Eigen::MatrixXd K, D;
  pd.feedback(arm.model, arm.data, 0, arm.q, K, D);
  CHECK(K == Eigen::Matrix2d(kp.asDiagonal()));
  CHECK(D == Eigen::Matrix2d(kd.asDiagonal()));
  CHECK_THROWS_AS(PD(arm.model, set_point(goal), Eigen::VectorXd::Ones(3), kd), InputError);
}

TEST_CASE("computed torque: tau = M (Kp e + Kd e_dot) + C v + g", "[controllers]") {
  PlanarArm arm;
  const Eigen::Vector2d kp(20, 10), kd(2, 1), goal(1.0, 0.5);
  ComputedTorque control(arm.model, set_point(goal), kp, kd);
  control.torque(arm.model, arm.data, 0, arm.q, arm.v, arm.tau);
  const Eigen::Vector2d q = arm.q, v = arm.v;
  const Eigen::Vector2d command = kp.cwiseProduct(goal - q) + kd.cwiseProduct(-v);
  CHECK(arm.tau.isApprox(mass(q) * command + coriolis(q, v) + gravity(q), 1e-12));
  Eigen::MatrixXd K, D;
  control.feedback(arm.model, arm.data, 0, arm.q, K, D);
  CHECK(K.isApprox(mass(q) * kp.asDiagonal(), 1e-12));
  CHECK(D.isApprox(mass(q) * kd.asDiagonal(), 1e-12));
  // without contacts: no forces, and no contact to be told of
  CHECK(control.contact_forces().size() == 0);
  CHECK_NOTHROW(control.contacts_changed(5, true));
}

TEST_CASE("computed torque over contacts makes them carry the weight", "[controllers]") {
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating);
  Data data(model);
  const ContactSet contacts =
      point_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"});
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq), tau(model.nv);
  q[6] = 1;  // level
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv);
  ComputedTorque stand(model, set_point(q), Eigen::VectorXd::Constant(6, 10),
                       Eigen::VectorXd::Constant(6, 1), &contacts);
  // at its set-point and at rest: the box (2 kg, unactuated) stands on its corners' forces
  auto lift = [&] {
    stand.torque(model, data, 0, q, v, tau);
    const Eigen::VectorXd& f = stand.contact_forces();
    double up = 0;
    for (int k = 0; k < 4; ++k) up += f[contacts.offset(k) + 2];
    return up;
  };
  CHECK(lift() == Approx(2 * kG).epsilon(1e-12));
  CHECK(tau.isZero(1e-12));
  // a corner open: the three others (not in a line, so they can carry any wrench) carry it, the
  // open one nothing
  stand.contacts_changed(1, false);
  CHECK(lift() == Approx(2 * kG).epsilon(1e-12));
  CHECK(stand.contact_forces().segment<3>(contacts.offset(1)).isZero(0));
  CHECK_THROWS_AS(stand.contacts_changed(4, true), InputError);
}
