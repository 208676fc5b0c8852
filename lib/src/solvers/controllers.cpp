#include "eom/solvers/controllers.hpp"

#include <algorithm>
#include <string>

#include "eom/algorithm/dynamics.hpp"
#include "eom/core/errors.hpp"
#include "eom/multibody/configuration.hpp"
#include "core/sizes.hpp"

namespace eom {

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

TrackingError::TrackingError(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp,
                             Eigen::VectorXd kd)
    : reference_(std::move(reference)),
      kp_(std::move(kp)),
      kd_(std::move(kd)),
      q_ref_(model.nq),
      v_ref_(model.nv),
      a_ref_(model.nv),
      e_(model.nv) {
  detail::check_size(kp_.size(), model.nv, "Kp");
  detail::check_size(kd_.size(), model.nv, "Kd");
}

void TrackingError::update(const Model& model, double t, ConstVec q) {
  reference_(t, q_ref_, v_ref_, a_ref_);
  difference(model, q, q_ref_, e_);  // e = q_ref (-) q
}

PD::PD(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp, Eigen::VectorXd kd,
       bool gravity_compensation)
    : tracking_(model, std::move(reference), std::move(kp), std::move(kd)),
      gravity_compensation_(gravity_compensation) {}

void PD::torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v, VecRef tau) {
  tracking_.update(model, t, q);
  const TrackingError& x = tracking_;
  tau = x.kp().cwiseProduct(x.e()) + x.kd().cwiseProduct(x.v_ref() - v);
  if (gravity_compensation_) tau += gravity_torque(model, data, q);
}

void PD::feedback(const Model&, Data&, double, ConstVec, Eigen::MatrixXd& K, Eigen::MatrixXd& D) {
  K = tracking_.kp().asDiagonal();
  D = tracking_.kd().asDiagonal();
}

ComputedTorque::ComputedTorque(const Model& model, ReferenceFunction reference, Eigen::VectorXd kp,
                               Eigen::VectorXd kd, const ContactSet* contacts)
    : tracking_(model, std::move(reference), std::move(kp), std::move(kd)), command_(model.nv) {
  if (contacts) {
    contacts_.emplace(model, *contacts, ContactForceRule::min_norm);
    closed_.assign(contacts->contacts.size(), 1);
    no_forces_.setZero(contacts->size());
  }
}

void ComputedTorque::torque(const Model& model, Data& data, double t, ConstVec q, ConstVec v,
                            VecRef tau) {
  tracking_.update(model, t, q);
  const TrackingError& x = tracking_;
  // the commanded acceleration, then tau = M command + nle (ETH Robot Dynamics notes, section 3.8)
  command_ = x.a_ref() + x.kd().cwiseProduct(x.v_ref() - v) + x.kp().cwiseProduct(x.e());
  if (!contacts_) {
    crba(model, data, q);
    tau.noalias() = data.M * command_;
    tau += nonlinear_effects(model, data, q, v);
    return;
  }
  flight_ = std::find(closed_.begin(), closed_.end(), 1) == closed_.end();
  if (flight_) {
    // In flight no contact force can carry anything: planning forces for feet in the air drove
    // the legs with the torques of a robot standing on them (straightened past their limits,
    // then a blow-up). The joints hold their posture by PD scaled by the joint block of M, plus
    // the gravity torques of the limbs (g(q)'s joint rows, the base's weight carried by no one);
    // the base's error, which no joint can correct in flight, is left out.
    tau = gravity_torque(model, data, q);
    if (model.floating_base) command_.segment<6>(model.joints[1].idx_v).setZero();
    tau.noalias() += crba(model, data, q) * command_;
    return;
  }
  // the contact Jacobians reuse the joint placements of rnea's pass
  const Eigen::VectorXd& b = rnea(model, data, q, v, command_);
  // at touchdown and on the ground, shared over the closed contacts only
  ContactJacobian& jacobian = contacts_->jacobian();
  for (std::size_t k = 0; k < closed_.size(); ++k) {
    jacobian.set_active(static_cast<int>(k), closed_[k] != 0);
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
  return contacts_ && !flight_ ? contacts_->forces() : no_forces_;
}

void ComputedTorque::feedback(const Model& model, Data& data, double, ConstVec q,
                              Eigen::MatrixXd& K, Eigen::MatrixXd& D) {
  const Eigen::MatrixXd& M = crba(model, data, q);
  K = M * tracking_.kp().asDiagonal();
  D = M * tracking_.kd().asDiagonal();
}

}  // namespace eom
