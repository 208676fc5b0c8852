// Per-call time of the joint torque regressor beside rnea in the same run (issue 36 asks for at
// most 2.5 rnea on a 7-dof arm), on the 64 random states of robots.hpp. Run:
// build/bench/bench_regressor --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/regressor.hpp>
#include <eom/multibody/data.hpp>

#include "robots.hpp"

namespace {

using namespace eom::bench;

const Robot kRegressorRobots[] = {kIiwa14, kPanda, kUr5, kSolo12Floating};

enum class RegressorWork { rnea, regressor, regressor_with_friction };

void run_regressor(benchmark::State& state, const Robot& robot, RegressorWork work) {
  const eom::Model model = load(robot);
  eom::Data data(model);
  eom::DriveParameters drive;
  if (work == RegressorWork::regressor_with_friction) drive.viscous = drive.coulomb = true;
  Eigen::MatrixXd Y(model.nv, eom::regressor_columns(model, drive));
  const States states(model, 2);
  int k = 0;
  for (auto _ : state) {
    const Eigen::VectorXd& q = states.q[k];
    const auto v = states.dq[k].col(0), a = states.dq[k].col(1);
    if (work == RegressorWork::rnea) {
      benchmark::DoNotOptimize(eom::rnea(model, data, q, v, a).data());
    } else {
      eom::joint_torque_regressor(model, data, q, v, a, Y, drive);
      benchmark::DoNotOptimize(Y.data());
    }
    k = (k + 1) % States::kCount;
  }
  state.SetLabel(sizes(model) + " columns=" + std::to_string(Y.cols()));
}

const int kRegressorRegistered = [] {
  const std::pair<const char*, RegressorWork> works[] = {
      {"rnea/", RegressorWork::rnea},
      {"regressor/", RegressorWork::regressor},
      {"regressor_friction/", RegressorWork::regressor_with_friction}};
  for (const Robot& r : kRegressorRobots) {
    for (const auto& [prefix, work] : works) {
      benchmark::RegisterBenchmark((std::string(prefix) + r.name).c_str(), run_regressor, r, work);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
