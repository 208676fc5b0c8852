// The times a run reports at (OutputTimes, simulate.hpp) and the resolution of its clock.
#include <algorithm>
#include <cmath>

#include "core/tolerances.hpp"
#include "eom/core/errors.hpp"
#include "eom/solvers/simulate.hpp"
#include "solvers/time_text.hpp"

namespace eom {

// A step must move the time by many of its last digits: near t = 1e12 s a double resolves only
// 1.2e-4 s, so a 1e-9 s step would leave t where it is (and a run would never end), and one of a
// few resolution units would land far from where it should. 2^10 units keep each step exact to
// 0.1 %.
void check_time_resolution(double t0, double t_end, double step) {
  const double far = std::max(std::abs(t0), std::abs(t_end));
  const double resolution = std::nextafter(far, INFINITY) - far;
  if (step < 1024 * resolution) {
    throw InputError("the time step " + time_string(step) + " s is too fine for times near " +
                     time_string(far) + " s, where a double resolves only " +
                     time_string(resolution) +
                     " s: count the time from nearer 0, or shorten the run");
  }
}

namespace {

// The integers a double holds exactly: up to 2^53.
constexpr double kExactIntegers = 9007199254740992.0;

// The fewest decimal places of x (the places of its shortest text: 2 for 0.01), or -1 when x is
// no whole number of 10^-22 (the largest power of ten a double holds exactly) below 2^53.
int decimal_places(double x) {
  double units = 1;
  for (int places = 0; places <= 22; ++places, units *= 10) {
    const double whole = std::round(x * units);
    if (std::abs(whole) > kExactIntegers) return -1;
    if (whole / units == x) return places;
  }
  return -1;
}

}  // namespace

OutputTimes OutputTimes::grid(double t0, double duration, double step) {
  check_time_resolution(t0, t0 + duration, step);
  OutputTimes times;
  times.steps_ =
      static_cast<std::size_t>(std::floor(duration / step * (1 + detail::kStepCountRoundOff))) + 1;
  times.t0_ = t0;
  times.step_ = step;
  times.end_ = t0 + duration;
  const double last = t0 + static_cast<double>(times.steps_ - 1) * step;
  times.size_ = times.steps_ + (times.end_ - last > detail::kStepGridRoundOff * step ? 1 : 0);
  // the decimals of t0 and step: the grid in integers of 10^-places, while they stay exact
  const int t0_places = decimal_places(t0), step_places = decimal_places(step);
  if (t0_places < 0 || step_places < 0) return times;
  const double units = std::pow(10.0, std::max(t0_places, step_places));
  const double t0_units = std::round(t0 * units), step_units = std::round(step * units);
  if (std::abs(t0_units) + static_cast<double>(times.steps_) * std::abs(step_units) <=
      kExactIntegers) {
    times.units_ = units;
    times.t0_units_ = t0_units;
    times.step_units_ = step_units;
  }
  return times;
}

}  // namespace eom
