// Per-call time of the Müller-Kumar closed form (closed_form_dynamics) at orders K = 0, 1, 2,
// beside eom's rnea in the same run, on the serial arms iiwa and UR5. Run:
// build/bench/bench_closed_form --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <eom/closed_form.hpp>
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
};

const Robot kRobots[] = {
    {"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf"},
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf"},
};

// order -1 stands for rnea
void run(benchmark::State& state, const Robot& robot, int order) {
  const eom::Model model = eom::load_urdf(robot.path);
  eom::Data data(model);
  eom::ClosedFormData cf(model);
  eom::Rng rng(42);
  // a fixed set of random states, cycled, so branch predictors see realistic variety
  constexpr int kStates = 64;
  std::vector<Eigen::VectorXd> q, v, a, d3q, d4q;
  for (int k = 0; k < kStates; ++k) {
    q.push_back(eom::random_configuration(model, rng));
    v.push_back(eom::random_tangent(model, rng));
    a.push_back(eom::random_tangent(model, rng));
    d3q.push_back(eom::random_tangent(model, rng));
    d4q.push_back(eom::random_tangent(model, rng));
  }
  int k = 0;
  for (auto _ : state) {
    if (order < 0) {
      benchmark::DoNotOptimize(eom::rnea(model, data, q[k], v[k], a[k]).data());
    } else {
      eom::closed_form_dynamics(model, cf, q[k], v[k], a[k], d3q[k], d4q[k], order);
      benchmark::DoNotOptimize(cf.tau.data());
      benchmark::DoNotOptimize(cf.d2tau.data());
    }
    k = (k + 1) % kStates;
  }
  state.SetLabel("nv=" + std::to_string(model.nv));
}

const int kRegistered = [] {
  for (const Robot& r : kRobots) {
    benchmark::RegisterBenchmark((std::string("rnea/") + r.name).c_str(), run, r, -1);
    for (int order = 0; order <= 2; ++order) {
      benchmark::RegisterBenchmark(
          ("closed_form/K" + std::to_string(order) + "/" + r.name).c_str(), run, r, order);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
