// Simulation against mechanics and numerical analysis: passive frictionless motion conserves
// T + V; halving the step divides the error by 2^order.

#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

Model load(const std::string& file, bool floating) {
  UrdfOptions options;
  options.floating_base = floating;
  return load_urdf(kRobotsDir + "/" + file, options);
}

struct Passive {
  Eigen::VectorXd q, v;
};

// a generic moving state: random configuration and velocities
Passive start(const Model& model, unsigned seed) {
  Rng rng(seed);
  return {random_configuration(model, rng), random_tangent(model, rng)};
}

// |E(t_end) - E(0)| relative to T0 + |V0| (the potential has an arbitrary zero)
double energy_drift(const Model& model, const Passive& s, const SimulationOptions& options,
                    double t_end, Eigen::VectorXd* q_end = nullptr) {
  Data data(model);
  const double T0 = kinetic_energy(model, data, s.q, s.v);
  const double V0 = potential_energy(model, data, s.q);
  Simulator sim(model);
  ZeroTorque zero;
  sim.run(zero, s.q, s.v, 0, t_end, options);
  if (q_end) *q_end = sim.q();
  return std::abs(total_energy(model, data, sim.q(), sim.v()) - (T0 + V0)) / (T0 + std::abs(V0));
}

// the error of a fixed-step run against a much finer rk45 run, in the tangent space
double error_at(const Model& model, const Passive& s, Integrator integrator, double dt,
                double t_end, const Eigen::VectorXd& q_ref, const Eigen::VectorXd& v_ref) {
  Simulator sim(model);
  ZeroTorque zero;
  SimulationOptions options;
  options.integrator = integrator;
  options.dt = dt;
  sim.run(zero, s.q, s.v, 0, t_end, options);
  Eigen::VectorXd e(2 * model.nv);
  e << difference(model, q_ref, sim.q()), sim.v() - v_ref;
  return e.norm();
}

}  // namespace

TEST_CASE("passive frictionless motion conserves energy (rk45, rtol 1e-10, 2 s)",
          "[property][simulate]") {
  SimulationOptions options;
  options.integrator = Integrator::rk45;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  SECTION("UR5, fixed base") {
    const Model model = load("ur5.urdf", false);
    CHECK(energy_drift(model, start(model, 7), options, 2.0) < 1e-8);
  }
  SECTION("Solo12, floating base, tumbling in free fall") {
    const Model model = load("solo12.urdf", true);
    Eigen::VectorXd q_end;
    CHECK(energy_drift(model, start(model, 8), options, 2.0, &q_end) < 1e-8);
    // the quaternion was moved by the exponential map only: unit to round-off
    CHECK(std::abs(q_end.segment<4>(3).norm() - 1) < 1e-13);
  }
}

TEST_CASE("convergence order: halving dt divides the error by 2^order", "[property][simulate]") {
  struct Case {
    const char* file;
    bool floating;
    double rk4_dt;  // in the asymptotic range, and with errors far above the reference's
  };
  const Case c = GENERATE(Case{"ur5.urdf", false, 0.005}, Case{"solo12.urdf", true, 0.01});
  INFO(c.file << (c.floating ? " (floating)" : ""));
  const Model model = load(c.file, c.floating);
  const Passive s = start(model, 11);
  const double t_end = 0.5;
  // the reference: rk45 far tighter than any fixed-step error measured here
  Simulator fine(model);
  ZeroTorque zero;
  SimulationOptions options;
  options.integrator = Integrator::rk45;
  options.rtol = 1e-13;
  options.atol = 1e-15;
  fine.run(zero, s.q, s.v, 0, t_end, options);
  const Eigen::VectorXd q_ref = fine.q(), v_ref = fine.v();

  // RK4: ratio 2^4 = 16 in the asymptotic range
  const double rk4_a = error_at(model, s, Integrator::rk4, c.rk4_dt, t_end, q_ref, v_ref);
  const double rk4_b = error_at(model, s, Integrator::rk4, c.rk4_dt / 2, t_end, q_ref, v_ref);
  INFO("rk4 errors " << rk4_a << " " << rk4_b);
  CHECK(rk4_a / rk4_b == Approx(16).epsilon(0.15));
  // explicit and semi-implicit Euler: ratio 2
  for (const Integrator euler : {Integrator::euler, Integrator::semi_implicit_euler}) {
    const double a = error_at(model, s, euler, 2e-4, t_end, q_ref, v_ref);
    const double b = error_at(model, s, euler, 1e-4, t_end, q_ref, v_ref);
    INFO("euler errors " << a << " " << b);
    CHECK(a / b == Approx(2).epsilon(0.1));
  }
}

// The README's table: energy drift of each integrator at a fixed step (not a check; run with
// eom_property_tests "[.report]").
TEST_CASE("report: energy drift per integrator, UR5, 2 s", "[.report]") {
  const Model model = load("ur5.urdf", false);
  const Passive s = start(model, 7);
  const std::pair<Integrator, const char*> schemes[] = {
      {Integrator::euler, "explicit Euler"},
      {Integrator::semi_implicit_euler, "semi-implicit Euler"},
      {Integrator::rk4, "RK4"}};
  for (const double dt : {1e-3, 1e-4}) {
    for (const auto& [integrator, name] : schemes) {
      SimulationOptions options;
      options.integrator = integrator;
      options.dt = dt;
      std::cout << name << " dt " << dt << ": " << energy_drift(model, s, options, 2.0) << "\n";
    }
  }
  for (const double rtol : {1e-6, 1e-8, 1e-10}) {
    SimulationOptions options;
    options.integrator = Integrator::rk45;
    options.rtol = rtol;
    options.atol = rtol * 1e-2;
    std::cout << "RK45 rtol " << rtol << ": " << energy_drift(model, s, options, 2.0) << "\n";
  }
}
