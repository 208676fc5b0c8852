// A ball joint against an independent model of the same mechanism: three concurrent hinges about
// x, y and z with no mass between them (MJCF's several joints in one body). At hinge angles h the
// body turns by R = Rx(h1) Ry(h2) Rz(h3); its body-frame angular velocity is w = E hd with E the
// angular rows of the body's local Jacobian, and its angular acceleration (body axes) is
// R^T omega_dot (world). So the ball model at (quaternion of R, w, wd) must give the hinge model's
// poses, and by the principle of virtual power tau_hinges = E^T tau_ball, M_hinges = E^T M_ball E.
// The hinge model's quantities come from 1-DoF code only.

#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/mjcf.hpp>
#include <eom/solvers/ik.hpp>

#include "matchers.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// a spherical pendulum (offset, tilted inertia) carrying a hinged second link; JOINTS is the
// first body's joints
std::string pendulum(const std::string& joints) {
  return R"(<mujoco model="spherical">
  <compiler angle="radian"/>
  <worldbody>
    <body name="bob" pos="0.1 0 1">
      )" +
         joints +
         R"(
      <inertial pos="0.05 -0.02 -0.4" quat="0.9 0.1 0.3 0.2" mass="2" diaginertia="0.03 0.02 0.01"/>
      <body name="link" pos="0 0.05 -0.5">
        <joint name="knee" axis="0 1 0"/>
        <inertial pos="0 0 -0.2" mass="0.7" diaginertia="0.01 0.01 0.002"/>
        <site name="tip" pos="0.02 0 -0.4"/>
      </body>
    </body>
  </worldbody>
</mujoco>)";
}

}  // namespace

TEST_CASE("a ball joint moves as three concurrent hinges", "[property][ball]") {
  const Model ball = build_mjcf_model(pendulum(R"(<joint name="s" type="ball"/>)"), "ball.xml");
  const Model hinges = build_mjcf_model(pendulum(R"(<joint name="x" axis="1 0 0"/>
      <joint name="y" axis="0 1 0"/>
      <joint name="z" axis="0 0 1"/>)"),
                                        "hinges.xml");
  REQUIRE(ball.nq == 5);
  REQUIRE(ball.nv == 4);
  REQUIRE(ball.q_names == std::vector<std::string>{"s.qx", "s.qy", "s.qz", "s.qw", "knee"});
  REQUIRE(ball.v_names == std::vector<std::string>{"s.wx", "s.wy", "s.wz", "knee"});
  REQUIRE(ball.tau_names == std::vector<std::string>{"s.mx", "s.my", "s.mz", "knee"});
  Data db(ball), dh(hinges);
  const int bob_h = hinges.require_frame("bob"), tip_h = hinges.require_frame("tip");
  const int tip_b = ball.require_frame("tip");
  Rng rng(23);
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    // hinge angles away from the gimbal lock of h2 = +-pi/2, where E is singular
    Eigen::VectorXd qh(4), vh = random_tangent(hinges, rng, 2), ah = random_tangent(hinges, rng, 3);
    for (int k = 0; k < 4; ++k) qh[k] = rng.uniform(-1.2, 1.2);

    // the ball model's state from the hinge model's kinematics
    frame_placements(hinges, dh, qh);
    const Mat3 R = dh.oMf[bob_h].R;
    Eigen::VectorXd qb(5), vb(4), ab(4);
    qb.head<4>() = Eigen::Quaterniond(R).coeffs();  // x y z w
    qb[4] = qh[3];
    Eigen::Matrix4d E = Eigen::Matrix4d::Identity();  // vb = E vh
    E.topRows<3>() = frame_jacobian(hinges, dh, qh, bob_h, ReferenceFrame::local).bottomRows<3>();
    vb = E * vh;
    const Vec6 acc = frame_classical_acceleration(hinges, dh, qh, vh, ah, bob_h);
    ab.head<3>() = R.transpose() * acc.tail<3>();
    ab[3] = ah[3];

    // poses
    frame_placements(ball, db, qb);
    for (const Frame& f : hinges.frames) {
      INFO("frame " << f.name);
      const SE3& b = db.oMf[ball.require_frame(f.name)];
      const SE3& h = dh.oMf[hinges.require_frame(f.name)];
      CHECK_THAT(b.p, AllClose(h.p, kTolRoundoff));
      CHECK_THAT(b.R, AllClose(h.R, kTolRoundoff));
    }
    // the tip's Jacobian: the same velocity for the same motion
    const Eigen::MatrixXd Jb = frame_jacobian(ball, db, qb, tip_b, ReferenceFrame::world);
    const Eigen::MatrixXd Jh = frame_jacobian(hinges, dh, qh, tip_h, ReferenceFrame::world);
    CHECK_THAT(Jb * E, AllClose(Jh, kTolRoundoff * (1 + Jh.norm())));

    // dynamics by virtual power
    const Eigen::MatrixXd Mb = crba(ball, db, qb).selfadjointView<Eigen::Upper>();
    const Eigen::MatrixXd Mh = crba(hinges, dh, qh).selfadjointView<Eigen::Upper>();
    CHECK_THAT(E.transpose() * Mb * E, AllClose(Mh, kTolRoundoff * (1 + Mh.norm())));
    const Eigen::VectorXd tau_b = rnea(ball, db, qb, vb, ab);
    const Eigen::VectorXd tau_h = rnea(hinges, dh, qh, vh, ah);
    CHECK_THAT(E.transpose() * tau_b, AllClose(tau_h, kTolReference * (1 + tau_h.norm())));
    const Eigen::VectorXd g_b = gravity_torque(ball, db, qb);
    const Eigen::VectorXd g_h = gravity_torque(hinges, dh, qh);
    CHECK_THAT(E.transpose() * g_b, AllClose(g_h, kTolRoundoff * (1 + g_h.norm())));
    // forward dynamics: the torques of the hinges' motion give the ball its acceleration
    const Eigen::VectorXd tau_ball = E.transpose().lu().solve(tau_h);
    CHECK_THAT(aba(ball, db, qb, vb, tau_ball), AllClose(ab, kTolReference * (1 + ab.norm())));
  }
}

TEST_CASE("a ball joint's configuration space is SO(3)", "[property][ball]") {
  const Model ball = build_mjcf_model(pendulum(R"(<joint name="s" type="ball"/>)"), "ball.xml");
  Rng rng(5);
  Data data(ball);
  const int bob = ball.require_frame("bob");
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = random_configuration(ball, rng);
    CHECK(q.head<4>().norm() == Approx(1).epsilon(1e-15));
    // |w| < pi: the logarithm's range, where difference undoes integrate
    const Eigen::VectorXd v = random_tangent(ball, rng, 1);
    Eigen::VectorXd q1(5), back(4);
    integrate(ball, q, v, q1);
    difference(ball, q, q1, back);
    CHECK_THAT(back, AllClose(v, kTolRoundoff * 10));
    // integrate turns the body by exp(w) in its own axes: R1 = R0 exp([w]), Rodrigues' formula
    frame_placements(ball, data, q);
    const Mat3 R0 = data.oMf[bob].R;
    frame_placements(ball, data, q1);
    const Vec3 w = v.head<3>();
    const double t = w.norm();
    const Mat3 K = skew(w / t);
    const Mat3 turn = Mat3::Identity() + std::sin(t) * K + (1 - std::cos(t)) * K * K;
    CHECK_THAT(data.oMf[bob].R, AllClose(R0 * turn, kTolRoundoff * 10));
  }
  // the neutral configuration is the identity quaternion: the body in its file pose
  const Eigen::VectorXd q0 = neutral(ball);
  CHECK(q0.head<4>() == Eigen::Vector4d(0, 0, 0, 1));
}

TEST_CASE("IK through ball joints reaches every reachable pose", "[property][ball][ik]") {
  // three ball joints and a hinge: 10 dofs for a 6-d pose; from the neutral seed, restarts at
  // random orientations of the ball joints where the descent stalls
  const Model model = load_model(kDataDir + "/mjcf/ball_chain.xml");
  Data data(model);
  IkSolver solver(model);
  IkProblem problem;
  problem.frame = model.require_frame("tool");
  IkOptions options;
  options.timeout = 0;
  options.position_tolerance = options.orientation_tolerance = 1e-8;
  Rng rng(3);
  const int samples = 100;
  int converged = 0;
  for (int s = 0; s < samples; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    frame_placements(model, data, q);
    problem.target = data.oMf[problem.frame];
    options.random_seed = s;
    const IkResult& r = solver.solve(problem, neutral(model), options);
    converged += r.converged();
    for (int j = 1; j < model.njoints; ++j) {
      if (has_quaternion(model.joints[j])) {
        CHECK(r.q.segment<4>(model.joints[j].idx_q).norm() == Approx(1).epsilon(1e-12));
      }
    }
    // the solution's pose is the target's
    frame_placements(model, data, r.q);
    CHECK_THAT(data.oMf[problem.frame].p, AllClose(problem.target.p, 1e-7));
  }
  CHECK(converged == samples);
}
