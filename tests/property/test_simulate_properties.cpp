// Simulation against mechanics and numerical analysis: passive frictionless motion conserves
// T + V; halving the step divides the error by 2^order.

#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// a shipped robot (robots/), or one of the tests' (tests/data/robots/) by a path from there
Model load(const std::string& file, bool floating) {
  LoadOptions options;
  options.floating_base = floating;
  const bool shipped = file.find('/') == std::string::npos;
  return load_urdf(shipped ? kRobotsDir + "/" + file : kDataDir + "/" + file, options);
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

TEST_CASE("the free-flyer is unactuated: under any controller the centre of mass falls at g",
          "[property][simulate]") {
  // Newton for the whole robot: m c'' = m g + (external forces), and no controller is external.
  // A PD on every coordinate would push the base (its six rows are what a fixed-base robot's
  // ground supplies); the simulator applies none of them, so the centre of mass starting at rest
  // follows c0 + g t^2 / 2 whatever the joints do.
  const char* file = GENERATE("solo12.urdf", "robots/anymal.urdf");
  INFO(file);
  const Model model = load(file, true);
  Rng rng(5);
  const Eigen::VectorXd q0 = random_configuration(model, rng);
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
  PD pd(model, set_point(neutral(model)), Eigen::VectorXd::Constant(model.nv, 50),
        Eigen::VectorXd::Constant(model.nv, 5), true);
  SimulationOptions options;
  options.integrator = Integrator::rk45;
  options.rtol = 1e-11;
  options.atol = 1e-13;
  Simulator sim(model);
  const double t = 0.4;
  sim.run(pd, q0, v0, 0, t, options);
  Data data(model);
  const Vec3 c0 = center_of_mass(model, data, q0);
  const Vec3 c = center_of_mass(model, data, sim.q());
  const Vec3 expected = c0 + 0.5 * t * t * model.gravity;
  INFO("centre of mass " << c.transpose() << ", free fall " << expected.transpose());
  CHECK((c - expected).norm() < 1e-8);
  // the joints did move (the test is not of a robot at rest)
  CHECK(difference(model, q0, sim.q()).tail(model.nv - 6).norm() > 1e-2);
}

TEST_CASE("held contacts: the frames stay, no work is done", "[property][simulate]") {
  // Solo12 and ANYmal with their four feet held (point contacts), no torque, from a random
  // configuration at rest: the robot folds under gravity, the feet stay where they were to
  // round-off
  // (the constrained dynamics hold J_c a + dJ_c v = 0 and the feet start at rest), and T + V
  // stays constant (a held point does not move, so its force does no work).
  struct Case {
    const char* file;
    std::vector<std::string> feet;
  };
  const Case c = GENERATE(Case{"solo12.urdf", {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}},
                          Case{"robots/anymal.urdf", {"LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"}});
  INFO(c.file);
  const Model model = load(c.file, true);
  const ContactSet contacts = point_contacts(model, c.feet);
  SimulationOptions options;
  options.integrator = Integrator::rk45;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  options.contacts = &contacts;
  Rng rng(17);
  const Eigen::VectorXd q0 = random_configuration(model, rng);
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
  Data data(model);
  const double E0 = total_energy(model, data, q0, v0);
  frame_placements(model, data, q0);
  std::vector<Vec3> at_start;
  for (const Contact& k : contacts.contacts) at_start.push_back(data.oMf[k.frame].p);
  Simulator sim(model);
  ZeroTorque zero;
  sim.run(zero, q0, v0, 0, 0.1, options);
  const double E = total_energy(model, data, sim.q(), sim.v());
  frame_placements(model, data, sim.q());
  double moved = 0;
  for (size_t k = 0; k < contacts.contacts.size(); ++k) {
    moved = std::max(moved, (data.oMf[contacts.contacts[k].frame].p - at_start[k]).norm());
  }
  const double T = kinetic_energy(model, data, sim.q(), sim.v());
  INFO("feet moved " << moved << ", energy " << E0 << " -> " << E << ", kinetic " << T);
  CHECK(moved < 1e-9);
  CHECK(T > 1e-5);  // it did fold
  CHECK(std::abs(E - E0) < 1e-8 * T);
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
