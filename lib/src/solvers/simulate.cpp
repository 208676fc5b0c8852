#include "eom/solvers/simulate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/configuration.hpp"
#include "eom/core/errors.hpp"
#include "eom/solvers/step_stability.hpp"
#include "core/sizes.hpp"

namespace eom {

// ---- controllers ----

void ZeroTorque::torque(const Model&, Data&, double, ConstVec, ConstVec, VecRef tau) {
  tau.setZero();
}

void ConstantTorque::torque(const Model&, Data&, double, ConstVec, ConstVec, VecRef tau) {
  tau = tau_;
}

void GravityCompensation::torque(const Model& model, Data& data, double, ConstVec q, ConstVec,
                                 VecRef tau) {
  tau = gravity_torque(model, data, q);
}

ReferenceFunction set_point(Eigen::VectorXd q_ref) {
  return [q_ref = std::move(q_ref)](double, VecRef q, VecRef v, VecRef a) {
    q = q_ref;
    v.setZero();
    a.setZero();
  };
}

namespace {
void check_gains(const Model& model, const Eigen::VectorXd& kp, const Eigen::VectorXd& kd) {
  detail::check_size(kp.size(), model.nv, "Kp");
  detail::check_size(kd.size(), model.nv, "Kd");
}
}  // namespace

PD::PD(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp, Eigen::VectorXd kd,
       bool gravity_compensation)
    : reference_(std::move(reference)),
      kp_(std::move(kp)),
      kd_(std::move(kd)),
      q_ref_(model.nq),
      v_ref_(model.nv),
      a_ref_(model.nv),
      e_(model.nv),
      gravity_compensation_(gravity_compensation) {
  check_gains(model, kp_, kd_);
}

void PD::torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v, VecRef tau) {
  reference_(t, q_ref_, v_ref_, a_ref_);
  difference(model, q, q_ref_, e_);  // e = q_ref (-) q
  tau = kp_.cwiseProduct(e_) + kd_.cwiseProduct(v_ref_ - v);
  if (gravity_compensation_) tau += gravity_torque(model, data, q);
}

void PD::feedback(const Model&, Data&, double, ConstVec, Eigen::MatrixXd& K, Eigen::MatrixXd& D) {
  K = kp_.asDiagonal();
  D = kd_.asDiagonal();
}

ComputedTorque::ComputedTorque(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp,
                               Eigen::VectorXd kd, const ContactSet* contacts)
    : reference_(std::move(reference)),
      kp_(std::move(kp)),
      kd_(std::move(kd)),
      q_ref_(model.nq),
      v_ref_(model.nv),
      a_ref_(model.nv),
      e_(model.nv),
      command_(model.nv) {
  check_gains(model, kp_, kd_);
  if (contacts) {
    contacts_.emplace(model, *contacts, ContactForceRule::min_norm);
    closed_.assign(contacts->contacts.size(), 1);
  }
}

void ComputedTorque::torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v,
                            VecRef tau) {
  reference_(t, q_ref_, v_ref_, a_ref_);
  difference(model, q, q_ref_, e_);
  // the commanded acceleration, then tau = M command + nle (ETH Robot Dynamics notes, section 3.8)
  command_ = a_ref_ + kd_.cwiseProduct(v_ref_ - v) + kp_.cwiseProduct(e_);
  if (!contacts_) {
    crba(model, data, q);
    tau.noalias() = data.M * command_;
    tau += nonlinear_effects(model, data, q, v);
    return;
  }
  // the contact Jacobians reuse the joint placements of rnea's pass
  const Eigen::VectorXd& b = rnea(model, data, q, v, command_);
  // shared over the closed contacts; in flight (none closed) over all of them, the feet it
  // expects to land on: the legs then reach for the ground as they did when it stood, where
  // joint torques planned for no contact at all fold them under a falling base
  ContactJacobian& jacobian = contacts_->jacobian();
  const bool flight = std::find(closed_.begin(), closed_.end(), 1) == closed_.end();
  for (std::size_t k = 0; k < closed_.size(); ++k) {
    jacobian.set_active(static_cast<int>(k), flight || closed_[k]);
  }
  contacts_->solve(data, b);
  tau = contacts_->torques();
}

void ComputedTorque::contacts_changed(int contact, bool closed) {
  if (!contacts_) return;
  if (contact < 0 || contact >= static_cast<int>(contacts_->contacts().contacts.size())) {
    throw InputError("contact " + std::to_string(contact) +
                     " is not one of the computed-torque controller's contacts");
  }
  closed_[contact] = closed ? 1 : 0;
}

const Eigen::VectorXd& ComputedTorque::contact_forces() const {
  return contacts_ ? contacts_->forces() : no_forces_;
}

void ComputedTorque::feedback(const Model& model, Data& data, double, ConstVec q,
                              Eigen::MatrixXd& K, Eigen::MatrixXd& D) {
  const Eigen::MatrixXd& M = crba(model, data, q);
  K = M * kp_.asDiagonal();
  D = M * kd_.asDiagonal();
}

double total_energy(const Model& model, Data& data, ConstVec q, ConstVec v) {
  return kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
}

// ---- the simulator ----

namespace {

// One event into a run's record (SimulationStats): kept while fewer than kKeptEvents are, always
// counted.
template <class Event>
void record(std::vector<Event>& kept, long& count, const Event& event) {
  if (kept.size() < SimulationStats::kKeptEvents) kept.push_back(event);
  ++count;
}

// Dormand and Prince 5(4) (Hairer, Norsett, Wanner, Solving ODEs I, Table II.5.2): nodes, stage
// coefficients, the 5th-order weights (= the last stage row: FSAL), the error weights b - b*, and
// the dense-output coefficients of Hairer's DOPRI5 (CONTD5).
constexpr std::array<double, 7> kC = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
constexpr double kA[7][6] = {
    {0, 0, 0, 0, 0, 0},
    {1.0 / 5, 0, 0, 0, 0, 0},
    {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
    {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
constexpr std::array<double, 7> kE = {71.0 / 57600,      0,          -71.0 / 16695, 71.0 / 1920,
                                      -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
constexpr std::array<double, 7> kDense = {
    -12715105075.0 / 11282082432.0,  0,
    87487479700.0 / 32700410799.0,   -10690763975.0 / 1880347072.0,
    701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
    69997945.0 / 29380423.0};

std::string time_string(double t) {
  std::ostringstream s;
  s.precision(9);
  s << t;
  return s.str();
}

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

}  // namespace

OutputTimes OutputTimes::grid(double t0, double duration, double step) {
  check_time_resolution(t0, t0 + duration, step);
  OutputTimes times;
  // the relative 1e-12 keeps a whole number of steps whole: 0.3 / 0.1 is 2.9999999999999996
  times.steps_ = static_cast<std::size_t>(std::floor(duration / step * (1 + 1e-12))) + 1;
  times.t0_ = t0;
  times.step_ = step;
  times.end_ = t0 + duration;
  const double last = t0 + static_cast<double>(times.steps_ - 1) * step;
  times.size_ = times.steps_ + (times.end_ - last > 1e-9 * step ? 1 : 0);
  return times;
}

struct Simulator::Impl {
  const Model& model;
  Data data;
  const Friction urdf_friction;
  Friction friction;  // what this run applies
  std::vector<int> joint_of_v, joint_of_q;
  // state at the start of the step, and the step's result
  Eigen::VectorXd q0, v0, q1, delta1, v1;
  // stage values and derivatives: kd = d delta / dt, kv = dv / dt
  Eigen::VectorXd delta_s, v_s, q_s, tau, tau_total, tau_f, err_d, err_v;
  std::array<Eigen::VectorXd, 7> kd, kv;
  // outputs
  Eigen::VectorXd q_out, v_out, delta_out, kd_out, kv_out;
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
  std::optional<ContactForwardDynamics> contact_dynamics;  // with contacts
  // Contact events that follow each other within kChatterWindow, kChatterEvents of them in a
  // row, cannot settle: a held point whose normal force pulls and that, released, moves into the
  // ground (a sticking 3d contact can need both: its tangential constraint couples into the
  // normal force). Resolving that needs slip, which is not simulated: the run stops there rather
  // than spin through events a fraction of a nanosecond apart.
  static constexpr double kChatterWindow = 1e-9;  // s
  static constexpr int kChatterEvents = 100;
  double last_event_t = -std::numeric_limits<double>::infinity();
  int events_in_a_row = 0;
  int last_event_contact = 0;  // the contact of the last event recorded
  const Eigen::VectorXd no_forces;
  // Contacts made and broken during the run: on a ground, or by a schedule
  enum class ContactMode { none, held, ground, schedule };
  ContactMode contact_mode = ContactMode::none;
  std::optional<ContactImpact> impact;
  std::vector<char> active, closing;   // per contact: closed; closing at this event
  Eigen::VectorXd heights0, heights1;  // above the ground, at the start and end of a step
  Data frames;                         // the heights' workspace
  const double weight;                 // N: what a pulling force is compared with

  explicit Impl(const Model& m)
      : model(m),
        data(m),
        urdf_friction(Friction::from_model(m)),
        friction(urdf_friction),
        frames(m),
        weight(m.total_mass * m.gravity.norm()) {
    const int nq = m.nq, nv = m.nv;
    joint_of_v.assign(nv, 0);
    joint_of_q.assign(nq, 0);
    for (int i = 1; i < m.njoints; ++i) {
      const Joint& j = m.joints[i];
      for (int k = 0; k < j.nv; ++k) joint_of_v[j.idx_v + k] = i;
      for (int k = 0; k < j.nq; ++k) joint_of_q[j.idx_q + k] = i;
    }
    for (Eigen::VectorXd* x : {&q0, &q1, &q_s, &q_out, &q_sane}) x->setZero(nq);
    for (Eigen::VectorXd* x : {&v0, &delta1, &v1, &delta_s, &v_s, &tau, &tau_total, &tau_f, &err_d,
                               &err_v, &v_out, &delta_out, &kd_out, &kv_out, &speed_scale}) {
      x->setZero(nv);
    }
    for (int s = 0; s < 7; ++s) {
      kd[s].setZero(nv);
      kv[s].setZero(nv);
    }
    clipped.setZero(nv);
    limit_state.setZero(m.njoints);
    stats.saturated_per_joint.setZero(nv);
    stats.limit_events.reserve(SimulationStats::kKeptEvents);
    stats.contact_events.reserve(SimulationStats::kKeptEvents);
  }

  // d delta / dt = dexp^-1_{-delta}(v) = v + 1/2 [delta, v] + 1/12 [delta, [delta, v]] + O(delta^4)
  // (Bernoulli numbers; B3 = 0, so this keeps order 5) for the joints of several dofs, whose
  // groups (SE(3), SE(2), SO(3)) do not commute; [x, y] is the spatial cross product (ad).
  void dexp_inv(ConstVec delta, ConstVec v, VecRef out) const {
    out = v;
    for (int i = 1; i < model.njoints; ++i) {
      const Joint& j = model.joints[i];
      if (j.nv == 1) continue;
      const Motion th = Motion::from(j.S * delta.segment(j.idx_v, j.nv));
      const Motion xi = Motion::from(j.S * v.segment(j.idx_v, j.nv));
      const Motion a1 = cross(th, xi);
      const Motion a2 = cross(th, a1);
      const Motion r = xi + a1 * 0.5 + a2 * (1.0 / 12);
      // S has orthonormal columns and the brackets stay in its span
      out.segment(j.idx_v, j.nv).noalias() = j.S.transpose() * r.vector();
    }
  }

  // the torque the controller applies at (t, q, v), saturated; tau_total adds friction
  void applied_torque(double t, ConstVec q, ConstVec v, bool count) {
    controller->torque(model, data, t, q, v, tau);
    if (model.floating_base) tau.segment<6>(model.joints[1].idx_v).setZero();  // unactuated
    if (options->saturate) {
      for (int k = 0; k < model.nv; ++k) {
        const double limit = model.effort_limit[k];
        if (std::abs(tau[k]) > limit) {
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

  // the derivatives at the stage q0 (+) delta, v
  void eval(double t, ConstVec delta, ConstVec v, VecRef kd_out_, VecRef kv_out_, bool count) {
    integrate(model, q0, delta, q_s);
    dexp_inv(delta, v, kd_out_);
    applied_torque(t, q_s, v, count);
    // a state or torque that is no longer finite is a blow-up (reported by the caller), not a
    // singular mass matrix, which is what aba would make of it
    if (!q_s.allFinite() || !v.allFinite() || !tau_total.allFinite()) {
      kv_out_.setConstant(std::numeric_limits<double>::quiet_NaN());
    } else {
      kv_out_ = accelerations(t, q_s, v);
    }
    if (count) ++stats.evaluations;
  }

  // stage s: delta_s = h sum_j a_sj kd_j, v_s = v0 + h sum_j a_sj kv_j
  void stage_state(int s, double h) {
    delta_s.setZero();
    v_s = v0;
    for (int j = 0; j < s; ++j) {
      const double w = h * kA[s][j];
      if (w == 0) continue;
      delta_s += w * kd[j];
      v_s += w * kv[j];
    }
  }

  // one step of size h from (t, q0, v0) into delta1, v1; kd[0], kv[0] hold the derivatives at
  // the start (filled by the caller). Returns the rk45 error norm (0 for fixed steps).
  double step(double t, double h) {
    switch (options->integrator) {
      case Integrator::euler:
        delta1 = h * kd[0];
        v1 = v0 + h * kv[0];
        return 0;
      case Integrator::semi_implicit_euler:
        v1 = v0 + h * kv[0];
        delta1 = h * v1;
        return 0;
      case Integrator::rk4: {
        delta_s = (0.5 * h) * kd[0];
        v_s = v0 + (0.5 * h) * kv[0];
        eval(t + 0.5 * h, delta_s, v_s, kd[1], kv[1], true);
        delta_s = (0.5 * h) * kd[1];
        v_s = v0 + (0.5 * h) * kv[1];
        eval(t + 0.5 * h, delta_s, v_s, kd[2], kv[2], true);
        delta_s = h * kd[2];
        v_s = v0 + h * kv[2];
        eval(t + h, delta_s, v_s, kd[3], kv[3], true);
        delta1 = (h / 6) * (kd[0] + 2 * kd[1] + 2 * kd[2] + kd[3]);
        v1 = v0 + (h / 6) * (kv[0] + 2 * kv[1] + 2 * kv[2] + kv[3]);
        return 0;
      }
      case Integrator::rk45: {
        for (int s = 1; s < 7; ++s) {
          stage_state(s, h);
          eval(t + kC[s] * h, delta_s, v_s, kd[s], kv[s], true);
        }
        // the last stage is the 5th-order solution (FSAL)
        delta1 = delta_s;
        v1 = v_s;
        err_d.setZero();
        err_v.setZero();
        for (int s = 0; s < 7; ++s) {
          if (kE[s] == 0) continue;
          err_d += (h * kE[s]) * kd[s];
          err_v += (h * kE[s]) * kv[s];
        }
        integrate(model, q0, delta1, q1);
        double sum = 0;
        for (int i = 1; i < model.njoints; ++i) {
          const Joint& j = model.joints[i];
          for (int k = 0; k < j.nv; ++k) {
            const int iv = j.idx_v + k;
            // a 1-DoF joint's position relative to its coordinate; others (rotations, metres)
            // relative to 1
            const double x =
                j.nv == 1 ? std::max(std::abs(q0[j.idx_q]), std::abs(q1[j.idx_q])) : 1.0;
            const double sd = err_d[iv] / (options->atol + options->rtol * x);
            const double sv =
                err_v[iv] /
                (options->atol + options->rtol * std::max(std::abs(v0[iv]), std::abs(v1[iv])));
            sum += sd * sd + sv * sv;
          }
        }
        return std::sqrt(sum / (2.0 * std::max(1, model.nv)));
      }
    }
    return 0;
  }

  // the dense-output state at theta in [0, 1] of the accepted rk45 step (t, h), into
  // delta_out, v_out (Hairer's CONTD5)
  void dense(double theta, double h) {
    const double t1 = 1 - theta;
    for (int k = 0; k < model.nv; ++k) {
      auto one = [&](double y0, double y1, const std::array<Eigen::VectorXd, 7>& K) {
        const double r2 = y1 - y0;
        const double r3 = h * K[0][k] - r2;
        const double r4 = r2 - h * K[6][k] - r3;
        double r5 = 0;
        for (int s = 0; s < 7; ++s) r5 += kDense[s] * K[s][k];
        r5 *= h;
        return y0 + theta * (r2 + t1 * (r3 + theta * (r4 + t1 * r5)));
      };
      delta_out[k] = one(0.0, delta1[k], kd);
      v_out[k] = one(v0[k], v1[k], kv);
    }
  }

  void emit(double t, const OutputFunction& output) {
    if (!output) return;
    // torque and acceleration at the output state, not counted as a step's evaluation
    applied_torque(t, q_out, v_out, false);
    const Eigen::VectorXd& qdd = accelerations(t, q_out, v_out);
    if (options->friction_coefficient > 0 && contact_dynamics) tally_friction(t);
    output(t, q_out, v_out, tau, qdd);
  }

  // The friction the closed contacts need at the output just solved, |f_t| / f_n (infinite for a
  // force that does not press, f_n <= 0), against the coefficient.
  void tally_friction(double t) {
    const ContactSet& set = *options->contacts;
    const Eigen::VectorXd& f = contact_dynamics->forces();
    const Vec3 n = options->ground ? Vec3::UnitZ() : options->friction_normal;
    bool over = false;
    for (std::size_t k = 0; k < set.contacts.size(); ++k) {
      if (!active[k] || set.contacts[k].kind == ContactKind::normal) continue;
      const Vec3 force = f.segment<3>(set.offset(static_cast<int>(k)));
      const double normal = n.dot(force);
      const double tangential = (force - normal * n).norm();
      const double ratio = normal > 0                  ? tangential / normal
                           : force.squaredNorm() > 0.0 ? std::numeric_limits<double>::infinity()
                                                       : 0.0;
      over |= ratio > options->friction_coefficient;
      if (ratio > stats.worst_friction) {
        stats.worst_friction = ratio;
        stats.worst_friction_t = t;
        stats.worst_friction_contact = static_cast<int>(k);
      }
    }
    if (over) ++stats.friction_outputs;
  }

  // aba at (q, v) with tau_total, or the constrained dynamics with held contacts; a singular
  // mass matrix there stops the run (fail)
  const Eigen::VectorXd& accelerations(double t, ConstVec q, ConstVec v) {
    try {
      if (contact_dynamics) {
        contact_dynamics->solve(q, v, tau_total);
        return contact_dynamics->accelerations();
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
      Eigen::Index k = 0;
      tau.cwiseAbs().maxCoeff(&k);
      s << "not the step (stable up to " << time_string(limit.max_step)
        << " s for the gains and damping " << sane
        << "): the torques and forces drive the motion apart "
           "(the largest applied torque: tau."
        << model.tau_names[k] << " = " << time_string(tau[k]) << ")";
    }
    throw NumericalError(s.str());
  }

  void check_finite(double t) {
    if (!q1.allFinite() || !v1.allFinite()) fail(t, "", false);
  }

  int limit_status(int i, ConstVec q) const {
    const int k = model.joints[i].idx_q;
    if (q[k] < model.lower_limit[k]) return 1;
    if (q[k] > model.upper_limit[k]) return 2;
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
        record(stats.limit_events, stats.limit_event_count,
               {crossing(before == 2), i, before == 2, false});
      }
      if (now != 0) {
        record(stats.limit_events, stats.limit_event_count,
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

  // A run starts: its controller and options, the friction it applies copied into the vectors
  // sized at construction (no allocation), the counters reset, the state (q0, v0) and its limits.
  void start(Controller& run_controller, ConstVec q_start, ConstVec v_start, double t0,
             const SimulationOptions& run_options) {
    controller = &run_controller;
    options = &run_options;
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
    last_event_t = -std::numeric_limits<double>::infinity();
    events_in_a_row = 0;
    stats.impacts = stats.friction_outputs = 0;
    stats.impact_energy_loss = stats.worst_friction = stats.worst_friction_t = 0;
    stats.worst_friction_contact = -1;
    clipped.setZero();
    q0 = q_start;
    v0 = v_start;
    contact_dynamics.reset();
    impact.reset();
    contact_mode = ContactMode::none;
    active.clear();
    if (run_options.contacts && !run_options.contacts->contacts.empty()) {
      contact_dynamics.emplace(model, *run_options.contacts);
      contact_dynamics->set_baumgarte(run_options.baumgarte_kp, run_options.baumgarte_kd);
      active.assign(run_options.contacts->contacts.size(), 1);
      // a controller used before may hold another closed set: every contact starts closed
      for (std::size_t k = 0; k < active.size(); ++k)
        controller->contacts_changed(static_cast<int>(k), true);
      start_contacts(t0);
    }
    speed_scale = crba(model, data, q0).diagonal().cwiseSqrt();
    for (int i = 1; i < model.njoints; ++i) {
      limit_state[i] = model.joints[i].nv == 1 ? limit_status(i, q0) : 0;
    }
  }

  // Held contacts start at rest: the constrained dynamics keep J_c v where it starts (they hold
  // J_c a + drift = 0), so a contact moving at the start would slide through the run. 1e-9 m/s
  // (or rad/s) per unit of the largest speed is round-off.
  void check_contacts_at_rest() {
    ContactJacobian& contacts = contact_dynamics->jacobian();
    contacts.compute(q0);
    const Eigen::VectorXd moving = contacts.jacobian() * v0;
    Eigen::Index worst = 0;
    if (moving.size() == 0 ||
        moving.cwiseAbs().maxCoeff(&worst) <= 1e-9 * std::max(1.0, v0.cwiseAbs().maxCoeff())) {
      return;
    }
    const ContactSet& set = contacts.contacts();
    int k = 0;
    while (k + 1 < static_cast<int>(set.contacts.size()) && set.offset(k + 1) <= worst) ++k;
    throw InputError("the initial velocity moves the held contact '" +
                     model.frames[set.contacts[k].frame].name + "' (" + time_string(moving[worst]) +
                     " m/s or rad/s): a held contact starts at rest");
  }

  // ---- contacts made and broken (SimulationOptions::ground, ::schedule) ----

  // Contacts that close or open during the run start open, then close as the ground or the
  // schedule says at t0 (an impact when they move).
  void start_contacts(double t0) {
    const ContactSet& set = *options->contacts;
    const int n = static_cast<int>(set.contacts.size());
    if (options->ground && options->schedule) {
      throw InputError("contacts are on a ground or follow a schedule, not both");
    }
    contact_mode = options->ground     ? ContactMode::ground
                   : options->schedule ? ContactMode::schedule
                                       : ContactMode::held;
    if (contact_mode == ContactMode::held) return check_contacts_at_rest();
    impact.emplace(model, set);
    active.assign(n, 1);
    closing.assign(n, 0);
    for (int k = 0; k < n; ++k) set_active(k, false);
    if (contact_mode == ContactMode::schedule) {
      const ContactSchedule& schedule = *options->schedule;
      if (schedule.times.empty() || schedule.active.size() != schedule.times.size())
        throw InputError("the contact schedule has no rows, or not one set of flags per time");
      for (const auto& row : schedule.active) {
        detail::check_size(static_cast<Eigen::Index>(row.size()), n, "schedule row");
      }
      schedule_events(t0, 0);
      return;
    }
    heights0.setZero(n);
    heights1.setZero(n);
    contact_heights(q0, heights0);
    for (int k = 0; k < n; ++k) {
      const std::string name = "'" + model.frames[set.contacts[k].frame].name + "'";
      if (set.contacts[k].kind != ContactKind::point) {
        throw InputError("contact " + name + " on the ground is not a point (3d) contact");
      }
      if (heights0[k] < -options->ground_tolerance) {
        throw InputError("contact " + name + " starts " + time_string(-heights0[k]) +
                         " m below the ground");
      }
    }
    ground_events(t0);
  }

  // contact k opens or closes: for the dynamics, the impacts and the controller
  void set_active(int k, bool on) {
    active[k] = on ? 1 : 0;
    contact_dynamics->jacobian().set_active(k, on);
    impact->jacobian().set_active(k, on);
    controller->contacts_changed(k, on);
  }

  // the contacts' heights above the ground at q
  void contact_heights(ConstVec q, Eigen::VectorXd& heights) {
    frame_placements(model, frames, q);
    const ContactSet& set = *options->contacts;
    for (std::size_t k = 0; k < set.contacts.size(); ++k) {
      heights[k] = frames.oMf[set.contacts[k].frame].p.z() - *options->ground;
    }
  }

  // The closed contact whose normal force (world z) in f pulls most, below -1e-12 of `scale`
  // plus the forces' size (round-off; a force growing by the weight per second crosses it within
  // 1e-12 s of zero); -1 when none pulls.
  int most_pulling(const Eigen::VectorXd& f, double scale) const {
    const ContactSet& set = *options->contacts;
    double least = -1e-12 * (scale + f.cwiseAbs().sum());
    int worst = -1;
    for (std::size_t k = 0; k < set.contacts.size(); ++k) {
      const double normal = f[set.offset(static_cast<int>(k)) + 2];
      if (active[k] && normal < least) {
        least = normal;
        worst = static_cast<int>(k);
      }
    }
    return worst;
  }

  // Whether the step to (t1, q1, v1) crossed an event of the ground: an open point below it
  // (below where the step started, when that was already below by round-off), or a closed one
  // whose normal force pulls. heights0: at the step's start.
  bool event_by(double t1) {
    if (!q1.allFinite() || !v1.allFinite()) return false;  // a blow-up, reported by accept()
    contact_heights(q1, heights1);
    bool any_closed = false;
    for (Eigen::Index k = 0; k < heights1.size(); ++k) {
      if (active[k]) {
        any_closed = true;
      } else if (heights1[k] < std::min(0.0, heights0[k])) {
        return true;
      }
    }
    if (!any_closed) return false;
    applied_torque(t1, q1, v1, false);
    accelerations(t1, q1, v1);
    return most_pulling(contact_dynamics->forces(), weight) >= 0;
  }

  // Whether the step (t, h), whose result is in (q1, v1), crossed an event of the ground.
  bool crossed_event(double t, double h) {
    if (contact_mode != ContactMode::ground) return false;
    contact_heights(q0, heights0);
    return event_by(t + h);
  }

  // The step (t, h) crossed an event: bisection on the step's length for the first time at which
  // one has happened, within event_tolerance (or a few resolution units of t). Leaves that step's
  // result (delta1, v1, q1, and rk45's stages for its dense output) and returns its length.
  double locate_event(double t, double h) {
    const double end = std::abs(t) + h;
    const double tolerance =
        std::max(options->event_tolerance, 4 * (std::nextafter(end, INFINITY) - end));
    double before = 0, after = h;
    while (after - before > tolerance) {
      const double mid = 0.5 * (before + after);
      step(t, mid);
      integrate(model, q0, delta1, q1);
      (event_by(t + mid) ? after : before) = mid;
    }
    step(t, after);
    integrate(model, q0, delta1, q1);
    return after;
  }

  // At an event of the ground at t, state (q0, v0): the open points on the ground (within
  // ground_tolerance) and not leaving it close, by one impact; then the closed ones whose force
  // pulls open, the most pulling first (open_most_pulling), the forces solved again after each,
  // until none pulls.
  void ground_events(double t) {
    const ContactSet& set = *options->contacts;
    contact_heights(q0, heights0);
    const double still = 1e-9 * std::max(1.0, v0.cwiseAbs().maxCoeff());
    bool any = false;
    for (std::size_t k = 0; k < set.contacts.size(); ++k) {
      closing[k] = 0;
      if (active[k] || heights0[k] > options->ground_tolerance) continue;
      const double rise = frame_jacobian(model, frames, q0, set.contacts[k].frame,
                                         ReferenceFrame::local_world_aligned)
                              .row(2)
                              .transpose()
                              .dot(v0);
      if (rise > still) continue;
      set_active(static_cast<int>(k), true);
      closing[k] = any = true;
    }
    if (any) close_by_impact(t, true);
    // the torque again after each opening: a controller that shares the load over the closed
    // contacts (ComputedTorque) moves it onto those left
    do {
      applied_torque(t, q0, v0, false);
      accelerations(t, q0, v0);
    } while (open_most_pulling(contact_dynamics->forces(), weight, t));
  }

  // Opens the closed contacts whose normal force (world z) in f pulls most (most_pulling) and
  // those pulling as much to within 1e-9 of the forces' size: ties, such as the corners of a
  // symmetric box, open together. A lift-off is recorded for each but those `closing` at this
  // event (they stay open). Returns whether any opened.
  bool open_most_pulling(const Eigen::VectorXd& f, double scale, double t) {
    const int worst = most_pulling(f, scale);
    if (worst < 0) return false;
    const ContactSet& set = *options->contacts;
    const double tie = f[set.offset(worst) + 2] + 1e-9 * (scale + f.cwiseAbs().sum());
    for (std::size_t k = 0; k < set.contacts.size(); ++k) {
      const int contact = static_cast<int>(k);
      const double normal = f[set.offset(contact) + 2];
      if (!active[k] || !(normal < 0 && normal <= tie)) continue;
      set_active(contact, false);
      if (!closing[k]) contact_event({t, contact, false, 0});
      closing[k] = 0;
    }
    return true;
  }

  // The contacts marked `closing` close by one inelastic impact on the new closed set (ETH notes
  // eq. 3.66-3.72). Unilateral ones (a ground) whose impulse would pull are left open, or open
  // (a lift-off) when they were closed, the most pulling first.
  void close_by_impact(double t, bool unilateral) {
    impact->solve(q0, v0);
    while (unilateral && open_most_pulling(impact->impulses(), 0, t)) impact->solve(q0, v0);
    v0 = impact->velocities();
    const double loss = impact->energy_loss();
    bool counted = false;
    for (std::size_t k = 0; k < closing.size(); ++k) {
      if (!closing[k]) continue;
      closing[k] = 0;
      // contacts closed at the start without moving into them are no event
      if (t == t_state && stats.steps == 0 && !(loss > 0)) continue;
      contact_event({t, static_cast<int>(k), true, loss});
      counted = true;
    }
    if (!counted) return;
    ++stats.impacts;
    stats.impact_energy_loss += loss;
  }

  // The schedule's row at t: the last whose time is at most t + eps (the first before it).
  const std::vector<char>& scheduled(double t, double eps) const {
    const std::vector<double>& times = options->schedule->times;
    const auto r = std::upper_bound(times.begin(), times.end(), t + eps) - times.begin();
    return options->schedule->active[r == 0 ? 0 : r - 1];
  }

  // The next time after t + eps at which the schedule changes row (infinite: none).
  double next_switch(double t, double eps) const {
    if (contact_mode != ContactMode::schedule) return std::numeric_limits<double>::infinity();
    const std::vector<double>& times = options->schedule->times;
    const auto r = std::upper_bound(times.begin(), times.end(), t + eps);
    return r == times.end() ? std::numeric_limits<double>::infinity() : *r;
  }

  // The schedule's activity at t: contacts it releases open, those it activates close by an
  // impact. Returns whether anything changed.
  bool schedule_events(double t, double eps) {
    const std::vector<char>& row = scheduled(t, eps);
    bool changed = false, any = false;
    for (std::size_t k = 0; k < row.size(); ++k) {
      const bool on = row[k] != 0;
      closing[k] = 0;
      if (on == (active[k] != 0)) continue;
      changed = true;
      set_active(static_cast<int>(k), on);
      if (!on) contact_event({t, static_cast<int>(k), false, 0});
      closing[k] = on;
      any |= on;
    }
    if (any) close_by_impact(t, false);
    return changed;
  }

  // After a step to t: the contacts' changes there (an event located in the step, a switch of
  // the schedule). Returns whether anything changed (the derivatives at t are then stale).
  bool contact_changes(double t, bool event, double eps) {
    if (contact_mode == ContactMode::schedule) return schedule_events(t, eps);
    if (!event) return false;
    ground_events(t);
    check_chatter(t);
    return true;
  }

  // a contact closing or opening, into the record
  void contact_event(const ContactEvent& event) {
    record(stats.contact_events, stats.contact_event_count, event);
    last_event_contact = event.contact;
  }

  // after a ground event at t: stop when the events chatter (kChatterEvents)
  void check_chatter(double t) {
    events_in_a_row = t - last_event_t <= kChatterWindow ? events_in_a_row + 1 : 1;
    last_event_t = t;
    if (events_in_a_row < kChatterEvents) return;
    const ContactSet& set = *options->contacts;
    throw NumericalError(
        "simulation stopped at t = " + time_string(t) + " s: the contacts chatter (" +
        std::to_string(kChatterEvents) + " touchdowns and lift-offs within " +
        time_string(kChatterEvents * kChatterWindow) + " s, the last of '" +
        model.frames[set.contacts[last_event_contact].frame].name +
        "'): a foot held there pulls on the ground, and released it moves into it; sticking "
        "point contacts cannot resolve that without slip, which is not simulated");
  }

  // the state at the start of the step, (q0, v0), as the output at time `at`
  void emit_state(double at, const OutputFunction& output) {
    q_out = q0;
    v_out = v0;
    emit(at, output);
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
    const double change = next_switch(t, eps);
    if (change < t + h - eps) h = change - t;
    step(t, h);
    integrate(model, q0, delta1, q1);
    const bool event = crossed_event(t, h);
    if (event) h = locate_event(t, h);
    accept(t, h);
    t += h;
    // an event's time is kept as located; a step's end is snapped to the times it aimed at
    const double snap = event ? 0 : eps;
    if (next < output_times.size() && std::abs(output_times[next] - t) <= snap)
      t = output_times[next];
    if (std::abs(change - t) <= snap) t = change;
    if (std::abs(t_end - t) <= snap) t = t_end;
    q0.swap(q1);
    v0.swap(v1);
    contact_changes(t, event, eps);
    while (next < output_times.size() && output_times[next] <= t + snap) {
      emit_state(t, output);
      ++next;
    }
    eval(t, delta_s.setZero(), v0, kd[0], kv[0], true);
    return t;
  }

  // One rk45 trial step of size h (at most max_step, not past t_end) from t: accepted when the
  // error norm is at most 1, with the outputs within it from the dense output; then the step-size
  // control of Hairer et al. I, II.4 makes h the next trial size. Returns the time reached (t
  // itself after a rejection); throws when h falls below min_step_relative.
  double adaptive_step(double t, double& h, double t_end, double eps,
                       const OutputTimes& output_times, size_t& next,
                       const OutputFunction& output) {
    const double change = next_switch(t, eps);
    h = std::min({h, options->max_step, t_end - t, change - t});
    const double err = step(t, h);
    const bool ok = std::isfinite(err) && err <= 1;
    if (ok) {
      const bool event = crossed_event(t, h);
      // the step ends at the event; the next trial keeps h
      const double taken = event ? locate_event(t, h) : h;
      accept(t, taken);
      const double snap = event ? 0 : eps;
      double t1 = t + taken;
      if (std::abs(change - t1) <= snap) t1 = change;
      if (t_end - t1 <= snap) t1 = t_end;
      // outputs within the step by the dense output
      while (next < output_times.size() && output_times[next] <= t1 + snap) {
        const double theta = std::clamp((output_times[next] - t) / taken, 0.0, 1.0);
        dense(theta, taken);
        integrate(model, q0, delta_out, q_out);
        emit(output_times[next], output);
        ++next;
      }
      t = t1;
      q0.swap(q1);
      v0.swap(v1);
      if (contact_changes(t, event, eps)) {
        eval(t, delta_s.setZero(), v0, kd[0], kv[0], true);
      } else {
        // FSAL: the last stage was evaluated at the new state
        kd[0] = v0;
        kv[0] = kv[6];
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
    Eigen::Index k = 0;
    (err_d.cwiseAbs() + err_v.cwiseAbs()).maxCoeff(&k);
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
  return impl_->contact_dynamics ? impl_->contact_dynamics->forces() : impl_->no_forces;
}
const std::vector<char>& Simulator::contact_active() const { return impl_->active; }
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
  // times closer than this count as equal (steps landing on output times, the end)
  const double eps =
      adaptive ? 1e-12 * std::max({1.0, std::abs(t0), std::abs(t_end)}) : 1e-6 * options.dt;
  size_t next = 0;
  while (next < output_times.size() && output_times[next] < t0 - eps) ++next;
  double t = t0;
  if (next < output_times.size() && output_times[next] <= t0 + eps) {
    s.emit_state(t0, output);
    while (next < output_times.size() && output_times[next] <= t0 + eps) ++next;
  }

  // derivatives at the start
  s.eval(t, s.delta_s.setZero(), s.v0, s.kd[0], s.kv[0], true);
  double h = adaptive ? std::min(options.dt, options.max_step) : options.dt;
  while (t < t_end - eps) {
    t = adaptive ? s.adaptive_step(t, h, t_end, eps, output_times, next, output)
                 : s.fixed_step(t, t_end, eps, output_times, next, output);
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
