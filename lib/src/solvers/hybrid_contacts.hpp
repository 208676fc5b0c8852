// The held and scheduled contacts of a simulation run (private to libeom): held for the whole run,
// or made and broken at the times a schedule gives (SimulationOptions::contacts, ::schedule). A
// ground's contacts are time-stepped instead (time_stepping_contacts.hpp), and so are a schedule's
// that slip (SimulationOptions::schedule_slips): this class then only follows the schedule,
// closing and opening them in the time-stepping problem (follow_stepped).
//
// A schedule makes the run hybrid: smooth phases, each the constrained dynamics of its active
// contacts, separated by its switches. The run loop asks this class, each step:
//   next_switch  when the schedule changes (the step is shortened to it)
//   resolve      at a switch: the released contacts open, the activated ones close by one
//                inelastic impact (ETH notes eq. 3.66-3.72)
#pragma once

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/contacts.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"
#include "eom/solvers/simulate.hpp"
#include "solvers/time_stepping_contacts.hpp"

namespace eom {

/// One event into a run's record (SimulationStats): kept while fewer than kKeptEvents are, always
/// counted.
template <class Event>
void record_event(std::vector<Event>& kept, long& count, const Event& event) {
  if (kept.size() < SimulationStats::kKeptEvents) kept.push_back(event);
  ++count;
}

class HybridContacts {
 public:
  /// Workspaces for `model`; the events are recorded into `stats`.
  HybridContacts(const Model& model, SimulationStats& stats);

  /// A run starts at (t0, q0, v0) with the contacts of `options` (held, by a schedule, or none:
  /// none with a ground, whose contacts are not this class's). Every contact is told to the
  /// controller as closed; scheduled ones then open, and close as the schedule says at t0 (by an
  /// impact, which changes v0, when they move). With slipping scheduled contacts only the
  /// schedule is checked: the time-stepped contacts start as scheduled(t0, 0) says. Throws
  /// InputError when the initial velocity moves a held contact, the schedule does not fit the
  /// contacts, or both a ground and a schedule are given.
  void start(const SimulationOptions& options, Controller& controller, double t0, ConstVec q0,
             Eigen::VectorXd& v0);

  /// The constrained dynamics of the closed contacts; null without contacts.
  ContactForwardDynamics* dynamics() { return dynamics_ ? &*dynamics_ : nullptr; }
  /// Their forces at the last solve (stacked as ContactSet::offset); empty without contacts.
  const Eigen::VectorXd& forces() const { return dynamics_ ? dynamics_->forces() : no_forces_; }
  /// One flag per contact: closed.
  const std::vector<char>& active() const { return active_; }

  /// The next time after t + eps at which the schedule changes row (infinite: none).
  double next_switch(double t, double eps) const;
  /// After a step to t, state (q, v): the schedule's switch there, impacts changing v. Returns
  /// whether anything changed (the derivatives at t are then stale).
  bool resolve(double t, double eps, ConstVec q, Eigen::VectorXd& v);
  /// With slipping scheduled contacts, after a step to t at q: the schedule's switch there in the
  /// time-stepped contacts `stepped`: the contacts it closes close on their planes through q, the
  /// ones it opens open; of those, the ones `pressing` stop pressing (told to the controller, a
  /// lift-off at t).
  void follow_stepped(double t, double eps, ConstVec q, TimeSteppingContacts& stepped,
                      std::vector<char>& pressing);

  /// The schedule's row at t: the last whose time is at most t + eps (the first before it).
  const std::vector<char>& scheduled(double t, double eps) const;

  /// At an output whose dynamics were just solved: the friction the closed contacts need,
  /// |f_t| / f_n (infinite for a force that does not press, f_n <= 0), against the coefficient
  /// (SimulationOptions::friction_coefficient), into the stats.
  void tally_friction(double t);

 private:
  enum class Mode { none, held, schedule, stepped };

  // held contacts: the initial velocity must not move them
  void check_at_rest(ConstVec q0, ConstVec v0);
  // the schedule fits the contacts: rows of flags, one per contact
  void check_schedule() const;
  // scheduled contacts: open, then closed as the schedule says at t0
  void start_scheduled(double t0, ConstVec q0, Eigen::VectorXd& v0);
  // the contacts marked `closing` close by one inelastic impact at (t, q) on the new closed set
  // (ETH notes eq. 3.66-3.72), changing v
  void impact(double t, ConstVec q, Eigen::VectorXd& v);
  // the schedule's activity at t; returns whether anything changed
  bool follow_schedule(double t, double eps, ConstVec q, Eigen::VectorXd& v);

  // contact k opens or closes: for the dynamics, the impacts and the controller
  void set_active(int k, bool on);
  // a contact closing or opening, into the record
  void record(const ContactEvent& event);

  const Model& model_;
  SimulationStats& stats_;
  const SimulationOptions* options_ = nullptr;
  Controller* controller_ = nullptr;
  Mode mode_ = Mode::none;
  std::optional<ContactForwardDynamics> dynamics_;
  std::optional<ContactImpact> impact_;
  const Eigen::VectorXd no_forces_;
  std::vector<char> active_, closing_;  // per contact: closed; closing at this switch
  bool starting_ = false;               // in start(): closures without a loss are no event
};

}  // namespace eom
