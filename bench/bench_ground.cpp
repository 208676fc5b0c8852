// The cost of eom sim --ground (time-stepped contacts with Coulomb friction, 1 ms steps): steps
// per second of Solo12 standing on its four feet and dropped from 10 cm onto them under the
// stand controller (computed torque sharing the load over the closed contacts, saturated at the
// effort limits), 2 s a run; and, where MuJoCo is found (Debian: libmujoco-dev 2.2.2), the same
// model in both: a quadruped of Solo12's size and degrees of freedom (a 1.2 kg base, four legs of
// three hinges, 18 velocities) in MJCF, its feet on a plane, each joint held at the standing
// posture by a proportional torque kp (q_ref - q), standing and dropped from 10 cm, 2 s a run:
// MuJoCo's mj_step (soft contacts on foot spheres, position actuators, default solver) against
// eom's steps (the MJCF loaded by eom, point contacts at the spheres' lowest points, its PD
// controller with the same kp and no damping), in the same run. The runs keep no rows: memory
// does not grow with the duration (each run's workspaces are the Simulator's, allocated once).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <eom/algorithm/contact_set.hpp>
#include <eom/parsers/mjcf.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/controllers.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/solvers/step_stability.hpp>

#ifdef EOM_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

const std::string kSolo = std::string(EOM_SOURCE_DIR) + "/robots/solo12.urdf";

// trajectories/solo12_stand.csv: the feet on the ground
Eigen::VectorXd solo_standing(const eom::Model& model) {
  Eigen::VectorXd q(model.nq);
  q << 0, 0, 0.22294614699109291, 0, 0, 0, 1, 0, 0.8, -1.6, 0, 0.8, -1.6, 0, -0.8, 1.6, 0, -0.8,
      1.6;
  return q;
}

// `control` running `model` for 2 s from rest at q0 on the ground z = 0 under `feet` (1 ms steps,
// friction 1), per iteration of `state`: steps per second of CPU in its counters; the final base
// height returned
double ground_steps(benchmark::State& state, const eom::Model& model, const eom::ContactSet& feet,
                    eom::Controller& control, const Eigen::VectorXd& q0) {
  eom::SimulationOptions options;
  options.dt = 1e-3;
  options.contacts = &feet;
  options.ground = 0.0;
  options.friction_coefficient = 1;
  eom::Simulator sim(model);
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
  long steps = 0;
  for (auto _ : state) {
    steps += sim.run(control, q0, v0, 0, 2.0, options).steps;
    benchmark::DoNotOptimize(sim.q().data());
  }
  state.counters["steps_per_s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
  return sim.q()[2];
}

// Solo12 for 2 s on the ground from `drop` above its standing posture (stand controller, gains
// as eom sim's defaults with --ground), steps per second of simulated run
void solo12_ground(benchmark::State& state) {
  eom::LoadOptions floating;
  floating.floating_base = true;
  const eom::Model model = eom::load_urdf(kSolo, floating);
  const eom::ContactSet feet =
      eom::point_contacts(model, {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"});
  const Eigen::VectorXd stand = solo_standing(model);
  const double drop = state.range(0) * 1e-3;  // mm
  Eigen::VectorXd q0 = stand;
  q0[2] += drop;
  eom::Data data(model);
  const eom::PDGains gains =
      eom::default_gains(model, data, q0, eom::Integrator::semi_implicit_euler, 1e-3, true, 0.5);
  eom::ComputedTorque control(model, eom::set_point(stand), gains.kp, gains.kd, &feet);
  ground_steps(state, model, feet, control, q0);
  state.SetLabel(drop == 0 ? "standing" : "dropped from " + std::to_string(state.range(0)) + " mm");
}
BENCHMARK(solo12_ground)->Arg(0)->Arg(100)->Unit(benchmark::kMillisecond);

#ifdef EOM_HAVE_MUJOCO
// A Solo12-sized quadruped (the URDF's base and leg masses and lengths rounded: 1.2 kg base, hip
// 0.14 kg, thigh 0.15 kg, shank 0.03 kg, 0.16 m segments) in MJCF, its feet spheres of 1 cm on a
// plane (a site at each sphere's lowest point: eom's contact), each joint held by a position
// actuator of gain kPostureGain at the standing posture
constexpr double kPostureGain = 5;  // N m / rad
const double kPosture[12] = {0, 0.8, -1.6, 0, 0.8, -1.6, 0, -0.8, 1.6, 0, -0.8, 1.6};
// the base's height with the feet on the plane in that posture: 2 x 0.16 cos(0.8), plus the
// spheres' 1 cm
const double kQuadrupedHeight = 2 * 0.16 * std::cos(0.8) + 0.01;

std::string quadruped_mjcf() {
  std::string legs;
  const char* names[4] = {"FL", "FR", "HL", "HR"};
  const double x[4] = {0.19, 0.19, -0.19, -0.19}, y[4] = {0.1, -0.1, 0.1, -0.1};
  std::string actuators;
  for (int k = 0; k < 4; ++k) {
    const std::string n = names[k];
    legs += "<body name='" + n + "_hip' pos='" + std::to_string(x[k]) + " " + std::to_string(y[k]) +
            " 0'><joint name='" + n + "_HAA' axis='1 0 0'/><inertial pos='0 0 0' mass='0.14' " +
            "diaginertia='1e-4 1e-4 1e-4'/><body name='" + n + "_thigh'><joint name='" + n +
            "_HFE' axis='0 1 0' ref='0'/><inertial pos='0 0 -0.08' mass='0.15' " +
            "diaginertia='4e-4 4e-4 2e-5'/><body name='" + n + "_shank' pos='0 0 -0.16'>" +
            "<joint name='" + n + "_KFE' axis='0 1 0'/><inertial pos='0 0 -0.08' mass='0.03' " +
            "diaginertia='8e-5 8e-5 1e-6'/><geom type='sphere' size='0.01' pos='0 0 -0.16' " +
            "mass='0'/><site name='" + n + "_FOOT' pos='0 0 -0.17'/></body></body></body>";
    const std::string kp = "' kp='" + std::to_string(kPostureGain) + "'/>";
    actuators += "<position joint='" + n + "_HAA" + kp + "<position joint='" + n + "_HFE" + kp +
                 "<position joint='" + n + "_KFE" + kp;
  }
  return "<mujoco><option timestep='0.001'/><worldbody><geom type='plane' size='5 5 0.1'/>"
         "<body name='base' pos='0 0 0.3'><freejoint/><inertial pos='0 0 0' mass='1.2' "
         "diaginertia='3e-3 1.3e-2 1.5e-2'/>" +
         legs + "</body></worldbody><actuator>" + actuators + "</actuator></mujoco>";
}

// mj_step of that quadruped for 2 s from `drop` above its standing height, feet on the plane
void mujoco_quadruped(benchmark::State& state) {
  char error[1000] = "";
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  const std::string xml = quadruped_mjcf();
  mj_makeEmptyFileVFS(&vfs, "quadruped.xml", static_cast<int>(xml.size()));
  const int file = mj_findFileVFS(&vfs, "quadruped.xml");
  std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs.filedata[file]));
  mjModel* m = mj_loadXML("quadruped.xml", &vfs, error, sizeof error);
  if (!m) {
    state.SkipWithError(error);
    mj_deleteVFS(&vfs);
    return;
  }
  mjData* d = mj_makeData(m);
  const double height = kQuadrupedHeight + state.range(0) * 1e-3;
  long steps = 0;
  for (auto _ : state) {
    mj_resetData(m, d);
    d->qpos[2] = height;
    for (int k = 0; k < 12; ++k) d->qpos[7 + k] = d->ctrl[k] = kPosture[k];
    for (int k = 0; k < 2000; ++k) mj_step(m, d);
    steps += 2000;
    benchmark::DoNotOptimize(d->qpos[2]);
  }
  state.counters["steps_per_s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
  state.counters["contacts"] = d->ncon;
  state.counters["base_z"] = d->qpos[2];
  mj_deleteData(d);
  mj_deleteModel(m);
  mj_deleteVFS(&vfs);
}
BENCHMARK(mujoco_quadruped)->Arg(0)->Arg(100)->Unit(benchmark::kMillisecond);

// eom on the same MJCF: point contacts at the foot sites, PD at the posture with MuJoCo's gain
// and no damping (its position actuators), the same 1 ms steps, 2 s from `drop` above standing
void eom_quadruped(benchmark::State& state) {
  eom::LoadOptions floating;  // the <freejoint> is the floating base
  const eom::Model model = eom::build_mjcf_model(quadruped_mjcf(), "quadruped.xml", floating);
  const eom::ContactSet feet =
      eom::point_contacts(model, {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"});
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq), reference(model.nq);
  q0[2] = kQuadrupedHeight + state.range(0) * 1e-3;
  q0[6] = 1;
  for (int k = 0; k < 12; ++k) q0[7 + k] = kPosture[k];
  reference = q0;
  Eigen::VectorXd kp = Eigen::VectorXd::Constant(model.nv, kPostureGain);
  kp.head<6>().setZero();  // the unactuated base
  eom::PD control(model, eom::set_point(reference), kp, Eigen::VectorXd::Zero(model.nv));
  state.counters["base_z"] = ground_steps(state, model, feet, control, q0);
}
BENCHMARK(eom_quadruped)->Arg(0)->Arg(100)->Unit(benchmark::kMillisecond);
#endif

}  // namespace

BENCHMARK_MAIN();
