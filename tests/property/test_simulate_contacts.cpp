// Simulation with contacts made and broken, against closed forms: a box dropped flat onto a
// ground, a rod falling flat onto one end, a box lifted off by a growing force, a box whose
// contacts follow a schedule; and Baumgarte stabilisation of held contacts.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/data.hpp>
#include <eom/solvers/simulate.hpp>

#include "models.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr double g = 9.81;

Model load_floating(const std::string& file) {
  return TestModel{file, kDataDir + "/urdf/" + file, true}.load();
}

// the floating base at height z, level, at rest
Eigen::VectorXd level_at(const Model& model, double z) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q[2] = z;
  q[6] = 1;  // qw
  return q;
}

const std::vector<std::string> kCorners = {"front_left", "front_right", "rear_left", "rear_right"};

// sum of the z components of the point contacts' forces
double vertical_force(const Eigen::VectorXd& f) {
  double sum = 0;
  for (Eigen::Index k = 2; k < f.size(); k += 3) sum += f[k];
  return sum;
}

}  // namespace

TEST_CASE("a box dropped flat onto the ground: touchdown, inelastic impact, rest",
          "[property][simulate][contacts]") {
  // 2 kg box (tests/data/urdf/box_corners_centred.urdf), its bottom corners 0.05 m below its
  // centre, dropped from h = 0.2 m above the ground at z = 0.1: free fall to t* = sqrt(2 h / g),
  // the four corners touch at once, the impact takes all the kinetic energy m g h (4 points hold
  // a rigid body whole: v+ = 0), then it rests, the corners carrying the weight.
  const Model model = load_floating("box_corners_centred.urdf");
  const ContactSet contacts = parse_contacts(model, kCorners, Vec3::UnitZ());
  const double m = 2, h = 0.2, ground = 0.1;
  const double t_star = std::sqrt(2 * h / g);
  const Integrator integrator = GENERATE(Integrator::rk4, Integrator::rk45);
  INFO("integrator " << static_cast<int>(integrator));
  SimulationOptions options;
  options.integrator = integrator;
  options.contacts = &contacts;
  options.ground = ground;
  Simulator sim(model);
  ZeroTorque zero;
  Eigen::VectorXd v_after, f_end;
  const OutputTimes times(std::vector<double>{t_star + 1e-9, 0.5});
  sim.run(zero, level_at(model, ground + 0.05 + h), Eigen::VectorXd::Zero(model.nv), 0, 0.5,
          options, times, [&](double t, ConstVec, ConstVec v, ConstVec, ConstVec) {
            if (t < 0.4) v_after = v;
            f_end = sim.contact_forces();
          });
  const SimulationStats& stats = sim.stats();
  REQUIRE(stats.contact_events.size() == 4);
  for (const ContactEvent& e : stats.contact_events) {
    CHECK(e.closes);
    CHECK(std::abs(e.t - t_star) < 1e-9);
  }
  CHECK(stats.impacts == 1);
  CHECK(stats.impact_energy_loss == Approx(m * g * h).epsilon(1e-9));
  CHECK(v_after.norm() < 1e-9);
  CHECK(sim.v().norm() < 1e-9);
  CHECK(std::abs(sim.q()[2] - (ground + 0.05)) < 1e-9);
  CHECK(vertical_force(f_end) == Approx(m * g).epsilon(1e-9));
  for (int k = 0; k < 4; ++k) CHECK(f_end[3 * k + 2] == Approx(m * g / 4).epsilon(1e-9));
}

TEST_CASE("a rod falling flat onto one end: 3v/4 and 3v/(2L) after the impact",
          "[property][simulate][contacts]") {
  // tests/data/urdf/rod.urdf: m = 2 kg, L = 1 m, level, falling at 2 m/s from 0.1 m above the
  // ground; only its right end is a contact. At touchdown (0.1 = 2 t + g t^2 / 2) it falls at
  // v = sqrt(4 + 2 g 0.1); the end stops and the angular momentum about it is kept:
  // m v L/2 = (m L^2 / 3) w, so w = 3 v / (2 L) and the centre falls at w L/2 = 3v/4; the
  // kinetic energy left is 3/4 of it (ETH notes eq. 3.66-3.72, as tests/cli/impact.cmake).
  const Model model = load_floating("rod.urdf");
  const ContactSet contacts = parse_contacts(model, {"end_right"}, Vec3::UnitZ());
  const double m = 2, L = 1;
  const double t_star = (-2 + std::sqrt(4 + 2 * g * 0.1)) / g;
  const double v = std::sqrt(4 + 2 * g * 0.1);
  SimulationOptions options;
  options.contacts = &contacts;
  options.ground = 0;
  Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
  v0[2] = -2;
  Simulator sim(model);
  ZeroTorque zero;
  Eigen::VectorXd v_after;
  const OutputTimes times(std::vector<double>{t_star + 1e-9});
  sim.run(zero, level_at(model, 0.1), v0, 0, t_star + 1e-9, options, times,
          [&](double, ConstVec, ConstVec v_out, ConstVec, ConstVec) { v_after = v_out; });
  const SimulationStats& stats = sim.stats();
  REQUIRE(stats.contact_events.size() == 1);
  CHECK(std::abs(stats.contact_events[0].t - t_star) < 1e-9);
  CHECK(stats.impact_energy_loss == Approx(0.25 * 0.5 * m * v * v).epsilon(1e-9));
  // the base is the centre of mass, level: body axes are world axes; within 1e-9 s of the
  // impact gravity has changed the velocities by about 1e-8
  CHECK(std::abs(v_after[2] - (-0.75 * v)) < 1e-7);
  CHECK(std::abs(v_after[4] - (-1.5 * v / L)) < 1e-7);
  CHECK(std::abs(v_after[0]) < 1e-7);
}

TEST_CASE("lift-off: a box pushed up by a force growing past its weight",
          "[property][simulate][contacts]") {
  // The box rests on its four corners; a vertical force F = 2 m g t at its centre (of mass):
  // each corner carries (m g - F) / 4 until t = 1/2, when all let go together; then
  // z'' = F / m - g = g (2 t - 1), so z(t) = z0 + g (t - 1/2)^3 / 3: g / 24 at t = 1.
  const Model model = load_floating("box_corners_centred.urdf");
  const ContactSet contacts = parse_contacts(model, kCorners, Vec3::UnitZ());
  const double m = 2;
  const Integrator integrator = GENERATE(Integrator::rk4, Integrator::rk45);
  INFO("integrator " << static_cast<int>(integrator));
  SimulationOptions options;
  options.integrator = integrator;
  options.contacts = &contacts;
  options.ground = 0;
  options.external = [m](double t, ConstVec q, VecRef tau) {
    tau.setZero();
    const Eigen::Quaterniond orientation(q[6], q[3], q[4], q[5]);
    // the base's generalized force: the force in its body axes
    tau.head<3>() = orientation.toRotationMatrix().transpose() * Vec3(0, 0, 2 * m * g * t);
  };
  Simulator sim(model);
  ZeroTorque zero;
  double f_quarter = 0;
  const OutputTimes times(std::vector<double>{0.25});
  sim.run(zero, level_at(model, 0.05), Eigen::VectorXd::Zero(model.nv), 0, 1, options, times,
          [&](double, ConstVec, ConstVec, ConstVec, ConstVec) {
            f_quarter = vertical_force(sim.contact_forces());
          });
  const SimulationStats& stats = sim.stats();
  CHECK(f_quarter == Approx(m * g / 2).epsilon(1e-9));
  REQUIRE(stats.contact_events.size() == 4);
  for (const ContactEvent& e : stats.contact_events) {
    CHECK(!e.closes);
    CHECK(std::abs(e.t - 0.5) < 1e-9);
  }
  CHECK(stats.impacts == 0);
  CHECK(std::abs(sim.q()[2] - (0.05 + g / 24)) < 1e-9);
  CHECK(std::abs(sim.v()[2] - g / 4) < 1e-9);
}

TEST_CASE("a contact schedule: the box hinges on two corners, then all four stop it",
          "[property][simulate][contacts]") {
  // Held on its four corners until t = 0.2, then on the two left ones only (a hinge along x,
  // 0.1 m beside the centre of mass): it turns about the hinge, its contact forces doing no work
  // (T + V constant); at t = 0.4 the four close again, an impact that stops it (four points
  // hold a rigid body whole), taking all its kinetic energy.
  const Model model = load_floating("box_corners_centred.urdf");
  const ContactSet contacts = parse_contacts(model, kCorners, Vec3::UnitZ());
  ContactSchedule schedule;
  schedule.times = {0, 0.2, 0.4};
  schedule.active = {{1, 1, 1, 1}, {1, 0, 1, 0}, {1, 1, 1, 1}};
  SimulationOptions options;
  options.dt = 1e-4;  // RK4's energy error over the swing well below the 1e-8 checked
  options.contacts = &contacts;
  options.schedule = &schedule;
  const Eigen::VectorXd q0 = level_at(model, 0.05);
  Data data(model);
  const double E0 = total_energy(model, data, q0, Eigen::VectorXd::Zero(model.nv));
  Simulator sim(model);
  ZeroTorque zero;
  double kinetic_before = 0;
  Eigen::VectorXd f_end;
  const OutputTimes times(std::vector<double>{0.4 - 1e-9, 0.6});
  sim.run(zero, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.6, options, times,
          [&](double t, ConstVec q, ConstVec v, ConstVec, ConstVec) {
            if (t < 0.5) kinetic_before = kinetic_energy(model, data, q, v);
            f_end = sim.contact_forces();
          });
  const SimulationStats& stats = sim.stats();
  REQUIRE(stats.contact_events.size() == 4);
  CHECK((!stats.contact_events[0].closes && stats.contact_events[0].t == 0.2));
  CHECK((stats.contact_events[2].closes && stats.contact_events[2].t == 0.4));
  CHECK(stats.impacts == 1);
  CHECK(kinetic_before > 0.1);  // it did turn
  CHECK(stats.impact_energy_loss == Approx(kinetic_before).epsilon(1e-6));
  CHECK(sim.v().norm() < 1e-9);
  const double E = total_energy(model, data, sim.q(), sim.v());
  CHECK(std::abs(E + stats.impact_energy_loss - E0) < 1e-8);
  CHECK(vertical_force(f_end) == Approx(2 * g).epsilon(1e-9));
}

TEST_CASE("Baumgarte stabilisation keeps held contacts where they were",
          "[property][simulate][contacts]") {
  // The box hinged on its two left corners swings for 2 s at a coarse step: held through their
  // accelerations only, the corners drift; with Baumgarte (kp, kd) their error obeys
  // e'' + kd e' + kp e = 0 and stays far smaller.
  const Model model = load_floating("box_corners_centred.urdf");
  const ContactSet contacts = parse_contacts(model, {"front_left", "rear_left"}, Vec3::UnitZ());
  const Eigen::VectorXd q0 = level_at(model, 0.05);
  auto drift = [&](double kp, double kd) {
    SimulationOptions options;
    options.dt = 1e-2;
    options.contacts = &contacts;
    options.baumgarte_kp = kp;
    options.baumgarte_kd = kd;
    Simulator sim(model);
    ZeroTorque zero;
    sim.run(zero, q0, Eigen::VectorXd::Zero(model.nv), 0, 2, options);
    Data data(model);
    frame_placements(model, data, q0);
    const Vec3 start = data.oMf[contacts.contacts[0].frame].p;
    frame_placements(model, data, sim.q());
    return (data.oMf[contacts.contacts[0].frame].p - start).norm();
  };
  const double free = drift(0, 0), held = drift(100, 20);
  INFO("drift without " << free << ", with Baumgarte " << held);
  CHECK(free > 1e-9);
  CHECK(held < free / 10);
}
