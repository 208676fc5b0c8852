// Per-row cost of the contact dynamics of eom id --contacts and eom fd --contacts on quadrupeds
// standing on four point feet and a biped on two flat (6d) feet, beside rnea and aba in the same
// run (issue 22 asks for at most 3 rnea and 4 aba). Run: build/bench/bench_contacts --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/data.hpp>

#include "robots.hpp"

namespace {

using namespace eom::bench;

struct Stance {
  Robot robot;
  std::vector<std::string> feet;
  eom::ContactKind kind = eom::ContactKind::point;
};

const Stance kStances[] = {
    {kSolo12Floating, {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}},
    {kAnymalFloating, {"LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"}},
    {kBipedFloating, {"left_sole_link", "right_sole_link"}, eom::ContactKind::frame},
};

enum class Work { rnea, aba, id_min_norm, id_min_torque, fd };

void run(benchmark::State& state, const Stance& stance, Work work) {
  const eom::Model model = load(stance.robot);
  eom::ContactSet feet;
  for (const std::string& foot : stance.feet) {
    eom::add_contact(model, model.require_frame(foot), stance.kind, eom::Vec3::UnitZ(), feet);
  }
  eom::Data data(model);
  eom::ContactInverseDynamics min_norm(model, feet, eom::ContactForceRule::min_norm);
  eom::ContactInverseDynamics min_torque(model, feet, eom::ContactForceRule::min_torque);
  eom::ContactForwardDynamics fd(model, feet);
  const States states(model, 2);
  int k = 0;
  for (auto _ : state) {
    const Eigen::VectorXd& q = states.q[k];
    const auto v = states.dq[k].col(0), a = states.dq[k].col(1);
    switch (work) {
      case Work::rnea:
        benchmark::DoNotOptimize(eom::rnea(model, data, q, v, a).data());
        break;
      case Work::aba:
        benchmark::DoNotOptimize(eom::aba(model, data, q, v, a).data());
        break;
      case Work::id_min_norm:
        // a row of eom id --contacts: rnea, then the contact forces and torques, the contact
        // Jacobians from the placements rnea left in data
        min_norm.solve(data, eom::rnea(model, data, q, v, a));
        benchmark::DoNotOptimize(min_norm.torques().data());
        break;
      case Work::id_min_torque:
        min_torque.solve(data, eom::rnea(model, data, q, v, a));
        benchmark::DoNotOptimize(min_torque.torques().data());
        break;
      case Work::fd:
        fd.solve(q, v, a);  // a as the torques
        benchmark::DoNotOptimize(fd.accelerations().data());
        break;
    }
    k = (k + 1) % States::kCount;
  }
  state.SetLabel(sizes(model));
}

const int kRegistered = [] {
  const std::pair<const char*, Work> works[] = {{"rnea/", Work::rnea},
                                                {"contact_id_min_norm/", Work::id_min_norm},
                                                {"contact_id_min_torque/", Work::id_min_torque},
                                                {"aba/", Work::aba},
                                                {"contact_fd/", Work::fd}};
  for (const Stance& stance : kStances) {
    for (const auto& [name, work] : works) {
      benchmark::RegisterBenchmark((std::string(name) + stance.robot.name).c_str(), run, stance,
                                   work);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
