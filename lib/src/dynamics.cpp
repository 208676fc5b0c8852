#include "eom/dynamics.hpp"

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
    const SE3& liMi = data.liMi[i] = model.placement[i] * joint_transform(jnt, q);
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
    tau.segment(jnt.idx_v, jnt.nv).noalias() = jnt.S.transpose() * data.f[i].vector();
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
  for (int i = 1; i < model.njoints; ++i) data.Ycrb[i] = model.inertia[i];

  // backward pass (Featherstone 2008, Table 6.2): composite inertias IC_i, then
  // F = IC_i S_i carried up the tree, M_ji = S_j^T F for every ancestor j
  MotionSubspace F;
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& ji = model.joints[i];
    F.resize(6, ji.nv);
    for (int k = 0; k < ji.nv; ++k) F.col(k) = (data.Ycrb[i] * Motion::from(ji.S.col(k))).vector();
    data.M.block(ji.idx_v, ji.idx_v, ji.nv, ji.nv).noalias() = ji.S.transpose() * F;

    for (int j = i; model.parent[j] > 0;) {
      // express F in the parent's frame: forces transform with liMi.act
      for (int k = 0; k < ji.nv; ++k) F.col(k) = data.liMi[j].act(Force::from(F.col(k))).vector();
      j = model.parent[j];
      const Joint& jj = model.joints[j];
      data.M.block(jj.idx_v, ji.idx_v, jj.nv, ji.nv).noalias() = jj.S.transpose() * F;
      data.M.block(ji.idx_v, jj.idx_v, ji.nv, jj.nv) =
          data.M.block(jj.idx_v, ji.idx_v, jj.nv, ji.nv).transpose();
    }
    const int p = model.parent[i];
    if (p > 0) data.Ycrb[p] += data.Ycrb[i].transformed(data.liMi[i]);
  }
  return data.M;
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
