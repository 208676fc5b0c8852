// Simulation: controllers against closed forms, friction against the sliding block's closed form
// (S. Caron, "Equations of motion", the sliding-block example), events, blow-up detection, and no
// allocation per step.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <utility>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

const std::string kSourceDirRoot = kRobotsDir + "/..";

// the block: m = 2 kg on a prismatic joint, Coulomb friction F = 5.886 N (robots/README.md)
constexpr double kBlockMass = 2.0, kBlockFriction = 5.886;

Eigen::VectorXd vec1(double x) { return Eigen::VectorXd::Constant(1, x); }

// iiwa14_wave: q_j = c_j + A_j cos(w_j t + phi_j) (trajectories/README.md)
struct Wave {
  Eigen::VectorXd A, w, phi, c;
  void at(double t, VecRef q, VecRef v, VecRef a) const {
    for (Eigen::Index j = 0; j < A.size(); ++j) {
      const double x = w[j] * t + phi[j];
      q[j] = c[j] + A[j] * std::cos(x);
      v[j] = -A[j] * w[j] * std::sin(x);
      a[j] = -A[j] * w[j] * w[j] * std::cos(x);
    }
  }
};

Wave iiwa_wave() {
  Wave wave;
  wave.A.resize(7);
  wave.w.resize(7);
  wave.phi.resize(7);
  wave.c.setZero(7);
  wave.A << 0.6, 0.6, 0.6, 0.38580246913580246, 0.5824372759856631, 0.5357142857142857,
      0.4807692307692308;
  wave.w << 0.9424777960769379, 1.1938052083641213, 1.4451326206513047, 1.6964600329384885,
      1.9477874452256718, 2.199114857512855, 2.4504422698000385;
  wave.phi << 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0;
  return wave;
}

// rows t, q (7), v (7), a (7) of trajectories/iiwa14_wave.csv
std::vector<Eigen::VectorXd> read_wave_csv() {
  std::ifstream in(kSourceDirRoot + "/trajectories/iiwa14_wave.csv");
  std::string line;
  std::getline(in, line);  // header
  std::vector<Eigen::VectorXd> rows;
  while (std::getline(in, line)) {
    std::stringstream s(line);
    std::string cell;
    Eigen::VectorXd row(22);
    for (int k = 0; k < 22 && std::getline(s, cell, ','); ++k) row[k] = std::stod(cell);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("the iiwa14_wave formula reproduces the shipped table", "[simulate]") {
  const Wave wave = iiwa_wave();
  const auto rows = read_wave_csv();
  REQUIRE(rows.size() == 3001);
  Eigen::VectorXd q(7), v(7), a(7);
  for (const auto& row : rows) {
    wave.at(row[0], q, v, a);
    CHECK((q - row.segment(1, 7)).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((v - row.segment(8, 7)).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((a - row.segment(15, 7)).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("computed-torque control of the iiwa follows e'' + Kd e' + Kp e = 0",
          "[simulate][controller]") {
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  const Wave wave = iiwa_wave();
  // critically damped error dynamics: Kp = w^2, Kd = 2 w, so from e(0) = e0, e'(0) = 0 each
  // coordinate follows e(t) = e0 (1 + w t) exp(-w t) exactly
  const double w = 20, e0 = 0.01;
  ComputedTorque control(
      model, [&](double t, VecRef q, VecRef v, VecRef a) { wave.at(t, q, v, a); },
      Eigen::VectorXd::Constant(7, w * w), Eigen::VectorXd::Constant(7, 2 * w));
  Eigen::VectorXd q0(7), v0(7), a0(7);
  wave.at(0, q0, v0, a0);
  q0.array() -= e0;
  std::vector<double> times;
  for (int k = 0; k <= 300; ++k) times.push_back(0.01 * k);
  double worst = 0;
  Eigen::VectorXd q_ref(7), v_ref(7), a_ref(7);
  Simulator sim(model);
  SimulationOptions options;
  options.integrator = Integrator::rk4;
  options.dt = 1e-3;
  sim.run(control, q0, v0, 0, 3.0, options, times,
          [&](double t, ConstVec q, ConstVec, ConstVec, ConstVec) {
            wave.at(t, q_ref, v_ref, a_ref);
            const double expected = e0 * (1 + w * t) * std::exp(-w * t);
            worst = std::max(worst, ((q_ref - q).array() - expected).abs().maxCoeff());
          });
  // the only error left is RK4's truncation on the error dynamics, whose fastest rate is w:
  // globally about T w (w h)^4 / 5! e0 = 3 * 20 * 1.6e-7 / 120 * 0.01 ~ 1e-9 (measured: 2e-11)
  INFO("worst deviation from the closed form " << worst);
  CHECK(worst < 1e-9);
  CHECK(sim.stats().steps == 3000);
}

TEST_CASE("gravity compensation holds a pose", "[simulate][controller]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Rng rng(5);
  const Eigen::VectorXd q0 = random_configuration(model, rng);
  Simulator sim(model);
  GravityCompensation hold;
  SimulationOptions options;
  sim.run(hold, q0, Eigen::VectorXd::Zero(model.nv), 0, 2.0, options);
  CHECK((sim.q() - q0).cwiseAbs().maxCoeff() < 1e-10);
  CHECK(sim.v().cwiseAbs().maxCoeff() < 1e-10);
  // without it the arm falls
  ZeroTorque zero;
  sim.run(zero, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.5, options);
  CHECK((sim.q() - q0).cwiseAbs().maxCoeff() > 1e-2);
}

TEST_CASE("PD to a set-point settles there", "[simulate][controller]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Rng rng(6);
  const Eigen::VectorXd goal = random_configuration(model, rng);
  PD pd(model, set_point(goal), Eigen::VectorXd::Constant(model.nv, 400),
        Eigen::VectorXd::Constant(model.nv, 60), true);
  Simulator sim(model);
  SimulationOptions options;
  options.integrator = Integrator::rk45;
  sim.run(pd, neutral(model), Eigen::VectorXd::Zero(model.nv), 0, 10.0, options);
  CHECK(difference(model, sim.q(), goal).cwiseAbs().maxCoeff() < 1e-4);
}

TEST_CASE("the sliding block matches its closed form", "[simulate][friction]") {
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  REQUIRE(model.friction[0] == kBlockFriction);
  const double decel = kBlockFriction / kBlockMass;  // mu_k g
  Simulator sim(model);
  SimulationOptions options;
  options.friction = true;
  options.dt = 1e-3;

  SECTION("sliding freely: decelerates at mu g, stops at v0^2 / (2 mu g) and stays") {
    const double v0 = 1.0, t_stop = v0 / decel, x_stop = v0 * v0 / (2 * decel);
    std::vector<double> times;
    for (int k = 0; k <= 100; ++k) times.push_back(0.01 * k);
    double worst_sliding = 0, worst_stopped = 0;
    ZeroTorque zero;
    sim.run(zero, vec1(0), vec1(v0), 0, 1.0, options, times,
            [&](double t, ConstVec q, ConstVec v, ConstVec, ConstVec) {
              if (t < t_stop - options.dt) {
                // x = v0 t - mu g t^2 / 2: RK4 is exact on a parabola
                worst_sliding =
                    std::max({worst_sliding, std::abs(q[0] - (v0 * t - decel * t * t / 2)),
                              std::abs(v[0] - (v0 - decel * t))});
              } else if (t > t_stop + options.dt) {
                worst_stopped = std::max(worst_stopped, std::abs(q[0] - x_stop));
              }
            });
    CHECK(worst_sliding < 1e-12);
    // sgn(v) switches inside a step: the stop is resolved to within one step, and at rest v
    // chatters within h mu g about 0, moving x by at most that much times h per step
    CHECK(worst_stopped < options.dt * v0);
    CHECK(std::abs(sim.v()[0]) <= options.dt * decel);
  }
  SECTION("pushed harder than friction: accelerates at (u - F) / m") {
    const double u = 10, v0 = 0.5, acc = (u - kBlockFriction) / kBlockMass;
    ConstantTorque push(vec1(u));
    sim.run(push, vec1(0), vec1(v0), 0, 1.0, options);
    CHECK(sim.q()[0] == Approx(v0 + acc / 2).epsilon(1e-12));
    CHECK(sim.v()[0] == Approx(v0 + acc).epsilon(1e-12));
  }
}

TEST_CASE("a run shorter than one step takes that step and writes its end", "[simulate]") {
  // the block pushed without friction: x = v0 t + a t^2 / 2, which RK4 integrates exactly
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  SimulationOptions options;
  options.dt = 1e-3;
  const double u = 10, v0 = 0.5, acc = u / kBlockMass;
  for (const double duration : {1e-9, 4e-4}) {
    CAPTURE(duration);
    Simulator sim(model);
    ConstantTorque push(vec1(u));
    const OutputTimes times = OutputTimes::grid(0, duration, options.dt);
    REQUIRE(times.size() == 2);  // the start and the end
    std::vector<double> written;
    sim.run(push, vec1(0), vec1(v0), 0, duration, options, times,
            [&](double t, ConstVec q, ConstVec v, ConstVec, ConstVec) {
              written.push_back(t);
              CHECK(q[0] == Approx(v0 * t + acc * t * t / 2).epsilon(1e-12).margin(1e-300));
              CHECK(v[0] == Approx(v0 + acc * t).epsilon(1e-12));
            });
    CHECK(written == std::vector<double>{0, duration});
    CHECK(sim.stats().steps == 1);
  }
}

TEST_CASE("released: no later call asks for an earlier time", "[simulate]") {
  // a PD on a time-varying set-point over the iiwa, fixed steps and rk45 (whose rejected steps go
  // back to the step's start): every time the controller and the environment are asked for is
  // at or after every time released before, and the released times reach the end
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  const Wave wave = iiwa_wave();
  for (const Integrator integrator : {Integrator::rk4, Integrator::rk45}) {
    CAPTURE(static_cast<int>(integrator));
    double released = -1, earliest_after = 1e300;
    int releases = 0;
    PD pd(
        model,
        [&](double t, VecRef q, VecRef v, VecRef a) {
          earliest_after = std::min(earliest_after, t - released);
          wave.at(t, q, v, a);
        },
        Eigen::VectorXd::Constant(7, 10), Eigen::VectorXd::Constant(7, 0.5));
    SimulationOptions options;
    options.integrator = integrator;
    options.dt = 1e-3;
    options.rtol = 1e-9;  // rejections on the way
    options.external = [&](double t, ConstVec, VecRef tau) {
      earliest_after = std::min(earliest_after, t - released);
      tau.setZero();
    };
    options.released = [&](double t) {
      CHECK(t >= released);
      released = t;
      ++releases;
    };
    Eigen::VectorXd q0(7), v0(7), a0(7);
    wave.at(0, q0, v0, a0);
    Simulator sim(model);
    sim.run(pd, q0, v0, 0, 0.5, options, OutputTimes::grid(0, 0.5, 0.01), nullptr);
    CHECK(earliest_after >= 0);
    CHECK(released == 0.5);
    CHECK(releases == sim.stats().steps + sim.stats().rejected);
    if (integrator == Integrator::rk45) CHECK(sim.stats().rejected > 0);
  }
}

TEST_CASE("saturation clips at the effort limit and counts", "[simulate]") {
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  Simulator sim(model);
  SimulationOptions options;
  options.saturate = true;
  ConstantTorque push(vec1(100));  // effort limit 50 N
  const auto& stats = sim.run(push, vec1(0), vec1(0), 0, 0.1, options);
  CHECK(sim.v()[0] == Approx(50 / kBlockMass * 0.1).epsilon(1e-12));
  CHECK(stats.steps == 100);
  CHECK(stats.saturated_steps == 100);
  CHECK(stats.saturated_per_joint[0] == 100);
}

TEST_CASE("position-limit events say when and which joint leaves its limits", "[simulate]") {
  const Model model = load_urdf(kRobotsDir + "/block.urdf");  // limits +-10 m
  Simulator sim(model);
  SimulationOptions options;
  ZeroTorque zero;
  for (const Integrator integrator : {Integrator::rk4, Integrator::rk45}) {
    options.integrator = integrator;
    const auto& stats = sim.run(zero, vec1(9.9), vec1(1.0), 0, 0.3, options);
    REQUIRE(stats.limit_events.size() == 1);
    const LimitEvent& e = stats.limit_events[0];
    CHECK(e.t == Approx(0.1).epsilon(1e-9));
    CHECK(model.joint_names[e.joint] == "slide");
    CHECK(e.upper);
    CHECK(e.leaving);
  }
}

TEST_CASE("a long run keeps the first events and counts them all", "[simulate]") {
  // The block on a spring (a PD to x = 0, no damping) at 10 Hz with amplitude 10.5 m:
  // x = 10.5 sin(w t) crosses its limits +-10 m four times a period, so 1200 times in the
  // 300 periods (and a tenth, with no crossing) of 30.01 s.
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  Simulator sim(model);
  const double w = 2 * M_PI * 10;
  PD spring(model, set_point(vec1(0)), vec1(kBlockMass * w * w), vec1(0), false);
  SimulationOptions unclipped;  // the spring's force, past the block's 50 N effort limit
  unclipped.saturate = false;
  const auto& stats = sim.run(spring, vec1(0), vec1(10.5 * w), 0, 30.01, unclipped);
  CHECK(stats.limit_event_count == 1200);
  REQUIRE(stats.limit_events.size() == SimulationStats::kKeptEvents);
  for (size_t e = 1; e < stats.limit_events.size(); ++e) {
    CHECK(stats.limit_events[e - 1].t < stats.limit_events[e].t);
  }
  // the 1000th crossing, the 4th of period 250 (k = 249): back within the lower limit
  const double first = std::asin(10 / 10.5) / w, period = 2 * M_PI / w;
  const LimitEvent& last = stats.limit_events.back();
  CHECK(!last.upper);
  CHECK(!last.leaving);
  CHECK(last.t == Approx(249 * period + period - first).margin(1e-4));
}

TEST_CASE("a blow-up is a NumericalError naming the time and the coordinate", "[simulate]") {
  const Model model = load_urdf(kRobotsDir + "/block.urdf");
  Simulator sim(model);
  TorqueCallback bad(
      [](double t, ConstVec, ConstVec, VecRef tau) { tau[0] = t > 0.5 ? std::nan("") : 0.0; });
  SimulationOptions options;
  options.integrator = Integrator::rk4;
  CHECK_THROWS_AS(sim.run(bad, vec1(0), vec1(0), 0, 1, options), NumericalError);
  CHECK_THROWS_WITH(sim.run(bad, vec1(0), vec1(0), 0, 1, options),
                    Catch::Contains("t = 0.5") && Catch::Contains("v.slide diverged first"));
  options.integrator = Integrator::rk45;
  CHECK_THROWS_WITH(sim.run(bad, vec1(0), vec1(0), 0, 1, options),
                    Catch::Contains("step size") && Catch::Contains("joint 'slide'"));
}

TEST_CASE("rk45 dense output agrees with a fine fixed-step run", "[simulate]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Rng rng(9);
  const Eigen::VectorXd q0 = random_configuration(model, rng), v0 = random_tangent(model, rng);
  std::vector<double> times;
  for (int k = 0; k <= 50; ++k) times.push_back(0.02 * k);
  std::vector<Eigen::VectorXd> dense, fixed;
  ZeroTorque zero;
  Simulator sim(model);
  SimulationOptions options;
  options.integrator = Integrator::rk45;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  const auto& stats =
      sim.run(zero, q0, v0, 0, 1.0, options, times,
              [&](double, ConstVec q, ConstVec, ConstVec, ConstVec) { dense.push_back(q); });
  CHECK(stats.steps < 1000);  // far fewer steps than the fixed-step run below (10000)
  options.integrator = Integrator::rk4;
  options.dt = 1e-4;
  sim.run(zero, q0, v0, 0, 1.0, options, times,
          [&](double, ConstVec q, ConstVec, ConstVec, ConstVec) { fixed.push_back(q); });
  REQUIRE(dense.size() == times.size());
  REQUIRE(fixed.size() == times.size());
  for (size_t k = 0; k < times.size(); ++k) {
    INFO("t = " << times[k]);
    CHECK((dense[k] - fixed[k]).cwiseAbs().maxCoeff() < 1e-8);
  }
}

TEST_CASE("simulation allocates nothing per step", "[simulate]" EOM_ALLOCATION_TAG) {
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/solo12.urdf", floating);
  Rng rng(4);
  const Eigen::VectorXd q0 = random_configuration(model, rng), v0 = random_tangent(model, rng);
  Simulator sim(model);
  // gains soft enough for explicit Euler at 1 ms on the light lower legs
  PD pd(model, set_point(q0), Eigen::VectorXd::Constant(model.nv, 0.1),
        Eigen::VectorXd::Constant(model.nv, 0.001), true);
  ComputedTorque ct(model, set_point(q0), Eigen::VectorXd::Constant(model.nv, 10),
                    Eigen::VectorXd::Constant(model.nv, 1));
  const OutputTimes times = std::vector<double>{0.0, 0.01, 0.02, 0.05};
  double sum = 0;
  const OutputFunction output = [&](double t, ConstVec q, ConstVec, ConstVec, ConstVec) {
    sum += t + q[0];
  };
  for (const Integrator integrator :
       {Integrator::euler, Integrator::semi_implicit_euler, Integrator::rk4, Integrator::rk45}) {
    SimulationOptions options;
    options.integrator = integrator;
    options.friction = true;
    options.saturate = true;
    CHECK(test::allocations_during([&] { sim.run(pd, q0, v0, 0, 0.05, options, times, output); }) ==
          0);
    CHECK(test::allocations_during([&] { sim.run(ct, q0, v0, 0, 0.05, options, times, output); }) ==
          0);
  }
  CHECK(std::isfinite(sum));
}

namespace {

// A passive controller that keeps what the simulator says of the contacts
class ClosedSetRecorder : public Controller {
 public:
  explicit ClosedSetRecorder(std::size_t n) : closed(n, 0) {}
  void torque(const Model&, Data&, double, ConstVec, ConstVec, VecRef tau) override {
    tau.setZero();
  }
  void contacts_changed(int contact, bool on) override {
    closed[contact] = on ? 1 : 0;
    ++calls;
  }
  std::vector<char> closed;
  long calls = 0;
};

const std::vector<std::string> kBoxCorners = {"front_left", "front_right", "rear_left",
                                              "rear_right"};

}  // namespace

TEST_CASE("the controller is told which contacts are closed", "[simulate][contacts]") {
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating);
  const ContactSet contacts = point_contacts(model, kBoxCorners);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  q0[6] = 1;  // level
  Simulator sim(model);
  ClosedSetRecorder recorder(contacts.contacts.size());
  SimulationOptions options;
  options.contacts = &contacts;
  long mismatches = 0, outputs = 0;
  const OutputFunction compare = [&](double, ConstVec, ConstVec, ConstVec, ConstVec) {
    ++outputs;
    mismatches += recorder.closed != sim.contact_active() ? 1 : 0;
  };
  const OutputTimes times = OutputTimes::grid(0, 0.6, 0.01);

  SECTION("held: all closed once") {
    q0[2] = 0.05;  // the corners 0.05 m below the centre, on z = 0
    sim.run(recorder, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.1, options, times, compare);
    CHECK(recorder.calls == 4);
    CHECK(recorder.closed == std::vector<char>(4, 1));
  }
  SECTION("a schedule") {
    // the box's schedule of tests/property/test_simulate_contacts.cpp: four corners, the two
    // left ones from 0.2 s, four again from 0.4 s. Told: all closed when the run starts, all
    // open before the first row closes them (4 + 4 + 4), two opening and two closing.
    ContactSchedule schedule;
    schedule.times = {0, 0.2, 0.4};
    schedule.active = {{1, 1, 1, 1}, {1, 0, 1, 0}, {1, 1, 1, 1}};
    options.schedule = &schedule;
    q0[2] = 0.05;
    sim.run(recorder, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.6, options, times, compare);
    CHECK(recorder.calls == 16);
  }
  SECTION("a schedule whose contacts slip") {
    // the same schedule, time-stepped: the right corners lift off when released at 0.2 s (the
    // box tips about the left ones); closed again at 0.4 s on the planes through where they are
    // then, below the left ones', they press from the step after and the left ones leave
    ContactSchedule schedule;
    schedule.times = {0, 0.2, 0.4};
    schedule.active = {{1, 1, 1, 1}, {1, 0, 1, 0}, {1, 1, 1, 1}};
    options.schedule = &schedule;
    options.schedule_slips = true;
    options.friction_coefficient = 0.8;
    q0[2] = 0.05;
    sim.run(recorder, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.45, options, times, compare);
    const std::vector<ContactEvent>& events = sim.stats().contact_events;
    REQUIRE(events.size() == 6);
    for (int e = 0; e < 6; ++e) {
      CAPTURE(e);
      const bool right = events[e].contact % 2 == 1;  // front_right, rear_right
      CHECK(events[e].t == Approx(e < 2 ? 0.2 : 0.4 + options.dt).margin(1e-12));
      CHECK(events[e].closes == (e >= 2 && right));
      CHECK((e >= 2 || right));
    }
    CHECK(recorder.closed == std::vector<char>{0, 1, 0, 1});
  }
  SECTION("a ground") {
    // dropped from 0.1 m: open in the air, pressing from the touchdown (all four in one step)
    options.ground = 0;
    options.friction_coefficient = 1;
    q0[2] = 0.15;
    sim.run(recorder, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.6, options, times, compare);
    CHECK(sim.stats().impacts == 1);
    CHECK(recorder.closed == std::vector<char>(4, 1));
  }
  CHECK(outputs > 0);
  CHECK(mismatches == 0);
}

TEST_CASE("standing on a contact schedule allocates nothing per step",
          "[simulate][contacts]" EOM_ALLOCATION_TAG) {
  // A run allocates its contact workspaces when it starts, then nothing: two runs through the
  // same events (a foot released at 0.01 s, closed again at 0.015 s), one three times as long,
  // allocate as much.
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/solo12.urdf", floating);
  const ContactSet contacts = point_contacts(model, {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"});
  Rng rng(7);
  const Eigen::VectorXd q0 = random_configuration(model, rng);
  ContactSchedule schedule;
  schedule.times = {0, 0.01, 0.015};
  schedule.active = {{1, 1, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}};
  SimulationOptions options;
  options.contacts = &contacts;
  options.schedule = &schedule;
  SECTION("held") {}
  SECTION("slipping, time-stepped") {
    options.schedule_slips = true;
    options.friction_coefficient = 0.8;
  }
  ComputedTorque stand(model, set_point(q0), Eigen::VectorXd::Constant(model.nv, 10),
                       Eigen::VectorXd::Constant(model.nv, 1), &contacts);
  Simulator sim(model);
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
  sim.run(stand, q0, v0, 0, 0.02, options);  // anything allocated once
  const long shorter = allocations_during([&] { sim.run(stand, q0, v0, 0, 0.02, options); });
  const long longer = allocations_during([&] { sim.run(stand, q0, v0, 0, 0.06, options); });
  CHECK(sim.stats().steps > 50);
  CHECK(longer == shorter);
}

TEST_CASE("landing on a ground allocates nothing per step",
          "[simulate][contacts]" EOM_ALLOCATION_TAG) {
  // The box dropped from 0.1 m touches down at sqrt(2 0.1 / g) = 0.143 s and rests: two runs
  // through the same touchdown, one three times as long, allocate as much (the contact
  // workspaces when the run starts, then nothing), with every fixed-step integrator; rk45 is
  // refused (the contacts are time-stepped with a fixed step).
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating);
  const ContactSet contacts = point_contacts(model, kBoxCorners);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  q0[2] = 0.15;
  q0[6] = 1;
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
  ZeroTorque passive;
  Simulator sim(model);
  for (const Integrator integrator :
       {Integrator::euler, Integrator::semi_implicit_euler, Integrator::rk4}) {
    SimulationOptions options;
    options.integrator = integrator;
    options.contacts = &contacts;
    options.ground = 0;
    options.friction_coefficient = 0.5;
    sim.run(passive, q0, v0, 0, 0.2, options);  // anything allocated once
    const long shorter = allocations_during([&] { sim.run(passive, q0, v0, 0, 0.2, options); });
    CHECK(sim.stats().impacts == 1);
    const long longer = allocations_during([&] { sim.run(passive, q0, v0, 0, 0.6, options); });
    CHECK(sim.stats().impacts == 1);
    CHECK(longer == shorter);
  }
  SimulationOptions adaptive;
  adaptive.integrator = Integrator::rk45;
  adaptive.contacts = &contacts;
  adaptive.ground = 0;
  adaptive.friction_coefficient = 0.5;
  CHECK_THROWS_WITH(sim.run(passive, q0, v0, 0, 0.2, adaptive), Catch::Contains("rk45"));
}

TEST_CASE("output times are the doubles nearest start + k step, exactly", "[simulate]") {
  // 35 * 0.01 is 0.35000000000000003 in doubles; the grid is the decimal 0.35 rounded once
  for (const auto& [t0, step] :
       {std::pair{0.0, 0.01}, std::pair{1.5, 0.001}, std::pair{-0.2, 0.1}}) {
    CAPTURE(t0, step);
    const OutputTimes times = OutputTimes::grid(t0, 2, step);
    for (std::size_t k = 0; k + 1 < times.size(); ++k) {
      // the decimal sum written out and read back: rounded once, by strtod
      const long places = std::lround(-std::log10(step));
      const long units = std::lround(t0 * std::pow(10.0, places)) + static_cast<long>(k);
      std::ostringstream text;
      text << units << "e-" << places;
      CHECK(times[k] == std::strtod(text.str().c_str(), nullptr));
    }
  }
  CHECK(OutputTimes::grid(0, 1, 0.01)[35] == 0.35);
  // a step of no short decimal keeps the sum of doubles
  const double step = 0.1 + 0.2;
  CHECK(OutputTimes::grid(0, 1, step)[2] == 2 * step);
}
