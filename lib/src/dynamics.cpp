#include "eom/dynamics.hpp"

#include <cmath>

#include "eom/kinematics.hpp"
#include "sizes.hpp"

namespace eom {
namespace {

using OptionalVec = const Eigen::Ref<const Eigen::VectorXd>*;

// Recursive Newton-Euler (Featherstone 2008, Table 5.1) into `tau`; a null v or a means zero, so
// rnea, nonlinear_effects and gravity_torque share one pass.
void newton_euler(const Model& model, Data& data, ConstVec q, OptionalVec v, OptionalVec a,
                  Eigen::VectorXd& tau) {
  // world at rest; gravity enters as an upward acceleration of the base
  data.v[0] = Motion::Zero();
  data.a[0] = Motion{-model.gravity, Vec3::Zero()};

  // forward pass: joint transforms, body twists and accelerations, net body forces
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int p = model.parent[i];
    const SE3& liMi = data.liMi[i] = joint_placement(jnt, model.placement[i], q);
    data.oMi[i] = data.oMi[p] * liMi;

    // v_i = Xup v_p + S qd,  a_i = Xup a_p + S qdd + v_i x S qd
    data.a[i] = liMi.act_inv(data.a[p]);
    if (v) {
      const Motion vJ = joint_motion(jnt, *v);
      data.v[i] = liMi.act_inv(data.v[p]) + vJ;
      data.a[i] += cross(data.v[i], vJ);
    } else {
      data.v[i] = Motion::Zero();
    }
    if (a) data.a[i] += joint_motion(jnt, *a);

    // f_i = I a_i + v_i x* I v_i
    const Inertia& I = model.inertia[i];
    data.f[i] = I * data.a[i];
    if (v) data.f[i] += cross_force(data.v[i], I * data.v[i]);
  }

  // backward pass: project body forces on the joint axes, pass them to the parent
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& jnt = model.joints[i];
    joint_project(jnt, data.f[i], tau);
    const int p = model.parent[i];
    if (p > 0) data.f[p] += data.liMi[i].act(data.f[i]);
  }
}

}  // namespace

const Eigen::VectorXd& rnea(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(a.size(), model.nv, "a");
  newton_euler(model, data, q, &v, &a, data.tau);
  return data.tau;
}

const Eigen::VectorXd& nonlinear_effects(const Model& model, Data& data, ConstVec q, ConstVec v) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  newton_euler(model, data, q, &v, nullptr, data.tau);
  return data.tau;
}

const Eigen::VectorXd& gravity_torque(const Model& model, Data& data, ConstVec q) {
  detail::check_size(q.size(), model.nq, "q");
  newton_euler(model, data, q, nullptr, nullptr, data.g);
  return data.g;
}

const Eigen::MatrixXd& crba(const Model& model, Data& data, ConstVec q) {
  forward_kinematics(model, data, q);
  // world axes throughout (as Pinocchio does): composite inertias then add without transforms,
  // and each entry of M is a dot product of world-frame subspace columns with F = IC_i S_i
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    data.oYcrb[i] = model.inertia[i].moments(data.oMi[i]);
    for (int k = 0; k < j.nv; ++k) data.oS[j.idx_v + k] = data.oMi[i].act(joint_column(j, k));
  }

  // backward pass (Featherstone 2008, Table 6.2): M_ji = S_j^T IC_i S_i for j on the path to the root
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& ji = model.joints[i];
    for (int k = ji.idx_v; k < ji.idx_v + ji.nv; ++k) {
      const Force F = data.oYcrb[i] * data.oS[k];
      for (int j = i; j > 0; j = model.parent[j]) {
        const Joint& jj = model.joints[j];
        for (int l = jj.idx_v; l < jj.idx_v + jj.nv; ++l) data.M(l, k) = F.dot(data.oS[l]);
      }
    }
    const int p = model.parent[i];
    if (p > 0) data.oYcrb[p] += data.oYcrb[i];
  }
  // the loop filled the upper triangle (ancestors come first in v)
  data.M.triangularView<Eigen::StrictlyLower>() = data.M.transpose();
  return data.M;
}

Friction Friction::from_model(const Model& model) {
  return {model.damping, model.friction, 0.0};
}

void friction_torque(const Friction& friction, ConstVec v, VecRef out) {
  detail::check_size(v.size(), static_cast<int>(friction.viscous.size()), "v");
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    const double sign = friction.smoothing > 0 ? std::tanh(v[k] / friction.smoothing)
                                               : double((v[k] > 0) - (v[k] < 0));
    out[k] = friction.viscous[k] * v[k] + friction.coulomb[k] * sign;
  }
}

void external_torque(const Model& model, Data& data, ConstVec q, const std::vector<int>& frames,
                     ConstVec wrenches, ReferenceFrame reference, VecRef out) {
  detail::check_size(wrenches.size(), 6 * static_cast<int>(frames.size()), "wrenches");
  out.setZero();
  for (size_t k = 0; k < frames.size(); ++k) {
    // tau = J^T F: the power of F on the frame's motion is F . J v = (J^T F) . v
    out.noalias() += frame_jacobian(model, data, q, frames[k], reference).transpose() *
                     wrenches.segment<6>(6 * static_cast<Eigen::Index>(k));
  }
}

double kinetic_energy(const Model& model, Data& data, ConstVec q, ConstVec v) {
  detail::check_size(v.size(), model.nv, "v");
  forward_kinematics(model, data, q);
  // T = sum 1/2 v_i . I_i v_i over the body twists
  double T = 0;
  data.v[0] = Motion::Zero();
  for (int i = 1; i < model.njoints; ++i) {
    data.v[i] = data.liMi[i].act_inv(data.v[model.parent[i]]) + joint_motion(model.joints[i], v);
    T += 0.5 * (model.inertia[i] * data.v[i]).dot(data.v[i]);
  }
  return data.kinetic_energy = T;
}

const Vec3& center_of_mass(const Model& model, Data& data, ConstVec q) {
  forward_kinematics(model, data, q);
  Vec3 moment = Vec3::Zero();
  double mass = 0;
  for (int i = 1; i < model.njoints; ++i) {
    const Inertia& I = model.inertia[i];
    moment += I.m * data.oMi[i].act(I.c);
    mass += I.m;
  }
  data.mass = mass;
  data.com = mass > 0 ? Vec3(moment / mass) : Vec3::Zero();
  return data.com;
}

double potential_energy(const Model& model, Data& data, ConstVec q) {
  // V = -m g . c over the moving bodies
  const Vec3& com = center_of_mass(model, data, q);
  return data.potential_energy = -data.mass * model.gravity.dot(com);
}

}  // namespace eom
