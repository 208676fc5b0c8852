// What drives a simulated robot: the Controller interface the simulator asks for joint torques at
// every integrator stage, and the controllers eom ships (RigidBodyDynamics.jl keeps its
// pdcontrol.jl apart from simulate.jl the same way). Each is a function of (t, q, v) that must not
// allocate. With a floating base the free-flyer is unactuated (ETH Robot Dynamics notes, section
// 3.10): whatever a controller computes for its six coordinates is not applied.
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/contacts.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// What drives the robot: joint torques tau (nv) at time t and state (q, v). Called at every
/// stage of the integrator; must not allocate. A floating base's six rows of tau are not applied
/// (the free-flyer is unactuated). `data` is the simulator's workspace, free for the
/// controller's own use (it is overwritten before the dynamics are evaluated).
class Controller {
 public:
  virtual ~Controller() = default;
  virtual void torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v,
                      VecRef tau) = 0;
  /// Its feedback near (t, q): tau changes by -K dq - D dv (nv x nv each, into K and D, which the
  /// caller sizes), what sets the stable step (step_stability.hpp). None by default: torques that
  /// do not depend on the state.
  virtual void feedback(const Model& model, Data& data, double t, ConstVec q, Eigen::MatrixXd& K,
                        Eigen::MatrixXd& D) {
    (void)model, (void)data, (void)t, (void)q;
    K.setZero();
    D.setZero();
  }
  /// The simulator says which contacts of its SimulationOptions::contacts are closed: when a run
  /// with contacts starts, every contact as closed (then, on a ground or by a schedule, each as
  /// open before the first closures), and after that each contact that opens or closes, before
  /// the torque is asked for again. Nothing by default: torques that do not depend on the
  /// contacts. Must not allocate.
  virtual void contacts_changed(int contact, bool closed) { (void)contact, (void)closed; }
};

/// tau = 0: passive motion.
class ZeroTorque : public Controller {
 public:
  void torque(const Model&, Data&, double, ConstVec, ConstVec, VecRef tau) override;
};

/// tau = constant.
class ConstantTorque : public Controller {
 public:
  explicit ConstantTorque(Eigen::VectorXd tau) : tau_(std::move(tau)) {}
  void torque(const Model&, Data&, double, ConstVec, ConstVec, VecRef tau) override;

 private:
  Eigen::VectorXd tau_;
};

/// tau = g(q): holds any pose at rest (without friction).
class GravityCompensation : public Controller {
 public:
  void torque(const Model& model, Data& data, double, ConstVec q, ConstVec, VecRef tau) override;
};

/// Any function of (t, q, v), e.g. a table of torques interpolated in time. Must not allocate.
using TorqueFunction = std::function<void(double t, ConstVec q, ConstVec v, VecRef tau)>;
class TorqueCallback : public Controller {
 public:
  explicit TorqueCallback(TorqueFunction f) : f_(std::move(f)) {}
  void torque(const Model&, Data&, double t, ConstVec q, ConstVec v, VecRef tau) override {
    f_(t, q, v, tau);
  }

 private:
  TorqueFunction f_;
};

/// A reference trajectory: q_ref (nq), v_ref and a_ref (nv) at time t. Must not allocate.
using ReferenceFunction = std::function<void(double t, VecRef q_ref, VecRef v_ref, VecRef a_ref)>;
/// A constant set-point q_ref with v_ref = a_ref = 0.
ReferenceFunction set_point(Eigen::VectorXd q_ref);

/// What PD and computed torque track: the reference at t, the error e = q_ref (-) q
/// (eom::difference, so a floating base's error is a body twist) and e_dot = v_ref - v, with the
/// gains Kp and Kd per tangent coordinate (nv; InputError otherwise) and the workspace they need.
class TrackingError {
 public:
  TrackingError(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp,
                Eigen::VectorXd kd);
  /// Evaluates the reference at t and e at q.
  void update(const Model& model, double t, ConstVec q);
  const Eigen::VectorXd& kp() const { return kp_; }
  const Eigen::VectorXd& kd() const { return kd_; }
  const Eigen::VectorXd& e() const { return e_; }
  const Eigen::VectorXd& v_ref() const { return v_ref_; }
  const Eigen::VectorXd& a_ref() const { return a_ref_; }

 private:
  ReferenceFunction reference_;
  Eigen::VectorXd kp_, kd_, q_ref_, v_ref_, a_ref_, e_;
};

/// Joint-space PD: tau = Kp e + Kd e_dot (+ g(q) when gravity_compensation), e and e_dot those of
/// TrackingError.
class PD : public Controller {
 public:
  PD(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp, Eigen::VectorXd kd,
     bool gravity_compensation = false);
  void torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v,
              VecRef tau) override;
  /// K = diag(kp), D = diag(kd) (gravity's share of the stiffness left out).
  void feedback(const Model& model, Data& data, double t, ConstVec q, Eigen::MatrixXd& K,
                Eigen::MatrixXd& D) override;

 private:
  TrackingError tracking_;
  bool gravity_compensation_;
};

/// Computed-torque control (ETH Robot Dynamics notes, section 3.8): tau = M(q) (a_ref + Kd e_dot +
/// Kp e) + C(q, v) v + g(q), which with an exact model makes every error coordinate obey
/// e'' + Kd e' + Kp e = 0. With contacts, that generalized force b is shared between contact forces
/// and the actuated joints as eom id --contacts shares it (ContactInverseDynamics, least-norm
/// forces supplying the unactuated base rows, ETH notes section 3.10): the joints' torques are
/// then those that make the contacts carry the base, so a standing robot holds its posture
/// (eom sim --controller stand). Only the closed contacts carry a share (contacts_changed): an
/// open one, a foot in the air, carries none. In flight (every contact open) no force is planned:
/// the joints hold the reference by PD scaled by the joint block of M plus the limbs' gravity
/// torques, tau = M (0_base; command_joints) + g(q), the base's error left out.
class ComputedTorque : public Controller {
 public:
  ComputedTorque(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp,
                 Eigen::VectorXd kd, const ContactSet* contacts = nullptr);
  void torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v,
              VecRef tau) override;
  /// K = M(q) diag(kp), D = M(q) diag(kd): the error modes are e'' + Kd e' + Kp e = 0.
  void feedback(const Model& model, Data& data, double t, ConstVec q, Eigen::MatrixXd& K,
                Eigen::MatrixXd& D) override;
  /// With contacts: the closed set the forces are shared over (none closed: in flight); the
  /// contacts are those given at construction, which must be the simulator's (InputError for a
  /// contact not in the set).
  void contacts_changed(int contact, bool closed) override;
  /// With contacts: the forces of the last torque() (stacked as ContactSet::offset, zero on
  /// the open contacts, all zero in flight); empty without.
  const Eigen::VectorXd& contact_forces() const;

 private:
  TrackingError tracking_;
  Eigen::VectorXd command_, no_forces_;
  std::optional<ContactInverseDynamics> contacts_;
  std::vector<char> closed_;  // per contact: closed (contacts_changed)
  bool flight_ = false;       // the last torque() had every contact open
};

}  // namespace eom
