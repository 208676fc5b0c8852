// Per-call time of rnea, crba, nonlinear_effects, aba and forward_dynamics_crba on shipped and
// reference robots. Run: build/bench/bench_dynamics --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/configuration.hpp>
#include <eom/data.hpp>
#include <eom/dynamics.hpp>
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
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", false},
    {"panda", EOM_SOURCE_DIR "/robots/panda.urdf", false},
    {"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf", false},
    {"talos_left_arm", EOM_SOURCE_DIR "/tests/data/robots/talos_left_arm.urdf", false},
    {"anymal", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", false},
    {"anymal_floating", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", true},
    {"solo12_floating", EOM_SOURCE_DIR "/robots/solo12.urdf", true},
};

enum class Algorithm { rnea, crba, nle, aba, fd_crba };

void run(benchmark::State& state, const Robot& robot, Algorithm algorithm) {
  eom::UrdfOptions options;
  options.floating_base = robot.floating_base;
  const eom::Model model = eom::load_urdf(robot.path, options);
  eom::Data data(model);
  eom::Rng rng(42);
  // a fixed set of random states, cycled, so branch predictors see realistic variety
  constexpr int kStates = 64;
  std::vector<Eigen::VectorXd> q, v, a;
  for (int k = 0; k < kStates; ++k) {
    q.push_back(eom::random_configuration(model, rng));
    v.push_back(eom::random_tangent(model, rng));
    a.push_back(eom::random_tangent(model, rng));
  }
  int k = 0;
  for (auto _ : state) {
    switch (algorithm) {
      case Algorithm::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q[k], v[k], a[k]).data());
        break;
      case Algorithm::crba:
        benchmark::DoNotOptimize(eom::crba(model, data, q[k]).data());
        break;
      case Algorithm::nle:
        benchmark::DoNotOptimize(eom::nonlinear_effects(model, data, q[k], v[k]).data());
        break;
      case Algorithm::aba:
        benchmark::DoNotOptimize(eom::aba(model, data, q[k], v[k], a[k]).data());
        break;
      case Algorithm::fd_crba:
        benchmark::DoNotOptimize(eom::forward_dynamics_crba(model, data, q[k], v[k], a[k]).data());
        break;
    }
    k = (k + 1) % kStates;
  }
  state.SetLabel("nq=" + std::to_string(model.nq) + " nv=" + std::to_string(model.nv));
}

const int kRegistered = [] {
  for (const Robot& r : kRobots) {
    benchmark::RegisterBenchmark((std::string("rnea/") + r.name).c_str(), run, r, Algorithm::rnea);
    benchmark::RegisterBenchmark((std::string("crba/") + r.name).c_str(), run, r, Algorithm::crba);
    benchmark::RegisterBenchmark((std::string("nle/") + r.name).c_str(), run, r, Algorithm::nle);
    benchmark::RegisterBenchmark((std::string("aba/") + r.name).c_str(), run, r, Algorithm::aba);
    benchmark::RegisterBenchmark((std::string("fd_crba/") + r.name).c_str(), run, r,
                                 Algorithm::fd_crba);
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
