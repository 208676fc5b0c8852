// Forward dynamics per call (aba, crba + Cholesky, with rnea as the yardstick) and simulation
// throughput: the iiwa for 60 s at 1 kHz with RK4 and output every 10 ms.
// Run: build/bench/bench_simulate --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/parsers/urdf.hpp>

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

const char* const kIiwa = EOM_SOURCE_DIR "/robots/iiwa14.urdf";

enum class Algorithm { rnea, aba, fd_crba };

void per_call(benchmark::State& state, Algorithm algorithm) {
  const eom::Model model = eom::load_urdf(kIiwa);
  eom::Data data(model);
  eom::Rng rng(42);
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
      case Algorithm::aba:
        benchmark::DoNotOptimize(eom::aba(model, data, q[k], v[k], a[k]).data());
        break;
      case Algorithm::fd_crba:
        benchmark::DoNotOptimize(eom::forward_dynamics_crba(model, data, q[k], v[k], a[k]).data());
        break;
    }
    k = (k + 1) % kStates;
  }
}

// 60 s at 1 kHz, RK4, computed-torque control to a set-point, output every 10 ms
void simulate_iiwa(benchmark::State& state) {
  const eom::Model model = eom::load_urdf(kIiwa);
  eom::Simulator sim(model);
  eom::Rng rng(1);
  const Eigen::VectorXd goal = eom::random_configuration(model, rng);
  eom::ComputedTorque control(model, eom::set_point(goal), Eigen::VectorXd::Constant(7, 100),
                              Eigen::VectorXd::Constant(7, 20));
  eom::ZeroTorque zero;
  const bool passive = state.range(0) == 0;
  eom::SimulationOptions options;
  options.integrator = eom::Integrator::rk4;
  options.dt = 1e-3;
  std::vector<double> times;
  for (int k = 0; k <= 6000; ++k) times.push_back(0.01 * k);
  double sink = 0;
  const eom::OutputFunction output = [&](double t, eom::ConstVec q, eom::ConstVec, eom::ConstVec,
                                         eom::ConstVec) { sink += t + q[0]; };
  const Eigen::VectorXd q0 = eom::neutral(model), v0 = Eigen::VectorXd::Zero(7);
  long steps = 0;
  for (auto _ : state) {
    eom::Controller& c = passive ? static_cast<eom::Controller&>(zero) : control;
    steps += sim.run(c, q0, v0, 0, 60.0, options, times, output).steps;
  }
  benchmark::DoNotOptimize(sink);
  state.counters["steps_per_s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
  state.SetLabel(passive ? "zero torque" : "computed torque");
}

}  // namespace

BENCHMARK_CAPTURE(per_call, rnea_iiwa14, Algorithm::rnea);
BENCHMARK_CAPTURE(per_call, aba_iiwa14, Algorithm::aba);
BENCHMARK_CAPTURE(per_call, fd_crba_iiwa14, Algorithm::fd_crba);
BENCHMARK(simulate_iiwa)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
