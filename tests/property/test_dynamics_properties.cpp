// Identities that must hold for every model and state: they check the algorithms against each
// other and against calculus, independently of any reference values.

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {
// relative tolerance scaled by the size of the terms involved
double scaled(double tol, double magnitude) { return tol * (1.0 + magnitude); }

// a few random states (q, v, a) of a model, from the model's seed
struct State {
  Eigen::VectorXd q, v, a;
};
std::vector<State> random_states(const Model& model, unsigned seed, int count = 5) {
  Rng rng(seed);
  std::vector<State> states;
  for (int k = 0; k < count; ++k) {
    State s;
    s.q = random_configuration(model, rng);
    s.v = random_tangent(model, rng);
    s.a = random_tangent(model, rng);
    states.push_back(std::move(s));
  }
  return states;
}
}  // namespace

TEST_CASE("M is symmetric positive definite and 1/2 v'Mv is the kinetic energy",
          "[property][dynamics]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  for (const auto& [q, v, a] : random_states(model, robot.seed)) {
    const Eigen::MatrixXd M = crba(model, data, q);
    // every joint of these models moves mass (eom check warns otherwise): M is positive definite
    CHECK(is_symmetric_positive_definite(M, kTolRoundoff));
    const double T = kinetic_energy(model, data, q, v);
    CHECK(T == Approx(0.5 * v.dot(M * v)).epsilon(1e-12).margin(1e-12));
  }
}

TEST_CASE("rnea(q, v, a) = M(q) a + nle(q, v) and nle(q, 0) = g(q)", "[property][dynamics]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  for (const auto& [q, v, a] : random_states(model, robot.seed)) {
    const Eigen::VectorXd tau = rnea(model, data, q, v, a);
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd nle = nonlinear_effects(model, data, q, v);
    const Eigen::VectorXd expected = M * a + nle;
    CHECK_THAT(tau, AllClose(expected, scaled(kTolRoundoff, 10 * expected.cwiseAbs().maxCoeff())));
    const Eigen::VectorXd g = gravity_torque(model, data, q);
    const Eigen::VectorXd nle0 = nonlinear_effects(model, data, q, Eigen::VectorXd::Zero(model.nv));
    CHECK_THAT(nle0, AllClose(g, scaled(kTolRoundoff, g.cwiseAbs().maxCoeff())));
  }
}

TEST_CASE("aba inverts rnea, and agrees with M^-1 (tau - nle)", "[property][dynamics]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  for (const auto& [q, v, a] : random_states(model, robot.seed)) {
    const Eigen::VectorXd tau = rnea(model, data, q, v, a);
    const Eigen::MatrixXd M = crba(model, data, q);
    // the error of a solve grows with the condition number of M
    const double conditioning = M.norm() * M.inverse().norm();
    CHECK_THAT(aba(model, data, q, v, tau), AllClose(a, scaled(kTolRoundoff, conditioning)));
    const Eigen::VectorXd expected = M.llt().solve(tau - nonlinear_effects(model, data, q, v));
    CHECK_THAT(aba(model, data, q, v, tau),
               AllClose(expected, scaled(kTolRoundoff, conditioning * expected.norm())));
  }
}

TEST_CASE("the dynamics of a floating robot do not see where it stands or which way it faces",
          "[property][dynamics][anywhere]") {
  // The free-flyer's coordinates are its position and orientation in the world and its body
  // twist: moving the robot (and turning the scene with gravity) changes no joint coordinate,
  // velocity or acceleration, so the generalized forces and accelerations must not change. eom
  // works about the base's origin, so a translation must not change a single bit; a turn changes
  // the round-off only.
  const TestModel robot = GENERATE(from_range(test_models()));
  const Model model = robot.load();
  if (!model.floating_base) return;
  INFO(robot.name);
  Data data(model);
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(2.0, Eigen::Vector3d(1, 2, 3).normalized()));
  Model turned_model = model;
  turned_model.gravity = turn * model.gravity;
  Data turned_data(turned_model);
  for (const auto& [q, v, a] : random_states(model, robot.seed)) {
    const Eigen::VectorXd tau = rnea(model, data, q, v, a);
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd qdd = aba(model, data, q, v, tau);
    const double conditioning = M.norm() * M.inverse().norm();
    for (const double offset : {1e3, 1e5, 1e7}) {  // m, along a unit direction
      INFO("moved by " << offset << " m");
      Eigen::VectorXd moved = q;
      moved.head<3>() += offset * Eigen::Vector3d(0.48, -0.6, 0.64);
      CHECK(rnea(model, data, moved, v, a) == tau);
      CHECK(crba(model, data, moved) == M);
      CHECK(aba(model, data, moved, v, tau) == qdd);

      Eigen::VectorXd turned = moved;
      turned.head<3>() = turn * moved.head<3>();
      const Eigen::Quaterniond base(q[6], q[3], q[4], q[5]);
      turned.segment<4>(3) = (turn * base).coeffs();  // x, y, z, w: eom's order
      CHECK_THAT(rnea(turned_model, turned_data, turned, v, a),
                 AllClose(tau, scaled(kTolRoundoff, tau.cwiseAbs().maxCoeff())));
      CHECK_THAT(aba(turned_model, turned_data, turned, v, tau),
                 AllClose(qdd, scaled(kTolRoundoff, conditioning * qdd.norm())));
    }
  }
}

TEST_CASE("energy balance: d/dt (T + V) = v . tau", "[property][dynamics]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  Rng rng(robot.seed);
  // along q(t) = q0 (+) (v0 t + a t^2 / 2): v(t) = v0 + a t in tangent coordinates. For a floating
  // base the tangent velocity is not the body twist beyond first order, so check at t = 0 only,
  // where both agree to first order: central differences of E at +-h
  const Eigen::VectorXd q0 = random_configuration(model, rng);
  const Eigen::VectorXd v0 = random_tangent(model, rng);
  const Eigen::VectorXd a = random_tangent(model, rng);
  const double h = 1e-5;
  auto energy = [&](double t) {
    const Eigen::VectorXd q = integrate(model, q0, v0 * t + a * (t * t / 2));
    return kinetic_energy(model, data, q, v0 + a * t) + potential_energy(model, data, q);
  };
  const double dE = (energy(h) - energy(-h)) / (2 * h);
  const double power = v0.dot(rnea(model, data, q0, v0, a));
  CHECK(dE == Approx(power).epsilon(1e-6).margin(1e-6));
}

TEST_CASE("integrate and difference are inverse", "[property][configuration]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Rng rng(robot.seed);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  const Eigen::VectorXd q1 = integrate(model, q, v);
  CHECK_THAT(difference(model, q, q1), AllClose(v, 1e-10));
}

TEST_CASE("frame Jacobian is the derivative of the frame placement", "[property][kinematics]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), data_plus(model), data_minus(model);
  Rng rng(robot.seed);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  const double h = 1e-6;
  frame_placements(model, data_plus, integrate(model, q, v * h));
  frame_placements(model, data_minus, integrate(model, q, -v * h));
  for (int f = 0; f < static_cast<int>(model.frames.size()); ++f) {
    INFO("frame " << model.frames[f].name);
    const Eigen::VectorXd Jv =
        frame_jacobian(model, data, q, f, ReferenceFrame::local_world_aligned) * v;
    const Vec3 pdot = (data_plus.oMf[f].p - data_minus.oMf[f].p) / (2 * h);
    // omega from dR/dt R^T, skew part
    const Mat3 W = (data_plus.oMf[f].R - data_minus.oMf[f].R) / (2 * h) * data.oMf[f].R.transpose();
    const Vec3 omega(W(2, 1), W(0, 2), W(1, 0));
    CHECK_THAT(Jv.head<3>(), AllClose(pdot, 1e-7, 1e-7));
    CHECK_THAT(Jv.tail<3>(), AllClose(omega, 1e-7, 1e-7));
  }
}

TEST_CASE("armature on a free joint on the world: rnea = M a + nle, aba inverts it, T = 1/2 v'Mv",
          "[property][dynamics][armature]") {
  // the free-flyer on the world is solved directly by aba (no pivot D): its armature there, from
  // a URDF floating joint on the world link (eom's coordinates: the body-frame twist)
  const Model model = build_model(parse_urdf(R"(<robot name="r"><link name="world"/>
    <joint name="flyer" type="floating"><parent link="world"/><child link="body"/>
      <origin xyz="0.1 0 1" rpy="0.2 0 0"/><dynamics armature="0.3"/></joint>
    <link name="body"><inertial><origin xyz="0.02 0 0.01"/><mass value="4"/>
      <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.15"/></inertial></link>
    <joint name="arm" type="continuous"><parent link="body"/><child link="arm"/>
      <origin xyz="0 0.2 0"/><axis xyz="1 0 0"/><dynamics armature="0.05"/></joint>
    <link name="arm"><inertial><origin xyz="0 0 -0.2"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.002"/></inertial></link>
    </robot>)"));
  REQUIRE(model.joints[1].nv == 6);
  REQUIRE(model.armature[0] == 0.3);
  Data data(model);
  for (const auto& [q, v, a] : random_states(model, 23)) {
    const Eigen::VectorXd tau = rnea(model, data, q, v, a);
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd nle = nonlinear_effects(model, data, q, v);
    CHECK_THAT(tau, AllClose(M * a + nle, scaled(kTolRoundoff, 10 * tau.cwiseAbs().maxCoeff())));
    const double conditioning = M.norm() * M.inverse().norm();
    CHECK_THAT(aba(model, data, q, v, tau), AllClose(a, scaled(kTolRoundoff, conditioning)));
    CHECK_THAT(forward_dynamics_crba(model, data, q, v, tau),
               AllClose(a, scaled(kTolRoundoff, conditioning)));
    CHECK(kinetic_energy(model, data, q, v) ==
          Approx(0.5 * v.dot(M * v)).epsilon(1e-12).margin(1e-12));
  }
}
