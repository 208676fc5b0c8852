// Per-call time of rnea_time_derivatives for orders 0 to 6 (and orders 0 to 2 with an external
// wrench on the last frame), of mass_coriolis_gravity_time_derivatives and of Mueller & Kumar's
// closed form (serial chains) for orders 0 to 2, of the Christoffel symbols (nv^3 numbers per
// call: the counter symbols/s), with rnea and crba in the same run as yardsticks (the issue's
// targets: d1tau at most 3 and d2tau at most 6 rnea calls).
// Run: build/bench/bench_time_derivatives --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true

#include <memory>

#include <benchmark/benchmark.h>

#include <eom/algorithm/christoffel.hpp>
#include <eom/algorithm/closed_form.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/time_derivatives.hpp>

#include "robots.hpp"

namespace {

using namespace eom::bench;

const Robot kRobots[] = {kIiwa14, kUr5, kTalosLeftArm, kAnymalFloating};

constexpr int kTopOrder = 6;

enum class Kind { rnea, crba, series, series_wrench, matrices, closed_form, christoffel };

void run(benchmark::State& state, const Robot& robot, Kind kind, int order) {
  const eom::Model model = load(robot);
  eom::Data data(model);
  eom::TimeDerivativeData series(model, kTopOrder);
  // the closed form covers serial chains on a fixed base only
  std::unique_ptr<eom::ClosedFormData> closed_form;
  if (kind == Kind::closed_form) closed_form = std::make_unique<eom::ClosedFormData>(model);
  const States states(model, kTopOrder + 2);
  // a wrench and its derivatives on the last frame, in world axes
  const std::vector<int> frames = {static_cast<int>(model.frames.size()) - 1};
  const Eigen::MatrixXd wrench = Eigen::MatrixXd::Random(6, kTopOrder + 1);
  Eigen::MatrixXd tau(model.nv, kTopOrder + 1);
  Eigen::MatrixXd gamma(kind == Kind::christoffel ? model.nv * model.nv : 0, model.nv);
  int k = 0;
  for (auto _ : state) {
    const Eigen::VectorXd& q = states.q[k];
    const Eigen::MatrixXd& dq = states.dq[k];
    switch (kind) {
      case Kind::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q, dq.col(0), dq.col(1)).data());
        break;
      case Kind::crba:
        benchmark::DoNotOptimize(eom::crba(model, data, q).data());
        break;
      case Kind::series:
        eom::rnea_time_derivatives(model, series, q, dq, order, tau);
        benchmark::DoNotOptimize(tau.data());
        break;
      case Kind::series_wrench:
        eom::rnea_time_derivatives(model, series, q, dq, order, frames, wrench,
                                   eom::ReferenceFrame::local_world_aligned, tau);
        benchmark::DoNotOptimize(tau.data());
        break;
      case Kind::matrices:
        eom::mass_coriolis_gravity_time_derivatives(model, series, q, dq, order);
        benchmark::DoNotOptimize(series.C[0].data());
        break;
      case Kind::closed_form:
        eom::closed_form_dynamics(model, *closed_form, q, dq.col(0), dq.col(1), dq.col(2),
                                  dq.col(3), order);
        benchmark::DoNotOptimize(closed_form->tau.data());
        break;
      case Kind::christoffel:
        eom::christoffel_symbols(model, series, q, gamma);
        benchmark::DoNotOptimize(gamma.data());
        break;
    }
    benchmark::ClobberMemory();
    k = (k + 1) % States::kCount;
  }
  state.SetLabel(sizes(model));
  if (kind == Kind::christoffel) {
    state.counters["symbols/s"] = benchmark::Counter(
        static_cast<double>(gamma.size()) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
  }
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
      benchmark::RegisterBenchmark(("matrices/" + n + "/order:" + std::to_string(order)).c_str(),
                                   run, r, Kind::matrices, order);
    }
    benchmark::RegisterBenchmark(("christoffel/" + n).c_str(), run, r, Kind::christoffel, 0);
    for (int order = 0; order <= 2 && !r.floating_base; ++order) {
      benchmark::RegisterBenchmark(("closed_form/" + n + "/order:" + std::to_string(order)).c_str(),
                                   run, r, Kind::closed_form, order);
    }
  }
  // Christoffel symbols also on a larger tree: cost per symbol against nv
  benchmark::RegisterBenchmark("christoffel/baxter", run, kBaxter, Kind::christoffel, 0);
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
