// The contacts of a simulation run (private to libeom): held for the whole run, or made and broken
// during it, on a ground or by a schedule (SimulationOptions::contacts, ::ground, ::schedule).
//
// Contacts made and broken make the run hybrid: smooth phases, each the constrained dynamics of
// its active contacts, separated by events. The run loop asks this class, each step, for the
// named parts of an event-driven scheme (MuJoCo's mj_makeConstraint is a driver of named parts
// the same way):
//   next_switch  when the schedule changes (the step is shortened to it)
//   detect       whether the step crossed an event of the ground: an open point went below it,
//                or a closed one's normal force pulls
//   locate       bisection on the step's length for the event's time
//   resolve      at the event: the driver of touchdown (which open points close), impact (the
//                inelastic impact of the closing ones, ETH notes eq. 3.66-3.72), release (the
//                pulling ones open, the most pulling first) and chatter (events that cannot
//                settle stop the run); or the schedule's row
// A time-stepping scheme would replace detect, locate and resolve by one contact solve per step;
// the state it needs (the active set, the heights, the records) is all here.
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/contacts.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"
#include "eom/solvers/simulate.hpp"

namespace eom {

/// One event into a run's record (SimulationStats): kept while fewer than kKeptEvents are, always
/// counted.
template <class Event>
void record_event(std::vector<Event>& kept, long& count, const Event& event) {
  if (kept.size() < SimulationStats::kKeptEvents) kept.push_back(event);
  ++count;
}

/// The end of a trial step: its configuration and velocity.
struct StepEnd {
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
};

/// What the contacts ask of the simulation they belong to (the simulator implements it).
class ContactHost {
 public:
  virtual ~ContactHost() = default;
  /// The dynamics at (t, q, v) under the controller's torque: the contact forces are then those
  /// of HybridContacts::dynamics().
  virtual void solve_dynamics(double t, ConstVec q, ConstVec v) = 0;
  /// The current step from its start at t, taken again with length h: its end.
  virtual StepEnd trial_step(double t, double h) = 0;
};

class HybridContacts {
 public:
  /// Workspaces for `model`; the events are recorded into `stats`.
  HybridContacts(const Model& model, SimulationStats& stats);

  /// A run starts at (t0, q0, v0) with the contacts of `options` (held, on a ground, by a
  /// schedule, or none). Every contact is told to the controller as closed; those made and broken
  /// then open, and close as the ground or the schedule says at t0 (by an impact, which changes
  /// v0, when they move). Throws InputError when the initial velocity moves a held contact, a
  /// ground contact is not a point or starts below the ground, the schedule does not fit the
  /// contacts, or both a ground and a schedule are given.
  void start(const SimulationOptions& options, Controller& controller, ContactHost& host, double t0,
             ConstVec q0, Eigen::VectorXd& v0);

  /// The constrained dynamics of the closed contacts; null without contacts.
  ContactForwardDynamics* dynamics() { return dynamics_ ? &*dynamics_ : nullptr; }
  /// Their forces at the last solve (stacked as ContactSet::offset); empty without contacts.
  const Eigen::VectorXd& forces() const { return dynamics_ ? dynamics_->forces() : no_forces_; }
  /// One flag per contact: closed.
  const std::vector<char>& active() const { return active_; }

  /// The next time after t + eps at which the schedule changes row (infinite: none).
  double next_switch(double t, double eps) const;
  /// Whether the step (t, h) from q0 to (q1, v1) crossed an event of the ground.
  bool detect(double t, double h, ConstVec q0, ConstVec q1, ConstVec v1);
  /// The step (t, h) crossed an event: bisection on the step's length for the first time at
  /// which one has happened, within event_tolerance (or a few resolution units of t). The host's
  /// last trial step is the one of the returned length.
  double locate(double t, double h);
  /// After a step to t, state (q, v): the contacts' changes there (an event located in the step,
  /// a switch of the schedule), impacts changing v. Returns whether anything changed (the
  /// derivatives at t are then stale).
  bool resolve(double t, bool event, double eps, ConstVec q, Eigen::VectorXd& v);

  /// At an output whose dynamics were just solved: the friction the closed contacts need,
  /// |f_t| / f_n (infinite for a force that does not press, f_n <= 0), against the coefficient
  /// (SimulationOptions::friction_coefficient), into the stats.
  void tally_friction(double t);

 private:
  enum class Mode { none, held, ground, schedule };

  // held contacts: the initial velocity must not move them
  void check_at_rest(ConstVec q0, ConstVec v0);
  // contacts made and broken: open, then closed as the ground or the schedule says at t0
  void start_hybrid(double t0, ConstVec q0, Eigen::VectorXd& v0);
  // the ground contacts must be points, none below the ground at q0
  void check_on_ground(ConstVec q0);

  // the ground's event at t, state (q, v): touchdown, impact, release
  void ground_event(double t, ConstVec q, Eigen::VectorXd& v);
  // marks `closing` the open points on the ground (within ground_tolerance) and not leaving it,
  // and closes them; returns whether any
  bool touchdown(ConstVec q, ConstVec v);
  // the contacts marked `closing` close by one inelastic impact at (t, q) on the new closed set
  // (ETH notes eq. 3.66-3.72), changing v
  void impact(double t, ConstVec q, Eigen::VectorXd& v, bool unilateral);
  // the closed contacts whose force pulls open, the most pulling first, the forces solved again
  // after each, until none pulls
  void release(double t, ConstVec q, ConstVec v);
  // opens the closed contacts whose normal force in f pulls most; returns whether any opened
  bool open_most_pulling(const Eigen::VectorXd& f, double scale, double t);
  // after a ground event at t: stop when the events chatter (kChatterEvents)
  void check_chatter(double t);
  // the schedule's activity at t; returns whether anything changed
  bool follow_schedule(double t, double eps, ConstVec q, Eigen::VectorXd& v);

  // whether the step to (t1, q1, v1) crossed an event of the ground (heights0_: at its start)
  bool event_by(double t1, ConstVec q1, ConstVec v1);
  // the closed contact whose normal force in f pulls most, -1 when none
  int most_pulling(const Eigen::VectorXd& f, double scale) const;
  // the contacts' heights above the ground at q
  void heights(ConstVec q, Eigen::VectorXd& out);
  // the schedule's row at t
  const std::vector<char>& scheduled(double t, double eps) const;
  // contact k opens or closes: for the dynamics, the impacts and the controller
  void set_active(int k, bool on);
  // a contact closing or opening, into the record
  void record(const ContactEvent& event);

  const Model& model_;
  SimulationStats& stats_;
  const SimulationOptions* options_ = nullptr;
  Controller* controller_ = nullptr;
  ContactHost* host_ = nullptr;
  Mode mode_ = Mode::none;
  std::optional<ContactForwardDynamics> dynamics_;
  std::optional<ContactImpact> impact_;
  const Eigen::VectorXd no_forces_;
  std::vector<char> active_, closing_;   // per contact: closed; closing at this event
  Eigen::VectorXd heights0_, heights1_;  // above the ground, at the start and end of a step
  Data frames_;                          // the heights' workspace
  const double weight_;                  // N: what a pulling force is compared with
  bool starting_ = false;                // in start(): closures without a loss are no event
  // Contact events that follow each other within kChatterWindow, kChatterEvents of them in a
  // row, cannot settle: a held point whose normal force pulls and that, released, moves into the
  // ground (a sticking 3d contact can need both: its tangential constraint couples into the
  // normal force). Resolving that needs slip, which is not simulated: the run stops there rather
  // than spin through events a fraction of a nanosecond apart.
  static constexpr double kChatterWindow = 1e-9;  // s
  static constexpr int kChatterEvents = 100;
  double last_event_t_ = -std::numeric_limits<double>::infinity();
  int events_in_a_row_ = 0;
  int last_event_contact_ = 0;  // the contact of the last event recorded
};

}  // namespace eom
