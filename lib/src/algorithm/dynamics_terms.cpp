#include "eom/algorithm/dynamics_terms.hpp"

#include "eom/algorithm/dynamics.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "core/sizes.hpp"

namespace eom {

DynamicsTerms::DynamicsTerms(const Model& model)
    : a_bias_(model.njoints),
      a_gravity_(model.njoints),
      f_bias_(model.njoints),
      f_gravity_(model.njoints),
      nle_(Eigen::VectorXd::Zero(model.nv)) {}

const Eigen::VectorXd& DynamicsTerms::compute(const Model& model, Data& data, ConstVec q,
                                              ConstVec v, ConstVec a) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(a.size(), model.nv, "a");
  forward(model, data, q, v, a);
  backward(model, data, a);
  crba(model, data, q);
  return data.tau;
}

void DynamicsTerms::forward(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a) {
  // rnea's newton_euler three times over (Featherstone 2008, Table 5.1), term for term: gravity
  // as an upward acceleration of the base in each
  data.v[0] = Motion::Zero();
  data.a[0] = a_bias_[0] = a_gravity_[0] = Motion{-model.gravity, Vec3::Zero()};
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int p = model.parent[i];
    const SE3 liMi = place_joint(model, data, i, q);
    // v_i = Xup v_p + S qd (shared by tau and nle), a_i = Xup a_p + v_i x S qd (+ S qdd for tau)
    const Motion vJ = joint_motion(jnt, v);
    const Motion vi = liMi.act_inv(data.v[p]) + vJ;
    const Motion velocity_product = cross(vi, vJ);
    Motion ai = liMi.act_inv(data.a[p]);
    ai += velocity_product;
    ai += joint_motion(jnt, a);
    Motion ai_bias = liMi.act_inv(a_bias_[p]);
    ai_bias += velocity_product;
    const Motion ai_gravity = liMi.act_inv(a_gravity_[p]);
    // f_i = I a_i + v_i x* I v_i
    const Inertia& I = model.inertia[i];
    const Force gyroscopic = cross_force(vi, I * vi);
    Force fi = I * ai;
    fi += gyroscopic;
    Force fi_bias = I * ai_bias;
    fi_bias += gyroscopic;
    data.v[i] = vi;
    data.a[i] = ai;
    data.f[i] = fi;
    a_bias_[i] = ai_bias;
    f_bias_[i] = fi_bias;
    a_gravity_[i] = ai_gravity;
    f_gravity_[i] = I * ai_gravity;
  }
}

void DynamicsTerms::backward(const Model& model, Data& data, ConstVec a) {
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& jnt = model.joints[i];
    joint_project(jnt, data.f[i], data.tau);
    joint_project(jnt, f_bias_[i], nle_);
    joint_project(jnt, f_gravity_[i], data.g);
    const int p = model.parent[i];
    if (p > 0) {
      const SE3& liMi = data.liMi[i];
      data.f[p] += liMi.act(data.f[i]);
      f_bias_[p] += liMi.act(f_bias_[i]);
      f_gravity_[p] += liMi.act(f_gravity_[i]);
    }
  }
  // the motors' rotor inertia (armature), on M's diagonal: tau only, the others have a = 0
  data.tau.noalias() += model.armature.cwiseProduct(a);
}

}  // namespace eom
