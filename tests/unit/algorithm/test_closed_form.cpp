// The closed-form EOM of Müller and Kumar (closed_form.hpp) and their time derivatives, against
// a hand derivation for the planar 2R arm, the recursive algorithms, the reference values and
// finite differences along polynomial trajectories.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <eom/algorithm/closed_form.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/time_derivatives.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "paths.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// every shipped and reference robot that is a serial chain on a fixed base
const std::vector<std::string> kSerialRobots = {
    kRobotsDir + "/block.urdf",
    kRobotsDir + "/planar_2r.urdf",
    kRobotsDir + "/planar_3r.urdf",
    kRobotsDir + "/ur5.urdf",
    kRobotsDir + "/iiwa14.urdf",
    kDataDir + "/robots/double_pendulum.urdf",
    kDataDir + "/robots/kinova.urdf",
    kDataDir + "/robots/talos_left_arm.urdf",
    kDataDir + "/robots/ur5_robot.urdf",
    kDataDir + "/robots/finger_edu.urdf",
    kDataDir + "/robots/z1.urdf",
    kDataDir + "/robots/serial_mixed.urdf",  // revolute and prismatic joints, unaligned axes
};
const std::vector<std::string> kSerialReferences = {"double_pendulum", "finger_edu", "kinova",
                                                    "talos_left_arm",  "ur5_robot",  "z1"};

Eigen::VectorXd zeros(const Model& model) { return Eigen::VectorXd::Zero(model.nv); }

/// The last frame carried by the last body of the chain (the end effector).
int end_effector(const Model& model) {
  for (int f = static_cast<int>(model.frames.size()) - 1; f >= 0; --f) {
    if (model.frames[f].parent == model.njoints - 1) return f;
  }
  return -1;
}

/// Relative infinity-norm distance |x - y| / max(1, |y|).
double relative_error(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
  return (x - y).cwiseAbs().maxCoeff() / std::max(1.0, y.cwiseAbs().maxCoeff());
}

/// A polynomial joint trajectory q(t) = sum_k c_k t^k / k! with its derivatives of orders 0..4.
struct Polynomial {
  std::vector<Eigen::VectorXd> c;  // c_0 .. c_6
  Eigen::VectorXd derivative(int order, double t) const {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(c[0].size());
    double factor = 1;  // t^j / j!
    for (int j = 0; order + j < static_cast<int>(c.size()); ++j) {
      out += c[order + j] * factor;
      factor *= t / (j + 1);
    }
    return out;
  }
};

/// d/dt at 0 of f by the fourth-order central difference.
template <class F>
Eigen::MatrixXd central_difference(F&& f, double h) {
  return (-f(2 * h) + 8 * f(h) - 8 * f(-h) + f(-2 * h)) / (12 * h);
}

}  // namespace

TEST_CASE("closed form: planar 2R arm against its hand-derived tau, dtau/dt, d2tau/dt2",
          "[closed_form]") {
  // The paper's example (section 6.1): point masses m1, m2 at the link ends, links l1, l2,
  // gravity g in the plane. Textbook Lagrange model (Lynch and Park, Modern Robotics, eq. 8.9),
  // with q1 from the horizontal and q2 relative:
  //   M11 = alpha + 2 beta c2, M12 = delta + beta c2, M22 = delta,
  //   C qdot = -beta s2 (2 w1 w2 + w2^2, -w1^2), g = (k1 cos q1 + k2 cos q12, k2 cos q12).
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  const double l1 = 1.0, l2 = 0.8, m1 = 1.0, m2 = 0.5, g = 9.81;
  const double alpha = m1 * l1 * l1 + m2 * (l1 * l1 + l2 * l2), beta = m2 * l1 * l2,
               delta = m2 * l2 * l2, k1 = (m1 + m2) * l1 * g, k2 = m2 * l2 * g;
  ClosedFormData cf(model);
  Rng rng(2);
  for (int sample = 0; sample < 20; ++sample) {
    const Eigen::VectorXd q = random_configuration(model, rng), w = random_tangent(model, rng),
                          acc = random_tangent(model, rng), jerk = random_tangent(model, rng),
                          snap = random_tangent(model, rng);
    closed_form_dynamics(model, cf, q, w, acc, jerk, snap, 2);

    const double s = std::sin(q[1]), c = std::cos(q[1]), w1 = w[0], w2 = w[1], a1 = acc[0],
                 a2 = acc[1], j1 = jerk[0], j2 = jerk[1], p1 = snap[0], p2 = snap[1];
    const double q12 = q[0] + q[1], w12 = w1 + w2, a12 = a1 + a2;
    // time derivatives of the trigonometric factors (chain rule)
    const double ds = c * w2, dc = -s * w2;
    const double d2s = -s * w2 * w2 + c * a2, d2c = -c * w2 * w2 - s * a2;
    const double cos1 = std::cos(q[0]), sin1 = std::sin(q[0]);
    const double cos12 = std::cos(q12), sin12 = std::sin(q12);
    // P = 2 w1 w2 + w2^2, the velocity product of tau1
    const double P = 2 * w1 * w2 + w2 * w2;
    const double dP = 2 * a1 * w2 + 2 * w1 * a2 + 2 * w2 * a2;
    const double d2P = 2 * j1 * w2 + 4 * a1 * a2 + 2 * w1 * j2 + 2 * a2 * a2 + 2 * w2 * j2;

    Eigen::Vector2d tau, dtau, d2tau;
    tau[0] = (alpha + 2 * beta * c) * a1 + (delta + beta * c) * a2 - beta * s * P + k1 * cos1 +
             k2 * cos12;
    tau[1] = (delta + beta * c) * a1 + delta * a2 + beta * s * w1 * w1 + k2 * cos12;
    dtau[0] = 2 * beta * dc * a1 + (alpha + 2 * beta * c) * j1 + beta * dc * a2 +
              (delta + beta * c) * j2 - beta * (ds * P + s * dP) - k1 * sin1 * w1 -
              k2 * sin12 * w12;
    dtau[1] = beta * dc * a1 + (delta + beta * c) * j1 + delta * j2 +
              beta * (ds * w1 * w1 + s * 2 * w1 * a1) - k2 * sin12 * w12;
    d2tau[0] = 2 * beta * d2c * a1 + 4 * beta * dc * j1 + (alpha + 2 * beta * c) * p1 +
               beta * d2c * a2 + 2 * beta * dc * j2 + (delta + beta * c) * p2 -
               beta * (d2s * P + 2 * ds * dP + s * d2P) - k1 * (cos1 * w1 * w1 + sin1 * a1) -
               k2 * (cos12 * w12 * w12 + sin12 * a12);
    d2tau[1] = beta * d2c * a1 + 2 * beta * dc * j1 + (delta + beta * c) * p1 + delta * p2 +
               beta * (d2s * w1 * w1 + 2 * ds * 2 * w1 * a1 + s * (2 * a1 * a1 + 2 * w1 * j1)) -
               k2 * (cos12 * w12 * w12 + sin12 * a12);

    CHECK_THAT(cf.tau, AllClose(tau, kTolRoundoff * 10, kTolRoundoff * 10));
    CHECK_THAT(cf.dtau, AllClose(dtau, kTolRoundoff * 10, kTolRoundoff * 10));
    CHECK_THAT(cf.d2tau, AllClose(d2tau, kTolRoundoff * 10, kTolRoundoff * 10));
    Eigen::Matrix2d M;
    M << alpha + 2 * beta * c, delta + beta * c, delta + beta * c, delta;
    CHECK_THAT(cf.M, AllClose(M, kTolRoundoff, kTolRoundoff));
  }
}

TEST_CASE("closed form: tau equals rnea, M equals crba, Mdot - 2C is skew-symmetric",
          "[closed_form]") {
  for (const std::string& path : kSerialRobots) {
    INFO(path);
    const Model model = load_urdf(path);
    Data data(model);
    ClosedFormData cf(model);
    Rng rng(11);
    for (int sample = 0; sample < 10; ++sample) {
      const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng),
                            a = random_tangent(model, rng), d3q = random_tangent(model, rng);
      closed_form_dynamics(model, cf, q, v, a, d3q, zeros(model), 1);
      const Eigen::VectorXd tau = rnea(model, data, q, v, a);
      CHECK_THAT(cf.tau, AllClose(tau, kTolRoundoff * 100, kTolRoundoff * 100));
      const Eigen::MatrixXd M = crba(model, data, q);
      CHECK_THAT(cf.M, AllClose(M, kTolRoundoff * 100, kTolRoundoff * 100));
      const Eigen::VectorXd g = gravity_torque(model, data, q);
      CHECK_THAT(cf.Q_grav, AllClose(g, kTolRoundoff * 100, kTolRoundoff * 100));
      const Eigen::MatrixXd skew = cf.dM - 2 * cf.C;
      CHECK_THAT(skew + skew.transpose(),
                 AllClose(Eigen::MatrixXd::Zero(model.nv, model.nv),
                          kTolRoundoff * 100 * std::max(1.0, cf.dM.cwiseAbs().maxCoeff())));
    }
  }
}

TEST_CASE("closed form: dtau/dt and d2tau/dt2 match the reference on serial robots",
          "[closed_form][reference]") {
  for (const std::string& name : kSerialReferences) {
    INFO(name);
    const Reference ref = load_reference(name);
    ClosedFormData cf(ref.model);
    for (const auto& sample : ref.json["samples"]) {
      const Eigen::VectorXd q = ref.q(sample["q"]);
      closed_form_dynamics(ref.model, cf, q, ref.tangent(sample["v"]), ref.tangent(sample["a"]),
                           ref.tangent(sample["jerk"]), ref.tangent(sample["snap"]), 2);
      CHECK(relative_error(cf.tau, ref.tangent(sample["tau"])) < kTolReference);
      CHECK(relative_error(cf.dtau, ref.tangent(sample["dtau_dt"])) < 10 * kTolReference);
      CHECK(relative_error(cf.d2tau, ref.tangent(sample["d2tau_dt2"])) < 10 * kTolReference);
    }
  }
}

TEST_CASE("closed form: every derivative matches central differences along a trajectory",
          "[closed_form]") {
  for (const std::string& path : kSerialRobots) {
    INFO(path);
    const Model model = load_urdf(path);
    ClosedFormData cf(model);
    Rng rng(5);
    Polynomial traj;
    traj.c.push_back(random_configuration(model, rng));
    for (int k = 1; k <= 6; ++k) traj.c.push_back(random_tangent(model, rng));
    // a wrench on the end effector that varies as W(t) = W0 + W1 t + W2 t^2 / 2
    const int frame = end_effector(model);
    Vec6 W0, W1, W2;
    W0 << 3, -1, 2, 0.5, -0.2, 0.1;
    W1 << -1, 2, 0.5, 0.3, 0.1, -0.4;
    W2 << 0.7, 0.2, -1.5, 0.1, 0.6, 0.2;
    for (const ReferenceFrame reference :
         {ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
      INFO("wrench reference " << static_cast<int>(reference));
      // all results at time t, stacked column-wise: tau, Q_grav, Q_ext, M, C (and derivatives)
      const auto at = [&](double t, int order) {
        FrameWrench wrench;
        wrench.frame = frame;
        wrench.reference = reference;
        wrench.W = W0 + W1 * t + W2 * t * t / 2;
        wrench.dW = W1 + W2 * t;
        wrench.d2W = W2;
        closed_form_dynamics(model, cf, traj.derivative(0, t), traj.derivative(1, t),
                             traj.derivative(2, t), traj.derivative(3, t), traj.derivative(4, t), 2,
                             &wrench);
        const int n = model.nv;
        Eigen::MatrixXd out(n, 3 + 2 * n);
        if (order == 0) out << cf.tau, cf.Q_grav, cf.Q_ext, cf.M, cf.C;
        if (order == 1) out << cf.dtau, cf.dQ_grav, cf.dQ_ext, cf.dM, cf.dC;
        if (order == 2) out << cf.d2tau, cf.d2Q_grav, cf.d2Q_ext, cf.d2M, cf.d2C;
        return out;
      };
      const double h = 1e-3;
      for (int order = 1; order <= 2; ++order) {
        INFO("order " << order);
        const Eigen::MatrixXd exact = at(0, order);
        const Eigen::MatrixXd numeric =
            central_difference([&](double t) { return at(t, order - 1); }, h);
        CHECK(relative_error(exact, numeric) < 1e-8);
      }
    }
  }
}

TEST_CASE(
    "closed form: M, g and their first two derivatives equal the recursive method's "
    "(mass_coriolis_gravity_time_derivatives); its C, another arrangement, has the same C v and "
    "C + C^T at every order",
    "[closed_form]") {
  for (const std::string& path : kSerialRobots) {
    INFO(path);
    const Model model = load_urdf(path);
    ClosedFormData cf(model);
    TimeDerivativeData series(model, 2);
    Rng rng(17);
    for (int sample = 0; sample < 5; ++sample) {
      const Eigen::VectorXd q = random_configuration(model, rng);
      Eigen::MatrixXd dq(model.nv, 4);
      for (int k = 0; k < 4; ++k) dq.col(k) = random_tangent(model, rng);
      closed_form_dynamics(model, cf, q, dq.col(0), dq.col(1), dq.col(2), dq.col(3), 2);
      mass_coriolis_gravity_time_derivatives(model, series, q, dq, 2);
      const Eigen::MatrixXd* M[] = {&cf.M, &cf.dM, &cf.d2M};
      const Eigen::MatrixXd* C[] = {&cf.C, &cf.dC, &cf.d2C};
      const Eigen::VectorXd* g[] = {&cf.Q_grav, &cf.dQ_grav, &cf.d2Q_grav};
      for (int k = 0; k <= 2; ++k) {
        INFO("order " << k);
        CHECK(relative_error(series.M[k], *M[k]) < kTolRoundoff * 100);
        CHECK(relative_error(series.g.col(k), *g[k]) < kTolRoundoff * 100);
        const Eigen::MatrixXd sum = *C[k] + C[k]->transpose();
        CHECK(relative_error(series.C[k] + series.C[k].transpose(), sum) < kTolRoundoff * 100);
        // d^k/dt^k (C v) = sum_m C(k, m) C^(m) q^(k - m + 1)
        Eigen::VectorXd recursive = Eigen::VectorXd::Zero(model.nv), closed = recursive;
        for (int m = 0; m <= k; ++m) {
          recursive += series.choose(k, m) * (series.C[m] * dq.col(k - m));
          closed += series.choose(k, m) * (*C[m] * dq.col(k - m));
        }
        CHECK(relative_error(recursive, closed) < kTolRoundoff * 100);
      }
    }
  }
}

TEST_CASE("closed form: the paper's iiwa example, differentiated numerically along its trajectory",
          "[closed_form]") {
  // Section 6.2: the trajectory of Gaz et al. (RA-L 2019, eq. 31), q_i = A_i cos(w_i t), with an
  // end-effector wrench of 10 sin(pi t) on all six components (world axes) and g = 9.80665.
  LoadOptions options;
  options.gravity = Vec3(0, 0, -9.80665);
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf", options);
  Data data(model);
  ClosedFormData cf(model);
  Eigen::VectorXd A(7), w(7);
  A << -1.2943753211777664, 0.7175341454355011, -0.5691380764966176, 0.5848944158627155,
      1.6216297151633214, -0.9187855709752027, 0.4217605991935227;
  w << 1.7073873117335832, 3.079992797637052, 2.1084514453622774, 3.5903916041026207,
      1.4183262544423447, 2.285625793808507, 5.927533308659986;
  // d^k/dt^k of A cos(w t) = A w^k cos(w t + k pi / 2)
  const auto q_derivative = [&](int k, double t) -> Eigen::VectorXd {
    return (A.array() * w.array().pow(k) * (w.array() * t + k * M_PI / 2).cos()).matrix();
  };
  FrameWrench wrench;
  wrench.frame = end_effector(model);
  wrench.reference = ReferenceFrame::local_world_aligned;
  const auto at = [&](double t, int order) -> Eigen::VectorXd {
    wrench.W.setConstant(10 * std::sin(M_PI * t));
    wrench.dW.setConstant(10 * M_PI * std::cos(M_PI * t));
    wrench.d2W.setConstant(-10 * M_PI * M_PI * std::sin(M_PI * t));
    closed_form_dynamics(model, cf, q_derivative(0, t), q_derivative(1, t), q_derivative(2, t),
                         q_derivative(3, t), q_derivative(4, t), 2, &wrench);
    return order == 0 ? cf.tau : order == 1 ? cf.dtau : cf.d2tau;
  };
  for (const double t : {0.37, 1.9, 4.2}) {
    INFO("t = " << t);
    const Eigen::VectorXd tau = at(t, 0);
    Eigen::VectorXd external(model.nv);
    external_torque(model, data, q_derivative(0, t), {wrench.frame}, wrench.W,
                    ReferenceFrame::local_world_aligned, external);
    const Eigen::VectorXd expected =
        rnea(model, data, q_derivative(0, t), q_derivative(1, t), q_derivative(2, t)) - external;
    CHECK(relative_error(tau, expected) < kTolRoundoff * 100);
    const double h = 5e-4;
    for (int order = 1; order <= 2; ++order) {
      INFO("order " << order);
      const Eigen::VectorXd exact = at(t, order);
      const Eigen::MatrixXd numeric =
          central_difference([&](double dt) { return Eigen::MatrixXd(at(t + dt, order - 1)); }, h);
      CHECK(relative_error(exact, numeric) < 1e-8);
    }
  }
}

TEST_CASE("closed form: an external wrench enters as -J^T F", "[closed_form]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Data data(model);
  ClosedFormData cf(model);
  Rng rng(8);
  const Eigen::VectorXd q = random_configuration(model, rng), v = random_tangent(model, rng),
                        a = random_tangent(model, rng);
  FrameWrench wrench;
  wrench.frame = model.require_frame("tool0");
  wrench.W << 1, -2, 3, 0.1, 0.2, -0.3;
  for (const ReferenceFrame rf : {ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
    wrench.reference = rf;
    closed_form_dynamics(model, cf, q, v, a, zeros(model), zeros(model), 0, &wrench);
    Eigen::VectorXd external(model.nv);
    external_torque(model, data, q, {wrench.frame}, wrench.W, rf, external);
    const Eigen::VectorXd expected = rnea(model, data, q, v, a) - external;
    CHECK_THAT(cf.tau, AllClose(expected, kTolRoundoff * 100, kTolRoundoff * 100));
  }
}

TEST_CASE("closed form: trees and floating bases are refused, suggesting the recursive method",
          "[closed_form]") {
  LoadOptions floating;
  floating.floating_base = true;
  for (const Model& model :
       {load_urdf(kRobotsDir + "/solo12.urdf"), load_urdf(kRobotsDir + "/ur5.urdf", floating),
        load_urdf(kRobotsDir + "/panda.urdf"), load_urdf(kDataDir + "/robots/mixed_joints.urdf")}) {
    INFO(model.name);
    try {
      ClosedFormData cf(model);
      FAIL("no error for " << model.name);
    } catch (const ModelError& e) {
      CHECK_THAT(e.what(), Catch::Contains("serial chains") && Catch::Contains("recursive"));
    }
  }
}

TEST_CASE("closed form: orders and sizes are checked", "[closed_form]") {
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  ClosedFormData cf(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.3),
                        x = Eigen::VectorXd::Constant(model.nv, 0.1);
  CHECK_THROWS_AS(closed_form_dynamics(model, cf, q, x, x, x, x, 3), InputError);
  CHECK_THROWS_AS(closed_form_dynamics(model, cf, q, x, x, Eigen::VectorXd(), x, 1), InputError);
}

TEST_CASE("closed form: nothing is allocated per call", "[closed_form]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  ClosedFormData cf(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.3),
                        x = Eigen::VectorXd::Constant(model.nv, 0.1);
  FrameWrench wrench;
  wrench.frame = end_effector(model);
  wrench.reference = ReferenceFrame::local_world_aligned;
  CHECK(allocations_during([&] { closed_form_dynamics(model, cf, q, x, x, x, x, 2, &wrench); }) ==
        0);
}

TEST_CASE("closed form and rnea_time_derivatives agree with an end-effector wrench",
          "[closed_form][time_derivatives]") {
  // two independent paths to tau, dtau/dt, d2tau/dt2 with a wrench and its derivatives, in both
  // references, at random states of the iiwa
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  ClosedFormData cf(model);
  TimeDerivativeData series(model, 2);
  Rng rng(21);
  FrameWrench wrench;
  wrench.frame = end_effector(model);
  Eigen::MatrixXd dq(model.nv, 4), wrenches(6, 3), tau(model.nv, 3);
  for (const ReferenceFrame rf : {ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
    INFO("wrench reference " << static_cast<int>(rf));
    wrench.reference = rf;
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q = random_configuration(model, rng);
      for (int k = 0; k < 4; ++k) dq.col(k) = random_tangent(model, rng);
      for (int k = 0; k < 3; ++k) wrenches.col(k) = 10 * Vec6::Random();
      wrench.W = wrenches.col(0);
      wrench.dW = wrenches.col(1);
      wrench.d2W = wrenches.col(2);
      closed_form_dynamics(model, cf, q, dq.col(0), dq.col(1), dq.col(2), dq.col(3), 2, &wrench);
      rnea_time_derivatives(model, series, q, dq, 2, {wrench.frame}, wrenches, rf, tau);
      Eigen::MatrixXd expected(model.nv, 3);
      expected << cf.tau, cf.dtau, cf.d2tau;
      CHECK(relative_error(tau, expected) < 1e-12);
    }
  }
}
