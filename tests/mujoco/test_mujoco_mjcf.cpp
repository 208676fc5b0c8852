// eom against MuJoCo itself (Debian's libmujoco-dev 2.2.2), on the same MJCF files: body and site
// placements, the mass matrix (mj_fullM of qM), inverse dynamics (mj_inverse's qfrc_inverse) and
// forward dynamics (mj_forward's qacc) with the constraint and passive forces off, over random
// states. Built only when MuJoCo is found (tests/CMakeLists.txt).

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <mujoco/mujoco.h>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/json_model.hpp>

#include "mujoco_coordinates.hpp"
#include "paths.hpp"
#include "urdf_without_geometry.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr int kStates = 32;
constexpr double kTol = 1e-10;

struct MujocoModel {
  explicit MujocoModel(const std::string& path) {
    char error[1000] = "";
    m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    if (!m) FAIL("MuJoCo cannot load " << path << ": " << error);
    m->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_PASSIVE | mjDSBL_CONTACT | mjDSBL_ACTUATION;
    d = mj_makeData(m);
  }
  ~MujocoModel() {
    mj_deleteData(d);
    mj_deleteModel(m);
  }
  MujocoModel(const MujocoModel&) = delete;
  MujocoModel& operator=(const MujocoModel&) = delete;
  mjModel* m = nullptr;
  mjData* d = nullptr;
};

// |actual - expected| within tol relative to the larger of 1 and |expected|
template <class A, class B>
void check_close(const A& actual, const B& expected, double tol, const char* what) {
  INFO(what << "\neom:\n" << actual << "\nMuJoCo:\n" << expected);
  CHECK((actual - expected).norm() <= tol * std::max(1.0, expected.norm()));
}

// a random configuration: 1-DoF joints within their limits (else a turn), free joints anywhere
// within a metre with any orientation, ball joints at any orientation
Eigen::VectorXd random_q(const Model& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd q(model.nq);
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    if (j.nq == 1) {
      const double lo = std::isfinite(model.lower_limit[j.idx_q]) ? model.lower_limit[j.idx_q] : -3;
      const double hi = std::isfinite(model.upper_limit[j.idx_q]) ? model.upper_limit[j.idx_q] : 3;
      q[j.idx_q] = lo + (hi - lo) * (u(rng) + 1) / 2;
    } else {
      // the position of a free joint, then the quaternion (x y z w) ending the block
      for (int k = 0; k < j.nq - 4; ++k) q[j.idx_q + k] = u(rng);
      q.segment<4>(j.idx_q + j.nq - 4) =
          Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized();
    }
  }
  return q;
}

// Everything the loader gives, compared on kStates random states; the model's frames named as
// MuJoCo's bodies and sites (unnamed ones "body<id>", "site<id>") at their placements
void compare(const std::string& path, double inertia_tol = kTol) {
  INFO(path);
  const Model model = load_model(path);
  MujocoModel mj(path);
  const mjModel* m = mj.m;
  mjData* d = mj.d;
  const MujocoCoordinates coordinates(model, m);
  for (int k = 0; k < 3; ++k) REQUIRE(m->opt.gravity[k] == model.gravity[k]);
  Data data(model);
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0, 1);
  const int nv = model.nv;
  std::vector<mjtNum> dense(nv * nv);
  Eigen::MatrixXd M_mujoco(nv, nv);
  Eigen::VectorXd tau_mujoco(nv), a_mujoco(nv);
  for (int s = 0; s < kStates; ++s) {
    const Eigen::VectorXd q = random_q(model, rng);
    const Eigen::VectorXd v = Eigen::VectorXd::NullaryExpr(nv, [&] { return n(rng); });
    const Eigen::VectorXd a = Eigen::VectorXd::NullaryExpr(nv, [&] { return n(rng); });
    const Eigen::VectorXd tau = Eigen::VectorXd::NullaryExpr(nv, [&] { return n(rng); });
    coordinates.state_to_mujoco(q, v, d->qpos, d->qvel);

    // placements
    mj_forward(m, d);
    frame_placements(model, data, q);
    for (int b = 1; b < m->nbody; ++b) {
      const char* name = mj_id2name(m, mjOBJ_BODY, b);
      const std::string frame = name ? name : "body" + std::to_string(b);
      INFO("body " << frame);
      const SE3& placed = data.oMf[model.require_frame(frame)];
      check_close(placed.p, Eigen::Map<const Vec3>(d->xpos + 3 * b), kTol, "position");
      check_close(placed.R,
                  Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->xmat + 9 * b),
                  kTol, "rotation");
    }
    for (int t = 0; t < m->nsite; ++t) {
      const char* name = mj_id2name(m, mjOBJ_SITE, t);
      const std::string frame = name ? name : "site" + std::to_string(t);
      INFO("site " << frame);
      const SE3& placed = data.oMf[model.require_frame(frame)];
      check_close(placed.p, Eigen::Map<const Vec3>(d->site_xpos + 3 * t), kTol, "position");
      check_close(
          placed.R,
          Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->site_xmat + 9 * t),
          kTol, "rotation");
    }

    // mass matrix
    mj_fullM(m, dense.data(), d->qM);
    coordinates.mass_matrix_from_mujoco(q, dense.data(), M_mujoco);
    const Eigen::MatrixXd M = crba(model, data, q).selfadjointView<Eigen::Upper>();
    check_close(M, M_mujoco, inertia_tol, "mass matrix");

    // inverse dynamics
    coordinates.acceleration_to_mujoco(q, v, a, d->qacc);
    mj_inverse(m, d);
    coordinates.force_from_mujoco(q, d->qfrc_inverse, tau_mujoco);
    check_close(rnea(model, data, q, v, a), tau_mujoco, inertia_tol, "inverse dynamics");

    // forward dynamics: MuJoCo 2.2 diagonalises a body's inertia (from rotated geoms, or a
    // fullinertia) with an iteration that stops early, so its M differs from the exact one by up
    // to ~4e-11 here (arm.xml); M^-1 turns that into an acceleration error of that size relative
    // to |M| |a|, which exceeds |M a| by up to M's condition number (~3e3). So the accelerations
    // are compared as the forces M a they take, within tol |M| |a| (a backward error)
    coordinates.force_to_mujoco(q, tau, d->qfrc_applied);
    mj_forward(m, d);
    coordinates.acceleration_from_mujoco(q, v, d->qacc, a_mujoco);
    const Eigen::VectorXd a_eom = aba(model, data, q, v, tau);
    INFO("forward dynamics\neom:\n" << a_eom << "\nMuJoCo:\n" << a_mujoco);
    const double scale = std::max(1.0, M_mujoco.norm() * a_mujoco.norm());
    CHECK((M_mujoco * (a_eom - a_mujoco)).norm() <= inertia_tol * scale);
  }
}

const std::string kMjcf = kDataDir + "/mjcf/";

}  // namespace

TEST_CASE("MuJoCo: eom loads the project's MJCF files as MuJoCo does", "[mujoco]") {
  for (const char* file :
       {"pendulum.xml", "orientations.xml", "euler_fixed_axes.xml", "defaults.xml", "arm.xml",
        "floating.xml", "ball_chain.xml", "ball_free.xml", "armature.xml", "actuators.xml"}) {
    compare(kMjcf + file);
  }
}

// Run by the ctest "mujoco: MuJoCo's sample models ..." only when libmujoco-samples is installed
// (hidden tag): without them ctest reports the test skipped, not passed
TEST_CASE("MuJoCo: its own sample models that use only what eom loads", "[.samples]") {
  const std::string samples = EOM_MUJOCO_SAMPLES;  // tests/CMakeLists.txt
  if (!std::filesystem::exists(samples)) FAIL(samples << " is missing (libmujoco-samples)");
  for (const char* file : {"tendon_arm/arm26.xml", "slider_crank/slider_crank.xml"}) {
    compare(samples + file);
  }
}

// Run by the ctest "mujoco: mujoco-compile ..." only when mujoco-compile is installed (hidden tag)
TEST_CASE("mujoco-compile: eom on the MJCF MuJoCo writes from a URDF agrees with eom on the URDF",
          "[.urdf]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("eom_mujoco_compile_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  // mujoco-compile writes 6 significant digits: placements, axes and inertias agree to about
  // 5e-6 relative each, compounded along a chain
  constexpr double tol = 1e-4;
  for (const char* robot : {"baxter", "double_pendulum", "finger_edu", "kinova", "panda",
                            "serial_mixed", "solo12", "ur5_robot", "z1"}) {
    INFO(robot);
    const std::string urdf = (dir / (std::string(robot) + ".urdf")).string();
    REQUIRE(write_urdf_without_geometry(kDataDir + "/robots/" + robot + ".urdf", urdf));
    const std::string mjcf = (dir / (std::string(robot) + ".xml")).string();
    std::filesystem::remove(mjcf);
    REQUIRE(std::system(("mujoco-compile " + urdf + " " + mjcf + " > /dev/null").c_str()) == 0);
    const Model from_urdf = load_model(urdf);
    const Model from_mjcf = load_model(mjcf);
    REQUIRE(from_mjcf.nv == from_urdf.nv);
    // the MJCF model's coordinate of each of the URDF model's (joints by name)
    std::vector<int> index(from_urdf.nv);
    for (int i = 1; i < from_urdf.njoints; ++i) {
      const int j = from_mjcf.joint_index(from_urdf.joint_names[i]);
      REQUIRE(j > 0);
      index[from_urdf.joints[i].idx_v] = from_mjcf.joints[j].idx_v;
    }
    Data data_urdf(from_urdf), data_mjcf(from_mjcf);
    std::mt19937 rng(11);
    std::normal_distribution<double> n(0, 1);
    const int nv = from_urdf.nv;
    const auto to_mjcf = [&](const Eigen::VectorXd& x) {
      Eigen::VectorXd y(nv);
      for (int k = 0; k < nv; ++k) y[index[k]] = x[k];
      return y;
    };
    for (int s = 0; s < 8; ++s) {
      const Eigen::VectorXd q = random_q(from_urdf, rng);
      const Eigen::VectorXd v = Eigen::VectorXd::NullaryExpr(nv, [&] { return n(rng); });
      const Eigen::VectorXd a = Eigen::VectorXd::NullaryExpr(nv, [&] { return n(rng); });
      const Eigen::VectorXd tau = rnea(from_urdf, data_urdf, q, v, a);
      check_close(to_mjcf(tau), rnea(from_mjcf, data_mjcf, to_mjcf(q), to_mjcf(v), to_mjcf(a)), tol,
                  "inverse dynamics");
      frame_placements(from_urdf, data_urdf, q);
      frame_placements(from_mjcf, data_mjcf, to_mjcf(q));
      // MuJoCo fuses fixed links into their parents: the bodies it keeps
      for (size_t f = 1; f < from_mjcf.frames.size(); ++f) {
        const int g = from_urdf.frame_index(from_mjcf.frames[f].name);
        REQUIRE(g >= 0);
        INFO("frame " << from_mjcf.frames[f].name);
        check_close(data_mjcf.oMf[f].p, data_urdf.oMf[g].p, tol, "position");
        check_close(data_mjcf.oMf[f].R, data_urdf.oMf[g].R, tol, "rotation");
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("MuJoCo: a fullinertia with products of inertia, to MuJoCo's diagonalisation",
          "[mujoco]") {
  // MuJoCo 2.2.2 diagonalises the tensor with a Jacobi iteration that stops early: its principal
  // moments are up to ~1e-6 relative away from the file's (eom loads the file's numbers
  // exactly); here M and tau differ by up to 4e-7 (1e-10 for every other model)
  compare(kMjcf + "fullinertia.xml", 1e-6);
}

TEST_CASE("MuJoCo: mesh geoms, and boxes and ellipsoids given by fromto", "[mujoco]") {
  // MuJoCo 2.2 keeps a mesh's vertices in single precision and re-centres them there (its mesh
  // masses and inertias are ~1e-8 relative away from the exact ones eom computes in double, even
  // for vertices exact in single precision), and diagonalises the mesh's inertia with the
  // iteration that stops early (as for fullinertia): M and tau differ by up to 4e-7 relative
  constexpr double float_tol = 1e-6;
  compare(kMjcf + "mesh.xml", float_tol);
  // MuJoCo 2.2's default ("legacy") rule on a mesh that is not star-shaped, and the exact one
  compare(kMjcf + "mesh_nonconvex.xml", float_tol);
  compare(kMjcf + "mesh_nonconvex_exact.xml", float_tol);
}

// MuJoCo bounds an actuator's force by its forcerange when forcelimited, and a joint
// transmission applies gear[0] times that force to its joint: the joint's effort limit is the sum
// of |gear[0]| * max(|lo|, |hi|) over its actuators, unlimited when one of them is not limited.
// MuJoCo's compiled model resolves the <default> classes, so it judges eom's reading of them.
TEST_CASE("MuJoCo: the joints' effort limits are the force limits of their actuators", "[mujoco]") {
  const std::string path = kMjcf + "actuators.xml";
  const Model model = load_model(path);
  MujocoModel mj(path);
  const mjModel* m = mj.m;
  std::vector<double> limit(m->njnt, 0);
  std::vector<bool> driven(m->njnt, false);
  for (int k = 0; k < m->nu; ++k) {
    if (m->actuator_trntype[k] != mjTRN_JOINT) continue;
    const int j = m->actuator_trnid[2 * k];
    driven[j] = true;
    limit[j] += m->actuator_forcelimited[k]
                    ? std::abs(m->actuator_gear[6 * k]) *
                          std::max(std::abs(m->actuator_forcerange[2 * k]),
                                   std::abs(m->actuator_forcerange[2 * k + 1]))
                    : INFINITY;
  }
  REQUIRE(m->nu == 6);
  for (int j = 0; j < m->njnt; ++j) {
    const std::string name = mj_id2name(m, mjOBJ_JOINT, j);
    INFO("joint " << name);
    CHECK(model.effort_limit[model.joints[model.joint_index(name)].idx_v] ==
          (driven[j] ? limit[j] : INFINITY));
  }
}
