// eom beside Orocos KDL (Debian's liborocos-kdl-dev 1.5.1) in one process, on serial arms:
//   rnea            vs KDL ChainIdSolver_RNE::CartToJnt
//   crba            vs KDL ChainDynParam::JntToMass
//   aba             vs KDL ChainFdSolver_RNE::CartToJnt (KDL's forward dynamics is not an
//                      articulated-body algorithm: it builds M with JntToMass, the bias with RNE,
//                      and solves by LDL^T, O(n^2) to O(n^3))
//   frame_jacobian  vs KDL ChainJntToJacSolver::JntToJac (tip frame, world axes, tip origin)
// Both sides read the same 64 random states per arm. The KDL chain is built from eom's Model, and
// before timing the program checks that both give the same tau, M, qdd and J (1e-9 relative):
// a chain that does not match would compare different problems. At the end a table gives the
// median CPU ns of each and the ratio KDL / eom.
//
// Run: build/bench/bench_kdl --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/chainjnttojacsolver.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "median_reporter.hpp"

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

struct Arm {
  const char* name;
  const char* path;
  const char* tip;  // a link: the joints off the root-to-tip path are locked (made fixed)
};

const Arm kArms[] = {
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", "tool0"},
    {"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf", "iiwa_link_ee"},
    {"panda_arm", EOM_SOURCE_DIR "/robots/panda.urdf", "panda_hand_tcp"},
    {"talos_left_arm", EOM_SOURCE_DIR "/tests/data/robots/talos_left_arm.urdf",
     "wrist_left_ft_tool_link"},
};

// The arm as a serial chain: every joint not between the root and `tip` becomes fixed, so its
// links are merged into the body they hang from (the Panda's fingers into the hand) and both
// libraries see the same masses.
eom::Model serial_model(const Arm& arm) {
  eom::UrdfDescription urdf = eom::parse_urdf_file(arm.path);
  std::vector<bool> on_path(urdf.joints.size(), false);
  std::string link = arm.tip;
  for (bool found = true; found;) {
    found = false;
    for (size_t k = 0; k < urdf.joints.size(); ++k) {
      if (urdf.joints[k].child == link) {
        on_path[k] = found = true;
        link = urdf.joints[k].parent;
        break;
      }
    }
  }
  for (size_t k = 0; k < urdf.joints.size(); ++k) {
    if (!on_path[k]) urdf.joints[k].type = "fixed";
  }
  return eom::build_model(urdf);
}

KDL::Frame to_kdl(const eom::SE3& M) {
  const eom::Mat3& R = M.R;
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0),
                                  R(2, 1), R(2, 2)),
                    KDL::Vector(M.p.x(), M.p.y(), M.p.z()));
}

KDL::Vector to_kdl(const eom::Vec3& x) { return KDL::Vector(x.x(), x.y(), x.z()); }

// A KDL chain as kdl_parser builds one from a URDF: segment k holds joint k placed at its
// placement in the parent body (origin and axis in the parent's axes), its tip is the joint's
// frame at q = 0, and its inertia is body k's in that (tip) frame. A last fixed segment carries
// the tip frame, the Jacobian's point.
KDL::Chain kdl_chain(const eom::Model& model, int tip) {
  KDL::Chain chain;
  for (int i = 1; i < model.njoints; ++i) {
    const eom::Joint& j = model.joints[i];
    const eom::SE3& X = model.placement[i];
    const KDL::Joint joint(
        model.joint_names[i], to_kdl(X.p), to_kdl(eom::Vec3(X.R * j.axis)),
        j.kind == eom::JointKind::prismatic ? KDL::Joint::TransAxis : KDL::Joint::RotAxis);
    const eom::Inertia& I = model.inertia[i];
    const eom::Mat3& Ic = I.I_c;
    const KDL::RigidBodyInertia inertia(
        I.m, to_kdl(I.c),
        KDL::RotationalInertia(Ic(0, 0), Ic(1, 1), Ic(2, 2), Ic(0, 1), Ic(0, 2), Ic(1, 2)));
    chain.addSegment(KDL::Segment(model.joint_names[i], joint, to_kdl(X), inertia));
  }
  chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), to_kdl(model.frames[tip].placement)));
  return chain;
}

constexpr int kStates = 64;

// One arm in both libraries with the same random states (seed 42, as bench_dynamics).
struct Problem {
  eom::Model model;
  int tip = 0;
  KDL::Chain chain;
  std::vector<Eigen::VectorXd> q, v, a;
  std::vector<KDL::JntArray> kq, kv, ka;

  explicit Problem(const Arm& arm) : model(serial_model(arm)) {
    tip = model.require_frame(arm.tip);
    chain = kdl_chain(model, tip);
    eom::Rng rng(42);
    for (int k = 0; k < kStates; ++k) {
      q.push_back(eom::random_configuration(model, rng));
      v.push_back(eom::random_tangent(model, rng));
      a.push_back(eom::random_tangent(model, rng));
      kq.emplace_back(model.nv);
      kv.emplace_back(model.nv);
      ka.emplace_back(model.nv);
      kq.back().data = q.back();
      kv.back().data = v.back();
      ka.back().data = a.back();
    }
  }
};

const Problem& problem(int arm) {
  static std::vector<Problem> problems = [] {
    std::vector<Problem> out;
    for (const Arm& a : kArms) out.emplace_back(a);
    return out;
  }();
  return problems[arm];
}

double relative_error(const Eigen::MatrixXd& x, const Eigen::MatrixXd& reference) {
  return (x - reference).cwiseAbs().maxCoeff() / std::max(1.0, reference.cwiseAbs().maxCoeff());
}

// The same answers from both, or the comparison is meaningless: exits 1 naming what differs.
void check_agreement(const Arm& arm, const Problem& p) {
  eom::Data data(p.model);
  const unsigned n = p.chain.getNrOfJoints();
  const KDL::Vector gravity = to_kdl(p.model.gravity);
  KDL::ChainIdSolver_RNE id(p.chain, gravity);
  KDL::ChainDynParam dyn(p.chain, gravity);
  KDL::ChainFdSolver_RNE fd(p.chain, gravity);
  KDL::ChainJntToJacSolver jac(p.chain);
  KDL::Wrenches no_wrenches(p.chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray tau(n), qdd(n);
  KDL::JntSpaceInertiaMatrix M(n);
  KDL::Jacobian J(n);
  double worst = 0;
  const char* what = "";
  auto track = [&](double e, const char* name) {
    if (e > worst) worst = e, what = name;
  };
  for (int k = 0; k < kStates; ++k) {
    id.CartToJnt(p.kq[k], p.kv[k], p.ka[k], no_wrenches, tau);
    track(relative_error(eom::rnea(p.model, data, p.q[k], p.v[k], p.a[k]), tau.data), "rnea");
    dyn.JntToMass(p.kq[k], M);
    track(relative_error(eom::crba(p.model, data, p.q[k]), M.data), "crba");
    fd.CartToJnt(p.kq[k], p.kv[k], p.ka[k], no_wrenches, qdd);
    track(relative_error(eom::aba(p.model, data, p.q[k], p.v[k], p.a[k]), qdd.data), "aba");
    jac.JntToJac(p.kq[k], J);
    track(relative_error(eom::frame_jacobian(p.model, data, p.q[k], p.tip,
                                             eom::ReferenceFrame::local_world_aligned),
                         J.data),
          "frame_jacobian");
  }
  std::printf("%-15s nv=%u  largest eom-KDL difference %.1e (relative, %s)\n", arm.name, n, worst,
              what);
  if (!(worst < 1e-9)) {
    std::fprintf(stderr, "bench_kdl: %s: eom and KDL disagree on %s; not timing\n", arm.name, what);
    std::exit(1);
  }
}

enum class Algorithm { rnea, crba, aba, jacobian };
const char* const kAlgorithmNames[] = {"rnea", "crba", "aba", "frame_jacobian"};

void run_eom(benchmark::State& state, int arm, Algorithm algorithm) {
  const Problem& p = problem(arm);
  eom::Data data(p.model);
  int k = 0;
  for (auto _ : state) {
    switch (algorithm) {
      case Algorithm::rnea:
        benchmark::DoNotOptimize(eom::rnea(p.model, data, p.q[k], p.v[k], p.a[k]).data());
        break;
      case Algorithm::crba:
        benchmark::DoNotOptimize(eom::crba(p.model, data, p.q[k]).data());
        break;
      case Algorithm::aba:
        // the a states serve as torques
        benchmark::DoNotOptimize(eom::aba(p.model, data, p.q[k], p.v[k], p.a[k]).data());
        break;
      case Algorithm::jacobian:
        benchmark::DoNotOptimize(eom::frame_jacobian(p.model, data, p.q[k], p.tip,
                                                     eom::ReferenceFrame::local_world_aligned)
                                     .data());
        break;
    }
    k = (k + 1) % kStates;
  }
}

void run_kdl(benchmark::State& state, int arm, Algorithm algorithm) {
  const Problem& p = problem(arm);
  const unsigned n = p.chain.getNrOfJoints();
  const KDL::Vector gravity = to_kdl(p.model.gravity);
  KDL::ChainIdSolver_RNE id(p.chain, gravity);
  KDL::ChainDynParam dyn(p.chain, gravity);
  KDL::ChainFdSolver_RNE fd(p.chain, gravity);
  KDL::ChainJntToJacSolver jac(p.chain);
  const KDL::Wrenches no_wrenches(p.chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray out(n);
  KDL::JntSpaceInertiaMatrix M(n);
  KDL::Jacobian J(n);
  int k = 0;
  for (auto _ : state) {
    switch (algorithm) {
      case Algorithm::rnea:
        benchmark::DoNotOptimize(id.CartToJnt(p.kq[k], p.kv[k], p.ka[k], no_wrenches, out));
        break;
      case Algorithm::crba:
        benchmark::DoNotOptimize(dyn.JntToMass(p.kq[k], M));
        break;
      case Algorithm::aba:
        benchmark::DoNotOptimize(fd.CartToJnt(p.kq[k], p.kv[k], p.ka[k], no_wrenches, out));
        break;
      case Algorithm::jacobian:
        benchmark::DoNotOptimize(jac.JntToJac(p.kq[k], J));
        break;
    }
    benchmark::ClobberMemory();
    k = (k + 1) % kStates;
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (size_t arm = 0; arm < std::size(kArms); ++arm) check_agreement(kArms[arm], problem(arm));
  // eom and KDL alternate per arm and algorithm, so that a change of load hits both alike
  for (size_t arm = 0; arm < std::size(kArms); ++arm) {
    for (int alg = 0; alg < 4; ++alg) {
      const std::string name = std::string(kAlgorithmNames[alg]) + "/" + kArms[arm].name;
      benchmark::RegisterBenchmark(("eom/" + name).c_str(), run_eom, int(arm), Algorithm(alg));
      benchmark::RegisterBenchmark(("kdl/" + name).c_str(), run_kdl, int(arm), Algorithm(alg));
    }
  }
  const std::map<std::string, double> median_ns = eom::bench::run_with_medians(argc, argv);
  if (median_ns.empty()) return 0;
  std::printf("\nmedian CPU ns per call, same process (KDL's aba column: ChainFdSolver_RNE)\n");
  std::printf("%-15s %-15s %9s %9s %9s\n", "arm", "algorithm", "eom", "KDL", "KDL/eom");
  for (const Arm& arm : kArms) {
    for (const char* alg : kAlgorithmNames) {
      const std::string name = std::string(alg) + "/" + arm.name;
      const auto e = median_ns.find("eom/" + name);
      const auto k = median_ns.find("kdl/" + name);
      if (e == median_ns.end() || k == median_ns.end()) continue;
      std::printf("%-15s %-15s %9.0f %9.0f %9.2f\n", arm.name, alg, e->second, k->second,
                  k->second / e->second);
    }
  }
  return 0;
}
