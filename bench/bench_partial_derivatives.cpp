// Per-call time of rnea_derivatives, aba_derivatives and mass_matrix_inverse, with rnea in the same
// run as the yardstick (the targets are ratios to rnea: Pinocchio 3.7 takes about 3.5 rnea
// for computeRNEADerivatives and 5.3 for computeABADerivatives).
// Run: build/bench/bench_partial_derivatives --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/partial_derivatives.hpp>

#include "robots.hpp"

namespace {

using namespace eom::bench;

const Robot kRobots[] = {kUr5, kPanda, kIiwa14, kAnymalFloating, kSolo12Floating};

enum class Algorithm { rnea, rnea_derivatives, aba_derivatives, minverse };

void run(benchmark::State& state, const Robot& robot, Algorithm algorithm) {
  const eom::Model model = load(robot);
  eom::Data data(model);
  const States states(model, 2);
  int k = 0;
  for (auto _ : state) {
    const Eigen::VectorXd& q = states.q[k];
    const auto v = states.dq[k].col(0), a = states.dq[k].col(1);
    switch (algorithm) {
      case Algorithm::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q, v, a).data());
        break;
      case Algorithm::rnea_derivatives:
        eom::rnea_derivatives(model, data, q, v, a);
        benchmark::DoNotOptimize(data.dtau_dq.data());
        break;
      case Algorithm::aba_derivatives:
        eom::aba_derivatives(model, data, q, v, a);
        benchmark::DoNotOptimize(data.dqdd_dq.data());
        break;
      case Algorithm::minverse:
        benchmark::DoNotOptimize(eom::mass_matrix_inverse(model, data, q).data());
        break;
    }
    benchmark::ClobberMemory();
    k = (k + 1) % States::kCount;
  }
  state.SetLabel(sizes(model));
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
