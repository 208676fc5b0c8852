// The stable step of each integrator against the closed forms of one critically damped or
// undamped mode (Hairer and Wanner, Solving ODEs II, Section IV.2), the default gains that follow
// from it, and the simulator's diagnosis of a step too long for its gains.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/solvers/step_stability.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

Eigen::MatrixXd one(double x) { return Eigen::MatrixXd::Constant(1, 1, x); }

// The root of a^3 - 4a^2 + 12a - 24 = 0 by Newton's method: RK4's R(-a) = 1 - a + a^2/2 - a^3/6 +
// a^4/24 equals 1 there (the end of its stability interval on the negative real axis).
double rk4_real_bound() {
  double a = 3;
  for (int k = 0; k < 50; ++k)
    a -= (a * a * a - 4 * a * a + 12 * a - 24) / (3 * a * a - 8 * a + 12);
  return a;
}

}  // namespace

TEST_CASE("one critically damped mode: h omega up to 2, 2.785 and 2(sqrt 2 - 1)",
          "[step_stability]") {
  // m x'' + 2 m w x' + m w^2 x = 0: lambda = -w twice
  const double m = 3, w = 50;
  const auto limit = [&](Integrator integrator) {
    return stable_step(integrator, one(m), one(m * w * w), one(2 * m * w));
  };
  CHECK(limit(Integrator::euler).max_step * w == Approx(2).epsilon(1e-5));
  CHECK(limit(Integrator::rk4).max_step * w == Approx(rk4_real_bound()).epsilon(1e-5));
  CHECK(rk4_real_bound() == Approx(2.7853).epsilon(1e-4));
  // Jury: det = 1 - 2a < 1 and a^2 + 4a - 4 < 0
  CHECK(limit(Integrator::semi_implicit_euler).max_step * w ==
        Approx(2 * (std::sqrt(2.0) - 1)).epsilon(1e-5));
  CHECK(limit(Integrator::rk4).rate == Approx(w));
  CHECK(limit(Integrator::rk4).coordinate == 0);
  // rk45 chooses its own steps
  CHECK(std::isinf(limit(Integrator::rk45).max_step));
}

TEST_CASE("one undamped mode: RK4 up to 2 sqrt 2, symplectic Euler up to 2", "[step_stability]") {
  const double w = 10;
  CHECK(stable_step(Integrator::rk4, one(1), one(w * w), one(0)).max_step * w ==
        Approx(2 * std::sqrt(2.0)).epsilon(1e-5));
  CHECK(stable_step(Integrator::semi_implicit_euler, one(1), one(w * w), one(0)).max_step * w ==
        Approx(2).epsilon(1e-5));
  // no feedback: nothing limits the step
  CHECK(std::isinf(stable_step(Integrator::rk4, one(1), one(0), one(0)).max_step));
}

TEST_CASE("two modes: the faster sets the step and names its coordinate", "[step_stability]") {
  // decoupled: coordinate 1 (w = 400) is faster than coordinate 0 (w = 20)
  Eigen::MatrixXd M = Eigen::Vector2d(2, 0.5).asDiagonal();
  const Eigen::Vector2d w(20, 400);
  const Eigen::MatrixXd K = M * w.cwiseProduct(w).asDiagonal();
  const Eigen::MatrixXd D = M * (2 * w).asDiagonal();
  const StepLimit limit = stable_step(Integrator::euler, M, K, D);
  CHECK(limit.coordinate == 1);
  CHECK(limit.max_step == Approx(2 / 400.0).epsilon(1e-5));
}

TEST_CASE("default gains: a bandwidth kStepMargin times inside the stable step",
          "[step_stability]") {
  // the block (one prismatic joint, m = 2): M is constant, so omega dt = bound / kStepMargin
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  Data data(model);
  const Eigen::VectorXd q = neutral(model);
  const double dt = 1e-3;
  const PDGains pd = default_gains(model, data, q, Integrator::rk4, dt, false);
  CHECK(pd.bandwidth * dt == Approx(rk4_real_bound() / kStepMargin).epsilon(1e-5));
  CHECK(pd.kp[0] == Approx(2 * pd.bandwidth * pd.bandwidth));
  CHECK(pd.kd[0] == Approx(2 * 2 * pd.bandwidth));
  const PDGains ct = default_gains(model, data, q, Integrator::semi_implicit_euler, dt, true);
  CHECK(ct.bandwidth * dt == Approx(2 * (std::sqrt(2.0) - 1) / kStepMargin).epsilon(1e-5));
  CHECK(ct.kp[0] == Approx(ct.bandwidth * ct.bandwidth));
  CHECK(ct.kd[0] == Approx(2 * ct.bandwidth));
  // on the iiwa every default run's step is stable at the start
  const Model iiwa = load_urdf(kRobotsDir + "/iiwa14.urdf");
  Data iiwa_data(iiwa);
  const Eigen::VectorXd q0 = neutral(iiwa);
  for (const Integrator integrator :
       {Integrator::euler, Integrator::semi_implicit_euler, Integrator::rk4}) {
    const PDGains g = default_gains(iiwa, iiwa_data, q0, integrator, dt, false);
    PD controller(iiwa, set_point(q0), g.kp, g.kd);
    SimulationOptions options;
    options.integrator = integrator;
    const StepLimit limit = closed_loop_step_limit(iiwa, iiwa_data, controller, 0, q0, options);
    CHECK(limit.max_step >= kStepMargin * dt * (1 - 1e-6));
  }
}

TEST_CASE("a step too long for the gains is diagnosed as such", "[step_stability][simulate]") {
  // the block under PD with w = 4000 1/s critically damped: RK4 needs h <= 2.785 / 4000 = 0.7 ms
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  const double w = 4000, m = 2;
  PD controller(model, set_point(Eigen::VectorXd::Zero(1)), Eigen::VectorXd::Constant(1, m * w * w),
                Eigen::VectorXd::Constant(1, 2 * m * w));
  SimulationOptions options;
  options.dt = 1e-3;
  options.saturate = false;  // the gains' force, past the block's 50 N effort limit
  Simulator sim(model);
  const Eigen::VectorXd q0 = Eigen::VectorXd::Constant(1, 0.01), v0 = Eigen::VectorXd::Zero(1);
  CHECK_THROWS_WITH(sim.run(controller, q0, v0, 0, 10, options),
                    Catch::Contains("simulation blew up at t = ") &&
                        Catch::Contains("v.slide diverged first") &&
                        Catch::Contains("the step 0.001 s is too long for the gains") &&
                        Catch::Contains("only for steps up to 0.000696323"));
  // within the bound it settles
  options.dt = 5e-4;
  sim.run(controller, q0, v0, 0, 0.05, options);
  CHECK(std::abs(sim.q()[0]) < 1e-12);
}

TEST_CASE("a mass matrix singular only at the initial state is said with its time",
          "[step_stability][simulate]") {
  // tests/data/urdf/gimbal_bob.urdf: at pitch = 0 the bob sits on the yaw axis
  const Model model = load_urdf(kDataDir + "/urdf/gimbal_bob.urdf");
  ZeroTorque passive;
  Simulator sim(model);
  SimulationOptions options;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(2);
  CHECK_THROWS_WITH(sim.run(passive, zero, zero, 0.25, 1, options),
                    Catch::StartsWith("simulation stopped at t = 0.25 s: the mass matrix is "
                                      "singular at this configuration (not at every one): joint "
                                      "'yaw'"));
}
