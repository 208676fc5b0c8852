#include "solvers/hybrid_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "eom/core/errors.hpp"
#include "core/sizes.hpp"
#include "solvers/time_text.hpp"
#include "core/tolerances.hpp"

namespace eom {

HybridContacts::HybridContacts(const Model& model, SimulationStats& stats)
    : model_(model), stats_(stats) {}

void HybridContacts::start(const SimulationOptions& options, Controller& controller, double t0,
                           ConstVec q0, Eigen::VectorXd& v0) {
  options_ = &options;
  controller_ = &controller;
  starting_ = false;
  dynamics_.reset();
  impact_.reset();
  mode_ = Mode::none;
  active_.clear();
  if (options.ground && options.schedule) {
    throw InputError("contacts are on a ground or follow a schedule, not both");
  }
  if (!options.contacts || options.contacts->contacts.empty() || options.ground) return;
  if (options.schedule && options.schedule_slips) {
    mode_ = Mode::stepped;
    return check_schedule();
  }
  dynamics_.emplace(model_, *options.contacts);
  dynamics_->set_baumgarte(options.baumgarte_kp, options.baumgarte_kd);
  active_.assign(options.contacts->contacts.size(), 1);
  // a controller used before may hold another closed set: every contact starts closed
  for (std::size_t k = 0; k < active_.size(); ++k)
    controller.contacts_changed(static_cast<int>(k), true);
  mode_ = options.schedule ? Mode::schedule : Mode::held;
  if (mode_ == Mode::held) return check_at_rest(q0, v0);
  starting_ = true;
  start_scheduled(t0, q0, v0);
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

void HybridContacts::start_scheduled(double t0, ConstVec q0, Eigen::VectorXd& v0) {
  const ContactSet& set = *options_->contacts;
  const int n = static_cast<int>(set.contacts.size());
  impact_.emplace(model_, set);
  active_.assign(n, 1);
  closing_.assign(n, 0);
  for (int k = 0; k < n; ++k) set_active(k, false);
  check_schedule();
  follow_schedule(t0, 0, q0, v0);
}

void HybridContacts::check_schedule() const {
  const ContactSchedule& schedule = *options_->schedule;
  if (schedule.times.empty() || schedule.active.size() != schedule.times.size())
    throw InputError("the contact schedule has no rows, or not one set of flags per time");
  for (const auto& row : schedule.active) {
    detail::check_size(static_cast<Eigen::Index>(row.size()),
                       static_cast<int>(options_->contacts->contacts.size()), "schedule row");
  }
}

// ---- what the run loop asks each step ----

double HybridContacts::next_switch(double t, double eps) const {
  if (mode_ != Mode::schedule && mode_ != Mode::stepped)
    return std::numeric_limits<double>::infinity();
  const std::vector<double>& times = options_->schedule->times;
  const auto r = std::upper_bound(times.begin(), times.end(), t + eps);
  return r == times.end() ? std::numeric_limits<double>::infinity() : *r;
}

bool HybridContacts::resolve(double t, double eps, ConstVec q, Eigen::VectorXd& v) {
  return mode_ == Mode::schedule && follow_schedule(t, eps, q, v);
}

void HybridContacts::follow_stepped(double t, double eps, ConstVec q, TimeSteppingContacts& stepped,
                                    std::vector<char>& pressing) {
  const std::vector<char>& row = scheduled(t, eps);
  for (std::size_t k = 0; k < row.size(); ++k) {
    const int contact = static_cast<int>(k);
    const bool on = row[k] != 0;
    if (on == stepped.closed(contact)) continue;
    if (on) {
      stepped.close(contact, q);
      continue;
    }
    stepped.open(contact);
    if (!pressing[k]) continue;
    pressing[k] = 0;
    controller_->contacts_changed(contact, false);
    record({t, contact, false, 0});
  }
}

// ---- the parts of an event ----

// The contacts marked `closing` close by one impact; contacts closed at the start without moving
// into them are no event.
void HybridContacts::impact(double t, ConstVec q, Eigen::VectorXd& v) {
  impact_->solve(q, v);
  v = impact_->velocities();
  const double loss = impact_->energy_loss();
  bool counted = false;
  for (std::size_t k = 0; k < closing_.size(); ++k) {
    if (!closing_[k]) continue;
    closing_[k] = 0;
    if (starting_ && !(loss > 0)) continue;
    record({t, static_cast<int>(k), true, loss});
    counted = true;
  }
  if (!counted) return;
  ++stats_.impacts;
  stats_.impact_energy_loss += loss;
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
  if (any) impact(t, q, v);
  return changed;
}

// ---- the contacts' state ----

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
}

void HybridContacts::tally_friction(double t) {
  const ContactSet& set = *options_->contacts;
  const Eigen::VectorXd& f = dynamics_->forces();
  const Vec3& n = options_->friction_normal;
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
