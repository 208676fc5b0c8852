// Excitation trajectories for dynamic parameter identification (eom excite): per joint a finite
// Fourier series (Swevers, Ganseman, Bilgin, De Schutter and Van Brussel 1997, "Optimal robot
// excitation and identification", IEEE Trans. Robotics and Automation 13(5)), kept within the
// joints' position, velocity and acceleration limits and optimised for the condition number (or
// the log-determinant) of the base regressor stacked over one period.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/regressor.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"
#include "eom/trajectory/joint_fill.hpp"

namespace eom {

/// Per excited coordinate j, with w = 2 pi / period and l = 1 .. K:
///   v_j(t) = sum_l a_jl cos(l w t) + b_jl sin(l w t)
///   q_j(t) = q0_j + sum_l (a_jl sin(l w t) - b_jl cos(l w t)) / (l w)
///   a_j(t) = sum_l l w (b_jl cos(l w t) - a_jl sin(l w t))
/// (Swevers et al. 1997, eq. 9), so v and a are the exact derivatives of q and the motion repeats
/// every period. A mimic follower moves with its leader (q = multiplier q_leader + offset); the
/// model's other coordinates stay at their neutral values.
struct FourierTrajectory {
  double period = 1;
  std::vector<int> coordinates;      // the excited velocity coordinates (1-DoF joints), ascending
  Eigen::VectorXd offset;            // q0_j (coordinates.size())
  Eigen::MatrixXd a, b;              // (coordinates.size() x K)
  std::vector<JointFill> followers;  // the mimic followers, a leader before its followers

  int harmonics() const { return static_cast<int>(a.cols()); }
  /// q (model.nq), v and a (model.nv) at time t, every coordinate of the model filled.
  void evaluate(const Model& model, double t, VecRef q, VecRef v, VecRef acc) const;
};

/// The velocity coordinates an excitation moves: those of the model's 1-DoF joints (revolute,
/// continuous, prismatic) that do not mimic another joint, ascending. Throws InputError naming a
/// joint of another kind (a floating base, a ball or planar joint), which the series cannot move:
/// it must be locked.
std::vector<int> excited_coordinates(const Model& model);

/// The bounds an excitation keeps, per velocity coordinate (model.nv): lower <= q <= upper,
/// |v| <= velocity, |a| <= acceleration (infinity: no bound). Those of a mimic follower bound its
/// leader through the mimic relation.
struct ExcitationLimits {
  Eigen::VectorXd lower, upper, velocity, acceleration;
};
/// The model file's limits (model.lower_limit, upper_limit, velocity_limit; no acceleration bound).
ExcitationLimits model_limits(const Model& model);

/// Where the series starts and ends.
enum class ExcitationEnds {
  rest_to_rest,  // v = a = 0 at t = 0 and at every period's end: sum_l a_jl = 0, sum_l l b_jl = 0
  periodic,      // only periodic: the robot must already move when the excitation starts
};
/// What the optimiser minimises.
enum class ExcitationCriterion {
  condition,  // the condition number of the stacked base regressor (Gautier and Khalil 1992)
  d_optimal,  // minus the log-determinant of W^T W / samples (D-optimality, Swevers et al. 1997)
};

struct ExcitationOptions {
  double period = 10;  // s
  int harmonics = 5;   // K
  ExcitationEnds ends = ExcitationEnds::rest_to_rest;
  ExcitationCriterion criterion = ExcitationCriterion::condition;
  DriveParameters drive;     // the regressor's friction and drive columns
  std::vector<int> columns;  // the regressor columns that count (ascending); empty: all of them
  std::uint64_t seed = 1;    // the starting guess's coefficients
  int evaluations = 2000;    // at most this many evaluations of the criterion
};

struct Excitation {
  FourierTrajectory trajectory;
  double start_condition = 0, condition = 0;  // of the stacked base regressor: start and result
  double start_log_det = 0, log_det = 0;      // log det(W^T W / samples): start and result
  int base_parameters = 0;                    // columns of W: the base parameters that count
  int evaluations = 0;                        // of the criterion
};

/// How many instants of a period the criterion stacks the regressor at: 10 (K + 1), enough that
/// the products of the regressor's entries (harmonics up to about 3 K) average over the period.
int excitation_samples(int harmonics);

/// The rows of a table sampled at `rate` per second from t = 0 to `duration`: t = k / rate for
/// k = 0 .. duration rate, the end included when it falls on a row (but for the round-off of the
/// product duration rate: 0.3 s at 10 per second is 3.0000000000000004 rows' time).
long excitation_rows(double duration, double rate);

/// An excitation trajectory for `model` within `limits` (Swevers et al. 1997, with the
/// optimisation made simple, deterministic and bounded):
/// - The unknowns are, per excited coordinate, the series' shape (a_jl, b_jl; for rest-to-rest
///   ends a_j1 and b_j1 follow from the others) and a position within the slack the limits leave.
///   Each guess is made feasible by construction: the shape is scaled to the largest amplitude
///   that keeps position, velocity and acceleration within the limits, and placed in the range.
///   The limits hold in continuous time, not only at samples: the extremes are taken on a grid of
///   h = period / (64 K) and widened by h^2 / 8 times a bound on the next derivative (the
///   deviation of a smooth function from its value at the grid point nearest its extreme).
/// - The criterion is that of options.criterion on W, the regressor's base columns (those among
///   options.columns that are independent: Gautier's column-pivoting QR at random states) stacked
///   at excitation_samples(K) instants of a period.
/// - The starting guess has coefficients uniform in [-1, 1] from options.seed; compass search
///   (Kolda, Lewis and Torczon 2003, "Optimization by direct search", section 3.3: each unknown
///   stepped up and down in turn, the step halved after a sweep without improvement, from 0.5 to
///   1e-3) improves it, for at most options.evaluations evaluations.
/// Throws InputError for a period, harmonics or evaluations that are not positive, rest-to-rest
/// ends with one harmonic (they admit no motion), an excited coordinate without finite limits
/// (naming its joint), an empty position range or a non-positive velocity or acceleration limit.
Excitation design_excitation(const Model& model, const ExcitationLimits& limits,
                             const ExcitationOptions& options);

/// The regressor columns, among `columns` (all when empty), that are independent: the base
/// parameters of those columns alone (the others known), from the column-pivoting QR of the
/// regressor stacked at random states as base_parameters computes it (trajectory/identification).
std::vector<int> base_columns(const Model& model, const DriveParameters& drive,
                              const std::vector<int>& columns);

}  // namespace eom
