// MuJoCo as a second opinion on eom sim --ground (issue 35): the box of
// tests/data/urdf/box_corners_centred.urdf (2 kg, 0.4 x 0.2 x 0.1 m, a point contact at each
// bottom corner) dropped onto the ground and slid on it, eom's time-stepped rigid contacts
// against MuJoCo 2.2.2's soft ones (the same box in MJCF, a small sphere at each corner, default
// solver parameters, 1 ms steps). The two contact models differ, so only what must agree is
// compared: the touchdown time (both against sqrt(2 h / g)), the height the box rests at (MuJoCo
// sinks into the ground by its soft contact's few millimetres), and the distance a sliding box
// stops in (v0^2 / (2 mu g), which MuJoCo's pyramidal cone of condim 3 also meets along x).

#include <algorithm>
#include <cmath>
#include <string>

#include <catch2/catch.hpp>
#include <mujoco/mujoco.h>

#include <eom/algorithm/contact_set.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/controllers.hpp>
#include <eom/solvers/simulate.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr double kGravity = 9.81, kStep = 1e-3, kMu = 0.5;
constexpr double kHalfHeight = 0.05;  // the box's centre above its corners
constexpr double kCorner = 0.002;     // MuJoCo's corner spheres' radius (m)

// the box of box_corners_centred.urdf in MJCF; each corner's sphere touches the plane where the
// URDF's corner point does
std::string box_mjcf() {
  std::string corners;
  for (const char* xy : {"0.2 0.1", "0.2 -0.1", "-0.2 0.1", "-0.2 -0.1"}) {
    corners += std::string("<geom type='sphere' size='0.002' mass='0' pos='") + xy + " " +
               std::to_string(-kHalfHeight + kCorner) + "'/>";
  }
  return "<mujoco><option timestep='0.001' gravity='0 0 -9.81'/>"
         "<default><geom friction='0.5 0.005 0.0001'/></default>"
         "<worldbody><geom type='plane' size='50 50 0.1'/><body name='box' pos='0 0 1'>"
         "<freejoint/><inertial pos='0 0 0' mass='2' diaginertia='0.0083 0.0283 0.0333'/>" +
         corners + "</body></worldbody></mujoco>";
}

struct MujocoBox {
  MujocoBox() {
    char error[1000] = "";
    mj_defaultVFS(&vfs);
    const std::string xml = box_mjcf();
    mj_makeEmptyFileVFS(&vfs, "box.xml", static_cast<int>(xml.size()));
    const int file = mj_findFileVFS(&vfs, "box.xml");
    std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs.filedata[file]));
    m = mj_loadXML("box.xml", &vfs, error, sizeof error);
    if (!m) FAIL("MuJoCo cannot load the box: " << error);
    d = mj_makeData(m);
  }
  ~MujocoBox() {
    mj_deleteData(d);
    mj_deleteModel(m);
    mj_deleteVFS(&vfs);
  }
  MujocoBox(const MujocoBox&) = delete;
  MujocoBox& operator=(const MujocoBox&) = delete;
  mjVFS vfs;
  mjModel* m = nullptr;
  mjData* d = nullptr;
};

struct EomBox {
  EomBox()
      : model(load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating())),
        corners(point_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"})),
        sim(model) {
    options.dt = kStep;
    options.contacts = &corners;
    options.ground = 0.0;
    options.friction_coefficient = kMu;
  }
  static LoadOptions floating() {
    LoadOptions o;
    o.floating_base = true;
    return o;
  }
  Model model;
  ContactSet corners;
  Simulator sim;
  SimulationOptions options;
};

// the box's configuration: its centre at height z, level
Eigen::VectorXd box_q(double z) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(7);
  q[2] = z;
  q[6] = 1;
  return q;
}

}  // namespace

TEST_CASE("MuJoCo: a box dropped on the ground lands when both say, at sqrt(2 h / g)", "[mujoco]") {
  const double drop = 0.1, landing = std::sqrt(2 * drop / kGravity);
  EomBox eom_box;
  ZeroTorque zero;
  const SimulationStats& stats = eom_box.sim.run(zero, box_q(kHalfHeight + drop),
                                                 Eigen::VectorXd::Zero(6), 0, 1.0, eom_box.options);
  REQUIRE(!stats.contact_events.empty());
  const double eom_touchdown = stats.contact_events.front().t;
  const double eom_rest = eom_box.sim.q()[2];

  MujocoBox mujoco;
  mujoco.d->qpos[2] = kHalfHeight + drop;
  double mujoco_touchdown = -1;
  for (int k = 0; k < 1000; ++k) {
    mj_step(mujoco.m, mujoco.d);
    if (mujoco_touchdown < 0 && mujoco.d->ncon > 0) mujoco_touchdown = mujoco.d->time;
  }
  const double mujoco_rest = mujoco.d->qpos[2];
  INFO("touchdown: eom " << eom_touchdown << " s, MuJoCo " << mujoco_touchdown << " s, closed form "
                         << landing << " s; at rest: eom " << eom_rest << " m, MuJoCo "
                         << mujoco_rest << " m");
  // each within two steps of the closed form (the step the fall crosses the ground in, and
  // MuJoCo's contact detected at the start of the next)
  CHECK(std::abs(eom_touchdown - landing) <= 2 * kStep);
  CHECK(std::abs(mujoco_touchdown - landing) <= 2 * kStep);
  // eom rests on the ground to its tolerance; MuJoCo's soft contacts sink (issue 35 allows a few
  // millimetres; 17 um here)
  CHECK(std::abs(eom_rest - kHalfHeight) < 1e-6);
  CHECK(std::abs(mujoco_rest - eom_rest) < 3e-3);
}

TEST_CASE("MuJoCo: a box slid along the ground stops after v0^2 / (2 mu g) in both", "[mujoco]") {
  const double v0 = 1, distance = v0 * v0 / (2 * kMu * kGravity);
  EomBox eom_box;
  ZeroTorque zero;
  Eigen::VectorXd v0_eom = Eigen::VectorXd::Zero(6);
  v0_eom[0] = v0;
  eom_box.sim.run(zero, box_q(kHalfHeight), v0_eom, 0, 0.5, eom_box.options);
  const double eom_slid = eom_box.sim.q()[0];

  MujocoBox mujoco;
  // settled on its corners first (its soft contacts sink), then pushed
  mujoco.d->qpos[2] = kHalfHeight;
  for (int k = 0; k < 500; ++k) mj_step(mujoco.m, mujoco.d);
  const double start = mujoco.d->qpos[0];
  mujoco.d->qvel[0] = v0;
  for (int k = 0; k < 500; ++k) mj_step(mujoco.m, mujoco.d);
  const double mujoco_slid = mujoco.d->qpos[0] - start;
  INFO("slid: eom " << eom_slid << " m, MuJoCo " << mujoco_slid << " m, closed form " << distance
                    << " m");
  CHECK(std::abs(eom_slid - distance) <= v0 * kStep);
  // MuJoCo's soft friction slips a little while it sticks: 0.3 % apart here
  CHECK(std::abs(mujoco_slid - eom_slid) < 0.01 * distance);
}
