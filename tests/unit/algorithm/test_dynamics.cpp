// Friction, external wrenches and trajectory differentiation: the pieces eom id adds to RNEA; and M
// with the nonlinear effects in one pass (the contact dynamics' crba_nonlinear_effects).

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/trajectory/finite_difference.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "algorithm/newton_euler.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("friction: viscous plus Coulomb, exact or smoothed sign", "[dynamics]") {
  Friction friction{Eigen::Vector3d(0.5, 0, 1), Eigen::Vector3d(2, 3, 0), 0};
  Eigen::Vector3d out;
  friction_torque(friction, Eigen::Vector3d(0.4, -1, 0), out);
  CHECK_THAT(out, AllClose(Eigen::Vector3d(0.5 * 0.4 + 2, -3, 0), kTolRoundoff));
  friction_torque(friction, Eigen::Vector3d(0, 0, 0), out);
  CHECK_THAT(out, AllClose(Eigen::Vector3d::Zero(), 0));  // sgn(0) = 0
  friction.smoothing = 0.1;
  friction_torque(friction, Eigen::Vector3d(0.05, -1, 0), out);
  CHECK(out[0] == Approx(0.5 * 0.05 + 2 * std::tanh(0.5)).epsilon(1e-14));
  CHECK(out[1] == Approx(-3 * std::tanh(10.0)).epsilon(1e-14));
}

TEST_CASE("external wrenches map to joint space by J^T F", "[dynamics]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Data data(model);
  Rng rng(3);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const int tool = model.require_frame("tool0");
  const int forearm = model.require_frame("forearm_link");
  Eigen::VectorXd wrenches(12);
  wrenches << 1, -2, 3, 0.1, 0.2, -0.3, 4, 0, -1, 0, 0.5, 0;
  Eigen::VectorXd tau(model.nv);
  for (const ReferenceFrame rf : {ReferenceFrame::local_world_aligned, ReferenceFrame::local}) {
    external_torque(model, data, q, {tool, forearm}, wrenches, rf, tau);
    const Eigen::MatrixXd J1 = frame_jacobian(model, data, q, tool, rf);
    const Eigen::MatrixXd J2 = frame_jacobian(model, data, q, forearm, rf);
    const Eigen::VectorXd expected =
        J1.transpose() * wrenches.head<6>() + J2.transpose() * wrenches.tail<6>();
    CHECK_THAT(tau, AllClose(expected, kTolRoundoff, kTolRoundoff));
  }
  // a pure force along world z at the tool gives the gravity-like torque of a point mass there:
  // the power balance F . pdot = tau . v for any v
  const Eigen::VectorXd v = random_tangent(model, rng);
  Eigen::VectorXd F(6);
  F << 0, 0, 5, 0, 0, 0;
  external_torque(model, data, q, {tool}, F, ReferenceFrame::local_world_aligned, tau);
  const Eigen::VectorXd twist =
      frame_jacobian(model, data, q, tool, ReferenceFrame::local_world_aligned) * v;
  CHECK(tau.dot(v) == Approx(F.dot(twist)).epsilon(1e-13));
}

TEST_CASE("three-point derivatives are exact on quadratics, on non-uniform times",
          "[finite_difference]") {
  const std::array<double, 3> t{0.1, 0.25, 0.32};
  auto f = [](double s) { return 2 - 3 * s + 4 * s * s; };
  for (int at = 0; at < 3; ++at) {
    const ThreePointWeights w = three_point_weights(t, at);
    const double d1 = w.d1[0] * f(t[0]) + w.d1[1] * f(t[1]) + w.d1[2] * f(t[2]);
    const double d2 = w.d2[0] * f(t[0]) + w.d2[1] * f(t[1]) + w.d2[2] * f(t[2]);
    CHECK(d1 == Approx(-3 + 8 * t[at]).epsilon(1e-12));
    CHECK(d2 == Approx(8).epsilon(1e-12));
  }
}

TEST_CASE("configuration differentiation works on the manifold", "[finite_difference]") {
  LoadOptions options;
  options.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/solo12.urdf", options);
  Rng rng(11);
  // constant body twist and joint rates: q(t) = q0 (+) t v, so v is recovered exactly and a = 0
  const Eigen::VectorXd q0 = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  const std::array<double, 3> t{0.0, 0.01, 0.025};
  const Eigen::VectorXd q1 = integrate(model, q0, t[1] * v), q2 = integrate(model, q0, t[2] * v);
  ConfigurationDifferentiator differentiate(model);
  Eigen::VectorXd vd(model.nv), ad(model.nv);
  for (int at = 0; at < 3; ++at) {
    differentiate(t, {&q0, &q1, &q2}, at, vd, ad);
    CHECK_THAT(vd, AllClose(v, 1e-10));
    CHECK_THAT(ad, AllClose(Eigen::VectorXd::Zero(model.nv), 1e-8));
  }
}

TEST_CASE("aba refuses a singular mass matrix by naming the joint", "[dynamics]") {
  // the finger slides a massless link: M is singular
  const Model model = load_urdf(kDataDir + "/urdf/massless_leaf.urdf");
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  CHECK_THROWS_WITH(aba(model, data, neutral(model), zero, zero),
                    Catch::Contains("joint 'finger_slide' moves no mass or inertia"));
}

TEST_CASE("armature: a pendulum's motor adds its rotor inertia to M, tau, aba and the energy",
          "[dynamics][armature]") {
  // one link of mass m, centre of mass at d along x from a z-axis hinge, gravity along -y, inertia
  // I_zz about the centre of mass, armature A (eom's URDF extension). By hand: M = I_zz + m d^2 +
  // A, tau = M qdd + m g d cos q (the weight's moment about z), T = 1/2 M qd^2
  const double m = 2, d = 0.3, Izz = 0.05, A = 0.7, g = 9.81;
  const std::string urdf = R"(<robot name="geared_pendulum"><link name="base"/>
    <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
      <axis xyz="0 0 1"/><dynamics armature="0.7"/></joint>
    <link name="arm"><inertial><origin xyz="0.3 0 0"/><mass value="2"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.04" iyz="0" izz="0.05"/></inertial></link>
    </robot>)";
  LoadOptions options;
  options.gravity = Vec3(0, -g, 0);
  const Model model = build_model(parse_urdf(urdf), options);
  REQUIRE(model.armature.size() == 1);
  CHECK(model.armature[0] == A);
  Data data(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 0.4);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(1, -1.3);
  const Eigen::VectorXd a = Eigen::VectorXd::Constant(1, 2.1);
  const double M = Izz + m * d * d + A;
  const double tau = M * a[0] + m * g * d * std::cos(q[0]);
  CHECK(crba(model, data, q)(0, 0) == Approx(M).epsilon(1e-15));
  CHECK(rnea(model, data, q, v, a)[0] == Approx(tau).epsilon(1e-15));
  CHECK(aba(model, data, q, v, Eigen::VectorXd::Constant(1, tau))[0] ==
        Approx(a[0]).epsilon(1e-14));
  CHECK(forward_dynamics_crba(model, data, q, v, Eigen::VectorXd::Constant(1, tau))[0] ==
        Approx(a[0]).epsilon(1e-14));
  CHECK(kinetic_energy(model, data, q, v) == Approx(0.5 * M * v[0] * v[0]).epsilon(1e-15));
  // nle and gravity carry no armature: it multiplies the acceleration only
  CHECK(nonlinear_effects(model, data, q, v)[0] ==
        Approx(m * g * d * std::cos(q[0])).epsilon(1e-14));
}

TEST_CASE("armature: a negative one is refused by name", "[dynamics][armature]") {
  const std::string urdf = R"(<robot name="r"><link name="base"/>
    <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
      <axis xyz="0 0 1"/><dynamics armature="-0.1"/></joint>
    <link name="arm"><inertial><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
    </robot>)";
  CHECK_THROWS_WITH(build_model(parse_urdf(urdf, "r.urdf")),
                    Catch::Contains("r.urdf:2: joint 'hinge': dynamics armature -0.1 must be "
                                    "non-negative"));
}

TEST_CASE("M and h in one pass: crba's M, nonlinear_effects' h, the same bits far away",
          "[dynamics]") {
  // every test robot, fixed and floating, and the MJCF chains of ball joints (several columns)
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), reference(model);
  Rng rng(robot.seed);
  for (int k = 0; k < 4; ++k) {
    Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    detail::crba_nonlinear_effects(model, data, q, v);
    // the same operations as crba for M: the same bits
    CHECK(data.M == crba(model, reference, q));
    // h by Newton-Euler in the joints' own frames: the same to round-off
    const Eigen::VectorXd h = nonlinear_effects(model, reference, q, v);
    CHECK_THAT(data.tau, AllClose(h, 1e-12 * (1 + h.norm())));
    if (!model.floating_base) continue;
    // the base frame carries no translation: M and h do not change in one bit 1000 km away
    const Eigen::MatrixXd M = data.M;
    const Eigen::VectorXd near = data.tau;
    q.head<3>() += Eigen::Vector3d(1e6, -1e6, 0);
    detail::crba_nonlinear_effects(model, data, q, v);
    CHECK(data.M == M);
    CHECK(data.tau == near);
  }
}
