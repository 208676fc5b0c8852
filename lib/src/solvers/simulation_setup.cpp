#include "eom/solvers/simulation_setup.hpp"

#include <cmath>

#include "core/tolerances.hpp"

namespace eom {

std::vector<int> coordinates_outside_limits(const Model& model, ConstVec q) {
  std::vector<int> outside;
  for (int i = 0; i < model.nq; ++i) {
    if (q[i] < model.lower_limit[i] || q[i] > model.upper_limit[i]) outside.push_back(i);
  }
  return outside;
}

bool is_step_multiple(double output_dt, double dt) {
  const double ratio = output_dt / dt;
  return !(std::abs(ratio - std::round(ratio)) > detail::kStepGridRoundOff * ratio);
}

void EnergyRecord::add(double kinetic, double potential) {
  if (rows++ == 0) {
    initial = kinetic + potential;
    scale = kinetic + std::abs(potential);
  }
  last = kinetic + potential;
}

std::optional<double> EnergyRecord::relative_change() const {
  if (!(scale > 0)) return std::nullopt;
  return (last - initial) / scale;
}

}  // namespace eom
