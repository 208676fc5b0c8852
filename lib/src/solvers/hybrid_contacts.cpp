#include "solvers/hybrid_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "eom/algorithm/kinematics.hpp"
#include "eom/core/errors.hpp"
#include "core/sizes.hpp"
#include "solvers/time_text.hpp"
#include "core/tolerances.hpp"

namespace eom {

HybridContacts::HybridContacts(const Model& model, SimulationStats& stats)
    : model_(model),
      stats_(stats),
      frames_(model),
      weight_(model.total_mass * model.gravity.norm()) {}

void HybridContacts::start(const SimulationOptions& options, Controller& controller,
                           ContactHost& host, double t0, ConstVec q0, Eigen::VectorXd& v0) {
  options_ = &options;
  controller_ = &controller;
  starting_ = false;
  host_ = &host;
  last_event_t_ = -std::numeric_limits<double>::infinity();
  events_in_a_row_ = 0;
  dynamics_.reset();
  impact_.reset();
  mode_ = Mode::none;
  active_.clear();
  if (!options.contacts || options.contacts->contacts.empty()) return;
  dynamics_.emplace(model_, *options.contacts);
  dynamics_->set_baumgarte(options.baumgarte_kp, options.baumgarte_kd);
  active_.assign(options.contacts->contacts.size(), 1);
  // a controller used before may hold another closed set: every contact starts closed
  for (std::size_t k = 0; k < active_.size(); ++k)
    controller.contacts_changed(static_cast<int>(k), true);
  if (options.ground && options.schedule) {
    throw InputError("contacts are on a ground or follow a schedule, not both");
  }
  mode_ = options.ground ? Mode::ground : options.schedule ? Mode::schedule : Mode::held;
  if (mode_ == Mode::held) return check_at_rest(q0, v0);
  starting_ = true;
  start_hybrid(t0, q0, v0);
  starting_ = false;
}

// Held contacts start at rest: the constrained dynamics keep J_c v where it starts (they hold
// J_c a + drift = 0), so a contact moving at the start would slide through the run (beyond the
// round-off kContactAtRest).
void HybridContacts::check_at_rest(ConstVec q0, ConstVec v0) {
  ContactJacobian& contacts = dynamics_->jacobian();
  contacts.compute(q0);
  const Eigen::VectorXd moving = contacts.jacobian() * v0;
  Eigen::Index worst = 0;
  if (moving.size() == 0 || moving.cwiseAbs().maxCoeff(&worst) <=
                                detail::kContactAtRest * std::max(1.0, v0.cwiseAbs().maxCoeff())) {
    return;
  }
  const ContactSet& set = contacts.contacts();
  int k = 0;
  while (k + 1 < static_cast<int>(set.contacts.size()) && set.offset(k + 1) <= worst) ++k;
  throw InputError("the initial velocity moves the held contact '" +
                   model_.frames[set.contacts[k].frame].name + "' (" + time_string(moving[worst]) +
                   " m/s or rad/s): a held contact starts at rest");
}

void HybridContacts::start_hybrid(double t0, ConstVec q0, Eigen::VectorXd& v0) {
  const ContactSet& set = *options_->contacts;
  const int n = static_cast<int>(set.contacts.size());
  impact_.emplace(model_, set);
  active_.assign(n, 1);
  closing_.assign(n, 0);
  for (int k = 0; k < n; ++k) set_active(k, false);
  if (mode_ == Mode::schedule) {
    const ContactSchedule& schedule = *options_->schedule;
    if (schedule.times.empty() || schedule.active.size() != schedule.times.size())
      throw InputError("the contact schedule has no rows, or not one set of flags per time");
    for (const auto& row : schedule.active) {
      detail::check_size(static_cast<Eigen::Index>(row.size()), n, "schedule row");
    }
    follow_schedule(t0, 0, q0, v0);
    return;
  }
  check_on_ground(q0);
  ground_event(t0, q0, v0);
}

void HybridContacts::check_on_ground(ConstVec q0) {
  const ContactSet& set = *options_->contacts;
  const int n = static_cast<int>(set.contacts.size());
  heights0_.setZero(n);
  heights1_.setZero(n);
  heights(q0, heights0_);
  for (int k = 0; k < n; ++k) {
    const std::string name = "'" + model_.frames[set.contacts[k].frame].name + "'";
    if (set.contacts[k].kind != ContactKind::point) {
      throw InputError("contact " + name + " on the ground is not a point (3d) contact");
    }
    if (heights0_[k] < -options_->ground_tolerance) {
      throw InputError("contact " + name + " starts " + time_string(-heights0_[k]) +
                       " m below the ground");
    }
  }
}

// ---- what the run loop asks each step ----

double HybridContacts::next_switch(double t, double eps) const {
  if (mode_ != Mode::schedule) return std::numeric_limits<double>::infinity();
  const std::vector<double>& times = options_->schedule->times;
  const auto r = std::upper_bound(times.begin(), times.end(), t + eps);
  return r == times.end() ? std::numeric_limits<double>::infinity() : *r;
}

bool HybridContacts::detect(double t, double h, ConstVec q0, ConstVec q1, ConstVec v1) {
  if (mode_ != Mode::ground) return false;
  heights(q0, heights0_);
  return event_by(t + h, q1, v1);
}

double HybridContacts::locate(double t, double h) {
  const double end = std::abs(t) + h;
  const double tolerance =
      std::max(options_->event_tolerance, 4 * (std::nextafter(end, INFINITY) - end));
  double before = 0, after = h;
  while (after - before > tolerance) {
    const double mid = 0.5 * (before + after);
    const StepEnd trial = host_->trial_step(t, mid);
    (event_by(t + mid, trial.q, trial.v) ? after : before) = mid;
  }
  host_->trial_step(t, after);
  return after;
}

bool HybridContacts::resolve(double t, bool event, double eps, ConstVec q, Eigen::VectorXd& v) {
  if (mode_ == Mode::schedule) return follow_schedule(t, eps, q, v);
  if (!event) return false;
  ground_event(t, q, v);
  check_chatter(t);
  return true;
}

// ---- the parts of an event ----

// At an event of the ground at t, state (q, v): the open points on the ground close, by one
// impact; then the closed ones whose force pulls open.
void HybridContacts::ground_event(double t, ConstVec q, Eigen::VectorXd& v) {
  if (touchdown(q, v)) impact(t, q, v, true);
  release(t, q, v);
}

bool HybridContacts::touchdown(ConstVec q, ConstVec v) {
  const ContactSet& set = *options_->contacts;
  heights(q, heights0_);
  const double still = detail::kContactAtRest * std::max(1.0, v.cwiseAbs().maxCoeff());
  bool any = false;
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    closing_[k] = 0;
    if (active_[k] || heights0_[k] > options_->ground_tolerance) continue;
    const double rise = frame_jacobian(model_, frames_, q, set.contacts[k].frame,
                                       ReferenceFrame::local_world_aligned)
                            .row(2)
                            .transpose()
                            .dot(v);
    if (rise > still) continue;
    set_active(static_cast<int>(k), true);
    closing_[k] = any = true;
  }
  return any;
}

// Unilateral contacts (a ground) whose impulse would pull are left open, or open (a lift-off)
// when they were closed, the most pulling first.
void HybridContacts::impact(double t, ConstVec q, Eigen::VectorXd& v, bool unilateral) {
  impact_->solve(q, v);
  while (unilateral && open_most_pulling(impact_->impulses(), 0, t)) impact_->solve(q, v);
  v = impact_->velocities();
  const double loss = impact_->energy_loss();
  bool counted = false;
  for (std::size_t k = 0; k < closing_.size(); ++k) {
    if (!closing_[k]) continue;
    closing_[k] = 0;
    // contacts closed at the start without moving into them are no event
    if (starting_ && !(loss > 0)) continue;
    record({t, static_cast<int>(k), true, loss});
    counted = true;
  }
  if (!counted) return;
  ++stats_.impacts;
  stats_.impact_energy_loss += loss;
}

// The torque again after each opening: a controller that shares the load over the closed
// contacts (ComputedTorque) moves it onto those left.
void HybridContacts::release(double t, ConstVec q, ConstVec v) {
  do {
    host_->solve_dynamics(t, q, v);
  } while (open_most_pulling(dynamics_->forces(), weight_, t));
}

// Opens the closed contacts whose normal force (world z) in f pulls most (most_pulling) and
// those pulling as much to within kForceTie of the forces' size: ties, such as the corners of a
// symmetric box, open together. A lift-off is recorded for each but those `closing` at this
// event (they stay open).
bool HybridContacts::open_most_pulling(const Eigen::VectorXd& f, double scale, double t) {
  const int worst = most_pulling(f, scale);
  if (worst < 0) return false;
  const ContactSet& set = *options_->contacts;
  const double tie = f[set.offset(worst) + 2] + detail::kForceTie * (scale + f.cwiseAbs().sum());
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int contact = static_cast<int>(k);
    const double normal = f[set.offset(contact) + 2];
    if (!active_[k] || !(normal < 0 && normal <= tie)) continue;
    set_active(contact, false);
    if (!closing_[k]) record({t, contact, false, 0});
    closing_[k] = 0;
  }
  return true;
}

void HybridContacts::check_chatter(double t) {
  events_in_a_row_ = t - last_event_t_ <= kChatterWindow ? events_in_a_row_ + 1 : 1;
  last_event_t_ = t;
  if (events_in_a_row_ < kChatterEvents) return;
  const ContactSet& set = *options_->contacts;
  throw NumericalError(
      "simulation stopped at t = " + time_string(t) + " s: the contacts chatter (" +
      std::to_string(kChatterEvents) + " touchdowns and lift-offs within " +
      time_string(kChatterEvents * kChatterWindow) + " s, the last of '" +
      model_.frames[set.contacts[last_event_contact_].frame].name +
      "'): a foot held there pulls on the ground, and released it moves into it; sticking "
      "point contacts cannot resolve that without slip, which is not simulated");
}

// Contacts the schedule releases open, those it activates close by an impact.
bool HybridContacts::follow_schedule(double t, double eps, ConstVec q, Eigen::VectorXd& v) {
  const std::vector<char>& row = scheduled(t, eps);
  bool changed = false, any = false;
  for (std::size_t k = 0; k < row.size(); ++k) {
    const bool on = row[k] != 0;
    closing_[k] = 0;
    if (on == (active_[k] != 0)) continue;
    changed = true;
    set_active(static_cast<int>(k), on);
    if (!on) record({t, static_cast<int>(k), false, 0});
    closing_[k] = on;
    any |= on;
  }
  if (any) impact(t, q, v, false);
  return changed;
}

// ---- the contacts' state ----

// An open point below the ground (below where the step started, when that was already below by
// round-off), or a closed one whose normal force pulls.
bool HybridContacts::event_by(double t1, ConstVec q1, ConstVec v1) {
  if (!q1.allFinite() || !v1.allFinite()) return false;  // a blow-up, reported by the run
  heights(q1, heights1_);
  bool any_closed = false;
  for (Eigen::Index k = 0; k < heights1_.size(); ++k) {
    if (active_[k]) {
      any_closed = true;
    } else if (heights1_[k] < std::min(0.0, heights0_[k])) {
      return true;
    }
  }
  if (!any_closed) return false;
  host_->solve_dynamics(t1, q1, v1);
  return most_pulling(dynamics_->forces(), weight_) >= 0;
}

// Pulling: below -kPullingForce of `scale` plus the forces' size (round-off).
int HybridContacts::most_pulling(const Eigen::VectorXd& f, double scale) const {
  const ContactSet& set = *options_->contacts;
  double least = -detail::kPullingForce * (scale + f.cwiseAbs().sum());
  int worst = -1;
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const double normal = f[set.offset(static_cast<int>(k)) + 2];
    if (active_[k] && normal < least) {
      least = normal;
      worst = static_cast<int>(k);
    }
  }
  return worst;
}

void HybridContacts::heights(ConstVec q, Eigen::VectorXd& out) {
  frame_placements(model_, frames_, q);
  const ContactSet& set = *options_->contacts;
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    out[k] = frames_.oMf[set.contacts[k].frame].p.z() - *options_->ground;
  }
}

// The last row whose time is at most t + eps (the first before it).
const std::vector<char>& HybridContacts::scheduled(double t, double eps) const {
  const std::vector<double>& times = options_->schedule->times;
  const auto r = std::upper_bound(times.begin(), times.end(), t + eps) - times.begin();
  return options_->schedule->active[r == 0 ? 0 : r - 1];
}

void HybridContacts::set_active(int k, bool on) {
  active_[k] = on ? 1 : 0;
  dynamics_->jacobian().set_active(k, on);
  impact_->jacobian().set_active(k, on);
  controller_->contacts_changed(k, on);
}

void HybridContacts::record(const ContactEvent& event) {
  record_event(stats_.contact_events, stats_.contact_event_count, event);
  last_event_contact_ = event.contact;
}

void HybridContacts::tally_friction(double t) {
  const ContactSet& set = *options_->contacts;
  const Eigen::VectorXd& f = dynamics_->forces();
  const Vec3 n = options_->ground ? Vec3::UnitZ() : options_->friction_normal;
  bool over = false;
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    if (!active_[k] || set.contacts[k].kind == ContactKind::normal) continue;
    const double ratio = friction_ratio(f.segment<3>(set.offset(static_cast<int>(k))), n);
    // a pulling contact is over every coefficient, and the worst of all
    const bool pulls = ratio == kPullingFrictionRatio;
    over |= pulls || ratio > options_->friction_coefficient;
    if (stats_.worst_friction != kPullingFrictionRatio &&
        (pulls || ratio > stats_.worst_friction)) {
      stats_.worst_friction = ratio;
      stats_.worst_friction_t = t;
      stats_.worst_friction_contact = static_cast<int>(k);
    }
  }
  if (over) ++stats_.friction_outputs;
}

}  // namespace eom
