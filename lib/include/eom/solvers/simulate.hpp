// Forward simulation over time: integrate M(q) qdd + C(q, v) v + g(q) = tau + tau_friction from an
// initial state, with joint torques from a controller. Pure library: states reach the caller
// through a callback at the requested output times; nothing is read or written.
//
// The state lives on the configuration manifold: q advances by eom::integrate (a floating base on
// SE(3) by the exponential map, so its quaternion stays unit to round-off and is never added to;
// continuous joints are not wrapped). Inside a step the stages are taken as q0 (+) delta with
// delta in the tangent space at q0, and d delta/dt = dexp^-1_{-delta}(v) (Munthe-Kaas: RK methods
// on Lie groups keep their order that way; delta = v for the 1-DoF joints, where the group is
// commutative).
//
// With a floating base the free-flyer is unactuated (ETH Robot Dynamics notes, section 3.10): no
// motor pushes the base, so whatever a controller computes for its six coordinates is not applied
// and a floating robot held by nothing falls. Contacts held for the whole run (SimulationOptions::
// contacts) keep their frames where they start: the dynamics are then the constrained forward
// dynamics of ContactForwardDynamics (ETH notes eq. 3.62-3.65), whose contact forces the caller
// reads at each output (Simulator::contact_forces).
//
// Contacts may also be made and broken during a run by a schedule (SimulationOptions::schedule):
// the run is then a sequence of smooth phases, each the constrained dynamics of its active
// contacts, separated by the schedule's switches, where a contact that closes does so by an
// inelastic impact (ContactImpact, ETH notes eq. 3.66-3.72).
//
// On a ground (SimulationOptions::ground) the contacts are unilateral points with Coulomb friction
// on the plane z = ground, stepped by a velocity-level time-stepping scheme (the Moreau-Jean /
// Anitescu-Potra family; lib/src/solvers/time_stepping_contacts.hpp): a step in which a contact
// pressed in the step before, or one whose free flight would end on or below the ground, is taken
// again as one impulse problem (v+ = v + h M^-1 (tau - h) + M^-1 J_c^T lambda, normal impulses
// >= 0 complementary to the contacts' separating velocities, |lambda_t| <= mu lambda_n, then
// q+ = q (+) h v+), so a contact is whatever that problem says at each step: no event, no
// chatter, slip simulated. Other steps (free flight) are the integrator's. With contacts the
// scheme is first order in the step (semi-implicit Euler with impulses).
//
// A schedule's contacts may slip too (SimulationOptions::schedule_slips): they are then stepped by
// the same impulse problem, the schedule saying which may press at each time. A contact the
// schedule closes does so on the plane of normal friction_normal through where it is at that time
// (its ground while it stays closed: it may leave the plane and land on it again); one it opens is
// out of the problem until it closes again, on a new plane.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/contacts.hpp"
#include "eom/algorithm/dynamics.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"
#include "eom/solvers/controllers.hpp"

namespace eom {

/// The integration schemes.
enum class Integrator {
  euler,                // explicit Euler: q += h v0, v += h a0 (order 1)
  semi_implicit_euler,  // symplectic Euler: v += h a0, then q += h v1 (order 1)
  rk4,                  // classical Runge-Kutta (order 4)
  rk45,                 // Dormand-Prince 5(4), adaptive step, dense output (Hairer et al. II.5)
};

/// A joint leaving (or re-entering) its URDF position limits.
struct LimitEvent {
  double t = 0;         // time of the crossing, linearly interpolated within the step
  int joint = 0;        // joint index (model.joint_names[joint])
  bool upper = false;   // which limit
  bool leaving = true;  // false when the joint comes back within its limits
};

/// Prescribed contact activity over time (eom sim --contact-schedule): from times[r] to the next
/// time the contacts k with active[r][k] != 0 hold (before the first time, the first row). A
/// contact that becomes active closes by an inelastic impact (held), or on its plane
/// (SimulationOptions::schedule_slips).
struct ContactSchedule {
  std::vector<double> times;              // strictly increasing (s, the run's clock)
  std::vector<std::vector<char>> active;  // per row, one flag per contact of the set
};

/// A contact closing (touchdown, or activated by a schedule) or opening (lift-off, released).
struct ContactEvent {
  double t = 0;     // when (s)
  int contact = 0;  // index in the ContactSet
  bool closes = true;
  /// Closing: the kinetic energy the impact lost (J), that of the whole impact when several
  /// contacts close at once (each of their events carries it; SimulationStats::impact_energy_loss
  /// counts it once).
  double energy_loss = 0;
};

struct SimulationOptions {
  Integrator integrator = Integrator::rk4;
  double dt = 1e-3;                 // fixed step; for rk45 the first trial step
  double rtol = 1e-6, atol = 1e-9;  // rk45: per-coordinate error bound atol + rtol |x|
  double max_step = std::numeric_limits<double>::infinity();  // rk45
  /// rk45 stops with NumericalError when the step falls below min_step_relative * max(1, |t|).
  double min_step_relative = 1e-13;
  bool friction = false;  // add the model's URDF friction (Friction::from_model), opposing v
  double friction_smoothing = 0;  // Friction::smoothing: 0 = sgn(v), with sgn(0) = 0
  /// The friction parameters (with friction); none: the URDF's (Friction::from_model).
  std::optional<Friction> friction_parameters;
  /// Generalized forces of the environment at (t, q), e.g. J^T F of external wrenches: added to
  /// the applied torques after saturation and friction, not part of the reported tau. Must not
  /// allocate.
  std::function<void(double t, ConstVec q, VecRef tau)> external;
  /// Called after each accepted step with a time before which no later call of the controller
  /// or of `external` asks (the last state with sane speeds, where a failure is diagnosed): what
  /// they follow over time (a table read as it goes) may drop what lies before it. Must not
  /// allocate.
  std::function<void(double t)> released;
  /// Contacts held for the whole run, all active: their frames stay where they are at the start
  /// (the initial velocity must not move them). Null: none. The set must outlive the run.
  const ContactSet* contacts = nullptr;
  /// With contacts: unilateral point contacts (3d) with Coulomb friction on a flat ground at
  /// z = *ground (world z up) instead of held ones, time-stepped (the header's comment; fixed-step
  /// integrators only). A contact below it at the start by more than ground_tolerance is refused
  /// (InputError).
  std::optional<double> ground;
  /// With a ground: the coefficient of restitution of the contacts' normal impacts, in [0, 1]
  /// (0: inelastic).
  double restitution = 0;
  /// With a ground: the fraction of a penetration removed per step, in [0, 1] (a Baumgarte-style
  /// velocity bias; the scheme lets a contact land on the ground, not below it, so only
  /// round-off and the linearisation of a step penetrate).
  double penetration_fraction = 0.2;
  /// With contacts: their activity over time instead (null: all held, or the ground's).
  const ContactSchedule* schedule = nullptr;
  /// With a schedule: its closed contacts are unilateral points with Coulomb friction
  /// (friction_coefficient, friction_facets, restitution, penetration_fraction as a ground's),
  /// each on the plane of normal friction_normal through where it was when it closed,
  /// time-stepped as a ground's (the header's comment; fixed-step integrators only). False: held
  /// (bilateral, no slip) between the switches.
  bool schedule_slips = false;
  /// Baumgarte stabilisation of the closed contacts (ContactForwardDynamics::set_baumgarte).
  double baumgarte_kp = 0, baumgarte_kd = 0;
  /// With a ground or slipping scheduled contacts: Coulomb's coefficient of the contacts (> 0).
  /// With held or held scheduled contacts, > 0: count the outputs at which a closed contact
  /// needs more friction than this, |f_t| > mu f_n (f_n along the contact's normal).
  double friction_coefficient = 0;
  /// With a ground (or slipping scheduled contacts): 0 for Coulomb's exact cone, or N >= 3 for
  /// the pyramid of N facets circumscribing it (facet normals at 2 pi i / N from world x, or
  /// from its projection on a schedule's planes; 4: |f_x|, |f_y| <= mu f_n).
  int friction_facets = 0;
  /// Without a ground: the unit normal f_n is taken along (and slipping scheduled contacts'
  /// planes' normal).
  Vec3 friction_normal = Vec3::UnitZ();
  double ground_tolerance = 1e-9;  // m: a point this close to the ground is on it
  /// Clip the controller's torques at the model's effort limits (MuJoCo's forcerange, Gazebo's
  /// effort limit); a coordinate whose limit is infinite or not positive (no limit given, or
  /// URDF's effort="0", its writers' "unspecified") is unlimited.
  bool saturate = true;
  bool limit_events = true;  // record joints leaving their position limits
};

/// Whether the run's contacts are time-stepped: on a ground, or slipping on a schedule.
inline bool time_stepped_contacts(const SimulationOptions& options) {
  return options.contacts && !options.contacts->contacts.empty() &&
         (options.ground || (options.schedule && options.schedule_slips));
}

/// Counts and events of one run. The events are kept in time order up to kKeptEvents of each
/// kind and counted beyond, so a long run's memory does not grow with how often a joint crosses a
/// limit or a foot touches down (the vectors are reserved when the run starts: recording never
/// allocates).
struct SimulationStats {
  static constexpr size_t kKeptEvents = 1000;

  long steps = 0;                        // accepted steps
  long rejected = 0;                     // rejected steps (rk45)
  long evaluations = 0;                  // dynamics evaluations (controller + aba)
  long saturated_steps = 0;              // accepted steps in which some torque was clipped
  Eigen::VectorXi saturated_per_joint;   // (nv) accepted steps in which that coordinate was clipped
  std::vector<LimitEvent> limit_events;  // the first kKeptEvents, in time order
  long limit_event_count = 0;            // all of them
  double t = 0;                          // the time reached
  std::vector<ContactEvent> contact_events;  // the first kKeptEvents, in time order
  long contact_event_count = 0;              // all of them
  long impacts = 0;                          // contact closures (several contacts at once: one)
  double impact_energy_loss = 0;             // J, over the impacts
  /// With SimulationOptions::friction_coefficient: the outputs at which some closed contact
  /// needs more friction, and the worst friction ratio over all outputs (friction_ratio:
  /// kPullingFrictionRatio, the worst of all, when a contact pulls or carries no normal force),
  /// its time and contact (-1: none).
  long friction_outputs = 0;
  double worst_friction = 0, worst_friction_t = 0;
  int worst_friction_contact = -1;
};

/// The times a run reports at, ascending: a list, or a regular grid t0, t0 + step, ... held as a
/// formula, so that a run of a billion steps needs no table of them (memory independent of the
/// duration).
class OutputTimes {
 public:
  OutputTimes() = default;
  OutputTimes(std::vector<double> list) : list_(std::move(list)), size_(list_.size()) {}  // NOLINT
  /// t0 + k step for k = 0, 1, ... up to t0 + duration, and t0 + duration itself when the last
  /// multiple falls short of it by more than round-off (1e-9 step). When t0 and step are short
  /// decimals (0.01, not 0.1 + 0.2), each time is the double nearest the exact decimal sum (0.35,
  /// never 0.35000000000000003 = 35 * 0.01).
  static OutputTimes grid(double t0, double duration, double step);

  std::size_t size() const { return size_; }
  double operator[](std::size_t k) const {
    if (!list_.empty()) return list_[k];
    if (k >= steps_) return end_;
    // integers below 2^53 and a power of ten are exact: one rounding, of the quotient
    if (units_ > 0) return (t0_units_ + static_cast<double>(k) * step_units_) / units_;
    return t0_ + static_cast<double>(k) * step_;
  }
  double back() const { return (*this)[size_ - 1]; }

 private:
  std::vector<double> list_;
  std::size_t size_ = 0, steps_ = 0;  // steps_: the grid points t0 + k step
  double t0_ = 0, step_ = 0, end_ = 0;
  // t0 and step as whole numbers of 1 / units_ (a power of ten); units_ 0 when they are not
  double units_ = 0, t0_units_ = 0, step_units_ = 0;
};

/// What the simulation reports at each output time: t, q (nq), v (nv), the applied torque tau
/// (nv, after saturation, friction not included) and qdd (nv) at that state.
using OutputFunction =
    std::function<void(double t, ConstVec q, ConstVec v, ConstVec tau, ConstVec qdd)>;

/// A simulator for one model: all workspaces are allocated at construction, so run() allocates
/// nothing per step. Not thread-safe (one per thread).
class Simulator {
 public:
  explicit Simulator(const Model& model);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  /// Simulate from (q0, v0) at t0 to t_end with tau from `controller`. `output` (may be empty) is
  /// called at each of output_times (ascending, within [t0, t_end]; outputs at times before t0
  /// are skipped); rk45 interpolates them by its dense output, the fixed-step schemes shorten a
  /// step to land on them. The final state is in q(), v(). Throws NumericalError naming the time
  /// and the joint when the state stops being finite or the rk45 step underflows, and when a
  /// joint moves no inertia (aba); throws InputError when the initial velocity moves a held
  /// contact.
  const SimulationStats& run(Controller& controller, ConstVec q0, ConstVec v0, double t0,
                             double t_end, const SimulationOptions& options,
                             const OutputTimes& output_times = {},
                             const OutputFunction& output = {});

  const Eigen::VectorXd& q() const;
  const Eigen::VectorXd& v() const;
  /// With contacts, inside the output function: the contact forces at the output's state (stacked
  /// as ContactSet::offset, the force the environment exerts on the robot, world axes).
  const Eigen::VectorXd& contact_forces() const;
  /// With contacts, inside the output function: which contacts are closed (one flag per contact).
  const std::vector<char>& contact_active() const;
  const SimulationStats& stats() const;
  Data& data();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Total mechanical energy T + V at (q, v) (kinetic_energy + potential_energy).
double total_energy(const Model& model, Data& data, ConstVec q, ConstVec v);

}  // namespace eom
