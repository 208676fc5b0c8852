// Inverse kinematics: round-trip success rate and solve time per arm (the TRAC-IK benchmark
// protocol: random configurations within the limits, FK gives the target, IK from the mid-range
// seed within 5 ms must reach it to 1e-5 m and 1e-5 rad, inside the limits), eom beside Orocos
// KDL's NR_JL and LMA solvers when KDL is installed; then Google Benchmark timings of one solve and
// of rnea as a yardstick.
//
// Run: build/bench/bench_ik [--ik-samples=N] [--no-table] --benchmark_repetitions=5
//      --benchmark_report_aggregates_only=true

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/solvers/ik.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#ifdef EOM_HAVE_KDL
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#endif

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

struct Arm {
  const char* name;
  const char* path;
  const char* tip;
};

const Arm kArms[] = {
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", "tool0"},
    {"panda", EOM_SOURCE_DIR "/robots/panda.urdf", "panda_hand_tcp"},
    {"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf", "iiwa_link_ee"},
    {"kinova", EOM_SOURCE_DIR "/tests/data/robots/kinova.urdf", "j2s6s200_end_effector"},
    {"z1", EOM_SOURCE_DIR "/tests/data/robots/z1.urdf", "gripperStator"},
    {"talos_left_arm", EOM_SOURCE_DIR "/tests/data/robots/talos_left_arm.urdf",
     "wrist_left_ft_tool_link"},
};

constexpr double kTolerance = 1e-5;  // m and rad
constexpr double kTimeout = 5e-3;    // s per target

using Clock = std::chrono::steady_clock;

// CPU time of this thread in microseconds: on a shared machine wall time includes time the
// scheduler gave to others, so both are reported
double thread_cpu_us() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

// joints from the world to the tip frame, root first
std::vector<int> chain_joints(const eom::Model& model, int frame) {
  std::vector<int> out;
  for (int i = model.frames[frame].parent; i > 0; i = model.parent[i]) out.push_back(i);
  std::reverse(out.begin(), out.end());
  return out;
}

// mid-range of the limits (the protocol's nominal seed); neutral where unbounded
Eigen::VectorXd nominal(const eom::Model& model) {
  Eigen::VectorXd q = eom::neutral(model);
  for (int k = 0; k < model.nq; ++k) {
    if (std::isfinite(model.lower_limit[k]) && std::isfinite(model.upper_limit[k]))
      q[k] = 0.5 * (model.lower_limit[k] + model.upper_limit[k]);
  }
  return q;
}

bool within_limits(const eom::Model& model, const Eigen::VectorXd& q) {
  for (int k = 0; k < model.nq; ++k) {
    if (q[k] < model.lower_limit[k] || q[k] > model.upper_limit[k]) return false;
  }
  return true;
}

struct Problem {
  eom::Model model;
  int tip;
  std::vector<Eigen::VectorXd> q;  // the random configurations
  std::vector<eom::SE3> targets;   // their tip placements
};

Problem make_problem(const Arm& arm, int samples, std::uint64_t seed) {
  Problem p{eom::load_urdf(arm.path), 0, {}, {}};
  p.tip = p.model.require_frame(arm.tip);
  eom::Data data(p.model);
  eom::Rng rng(seed);
  for (int s = 0; s < samples; ++s) {
    p.q.push_back(eom::random_configuration(p.model, rng));
    eom::frame_placements(p.model, data, p.q.back());
    p.targets.push_back(data.oMf[p.tip]);
  }
  return p;
}

struct Row {
  int success = 0, total = 0;
  std::vector<double> times_us, cpu_us;  // successful solves: wall clock, thread CPU time
  static double median(std::vector<double>& v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
};

void print_row(const char* arm, const char* solver, Row& row) {
  std::printf("| %-15s | %-18s | %7.2f %% | %9.1f | %8.1f |\n", arm, solver,
              100.0 * row.success / std::max(1, row.total), Row::median(row.times_us),
              Row::median(row.cpu_us));
}

// timed: the protocol's 5 ms wall-clock budget decides; otherwise the default deterministic
// budget (IkOptions::max_total_iterations) and no clock
Row run_eom(const Problem& p, bool timed) {
  eom::IkSolver solver(p.model);
  eom::IkOptions options;
  options.position_tolerance = options.orientation_tolerance = kTolerance;
  if (timed) {
    options.timeout = kTimeout;
    options.max_total_iterations = 1 << 30;
    options.max_restarts = 1 << 30;
  } else {
    options.timeout = 0;
  }
  const Eigen::VectorXd seed = nominal(p.model);
  eom::IkProblem problem;
  problem.frame = p.tip;
  Row row;
  for (size_t s = 0; s < p.targets.size(); ++s) {
    problem.target = p.targets[s];
    options.random_seed = s;
    const double c0 = thread_cpu_us();
    const auto t0 = Clock::now();
    const eom::IkResult& r = solver.solve(problem, seed, options);
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    const double cpu = thread_cpu_us() - c0;
    ++row.total;
    if (r.converged() && r.position_error <= kTolerance && r.orientation_error <= kTolerance &&
        within_limits(p.model, r.q)) {
      ++row.success;
      row.times_us.push_back(us);
      row.cpu_us.push_back(cpu);
    }
  }
  return row;
}

#ifdef EOM_HAVE_KDL
KDL::Frame to_kdl(const eom::SE3& M) {
  const eom::Mat3& R = M.R;
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0),
                                  R(2, 1), R(2, 2)),
                    KDL::Vector(M.p.x(), M.p.y(), M.p.z()));
}

// a KDL chain from eom's joints and placements: a fixed segment to the first joint, then per
// joint a segment whose joint sits at its origin and whose tip is the next joint's placement
KDL::Chain kdl_chain(const eom::Model& model, int tip) {
  const std::vector<int> joints = chain_joints(model, tip);
  KDL::Chain chain;
  chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), to_kdl(model.placement[joints[0]])));
  for (size_t k = 0; k < joints.size(); ++k) {
    const eom::Joint& j = model.joints[joints[k]];
    const KDL::Vector axis(j.axis.x(), j.axis.y(), j.axis.z());
    const KDL::Joint joint(
        model.joint_names[joints[k]], KDL::Vector::Zero(), axis,
        j.kind == eom::JointKind::prismatic ? KDL::Joint::TransAxis : KDL::Joint::RotAxis);
    const eom::SE3 next =
        k + 1 < joints.size() ? model.placement[joints[k + 1]] : model.frames[tip].placement;
    chain.addSegment(KDL::Segment(joint, to_kdl(next)));
  }
  return chain;
}

enum class KdlSolver { nr_jl, lma };

Row run_kdl(const Problem& p, KdlSolver which) {
  const KDL::Chain chain = kdl_chain(p.model, p.tip);
  const std::vector<int> joints = chain_joints(p.model, p.tip);
  const unsigned n = chain.getNrOfJoints();
  KDL::JntArray lo(n), hi(n), seed(n), q(n), result(n);
  for (unsigned k = 0; k < n; ++k) {
    const int iq = p.model.joints[joints[k]].idx_q;
    lo(k) = std::isfinite(p.model.lower_limit[iq]) ? p.model.lower_limit[iq] : -M_PI;
    hi(k) = std::isfinite(p.model.upper_limit[iq]) ? p.model.upper_limit[iq] : M_PI;
    seed(k) = 0.5 * (lo(k) + hi(k));
  }
  KDL::ChainFkSolverPos_recursive fk(chain);
  KDL::ChainIkSolverVel_pinv vik(chain);
  // as TRAC-IK's benchmark: one NR_JL iteration per call, repeated until success or the timeout
  KDL::ChainIkSolverPos_NR_JL nr_jl(chain, lo, hi, fk, vik, 1, kTolerance);
  KDL::ChainIkSolverPos_LMA lma(chain, kTolerance, 500, 1e-15);
  Row row;
  for (size_t s = 0; s < p.targets.size(); ++s) {
    const KDL::Frame target = to_kdl(p.targets[s]);
    result = seed;
    int rc = -1;
    const double c0 = thread_cpu_us();
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
      q = result;
      rc = which == KdlSolver::nr_jl ? nr_jl.CartToJnt(q, target, result)
                                     : lma.CartToJnt(q, target, result);
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (rc < 0 && elapsed < kTimeout);
    ++row.total;
    if (rc >= 0) {
      ++row.success;
      row.times_us.push_back(elapsed * 1e6);
      row.cpu_us.push_back(thread_cpu_us() - c0);
    }
  }
  return row;
}
#endif

void print_table(int samples) {
  std::printf(
      "IK round trip: %d random configurations per arm, seed at mid-range, tolerance "
      "%g m / %g rad, timeout %g ms\n",
      samples, kTolerance, kTolerance, kTimeout * 1e3);
  std::printf("| %-15s | %-18s | %9s | %9s | %8s |\n", "arm", "solver", "success", "median us",
              "cpu us");
  std::printf("|-----------------|--------------------|-----------|-----------|----------|\n");
  for (const Arm& arm : kArms) {
    const Problem p = make_problem(arm, samples, 2024);
    Row eom_row = run_eom(p, true);
    print_row(arm.name, "eom (5 ms)", eom_row);
    Row eom_budget = run_eom(p, false);
    print_row(arm.name, "eom (5000 iter.)", eom_budget);
#ifdef EOM_HAVE_KDL
    Row nr = run_kdl(p, KdlSolver::nr_jl);
    print_row(arm.name, "KDL NR_JL", nr);
    Row lma = run_kdl(p, KdlSolver::lma);
    print_row(arm.name, "KDL LMA (no lim.)", lma);
#endif
    std::fflush(stdout);
  }
#ifndef EOM_HAVE_KDL
  std::printf("(KDL not found at configure time: install liborocos-kdl-dev for the comparison)\n");
#endif
}

// one IK solve per iteration (restarts included), cycling over fixed targets, seed at mid-range
void BM_ik(benchmark::State& state, const Arm& arm) {
  const Problem p = make_problem(arm, 64, 7);
  eom::IkSolver solver(p.model);
  eom::IkOptions options;
  options.position_tolerance = options.orientation_tolerance = kTolerance;
  options.timeout = 0;  // the default deterministic budget: a loaded machine changes no result
  const Eigen::VectorXd seed = nominal(p.model);
  eom::IkProblem problem;
  problem.frame = p.tip;
  size_t k = 0;
  long converged = 0, total = 0;
  for (auto _ : state) {
    problem.target = p.targets[k];
    converged += solver.solve(problem, seed, options).converged();
    ++total;
    k = (k + 1) % p.targets.size();
  }
  state.counters["success"] = double(converged) / std::max(1L, total);
}

void BM_rnea(benchmark::State& state, const Arm& arm) {
  const eom::Model model = eom::load_urdf(arm.path);
  eom::Data data(model);
  eom::Rng rng(42);
  const Eigen::VectorXd q = eom::random_configuration(model, rng);
  const Eigen::VectorXd v = eom::random_tangent(model, rng), a = eom::random_tangent(model, rng);
  for (auto _ : state) benchmark::DoNotOptimize(eom::rnea(model, data, q, v, a).data());
}

}  // namespace

int main(int argc, char** argv) {
  int samples = 1000;
  bool table = true;
  std::vector<char*> rest;
  for (int k = 0; k < argc; ++k) {
    if (std::strncmp(argv[k], "--ik-samples=", 13) == 0) {
      samples = std::atoi(argv[k] + 13);
    } else if (std::strcmp(argv[k], "--no-table") == 0) {
      table = false;
    } else {
      rest.push_back(argv[k]);
    }
  }
  if (table) print_table(samples);
  for (const Arm& arm : kArms) {
    benchmark::RegisterBenchmark((std::string("ik/") + arm.name).c_str(), BM_ik, arm);
    benchmark::RegisterBenchmark((std::string("rnea/") + arm.name).c_str(), BM_rnea, arm);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
