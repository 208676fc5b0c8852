// Around Simulator::run (simulate.hpp): the checks of an initial state, the output times of a
// run and the energy record of its summary.
#pragma once

#include <optional>
#include <vector>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The coordinates of q outside the model's position limits [lower_limit, upper_limit], in
/// order (an initial state there starts against a limit the simulation does not enforce).
std::vector<int> coordinates_outside_limits(const Model& model, ConstVec q);

/// Whether output_dt is a multiple of the fixed step dt (to a relative 1e-9); when it is not,
/// the fixed-step schemes shorten steps to land on every output time.
bool is_step_multiple(double output_dt, double dt);

/// The mechanical energy T + V at the first and last output rows of a run. Of passive
/// frictionless motion its change is the integrator's drift, relative to T(0) + |V(0)|: the
/// zero of V is arbitrary, so the scale is the energy in motion plus the potential's size.
struct EnergyRecord {
  long rows = 0;
  double initial = 0, scale = 0, last = 0;

  void add(double kinetic, double potential);
  double change() const { return last - initial; }
  /// change() / scale; none when the scale is 0 (at rest where V = 0).
  std::optional<double> relative_change() const;
};

}  // namespace eom
