#include "eom/solvers/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/configuration.hpp"
#include "eom/core/errors.hpp"
#include "eom/solvers/step_stability.hpp"
#include "core/sizes.hpp"
#include "solvers/hybrid_contacts.hpp"
#include "solvers/runge_kutta.hpp"
#include "solvers/time_stepping_contacts.hpp"
#include "solvers/time_text.hpp"
#include "core/tolerances.hpp"

namespace eom {

double total_energy(const Model& model, Data& data, ConstVec q, ConstVec v) {
  return kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
}

// ---- the simulator ----

namespace {

// The scheme's tableau; null for symplectic Euler, which is none (runge_kutta.hpp)
const ButcherTableau* tableau_of(Integrator integrator) {
  switch (integrator) {
    case Integrator::euler:
      return &kEulerTableau;
    case Integrator::semi_implicit_euler:
      return nullptr;
    case Integrator::rk4:
      return &kRk4Tableau;
    case Integrator::rk45:
      return &kDormandPrinceTableau;
  }
  return nullptr;
}

}  // namespace

// The run loop: fixed or adaptive steps of the Runge-Kutta module, shortened to land on the output
// times, the schedule's switches and t_end; the schedule's switches (HybridContacts) between
// steps, or the ground's time-stepped contacts (TimeSteppingContacts) in place of a step; the
// counts, limit events and divergence diagnosis of the accepted steps.
struct Simulator::Impl final : StageDynamics {
  const Model& model;
  Data data;
  const Friction urdf_friction;
  Friction friction;  // what this run applies
  std::vector<int> joint_of_v;
  // state at the start of the step, and the step's result
  Eigen::VectorXd q0, v0, q1, delta1, v1;
  Eigen::VectorXd tau, tau_total, tau_f;
  // outputs
  Eigen::VectorXd q_out, v_out, delta_out;
  // sqrt(M_kk) at the start of the run: the velocities' scale when one of them diverges
  Eigen::VectorXd speed_scale;
  double t_state = 0;  // the time of (q0, v0)
  // the last accepted configuration with every speed at most kSaneSpeed, and its time: where a
  // divergence is diagnosed (past it, q soon means nothing)
  static constexpr double kSaneSpeed = 100;  // rad/s or m/s
  Eigen::VectorXd q_sane;
  double t_sane = 0;
  Eigen::VectorXi clipped, limit_state;
  SimulationStats stats;
  Controller* controller = nullptr;
  const SimulationOptions* options = nullptr;
  RungeKutta rk;
  const ButcherTableau* tableau = nullptr;  // null: symplectic Euler
  HybridContacts contacts;
  // with time-stepped contacts (a ground's, or a schedule's that slip): them; which of them
  // pressed in the last step (as told to the controller), and whether any did; whether the last step was a contact step, its length and
  // the velocity before it
  std::optional<TimeSteppingContacts> ground;
  std::vector<char> pressing;
  bool touching = false, contact_step_ended = false;
  double last_contact_step = 0;
  // The touchdown whose landing takes one more contact step (the events from landing_first on;
  // none when landing_first is negative): an inelastic landing lands the contact on the ground in
  // its first step, moving into it at its height / h, and stops it in the second.
  long landing_first = -1;
  Eigen::VectorXd v_before, mean_acceleration;

  explicit Impl(const Model& m)
      : model(m),
        data(m),
        urdf_friction(Friction::from_model(m)),
        friction(urdf_friction),
        rk(m),
        contacts(m, stats) {
    const int nq = m.nq, nv = m.nv;
    joint_of_v.assign(nv, 0);
    for (int i = 1; i < m.njoints; ++i) {
      const Joint& j = m.joints[i];
      for (int k = 0; k < j.nv; ++k) joint_of_v[j.idx_v + k] = i;
    }
    for (Eigen::VectorXd* x : {&q0, &q1, &q_out, &q_sane}) x->setZero(nq);
    for (Eigen::VectorXd* x : {&v0, &delta1, &v1, &tau, &tau_total, &tau_f, &v_out, &delta_out,
                               &speed_scale, &v_before, &mean_acceleration}) {
      x->setZero(nv);
    }
    clipped.setZero(nv);
    limit_state.setZero(m.njoints);
    stats.saturated_per_joint.setZero(nv);
    stats.limit_events.reserve(SimulationStats::kKeptEvents);
    stats.contact_events.reserve(SimulationStats::kKeptEvents);
  }

  // the torque the controller applies at (t, q, v), saturated; tau_total adds friction
  void applied_torque(double t, ConstVec q, ConstVec v, bool count) {
    controller->torque(model, data, t, q, v, tau);
    if (model.floating_base) tau.segment<6>(model.joints[1].idx_v).setZero();  // unactuated
    if (options->saturate) {
      for (int k = 0; k < model.nv; ++k) {
        const double limit = model.effort_limit[k];
        if (limit > 0 && std::abs(tau[k]) > limit) {  // 0: none given (SimulationOptions)
          tau[k] = std::copysign(limit, tau[k]);
          if (count) clipped[k] = 1;
        }
      }
    }
    tau_total = tau;
    if (options->friction) {
      friction_torque(friction, v, tau_f);
      tau_total -= tau_f;
    }
    if (options->external) {
      options->external(t, q, tau_f);
      tau_total += tau_f;
    }
  }

  // a stage of a step: the acceleration under the controller's torque, counted
  void acceleration(double t, ConstVec q, ConstVec v, VecRef a) override {
    applied_torque(t, q, v, true);
    // a state or torque that is no longer finite is a blow-up (reported by the caller), not a
    // singular mass matrix, which is what aba would make of it
    if (!q.allFinite() || !v.allFinite() || !tau_total.allFinite()) {
      a.setConstant(std::numeric_limits<double>::quiet_NaN());
    } else {
      a = accelerations(t, q, v);
    }
    ++stats.evaluations;
  }

  // one step of size h from (t, q0, v0) into delta1, v1 (and q1 for rk45); the derivatives at
  // the start are in the Runge-Kutta stage 0. Returns the rk45 error norm (0 for fixed steps).
  double step(double t, double h) {
    if (!tableau) {
      rk.symplectic_euler_step(h, v0, delta1, v1);
      return 0;
    }
    rk.step(*tableau, *this, t, h, q0, v0, delta1, v1);
    if (!tableau->embedded) return 0;
    integrate(model, q0, delta1, q1);
    return rk.error_norm(q0, q1, v0, v1, options->atol, options->rtol);
  }

  void emit(double t, const OutputFunction& output) {
    if (!output) return;
    // torque and acceleration at the output state, not counted as a step's evaluation
    applied_torque(t, q_out, v_out, false);
    if (contact_step_ended) {
      // after a contact step, its mean acceleration: an impulse has no other
      mean_acceleration = (v_out - v_before) / last_contact_step;
      output(t, q_out, v_out, tau, mean_acceleration);
      return;
    }
    const Eigen::VectorXd& qdd = accelerations(t, q_out, v_out);
    if (options->friction_coefficient > 0 && contacts.dynamics()) contacts.tally_friction(t);
    output(t, q_out, v_out, tau, qdd);
  }

  // the state at the start of the step, (q0, v0), as the output at time `at`
  void emit_state(double at, const OutputFunction& output) {
    q_out = q0;
    v_out = v0;
    emit(at, output);
  }

  // aba at (q, v) with tau_total, or the constrained dynamics with contacts; a singular mass
  // matrix there stops the run (fail)
  const Eigen::VectorXd& accelerations(double t, ConstVec q, ConstVec v) {
    try {
      if (ContactForwardDynamics* constrained = contacts.dynamics()) {
        constrained->solve(q, v, tau_total);
        return constrained->accelerations();
      }
      return aba(model, data, q, v, tau_total);
    } catch (const NumericalError& e) {
      fail(t, e.what(), true);
    }
  }

  // The run cannot go on past t from its last finite state (q0, v0) at t_state: `what` happened
  // (a state no longer finite, or a singular mass matrix). Says whether the motion diverged (the
  // step is too long for the feedback and damping at the last state, or a speed beyond any
  // robot's), which velocity coordinate leads (the largest sqrt(M_kk) |v_k|: the most kinetic
  // energy), and the likely cause; a singular mass matrix met without a divergence is said as
  // the library says it, with the time. Allocates (the path of a failure only).
  [[noreturn]] void fail(double t, const std::string& what, bool singular) {
    constexpr double kDivergedSpeed = 1e6;  // rad/s or m/s: no robot moves so fast
    StepLimit limit;
    try {
      limit = closed_loop_step_limit(model, data, *controller, t_sane, q_sane, *options);
    } catch (const std::exception&) {
      // no analysis at a state where M itself fails: the speed decides
    }
    const bool step_too_long = options->dt > limit.max_step;
    const bool diverged = !singular || step_too_long ||
                          !(v0.array().abs() <= kDivergedSpeed).all() || !q0.allFinite();
    if (!diverged)
      throw NumericalError("simulation stopped at t = " + time_string(t) + " s: " + what);
    Eigen::Index lead = 0;
    v0.cwiseAbs().cwiseProduct(speed_scale).maxCoeff(&lead);
    if (step_too_long && limit.coordinate >= 0) lead = limit.coordinate;
    std::ostringstream s;
    s << "simulation blew up at t = " << time_string(t)
      << " s: " << (singular ? "the mass matrix became singular" : "the state is no longer finite")
      << "; v." << model.v_names[lead] << " diverged first (" << time_string(v0[lead])
      << " at t = " << time_string(t_state) << " s); likely cause: ";
    const std::string sane = "at t = " + time_string(t_sane) +
                             " s (the last state with speeds "
                             "below " +
                             time_string(kSaneSpeed) + ")";
    if (step_too_long) {
      s << "the step " << time_string(options->dt) << " s is too long for the gains and damping "
        << sane << ": their fastest mode (rate " << time_string(limit.rate) << " 1/s, mostly v."
        << model.v_names[limit.coordinate]
        << ") is stable with this integrator only for steps up to " << time_string(limit.max_step)
        << " s (a shorter step, or lower gains)";
    } else {
      s << "not the step (stable up to " << time_string(limit.max_step)
        << " s for the gains and damping " << sane
        << "): the torques and forces drive the motion apart";
      // among the joints' torques: a floating base's free-flyer is unactuated (its tau is 0)
      Eigen::VectorXd applied = tau.cwiseAbs();
      if (model.floating_base) applied.segment<6>(model.joints[1].idx_v).setConstant(-1);
      Eigen::Index k = 0;
      if (applied.maxCoeff(&k) >= 0) {
        s << " (the largest applied torque: tau." << model.tau_names[k] << " = "
          << time_string(tau[k]) << ")";
      }
    }
    throw NumericalError(s.str());
  }

  void check_finite(double t) {
    if (!q1.allFinite() || !v1.allFinite()) fail(t, "", false);
  }

  // 1 below its lower limit, 2 above its upper one, 0 within; with a ground, whose impulse
  // problem holds the joints at their limits to its solver's residual, by more than kLimitHeld
  // (a joint held there is not crossing it)
  int limit_status(int i, ConstVec q) const {
    const int k = model.joints[i].idx_q;
    const double margin = ground ? kLimitHeld : 0;
    if (q[k] < model.lower_limit[k] - margin) return 1;
    if (q[k] > model.upper_limit[k] + margin) return 2;
    return 0;
  }

  // events for the joints whose limit status changed over the step (t, h): q0 -> q1
  void limit_events(double t, double h) {
    for (int i = 1; i < model.njoints; ++i) {
      if (model.joints[i].nv != 1) continue;
      const int now = limit_status(i, q1), before = limit_state[i];
      if (now == before) continue;
      const int k = model.joints[i].idx_q;
      auto crossing = [&](bool upper) {
        const double limit = upper ? model.upper_limit[k] : model.lower_limit[k];
        const double dq = q1[k] - q0[k];
        const double s = dq != 0 ? std::clamp((limit - q0[k]) / dq, 0.0, 1.0) : 1.0;
        return t + s * h;
      };
      if (before != 0) {
        record_event(stats.limit_events, stats.limit_event_count,
                     {crossing(before == 2), i, before == 2, false});
      }
      if (now != 0) {
        record_event(stats.limit_events, stats.limit_event_count,
                     {crossing(now == 2), i, now == 2, true});
      }
      limit_state[i] = now;
    }
  }

  // the step is accepted: count, check, move the state on
  void accept(double t, double h) {
    check_finite(t + h);
    t_state = t + h;
    if ((v1.array().abs() <= kSaneSpeed).all()) {
      q_sane = q1;
      t_sane = t_state;
    }
    if (options->limit_events) limit_events(t, h);
    ++stats.steps;
    if (clipped.any()) {
      ++stats.saturated_steps;
      stats.saturated_per_joint += clipped;
    }
    clipped.setZero();
  }

  // A run starts: its controller, options and scheme, the friction it applies copied into the
  // vectors sized at construction (no allocation), the counters reset, the state (q0, v0), its
  // contacts and its limits.
  void start(Controller& run_controller, ConstVec q_start, ConstVec v_start, double t0,
             const SimulationOptions& run_options) {
    controller = &run_controller;
    options = &run_options;
    tableau = tableau_of(run_options.integrator);
    const Friction& applied =
        run_options.friction_parameters ? *run_options.friction_parameters : urdf_friction;
    detail::check_size(applied.viscous.size(), model.nv, "friction viscous");
    detail::check_size(applied.coulomb.size(), model.nv, "friction coulomb");
    friction.viscous = applied.viscous;
    friction.coulomb = applied.coulomb;
    friction.smoothing = run_options.friction_smoothing;
    stats.steps = stats.rejected = stats.evaluations = stats.saturated_steps = 0;
    stats.saturated_per_joint.setZero();
    stats.limit_events.clear();
    stats.contact_events.clear();
    stats.limit_event_count = stats.contact_event_count = 0;
    stats.impacts = stats.friction_outputs = 0;
    stats.impact_energy_loss = stats.worst_friction = stats.worst_friction_t = 0;
    stats.worst_friction_contact = -1;
    clipped.setZero();
    q0 = q_start;
    v0 = v_start;
    contacts.start(run_options, run_controller, t0, q0, v0);
    start_ground(run_options, run_controller, t0);
    speed_scale = crba(model, data, q0).diagonal().cwiseSqrt();
    for (int i = 1; i < model.njoints; ++i) {
      limit_state[i] = model.joints[i].nv == 1 ? limit_status(i, q0) : 0;
    }
  }

  // With time-stepped contacts (a ground, or a schedule's that slip): their settings; the
  // contacts on the ground (within the margin), or those the schedule closes at t0, start
  // pressing, and the controller is told which do.
  void start_ground(const SimulationOptions& run_options, Controller& run_controller, double t0) {
    ground.reset();
    touching = contact_step_ended = false;
    landing_first = -1;
    if (!time_stepped_contacts(run_options)) return;
    const bool scheduled = !run_options.ground;
    if (run_options.integrator == Integrator::rk45) {
      throw InputError(std::string(scheduled ? "the schedule's slipping" : "the ground's") +
                       " contacts are time-stepped with a fixed step, which rk45 does not take");
    }
    ground.emplace(model, *run_options.contacts,
                   scheduled ? "on a schedule with friction" : "on the ground");
    TimeSteppingSettings settings;
    if (scheduled) settings.normal = run_options.friction_normal;
    settings.ground = scheduled ? 0 : *run_options.ground;
    settings.friction_coefficient = run_options.friction_coefficient;
    settings.friction_facets = run_options.friction_facets;
    settings.restitution = run_options.restitution;
    settings.penetration_fraction = run_options.penetration_fraction;
    settings.contact_margin = run_options.ground_tolerance;
    ground->start(settings, q0, scheduled ? &contacts.scheduled(t0, 0) : nullptr);
    pressing.assign(run_options.contacts->contacts.size(), 0);
    for (std::size_t k = 0; k < pressing.size(); ++k) {
      pressing[k] = ground->heights()[static_cast<Eigen::Index>(k)] <= settings.contact_margin;
      touching |= pressing[k] != 0;
      run_controller.contacts_changed(static_cast<int>(k), pressing[k] != 0);
    }
  }

  // With a ground, the step (t, h) from (q0, v0) into (q1, v1): the integrator's (free flight)
  // when no contact pressed in the step before and none ends it on or below the ground; else
  // one contact step, the impulse problem of time_stepping_contacts.hpp (first order).
  void ground_step(double t, double h) {
    contact_step_ended = false;
    if (!touching) {
      step(t, h);
      integrate(model, q0, delta1, q1);
      if (!q1.allFinite() || !v1.allFinite() || ground->clear_of_ground(q1)) return;
    }
    contact_step_ended = true;
    last_contact_step = h;
    v_before = v0;
    const double energy_before = total_energy(model, data, q0, v0);
    applied_torque(t, q0, v0, true);
    ++stats.evaluations;
    if (!tau_total.allFinite()) {
      v1.setConstant(std::numeric_limits<double>::quiet_NaN());  // a blow-up (check_finite)
      return;
    }
    try {
      ground->step(q0, v0, tau_total, h, q1, v1);
    } catch (const NumericalError& e) {
      fail(t, e.what(), true);
    }
    // the mechanical energy the contacts took: T + V before, plus the work of the applied
    // forces over the step (at the step's mean velocity), minus T + V after
    const double work = 0.5 * h * (tau_total.dot(v0) + tau_total.dot(v1));
    pressing_changes(t + h, energy_before + work - total_energy(model, data, q1, v1));
  }

  // The contacts that began or stopped pressing in the contact step that ended at t, which took
  // `lost` of the mechanical energy: told to the controller and recorded. A touchdown's impact
  // takes the energy its step and the next one lose (landing_first).
  void pressing_changes(double t, double lost) {
    if (landing_first >= 0) {
      stats.impact_energy_loss += lost;
      for (std::size_t e = landing_first; e < stats.contact_events.size(); ++e) {
        if (stats.contact_events[e].closes) stats.contact_events[e].energy_loss += lost;
      }
      landing_first = -1;
      lost = 0;
    }
    const std::vector<char>& now = ground->active();
    const long first = stats.contact_event_count;
    bool closed = false;
    touching = false;
    for (std::size_t k = 0; k < now.size(); ++k) {
      touching |= now[k] != 0;
      if (now[k] == pressing[k]) continue;
      pressing[k] = now[k];
      const bool closes = now[k] != 0;
      controller->contacts_changed(static_cast<int>(k), closes);
      record_event(stats.contact_events, stats.contact_event_count,
                   {t, static_cast<int>(k), closes, closes ? lost : 0});
      closed |= closes;
    }
    touching |= ground->limits_pressing();  // a joint held at its limit stays in contact steps
    if (!closed) return;
    ++stats.impacts;
    stats.impact_energy_loss += lost;
    landing_first = first;
  }

  // One fixed step from t: of size dt, shortened to land on the next output time and on t_end
  // (times within eps count as equal). Emits the outputs due at the new time, evaluates the
  // derivatives there for the next step and returns it.
  double fixed_step(double t, double t_end, double eps, const OutputTimes& output_times,
                    size_t& next, const OutputFunction& output) {
    double h = std::min(options->dt, t_end - t);
    if (next < output_times.size() && output_times[next] < t + h - eps) {
      h = output_times[next] - t;
    }
    const double change = contacts.next_switch(t, eps);
    if (change < t + h - eps) h = change - t;
    if (ground) {
      ground_step(t, h);
    } else {
      step(t, h);
      integrate(model, q0, delta1, q1);
    }
    accept(t, h);
    t += h;
    // a step's end is snapped to the times it aimed at
    if (next < output_times.size() && std::abs(output_times[next] - t) <= eps)
      t = output_times[next];
    if (std::abs(change - t) <= eps) t = change;
    if (std::abs(t_end - t) <= eps) t = t_end;
    q0.swap(q1);
    v0.swap(v1);
    contacts.resolve(t, eps, q0, v0);
    if (ground && options->schedule) contacts.follow_stepped(t, eps, q0, *ground, pressing);
    while (next < output_times.size() && output_times[next] <= t + eps) {
      emit_state(t, output);
      ++next;
    }
    rk.start(*this, t, q0, v0);
    return t;
  }

  // One rk45 trial step of size h (at most max_step, not past t_end) from t: accepted when the
  // error norm is at most 1, with the outputs within it from the dense output; then the step-size
  // control of Hairer et al. I, II.4 makes h the next trial size. Returns the time reached (t
  // itself after a rejection); throws when h falls below min_step_relative.
  double adaptive_step(double t, double& h, double t_end, double eps,
                       const OutputTimes& output_times, size_t& next,
                       const OutputFunction& output) {
    const double change = contacts.next_switch(t, eps);
    h = std::min({h, options->max_step, t_end - t, change - t});
    const double err = step(t, h);
    const bool ok = std::isfinite(err) && err <= 1;
    if (ok) {
      accept(t, h);
      double t1 = t + h;
      if (std::abs(change - t1) <= eps) t1 = change;
      if (t_end - t1 <= eps) t1 = t_end;
      // outputs within the step by the dense output
      while (next < output_times.size() && output_times[next] <= t1 + eps) {
        const double theta = std::clamp((output_times[next] - t) / h, 0.0, 1.0);
        rk.dense(*tableau, theta, h, v0, delta1, v1, delta_out, v_out);
        integrate(model, q0, delta_out, q_out);
        emit(output_times[next], output);
        ++next;
      }
      t = t1;
      q0.swap(q1);
      v0.swap(v1);
      if (contacts.resolve(t, eps, q0, v0)) {
        rk.start(*this, t, q0, v0);
      } else {
        // FSAL: the last stage was evaluated at the new state
        rk.reuse_last_stage(*tableau, v0);
      }
    } else {
      ++stats.rejected;
    }
    // 0.9 err^(-1/5), within [0.2, 5]
    const double factor = !std::isfinite(err) ? 0.2
                          : err == 0          ? 5.0
                                              : std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0);
    h *= ok ? factor : std::min(factor, 1.0);
    if (t < t_end - eps && h < options->min_step_relative * std::max(1.0, std::abs(t))) {
      step_size_underflow(t, h);
    }
    return t;
  }

  // the adaptive step size fell below its floor: name the coordinate with the largest scaled
  // error (or the first that is no longer finite)
  [[noreturn]] void step_size_underflow(double t, double h) const {
    Eigen::Index k = rk.largest_error();
    if (!v1.allFinite() || !delta1.allFinite()) {
      for (k = 0; k < model.nv; ++k) {
        if (!std::isfinite(v1[k]) || !std::isfinite(delta1[k])) break;
      }
      if (k == model.nv) k = 0;
    }
    throw NumericalError("simulation failed at t = " + time_string(t) +
                         " s: the step size fell to " + time_string(h) + " s (joint '" +
                         model.joint_names[joint_of_v[k]] +
                         "' has the largest error; the motion is too stiff or diverges)");
  }
};

Simulator::Simulator(const Model& model) : impl_(std::make_unique<Impl>(model)) {}
Simulator::~Simulator() = default;
const Eigen::VectorXd& Simulator::q() const { return impl_->q0; }
const Eigen::VectorXd& Simulator::v() const { return impl_->v0; }
const Eigen::VectorXd& Simulator::contact_forces() const {
  return impl_->ground ? impl_->ground->forces() : impl_->contacts.forces();
}
const std::vector<char>& Simulator::contact_active() const {
  return impl_->ground ? impl_->pressing : impl_->contacts.active();
}
const SimulationStats& Simulator::stats() const { return impl_->stats; }
Data& Simulator::data() { return impl_->data; }

const SimulationStats& Simulator::run(Controller& controller, ConstVec q0, ConstVec v0, double t0,
                                      double t_end, const SimulationOptions& options,
                                      const OutputTimes& output_times,
                                      const OutputFunction& output) {
  Impl& s = *impl_;
  detail::check_size(q0.size(), s.model.nq, "q0");
  detail::check_size(v0.size(), s.model.nv, "v0");
  if (!(options.dt > 0)) throw InputError("the time step must be positive");
  if (!(t_end >= t0)) throw InputError("the end time must not precede the start time");
  if (options.integrator != Integrator::rk45) check_time_resolution(t0, t_end, options.dt);
  s.t_state = s.t_sane = t0;
  s.start(controller, q0, v0, t0, options);
  s.q_sane = s.q0;

  const bool adaptive = options.integrator == Integrator::rk45;
  // times closer than this count as equal (steps landing on output times, the end): a fraction
  // of the step, or of the run when it is shorter than one step, so that it always takes one
  const double eps =
      adaptive ? detail::kSameTimeAdaptive * std::max({1.0, std::abs(t0), std::abs(t_end)})
               : detail::kSameTimeFixed * std::min(options.dt, t_end - t0);
  size_t next = 0;
  while (next < output_times.size() && output_times[next] < t0 - eps) ++next;
  double t = t0;
  if (next < output_times.size() && output_times[next] <= t0 + eps) {
    s.emit_state(t0, output);
    while (next < output_times.size() && output_times[next] <= t0 + eps) ++next;
  }

  // derivatives at the start
  s.rk.start(s, t, s.q0, s.v0);
  double h = adaptive ? std::min(options.dt, options.max_step) : options.dt;
  while (t < t_end - eps) {
    t = adaptive ? s.adaptive_step(t, h, t_end, eps, output_times, next, output)
                 : s.fixed_step(t, t_end, eps, output_times, next, output);
    if (options.released) options.released(s.t_sane);
  }
  s.stats.t = t;
  // outputs at the very end (rounding)
  while (next < output_times.size() && output_times[next] <= t_end + eps) {
    s.emit_state(t_end, output);
    ++next;
  }
  return s.stats;
}

}  // namespace eom
