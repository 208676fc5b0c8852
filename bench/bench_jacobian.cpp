// Per-call time of one frame's Jacobian (O(depth of the frame) against the whole-tree forward
// kinematics it replaced), its time variation, the Jacobian plus singularity report (full, and
// the singular values alone), task-space
// dynamics, and rnea as the same-run yardstick.
// Run: build/bench/bench_jacobian --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/singular.hpp>
#include <eom/algorithm/task_space.hpp>
#include <eom/parsers/urdf.hpp>

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

struct Robot {
  const char* name;
  const char* path;
  bool floating_base;
  const char* frame;  // a tip frame
};

const Robot kRobots[] = {
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", false, "tool0"},
    {"panda", EOM_SOURCE_DIR "/robots/panda.urdf", false, "panda_hand_tcp"},
    {"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf", false, "iiwa_link_ee"},
    {"anymal", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", false, "RH_FOOT"},
    {"anymal_floating", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", true, "RH_FOOT"},
    {"solo12_floating", EOM_SOURCE_DIR "/robots/solo12.urdf", true, "HR_FOOT"},
};

enum class Work {
  jacobian,
  jacobian_full_fk,
  jacobian_dot,
  jacobian_svd,
  jacobian_values,  // the singular values alone (eom jac's report rows)
  task_space,
  rnea
};

void run(benchmark::State& state, const Robot& robot, Work work) {
  eom::LoadOptions options;
  options.floating_base = robot.floating_base;
  const eom::Model model = eom::load_urdf(robot.path, options);
  eom::Data data(model);
  const int frame = model.require_frame(robot.frame);
  eom::SingularityAnalysis analysis(model.nv);
  eom::TaskSpaceDynamics task_space(model);
  eom::Rng rng(42);
  // a fixed set of random states, cycled, so branch predictors see realistic variety
  constexpr int kStates = 64;
  std::vector<Eigen::VectorXd> q, v, a;
  for (int k = 0; k < kStates; ++k) {
    q.push_back(eom::random_configuration(model, rng));
    v.push_back(eom::random_tangent(model, rng));
    a.push_back(eom::random_tangent(model, rng));
  }
  const auto lwa = eom::ReferenceFrame::local_world_aligned;
  int k = 0;
  for (auto _ : state) {
    switch (work) {
      case Work::jacobian:
        benchmark::DoNotOptimize(eom::frame_jacobian(model, data, q[k], frame, lwa).data());
        break;
      case Work::jacobian_full_fk:
        eom::forward_kinematics(model, data, q[k]);
        benchmark::DoNotOptimize(eom::frame_jacobian(model, data, frame, lwa).data());
        break;
      case Work::jacobian_dot:
        benchmark::DoNotOptimize(
            eom::frame_jacobian_time_variation(model, data, q[k], v[k], frame, lwa).data());
        break;
      case Work::jacobian_svd:
        eom::frame_jacobian(model, data, q[k], frame, lwa);
        analysis.compute(data.J, lwa, data.oMf[frame]);
        benchmark::DoNotOptimize(analysis.manipulability());
        break;
      case Work::jacobian_values:
        eom::frame_jacobian(model, data, q[k], frame, lwa);
        analysis.compute_values(data.J);
        benchmark::DoNotOptimize(analysis.manipulability());
        break;
      case Work::task_space:
        task_space.compute(model, data, q[k], v[k], frame, lwa);
        benchmark::DoNotOptimize(task_space.inertia().data());
        break;
      case Work::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q[k], v[k], a[k]).data());
        break;
    }
    k = (k + 1) % kStates;
  }
  state.SetLabel("nv=" + std::to_string(model.nv) + " frame=" + robot.frame);
}

const int kRegistered = [] {
  const std::pair<const char*, Work> works[] = {{"jacobian", Work::jacobian},
                                                {"jacobian_full_fk", Work::jacobian_full_fk},
                                                {"jacobian_dot", Work::jacobian_dot},
                                                {"jacobian_svd", Work::jacobian_svd},
                                                {"jacobian_values", Work::jacobian_values},
                                                {"task_space", Work::task_space},
                                                {"rnea", Work::rnea}};
  for (const auto& [name, work] : works) {
    for (const Robot& r : kRobots) {
      benchmark::RegisterBenchmark((std::string(name) + "/" + r.name).c_str(), run, r, work);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
