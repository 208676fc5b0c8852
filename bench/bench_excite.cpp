// The cost of eom excite's optimisation: design_excitation on the shipped UR5 and iiwa14 with the
// options of doc/excite.md's examples (period 10 s, five harmonics, rest to rest, viscous and
// Coulomb columns; the iiwa14 at half its velocity limits and 3 rad/s^2), at 1 and at 201
// evaluations of the criterion. An evaluation is the stacked base regressor at
// excitation_samples(K) instants and its condition number (or log-determinant); the difference of
// the two times over 200 is the cost of one, the 1-evaluation time the setup (the base columns by
// a QR at random states, the starting guess). per_evaluation is the whole time over the
// evaluations. Run:
// build/bench/bench_excite --benchmark_repetitions=3 --benchmark_report_aggregates_only=true

#include <limits>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>

#include <eom/solvers/excitation.hpp>

#include "robots.hpp"

namespace {

using namespace eom::bench;

struct ExciteCase {
  const Robot& robot;
  double velocity_scale;
  double max_acceleration;  // infinity: none
};

const ExciteCase kExciteCases[] = {{kUr5, 1.0, std::numeric_limits<double>::infinity()},
                                   {kIiwa14, 0.5, 3.0}};

void run_excite(benchmark::State& state, const ExciteCase& c, eom::ExcitationCriterion criterion) {
  const eom::Model model = load(c.robot);
  eom::ExcitationLimits limits = eom::model_limits(model);
  limits.velocity *= c.velocity_scale;
  limits.acceleration.setConstant(c.max_acceleration);
  eom::ExcitationOptions options;
  options.drive.viscous = options.drive.coulomb = true;
  options.criterion = criterion;
  options.evaluations = static_cast<int>(state.range(0));
  int evaluations = 0, base = 0;
  for (auto _ : state) {
    const eom::Excitation excitation = eom::design_excitation(model, limits, options);
    benchmark::DoNotOptimize(excitation.condition);
    evaluations = excitation.evaluations;
    base = excitation.base_parameters;
  }
  state.counters["per_evaluation"] = benchmark::Counter(
      evaluations, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetLabel(sizes(model) + " base=" + std::to_string(base) +
                 " evaluations=" + std::to_string(evaluations));
}

const int kExciteRegistered = [] {
  const std::pair<const char*, eom::ExcitationCriterion> criteria[] = {
      {"excite_condition/", eom::ExcitationCriterion::condition},
      {"excite_d_optimal/", eom::ExcitationCriterion::d_optimal}};
  for (const ExciteCase& c : kExciteCases) {
    for (const auto& [prefix, criterion] : criteria) {
      benchmark::RegisterBenchmark((std::string(prefix) + c.robot.name).c_str(), run_excite, c,
                                   criterion)
          ->Arg(1)
          ->Arg(201)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
