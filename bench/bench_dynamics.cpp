// Per-call time of rnea, crba, nonlinear_effects, aba and forward_dynamics_crba on shipped and
// reference robots, and of the four terms of eom id --terms: rnea, crba, gravity_torque and
// nonlinear_effects each on its own (terms_apart) and in DynamicsTerms (terms). Run: build/bench/bench_dynamics --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/dynamics_terms.hpp>

#include "robots.hpp"

namespace {

using namespace eom::bench;

const Robot kRobots[] = {kUr5,    kPanda,          kIiwa14,        kTalosLeftArm,
                         kAnymal, kAnymalFloating, kSolo12Floating};

enum class Algorithm { rnea, crba, nle, aba, fd_crba, terms_apart, terms };

void run(benchmark::State& state, const Robot& robot, Algorithm algorithm) {
  const eom::Model model = load(robot);
  eom::Data data(model);
  eom::DynamicsTerms terms(model);
  const States states(model, 2);
  int k = 0;
  for (auto _ : state) {
    const Eigen::VectorXd& q = states.q[k];
    const auto v = states.dq[k].col(0), a = states.dq[k].col(1);
    switch (algorithm) {
      case Algorithm::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q, v, a).data());
        break;
      case Algorithm::crba:
        benchmark::DoNotOptimize(eom::crba(model, data, q).data());
        break;
      case Algorithm::nle:
        benchmark::DoNotOptimize(eom::nonlinear_effects(model, data, q, v).data());
        break;
      case Algorithm::aba:
        benchmark::DoNotOptimize(eom::aba(model, data, q, v, a).data());
        break;
      case Algorithm::fd_crba:
        benchmark::DoNotOptimize(eom::forward_dynamics_crba(model, data, q, v, a).data());
        break;
      case Algorithm::terms_apart:
        benchmark::DoNotOptimize(eom::rnea(model, data, q, v, a).data());
        benchmark::DoNotOptimize(eom::crba(model, data, q).data());
        benchmark::DoNotOptimize(eom::gravity_torque(model, data, q).data());
        benchmark::DoNotOptimize(eom::nonlinear_effects(model, data, q, v).data());
        break;
      case Algorithm::terms:
        benchmark::DoNotOptimize(terms.compute(model, data, q, v, a).data());
        break;
    }
    k = (k + 1) % States::kCount;
  }
  state.SetLabel(sizes(model));
}

const int kRegistered = [] {
  for (const Robot& r : kRobots) {
    benchmark::RegisterBenchmark((std::string("rnea/") + r.name).c_str(), run, r, Algorithm::rnea);
    benchmark::RegisterBenchmark((std::string("crba/") + r.name).c_str(), run, r, Algorithm::crba);
    benchmark::RegisterBenchmark((std::string("nle/") + r.name).c_str(), run, r, Algorithm::nle);
    benchmark::RegisterBenchmark((std::string("aba/") + r.name).c_str(), run, r, Algorithm::aba);
    benchmark::RegisterBenchmark((std::string("fd_crba/") + r.name).c_str(), run, r,
                                 Algorithm::fd_crba);
    benchmark::RegisterBenchmark((std::string("terms_apart/") + r.name).c_str(), run, r,
                                 Algorithm::terms_apart);
    benchmark::RegisterBenchmark((std::string("terms/") + r.name).c_str(), run, r,
                                 Algorithm::terms);
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
