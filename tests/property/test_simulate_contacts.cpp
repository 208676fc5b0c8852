// Simulation with contacts made and broken, against closed forms: a box dropped flat onto a
// ground, a rod falling flat onto one end, a box lifted off by a growing force, a box whose
// contacts follow a schedule; Baumgarte stabilisation of held contacts; and the complementarity
// of unilateral contacts through a quadruped's landing.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>
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

const std::vector<std::string> kFeet = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};

// Solo12 in the posture of trajectories/solo12_stand.csv (its feet on z = 0 with the base at
// z = 0.2229), the base at height z
Eigen::VectorXd solo12_standing(const Model& model, double z) {
  Eigen::VectorXd q = level_at(model, z);
  for (int i = 1; i < model.njoints; ++i) {
    if (model.joints[i].nv != 1) continue;
    const std::string& name = model.joint_names[i];
    const double sign = name[0] == 'F' ? 1 : -1;  // front legs bend one way, hind the other
    const std::string part = name.substr(3);
    q[model.joints[i].idx_q] = part == "HFE" ? 0.8 * sign : part == "KFE" ? -1.6 * sign : 0;
  }
  return q;
}

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
  const ContactSet contacts = point_contacts(model, kCorners);
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
  const ContactSet contacts = point_contacts(model, {"end_right"});
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
  const ContactSet contacts = point_contacts(model, kCorners);
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
  const ContactSet contacts = point_contacts(model, kCorners);
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
  // Solo12 with its four feet held and no torque folds under gravity for 0.1 s, integrated by
  // symplectic Euler at 1 ms: held through their accelerations only, the feet drift (by some
  // 1e-5 m); with Baumgarte (kp, kd) their error obeys e'' + kd e' + kp e = (integration error)
  // and stays several times smaller.
  const Model model = TestModel{"solo12", kRobotsDir + "/solo12.urdf", true}.load();
  const ContactSet contacts = point_contacts(model, kFeet);
  const Eigen::VectorXd q0 = solo12_standing(model, 0.2229);
  auto drift = [&](double kp, double kd) {
    SimulationOptions options;
    options.integrator = Integrator::semi_implicit_euler;
    options.contacts = &contacts;
    options.baumgarte_kp = kp;
    options.baumgarte_kd = kd;
    Simulator sim(model);
    ZeroTorque zero;
    Data data(model);
    double worst = 0;
    std::vector<Vec3> start;
    frame_placements(model, data, q0);
    for (const Contact& c : contacts.contacts) start.push_back(data.oMf[c.frame].p);
    sim.run(zero, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.1, options,
            OutputTimes::grid(0, 0.1, 0.01), [&](double, ConstVec q, ConstVec, ConstVec, ConstVec) {
              frame_placements(model, data, q);
              for (int k = 0; k < 4; ++k) {
                worst = std::max(worst, (data.oMf[contacts.contacts[k].frame].p - start[k]).norm());
              }
            });
    return worst;
  };
  const double free = drift(0, 0), held = drift(400, 40);
  INFO("drift without " << free << ", with Baumgarte " << held);
  CHECK(free > 1e-6);
  CHECK(held < free / 5);
}

TEST_CASE("a quadruped landing: closed contacts press, open ones stay above the ground",
          "[property][simulate][contacts]") {
  // Solo12 dropped from 4 cm above its standing posture, its joints held by PD with gravity
  // compensation: the feet touch down (and bounce) in some order. Whatever the order, at every
  // output the complementarity of a unilateral contact holds to the stated tolerances: a closed
  // foot's normal force does not pull, an open foot is not below the ground (events are located
  // within 1e-12 s, so it sinks at most its speed times that).
  const Model model = TestModel{"solo12", kRobotsDir + "/solo12.urdf", true}.load();
  const ContactSet contacts = point_contacts(model, kFeet);
  const Eigen::VectorXd q0 = solo12_standing(model, 0.26);
  PD pd(model, set_point(q0), Eigen::VectorXd::Constant(model.nv, 5),
        Eigen::VectorXd::Constant(model.nv, 0.1), true);
  SimulationOptions options;
  options.contacts = &contacts;
  options.ground = 0;
  Simulator sim(model);
  Data data(model);
  const double weight = model.total_mass * 9.81;
  double least_force = 0, least_height = 0;
  sim.run(pd, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.5, options,
          OutputTimes::grid(0, 0.5, 0.005), [&](double, ConstVec q, ConstVec, ConstVec, ConstVec) {
            frame_placements(model, data, q);
            for (int k = 0; k < 4; ++k) {
              if (sim.contact_active()[k]) {
                least_force = std::min(least_force, sim.contact_forces()[3 * k + 2]);
              } else {
                least_height = std::min(least_height, data.oMf[contacts.contacts[k].frame].p.z());
              }
            }
          });
  long touchdowns = 0;
  for (const ContactEvent& e : sim.stats().contact_events) touchdowns += e.closes ? 1 : 0;
  INFO("touchdowns " << touchdowns << ", least normal force " << least_force
                     << " N, least height of an open foot " << least_height << " m");
  CHECK(touchdowns >= 4);
  CHECK(least_force > -1e-9 * weight);
  CHECK(least_height > -1e-9);
}

namespace {

// A computed-torque controller that is never told which contacts are closed: it shares the load
// over all of them, open ones included, as ComputedTorque did before contacts_changed (issue 22).
class ClosedSetBlind : public Controller {
 public:
  ClosedSetBlind(const Model& model, ReferenceFunction reference, const Eigen::VectorXd& kp,
                 const Eigen::VectorXd& kd, const ContactSet& contacts)
      : inner_(model, std::move(reference), kp, kd, &contacts) {}
  void torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v,
              VecRef tau) override {
    inner_.torque(model, data, t, q, v, tau);
  }
  void feedback(const Model& model, Data& data, double t, ConstVec q, Eigen::MatrixXd& K,
                Eigen::MatrixXd& D) override {
    inner_.feedback(model, data, t, q, K, D);
  }

 private:
  ComputedTorque inner_;
};

}  // namespace

TEST_CASE("the stand controller shares the load over the closed feet only",
          "[property][simulate][contacts]") {
  // Solo12 standing on its four feet under the stand controller (computed torque on the feet),
  // the front-left foot released by a schedule from t = 0.1 to 0.3 s. On the three others
  // (rank 9, the base fully constrained) the standing posture is still an equilibrium: with
  // a = 0 and v = 0 the controller's torques g - J_c^T f and forces f make M a + h = S^T tau +
  // J_c^T f hold with J_c a = 0, so the posture is held up to round-off. At rest the robot's
  // Newton-Euler equations fix the vertical forces by the lever rule whatever the joints do:
  // sum f_z = m g, sum p_x f_z = m g c_x, sum p_y f_z = m g c_y (feet at one height, so the
  // horizontal forces, which sum to zero, take no share of the moments about x and y): the
  // barycentric coordinates of the centre of mass in the triangle of the feet, times m g.
  const Model model = TestModel{"solo12", kRobotsDir + "/solo12.urdf", true}.load();
  const ContactSet contacts = point_contacts(model, kFeet);
  const Eigen::VectorXd q0 = solo12_standing(model, 0.2229);
  ContactSchedule schedule;
  schedule.times = {0, 0.1, 0.3};
  schedule.active = {{1, 1, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}};
  SimulationOptions options;
  options.contacts = &contacts;
  options.schedule = &schedule;
  // critically damped error modes of 10 rad/s, well within RK4's stable step at 1 ms
  const Eigen::VectorXd kp = Eigen::VectorXd::Constant(model.nv, 100);
  const Eigen::VectorXd kd = Eigen::VectorXd::Constant(model.nv, 20);
  ComputedTorque stand(model, set_point(q0), kp, kd, &contacts);

  // the lever rule on the three closed feet, from the kinematics alone
  Data data(model);
  frame_placements(model, data, q0);
  Eigen::Matrix3d lever;
  for (int k = 1; k < 4; ++k) {
    const Vec3& p = data.oMf[contacts.contacts[k].frame].p;
    lever.col(k - 1) << 1, p.x(), p.y();
    CHECK(std::abs(p.z() - data.oMf[contacts.contacts[0].frame].p.z()) < 1e-12);
  }
  const Vec3 c = center_of_mass(model, data, q0);
  const double weight = model.total_mass * g;
  const Eigen::Vector3d expected =
      weight * lever.fullPivLu().solve(Eigen::Vector3d(1, c.x(), c.y()));

  // the largest departure of a coordinate from the posture (q0 (-) q, a body twist for the base)
  Eigen::VectorXd e(model.nv);
  const auto departure = [&](ConstVec q) {
    difference(model, q, q0, e);
    return e.cwiseAbs().maxCoeff();
  };

  Simulator sim(model);
  double held = 0, worst_lever = 0, worst_open = 0;
  int released_outputs = 0;
  sim.run(stand, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.4, options,
          OutputTimes::grid(0, 0.4, 0.01), [&](double t, ConstVec q, ConstVec, ConstVec, ConstVec) {
            held = std::max(held, departure(q));
            if (t < 0.1 + 1e-9 || t > 0.3 - 1e-9) return;
            ++released_outputs;
            const Eigen::VectorXd& f = sim.contact_forces();
            // the controller's share of the open foot, and the simulated force there
            worst_open =
                std::max({worst_open, stand.contact_forces().head<3>().norm(), f.head<3>().norm()});
            for (int k = 1; k < 4; ++k) {
              worst_lever = std::max(worst_lever, std::abs(f[3 * k + 2] - expected[k - 1]));
              worst_lever = std::max(worst_lever,
                                     std::abs(stand.contact_forces()[3 * k + 2] - expected[k - 1]));
            }
          });
  INFO("largest departure from the posture " << held << ", worst lever-rule error " << worst_lever
                                             << " N, largest force on the open foot " << worst_open
                                             << " N");
  CHECK(released_outputs == 19);
  CHECK(worst_open == 0);
  CHECK(worst_lever < 1e-9 * weight);
  // a = 0 to round-off (relative 1e-12 of g, say) moves the posture by at most a / kp under the
  // error dynamics e'' + kd e' + kp e = a: far below 1e-9 (rad, or m)
  CHECK(held < 1e-9);
  // the foot closes again where it was released, at rest: an impact that loses nothing
  CHECK(sim.stats().impacts == 1);
  CHECK(sim.stats().impact_energy_loss < 1e-12);

  // Blind to the closed set, the controller still gives the released foot its share of the
  // weight, about m g / 4 = 6 N: its leg's joints get tau = -J^T f of a force no ground
  // supplies (some 0.7 N m at the knee, 0.11 m behind the foot), and the three feet left lack
  // it. The light leg (inertia about the knee some 1e-3 kg m^2) takes an error of order
  // |J^T f| / (M kp), radians: the posture is lost (checked against 0.1).
  ClosedSetBlind blind(model, set_point(q0), kp, kd, contacts);
  double drift = 0;
  sim.run(blind, q0, Eigen::VectorXd::Zero(model.nv), 0, 0.4, options,
          OutputTimes::grid(0, 0.4, 0.01), [&](double, ConstVec q, ConstVec, ConstVec, ConstVec) {
            drift = std::max(drift, departure(q));
          });
  INFO("departure of the blind controller " << drift);
  CHECK(drift > 0.1);
}
