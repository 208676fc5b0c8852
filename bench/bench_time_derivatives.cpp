// Per-call time of rnea_time_derivatives for orders 0 to 6 (and orders 0 to 2 with an external
// wrench on the last frame), of mass_coriolis_gravity_time_derivatives for orders 0 to 2, with
// rnea and crba in the same run as yardsticks (the targets: d1tau at most 3 and d2tau
// at most 6 rnea calls).
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

enum class Kind { rnea, crba, series, series_wrench, matrices };

void run(benchmark::State& state, const Robot& robot, Kind kind, int order) {
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
  // a wrench and its derivatives on the last frame, in world axes
  const std::vector<int> frames = {static_cast<int>(model.frames.size()) - 1};
  const Eigen::MatrixXd wrench = Eigen::MatrixXd::Random(6, kTopOrder + 1);
  Eigen::MatrixXd tau(model.nv, kTopOrder + 1);
  int k = 0;
  for (auto _ : state) {
    switch (kind) {
      case Kind::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q[k], dq[k].col(0), dq[k].col(1)).data());
        break;
      case Kind::crba:
        benchmark::DoNotOptimize(eom::crba(model, data, q[k]).data());
        break;
      case Kind::series:
        eom::rnea_time_derivatives(model, series, q[k], dq[k], order, tau);
        benchmark::DoNotOptimize(tau.data());
        break;
      case Kind::series_wrench:
        eom::rnea_time_derivatives(model, series, q[k], dq[k], order, frames, wrench,
                                   eom::ReferenceFrame::local_world_aligned, tau);
        benchmark::DoNotOptimize(tau.data());
        break;
      case Kind::matrices:
        eom::mass_coriolis_gravity_time_derivatives(model, series, q[k], dq[k], order);
        benchmark::DoNotOptimize(series.C[0].data());
        break;
    }
    benchmark::ClobberMemory();
    k = (k + 1) % kStates;
  }
  state.SetLabel("nq=" + std::to_string(model.nq) + " nv=" + std::to_string(model.nv));
}

const int kRegistered = [] {
  for (const Robot& r : kRobots) {
    const std::string n = r.name;
    benchmark::RegisterBenchmark(("rnea/" + n).c_str(), run, r, Kind::rnea, 0);
    for (int order = 0; order <= kTopOrder; ++order) {
      benchmark::RegisterBenchmark(
          ("time_derivatives/" + n + "/order:" + std::to_string(order)).c_str(), run, r,
          Kind::series, order);
    }
    for (int order = 0; order <= 2; ++order) {
      benchmark::RegisterBenchmark(
          ("time_derivatives_wrench/" + n + "/order:" + std::to_string(order)).c_str(), run, r,
          Kind::series_wrench, order);
    }
    benchmark::RegisterBenchmark(("crba/" + n).c_str(), run, r, Kind::crba, 0);
    for (int order = 0; order <= 2; ++order) {
      benchmark::RegisterBenchmark(
          ("matrices/" + n + "/order:" + std::to_string(order)).c_str(), run, r, Kind::matrices,
          order);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
