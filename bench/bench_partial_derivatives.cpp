// Per-call time of rnea_derivatives, aba_derivatives and mass_matrix_inverse, with rnea in the same
// run as the yardstick (the targets are ratios to rnea: Pinocchio 3.7 takes about 3.5 rnea
// for computeRNEADerivatives and 5.3 for computeABADerivatives).
// Run: build/bench/bench_partial_derivatives --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/configuration.hpp>
#include <eom/data.hpp>
#include <eom/dynamics.hpp>
#include <eom/partial_derivatives.hpp>
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
    {"anymal_floating", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", true},
    {"solo12_floating", EOM_SOURCE_DIR "/robots/solo12.urdf", true},
};

enum class Algorithm { rnea, rnea_derivatives, aba_derivatives, minverse };

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
      case Algorithm::rnea_derivatives:
        eom::rnea_derivatives(model, data, q[k], v[k], a[k]);
        benchmark::DoNotOptimize(data.dtau_dq.data());
        break;
      case Algorithm::aba_derivatives:
        eom::aba_derivatives(model, data, q[k], v[k], a[k]);
        benchmark::DoNotOptimize(data.dqdd_dq.data());
        break;
      case Algorithm::minverse:
        benchmark::DoNotOptimize(eom::mass_matrix_inverse(model, data, q[k]).data());
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
    benchmark::RegisterBenchmark(("rnea/" + n).c_str(), run, r, Algorithm::rnea);
    benchmark::RegisterBenchmark(("rnea_derivatives/" + n).c_str(), run, r,
                                 Algorithm::rnea_derivatives);
    benchmark::RegisterBenchmark(("aba_derivatives/" + n).c_str(), run, r,
                                 Algorithm::aba_derivatives);
    benchmark::RegisterBenchmark(("mass_matrix_inverse/" + n).c_str(), run, r, Algorithm::minverse);
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
