#include "eom/solvers/simulation_setup.hpp"

#include <cmath>

namespace eom {

std::vector<int> coordinates_outside_limits(const Model& model, ConstVec q) {
  std::vector<int> outside;
  for (int i = 0; i < model.nq; ++i) {
    if (q[i] < model.lower_limit[i] || q[i] > model.upper_limit[i]) outside.push_back(i);
  }
  return outside;
}

std::vector<double> output_times(double t0, double duration, double step) {
  // the relative 1e-12 keeps a whole number of steps whole: 0.3 / 0.1 is 2.9999999999999996
  const long n = static_cast<long>(std::floor(duration / step * (1 + 1e-12)));
  std::vector<double> times;
  times.reserve(n + 2);
  for (long k = 0; k <= n; ++k) times.push_back(t0 + k * step);
  if (t0 + duration - times.back() > 1e-9 * step) times.push_back(t0 + duration);
  return times;
}

bool is_step_multiple(double output_dt, double dt) {
  const double ratio = output_dt / dt;
  return !(std::abs(ratio - std::round(ratio)) > 1e-9 * ratio);
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
