// Per-call time of rnea_time_derivatives for orders 1 to 6, with rnea in the same run as the
// yardstick (the targets: d1tau at most 3 and d2tau at most 6 rnea calls).
// Run: build/bench/bench_time_derivatives --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <eom/configuration.hpp>
#include <eom/data.hpp>
#include <eom/dynamics.hpp>
#include <eom/time_derivatives.hpp>
#include <eom/urdf.hpp>

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

struct Robot {
  const char* name;
  const char* path;
  bool floating_base;
};

const Robot kRobots[] = {
    {"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf", false},
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", false},
    {"talos_left_arm", EOM_SOURCE_DIR "/tests/data/robots/talos_left_arm.urdf", false},
    {"anymal_floating", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", true},
};

constexpr int kTopOrder = 6;

// order -1 is rnea itself
void run(benchmark::State& state, const Robot& robot, int order) {
  eom::UrdfOptions options;
  options.floating_base = robot.floating_base;
  const eom::Model model = eom::load_urdf(robot.path, options);
  eom::Data data(model);
  eom::TimeDerivativeData series(model, kTopOrder);
  eom::Rng rng(42);
  // a fixed set of random states, cycled, so branch predictors see realistic variety
  constexpr int kStates = 64;
  std::vector<Eigen::VectorXd> q;
  std::vector<Eigen::MatrixXd> dq;
  for (int k = 0; k < kStates; ++k) {
    q.push_back(eom::random_configuration(model, rng));
    dq.emplace_back(model.nv, kTopOrder + 2);
    for (int c = 0; c < kTopOrder + 2; ++c) dq.back().col(c) = eom::random_tangent(model, rng);
  }
  Eigen::MatrixXd tau(model.nv, kTopOrder + 1);
  int k = 0;
  for (auto _ : state) {
    if (order < 0) {
      benchmark::DoNotOptimize(eom::rnea(model, data, q[k], dq[k].col(0), dq[k].col(1)).data());
    } else {
      eom::rnea_time_derivatives(model, series, q[k], dq[k], order, tau);
      benchmark::DoNotOptimize(tau.data());
    }
    benchmark::ClobberMemory();
    k = (k + 1) % kStates;
  }
  state.SetLabel("nq=" + std::to_string(model.nq) + " nv=" + std::to_string(model.nv));
}

const int kRegistered = [] {
  for (const Robot& r : kRobots) {
    const std::string n = r.name;
    benchmark::RegisterBenchmark(("rnea/" + n).c_str(), run, r, -1);
    for (int order = 0; order <= kTopOrder; ++order) {
      benchmark::RegisterBenchmark(
          ("time_derivatives/" + n + "/order:" + std::to_string(order)).c_str(), run, r, order);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
