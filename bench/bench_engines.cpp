// eom beside the simulation engines users would pick instead, in one process: MuJoCo (Debian's
// libmujoco-dev 2.2.2) and DART (libdart-dev 6.12), each built in when CMake finds it.
//   rnea            vs MuJoCo mj_kinematics + mj_comPos + mj_comVel + mj_rne (M qacc + bias)
//                      DART Skeleton::computeInverseDynamics
//   crba            vs MuJoCo mj_kinematics + mj_comPos + mj_crb + mj_fullM (the dense M)
//                      DART Skeleton::getMassMatrix (after the state is set)
//   aba             vs MuJoCo mj_forward with constraints and passive forces off (its pipeline:
//                      CRBA, sparse LDL^T, RNE for the bias, a solve)
//                      DART Skeleton::computeForwardDynamics (articulated-body algorithm)
//   frame_jacobian  vs MuJoCo mj_kinematics + mj_comPos + mj_jac at the tip frame's origin
//                      DART Skeleton::getWorldJacobian at the tip's offset
// Every robot is a fixed-base URDF loaded by each library itself, its visual and collision
// elements removed first (their meshes are not shipped, and neither plays a part here). Joints
// are matched by name. Before timing the program checks that every engine gives eom's tau, M and
// tip Jacobian on the same 64 random states (1e-9 relative; 1e-6 for MuJoCo, whose compiler
// rounds inertia tensors that much when it diagonalises them), and accelerations whose backward
// error in eom's equations of motion is as small, and exits 1 otherwise: a
// model that loads differently would compare different problems. At the end a table gives the
// median CPU ns of each call and the ratio engine / eom.
//
// Run: build/bench/bench_engines --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#ifdef EOM_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include "mujoco_coordinates.hpp"
#endif
#ifdef EOM_HAVE_DART
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/DegreeOfFreedom.hpp>
#include <dart/dynamics/Joint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/utils/urdf/DartLoader.hpp>
#endif

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>

#include "median_reporter.hpp"
#include "urdf_without_geometry.hpp"

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

struct Robot {
  const char* name;
  const char* path;
  const char* tip;  // a frame whose Jacobian is taken
};

const Robot kRobots[] = {
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", "tool0"},
    {"kinova", EOM_SOURCE_DIR "/tests/data/robots/kinova.urdf", "j2s6s200_end_effector"},
    {"z1", EOM_SOURCE_DIR "/tests/data/robots/z1.urdf", "gripperStator"},
    {"solo12", EOM_SOURCE_DIR "/robots/solo12.urdf", "HR_FOOT"},
};

enum class Algorithm { rnea, crba, aba, jacobian };
const char* const kAlgorithmNames[] = {"rnea", "crba", "aba", "frame_jacobian"};
constexpr int kStates = 64;

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// One library's view of a robot: the four computations, in eom's coordinate order and eom's
// conventions (Jacobian rows: linear velocity of the tip frame's origin, then angular velocity,
// world axes).
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void set_state(const Vector& q, const Vector& v) = 0;
  virtual const Vector& rnea(const Vector& a) = 0;
  virtual const Matrix& crba() = 0;
  virtual const Vector& aba(const Vector& tau) = 0;
  virtual const Matrix& jacobian() = 0;
};

// The same robot and the same random states (seed 42, as bench_dynamics) for every engine.
struct Problem {
  eom::Model model;
  int tip = 0;
  std::string stripped_urdf;  // the URDF without visual and collision elements
  std::vector<Vector> q, v, a;

  explicit Problem(const Robot& robot) : model(eom::load_urdf(robot.path)) {
    tip = model.require_frame(robot.tip);
    eom::Rng rng(42);
    for (int k = 0; k < kStates; ++k) {
      q.push_back(eom::random_configuration(model, rng));
      v.push_back(eom::random_tangent(model, rng));
      a.push_back(eom::random_tangent(model, rng));
    }
    stripped_urdf = (std::filesystem::temp_directory_path() /
                     ("eom_bench_" + std::string(robot.name) + ".urdf"))
                        .string();
    if (!eom::test::write_urdf_without_geometry(robot.path, stripped_urdf)) {
      std::fprintf(stderr, "bench_engines: cannot read %s or write %s\n", robot.path,
                   stripped_urdf.c_str());
      std::exit(1);
    }
  }
};

class EomEngine final : public Engine {
 public:
  explicit EomEngine(const Problem& p) : p_(p), data_(p.model) {}
  void set_state(const Vector& q, const Vector& v) override {
    q_ = &q;
    v_ = &v;
  }
  const Vector& rnea(const Vector& a) override { return eom::rnea(p_.model, data_, *q_, *v_, a); }
  const Matrix& crba() override { return eom::crba(p_.model, data_, *q_); }
  const Vector& aba(const Vector& tau) override { return eom::aba(p_.model, data_, *q_, *v_, tau); }
  const Matrix& jacobian() override {
    J_ =
        eom::frame_jacobian(p_.model, data_, *q_, p_.tip, eom::ReferenceFrame::local_world_aligned);
    return J_;
  }

 private:
  const Problem& p_;
  eom::Data data_;
  const Vector* q_ = nullptr;
  const Vector* v_ = nullptr;
  Matrix J_;
};

// The moving joint of eom's model whose body carries `frame` (the frame's supporting joint).
int supporting_joint(const eom::Model& model, int frame) { return model.frames[frame].parent; }

#ifdef EOM_HAVE_MUJOCO
// MuJoCo loads the URDF with its own importer. States, forces and results are converted by joint
// name (eom::test::MujocoCoordinates, shared with the MuJoCo tests); the Jacobian is taken at the
// tip frame's origin on the body of the tip's supporting joint, the point placed by eom's forward
// kinematics (MuJoCo fuses the fixed links of a URDF into their parents, so the tip link itself
// may be gone).
class MujocoEngine final : public Engine {
 public:
  explicit MujocoEngine(const Problem& p) : p_(p), eom_data_(p.model) {
    char error[1000] = "";
    m_ = mj_loadXML(p.stripped_urdf.c_str(), nullptr, error, sizeof error);
    if (!m_) {
      std::fprintf(stderr, "bench_engines: MuJoCo cannot load %s: %s\n", p.stripped_urdf.c_str(),
                   error);
      std::exit(1);
    }
    m_->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_PASSIVE | mjDSBL_CONTACT | mjDSBL_ACTUATION;
    d_ = mj_makeData(m_);
    try {
      coordinates_ = std::make_unique<eom::test::MujocoCoordinates>(p.model, m_);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "bench_engines: %s\n", e.what());
      std::exit(1);
    }
    const int joint = supporting_joint(p.model, p.tip);
    tip_body_ = m_->jnt_bodyid[mj_name2id(m_, mjOBJ_JOINT, p.model.joint_names[joint].c_str())];
    const int nv = p.model.nv;
    tau_.resize(nv);
    qdd_.resize(nv);
    M_.resize(nv, nv);
    J_.resize(6, nv);
    dense_.resize(nv * nv);
    jacp_.resize(3 * nv);
    jacr_.resize(3 * nv);
    result_.resize(nv);
  }
  ~MujocoEngine() override {
    mj_deleteData(d_);
    mj_deleteModel(m_);
  }
  void set_state(const Vector& q, const Vector& v) override {
    coordinates_->state_to_mujoco(q, v, d_->qpos, d_->qvel);
    q_ = &q;
    v_ = &v;
  }
  const Vector& rnea(const Vector& a) override {
    coordinates_->acceleration_to_mujoco(*q_, *v_, a, d_->qacc);
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_comVel(m_, d_);
    mj_rne(m_, d_, 1, result_.data());
    coordinates_->force_from_mujoco(*q_, result_.data(), tau_);
    return tau_;
  }
  const Matrix& crba() override {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_crb(m_, d_);
    mj_fullM(m_, dense_.data(), d_->qM);
    coordinates_->mass_matrix_from_mujoco(*q_, dense_.data(), M_);
    return M_;
  }
  const Vector& aba(const Vector& tau) override {
    coordinates_->force_to_mujoco(*q_, tau, d_->qfrc_applied);
    mj_forward(m_, d_);
    coordinates_->acceleration_from_mujoco(*q_, *v_, d_->qacc, qdd_);
    return qdd_;
  }
  const Matrix& jacobian() override {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    eom::frame_placements(p_.model, eom_data_, *q_);
    const eom::Vec3 point = eom_data_.oMf[p_.tip].p;
    mj_jac(m_, d_, jacp_.data(), jacr_.data(), point.data(), tip_body_);
    coordinates_->jacobian_from_mujoco(*q_, jacp_.data(), 3, J_.topRows<3>());
    coordinates_->jacobian_from_mujoco(*q_, jacr_.data(), 3, J_.bottomRows<3>());
    return J_;
  }

 private:
  const Problem& p_;
  eom::Data eom_data_;  // only for the Jacobian's point
  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  std::unique_ptr<eom::test::MujocoCoordinates> coordinates_;
  int tip_body_ = 0;
  const Vector* q_ = nullptr;
  const Vector* v_ = nullptr;
  Vector tau_, qdd_;
  Matrix M_, J_;
  std::vector<mjtNum> dense_, jacp_, jacr_, result_;
};
#endif

#ifdef EOM_HAVE_DART
// DART loads the URDF with its own loader, the root fixed to the world; joint damping, friction
// and springs are zeroed (eom's rnea and aba have none). Generalized coordinates are permuted by
// joint name; DART's Jacobians put the angular rows first.
class DartEngine final : public Engine {
 public:
  explicit DartEngine(const Problem& p) {
    dart::utils::DartLoader::Options options;
    options.mDefaultRootJointType = dart::utils::DartLoader::RootJointType::FIXED;
    dart::utils::DartLoader loader(options);
    skeleton_ = loader.parseSkeleton(dart::common::Uri::createFromPath(p.stripped_urdf));
    if (!skeleton_) {
      std::fprintf(stderr, "bench_engines: DART cannot load %s\n", p.stripped_urdf.c_str());
      std::exit(1);
    }
    const int nv = p.model.nv;
    if (static_cast<int>(skeleton_->getNumDofs()) != nv) {
      std::fprintf(stderr, "bench_engines: DART has %zu dofs, eom %d\n", skeleton_->getNumDofs(),
                   nv);
      std::exit(1);
    }
    skeleton_->setGravity(p.model.gravity);
    index_.resize(nv);
    for (int i = 1; i < p.model.njoints; ++i) {
      dart::dynamics::Joint* joint = skeleton_->getJoint(p.model.joint_names[i]);
      if (!joint) {
        std::fprintf(stderr, "bench_engines: DART has no joint %s\n",
                     p.model.joint_names[i].c_str());
        std::exit(1);
      }
      index_[p.model.joints[i].idx_v] = static_cast<int>(joint->getIndexInSkeleton(0));
    }
    for (std::size_t k = 0; k < skeleton_->getNumDofs(); ++k) {
      dart::dynamics::DegreeOfFreedom* dof = skeleton_->getDof(k);
      dof->setDampingCoefficient(0);
      dof->setCoulombFriction(0);
      dof->setSpringStiffness(0);
    }
    // the body of the tip's supporting joint, and the tip's origin in that body: eom places a
    // frame in its joint's frame, which for a URDF joint is the child link's, DART's body frame
    const int joint = supporting_joint(p.model, p.tip);
    body_ = skeleton_->getJoint(p.model.joint_names[joint])->getChildBodyNode();
    offset_ = p.model.frames[p.tip].placement.p;
    x_.resize(nv);
    out_.resize(nv);
    M_.resize(nv, nv);
    J_.resize(6, nv);
  }
  void set_state(const Vector& q, const Vector& v) override {
    skeleton_->setPositions(scatter(q));
    skeleton_->setVelocities(scatter(v));
  }
  const Vector& rnea(const Vector& a) override {
    skeleton_->setAccelerations(scatter(a));
    skeleton_->computeInverseDynamics(false, false, false);
    return gather(skeleton_->getForces());
  }
  const Matrix& crba() override {
    const Eigen::MatrixXd& M = skeleton_->getMassMatrix();
    for (int r = 0; r < M_.rows(); ++r) {
      for (int c = 0; c < M_.cols(); ++c) M_(r, c) = M(index_[r], index_[c]);
    }
    return M_;
  }
  const Vector& aba(const Vector& tau) override {
    skeleton_->setForces(scatter(tau));
    skeleton_->computeForwardDynamics();
    return gather(skeleton_->getAccelerations());
  }
  const Matrix& jacobian() override {
    // (the Skeleton's form: one column per dof of the skeleton, not only the body's own)
    const dart::math::Jacobian J = skeleton_->getWorldJacobian(body_, offset_);
    for (int k = 0; k < J_.cols(); ++k) {
      J_.block<3, 1>(0, k) = J.block<3, 1>(3, index_[k]);
      J_.block<3, 1>(3, k) = J.block<3, 1>(0, index_[k]);
    }
    return J_;
  }

 private:
  const Vector& scatter(const Vector& x) {
    for (int k = 0; k < x.size(); ++k) x_[index_[k]] = x[k];
    return x_;
  }
  const Vector& gather(const Eigen::VectorXd& dart_order) {
    for (int k = 0; k < out_.size(); ++k) out_[k] = dart_order[index_[k]];
    return out_;
  }

  dart::dynamics::SkeletonPtr skeleton_;
  dart::dynamics::BodyNode* body_ = nullptr;
  Eigen::Vector3d offset_;
  std::vector<int> index_;  // eom coordinate -> DART dof
  Vector x_, out_;
  Matrix M_, J_;
};
#endif

const std::vector<const char*>& engine_names() {
  static const std::vector<const char*> names = {
      "eom",
#ifdef EOM_HAVE_MUJOCO
      "mujoco",
#endif
#ifdef EOM_HAVE_DART
      "dart",
#endif
  };
  return names;
}

std::unique_ptr<Engine> make_engine(const std::string& name, const Problem& p) {
#ifdef EOM_HAVE_MUJOCO
  if (name == "mujoco") return std::make_unique<MujocoEngine>(p);
#endif
#ifdef EOM_HAVE_DART
  if (name == "dart") return std::make_unique<DartEngine>(p);
#endif
  return std::make_unique<EomEngine>(p);
}

const Problem& problem(int robot) {
  static std::vector<std::unique_ptr<Problem>> problems = [] {
    std::vector<std::unique_ptr<Problem>> out;
    for (const Robot& r : kRobots) out.push_back(std::make_unique<Problem>(r));
    return out;
  }();
  return *problems[robot];
}

double relative_error(const Matrix& x, const Matrix& reference) {
  return (x - reference).cwiseAbs().maxCoeff() / std::max(1.0, reference.cwiseAbs().maxCoeff());
}

// Every engine gives eom's answers, or the comparison is meaningless: exits 1 naming what differs.
void check_agreement(const Robot& robot, const Problem& p) {
  EomEngine reference(p);
  for (const char* name : engine_names()) {
    if (std::string(name) == "eom") continue;
    const std::unique_ptr<Engine> engine = make_engine(name, p);
    double worst = 0;
    const char* what = "";
    auto track = [&](double e, const char* quantity) {
      if (!(e <= worst)) worst = e, what = quantity;
    };
    for (int k = 0; k < kStates; ++k) {
      reference.set_state(p.q[k], p.v[k]);
      engine->set_state(p.q[k], p.v[k]);
      track(relative_error(engine->rnea(p.a[k]), reference.rnea(p.a[k])), "rnea");
      track(relative_error(engine->crba(), reference.crba()), "crba");
      // forward dynamics by its normwise backward error ||M qdd + h - tau|| / (||M|| ||qdd|| +
      // ||h|| + ||tau||) (Higham, Accuracy and Stability of Numerical Algorithms, 7.1), since the
      // forward error of any method grows with M's condition number (light fingers, wrists)
      const Vector qdd = engine->aba(p.a[k]);
      const Vector residual = reference.rnea(qdd) - p.a[k];
      const double M = reference.crba().cwiseAbs().rowwise().sum().maxCoeff();
      const double h = (reference.rnea(Vector::Zero(qdd.size()))).cwiseAbs().maxCoeff();
      track(residual.cwiseAbs().maxCoeff() /
                (M * qdd.cwiseAbs().maxCoeff() + h + p.a[k].cwiseAbs().maxCoeff()),
            "aba (backward error)");
      track(relative_error(engine->jacobian(), reference.jacobian()), "frame_jacobian");
    }
    std::printf("%-8s %-7s nv=%d  largest difference from eom %.1e (relative, %s)\n", robot.name,
                name, p.model.nv, worst, what);
    // MuJoCo 2.2.2 diagonalises each body's inertia tensor with an iteration that stops early,
    // up to about 7e-7 relative from the URDF's tensor: its robots are that far from the file's
    const double tolerance = std::string(name) == "mujoco" ? 1e-6 : 1e-9;
    if (!(worst < tolerance)) {
      std::fprintf(stderr, "bench_engines: %s: %s and eom disagree on %s; not timing\n", robot.name,
                   name, what);
      std::exit(1);
    }
  }
}

void run(benchmark::State& state, int robot, const char* engine_name, Algorithm algorithm) {
  const Problem& p = problem(robot);
  const std::unique_ptr<Engine> engine = make_engine(engine_name, p);
  int k = 0;
  for (auto _ : state) {
    engine->set_state(p.q[k], p.v[k]);
    switch (algorithm) {
      case Algorithm::rnea:
        benchmark::DoNotOptimize(engine->rnea(p.a[k]).data());
        break;
      case Algorithm::crba:
        benchmark::DoNotOptimize(engine->crba().data());
        break;
      case Algorithm::aba:
        benchmark::DoNotOptimize(engine->aba(p.a[k]).data());  // the a states serve as torques
        break;
      case Algorithm::jacobian:
        benchmark::DoNotOptimize(engine->jacobian().data());
        break;
    }
    benchmark::ClobberMemory();
    k = (k + 1) % kStates;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (engine_names().size() == 1) {
    std::printf("bench_engines: built without MuJoCo and DART: nothing to compare\n");
    return 0;
  }
  for (size_t r = 0; r < std::size(kRobots); ++r) check_agreement(kRobots[r], problem(int(r)));
  // the engines alternate per robot and algorithm, so that a change of load hits all alike
  for (size_t r = 0; r < std::size(kRobots); ++r) {
    for (int alg = 0; alg < 4; ++alg) {
      for (const char* engine : engine_names()) {
        const std::string name =
            std::string(engine) + "/" + kAlgorithmNames[alg] + "/" + kRobots[r].name;
        benchmark::RegisterBenchmark(name.c_str(), run, int(r), engine, Algorithm(alg));
      }
    }
  }
  const std::map<std::string, double> median_ns = eom::bench::run_with_medians(argc, argv);
  if (median_ns.empty()) return 0;
  std::printf("\nmedian CPU ns per call, same process; ratio: the engine's time / eom's\n");
  std::printf("%-8s %-15s %9s", "robot", "algorithm", "eom");
  for (const char* engine : engine_names()) {
    if (std::string(engine) != "eom") std::printf(" %9s %7s", engine, "ratio");
  }
  std::printf("\n");
  for (const Robot& robot : kRobots) {
    for (const char* alg : kAlgorithmNames) {
      const std::string key = std::string("/") + alg + "/" + robot.name;
      const auto e = median_ns.find("eom" + key);
      if (e == median_ns.end()) continue;
      std::printf("%-8s %-15s %9.0f", robot.name, alg, e->second);
      for (const char* engine : engine_names()) {
        if (std::string(engine) == "eom") continue;
        const auto other = median_ns.find(engine + key);
        if (other == median_ns.end()) continue;
        std::printf(" %9.0f %7.2f", other->second, other->second / e->second);
      }
      std::printf("\n");
    }
  }
  return 0;
}
