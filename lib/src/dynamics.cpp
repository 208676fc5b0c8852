#include "eom/dynamics.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
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
    const SE3 liMi = place_joint(model, data, i, q);

    // v_i = Xup v_p + S qd,  a_i = Xup a_p + S qdd + v_i x S qd
    Motion vi = Motion::Zero();
    Motion ai = liMi.act_inv(data.a[p]);
    if (v) {
      const Motion vJ = joint_motion(jnt, *v);
      vi = liMi.act_inv(data.v[p]) + vJ;
      ai += cross(vi, vJ);
    }
    if (a) ai += joint_motion(jnt, *a);

    // f_i = I a_i + v_i x* I v_i
    const Inertia& I = model.inertia[i];
    Force fi = I * ai;
    if (v) fi += cross_force(vi, I * vi);
    data.v[i] = vi;
    data.a[i] = ai;
    data.f[i] = fi;
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
  detail::check_size(q.size(), model.nq, "q");
  // placements in the base frame: the world for a fixed base; for a floating base its own frame,
  // since M does not depend on where the base is (v holds its body twist) and there its S = 1
  const bool base_frame = model.floating_base;
  data.bMi[0] = SE3::Identity();
  for (int i = 1; i < model.njoints; ++i) {
    const SE3 liMi = joint_placement(model.joints[i], model.placement[i], q);
    if (base_frame && i == 1) {
      data.bMi[i] = SE3::Identity();
    } else {
      data.bMi[i] = data.bMi[model.parent[i]] * liMi;
    }
    data.liMi[i] = liMi;
  }
  // composite inertias start as the bodies' own, as moments about the base origin (they then add
  // up without transforms); the columns of S in base axes
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    model.inertia[i].moments(data.bMi[i], data.bYcrb[i]);
    for (int k = 0; k < j.nv; ++k) joint_column(j, k, data.bMi[i], data.bS[j.idx_v + k]);
  }

  // backward pass (Featherstone 2008, Table 6.2) by rows: M_ik = S_i^T IC_k S_k for the columns k
  // of joint i and of its descendants, which follow it in v; both triangles at once (entries of
  // joints on different branches are never written: they keep the zeros Data starts with)
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& ji = model.joints[i];
    const int begin = ji.idx_v, end = begin + ji.nv, last = begin + model.nv_subtree[i];
    // F = IC_i S_i
    for (int k = begin; k < end; ++k) data.bF[k] = data.bYcrb[i] * data.bS[k];
    if (ji.nv == 1) {
      // one column: M_ik = S_i . F_k
      const Motion S = data.bS[begin];
      for (int k = begin; k < last; ++k) data.M(begin, k) = data.M(k, begin) = data.bF[k].dot(S);
    } else if (base_frame && i == 1) {
      // the floating base, S = 1: its rows are the F_k
      for (int k = begin; k < last; ++k) {
        const Force& F = data.bF[k];
        for (int r = 0; r < 3; ++r) {
          data.M(begin + r, k) = data.M(k, begin + r) = F.lin[r];
          data.M(begin + 3 + r, k) = data.M(k, begin + 3 + r) = F.ang[r];
        }
      }
    } else {
      // several: F_k in the joint's own axes, where S is sparse
      for (int k = begin; k < last; ++k) {
        const Vec6 t = joint_force(ji, data.bMi[i].act_inv(data.bF[k]));
        for (int r = 0; r < ji.nv; ++r) data.M(begin + r, k) = data.M(k, begin + r) = t[r];
      }
    }
    // IC_parent += IC_i
    const int p = model.parent[i];
    if (p > 0) data.bYcrb[p] += data.bYcrb[i];
  }
  return data.M;
}

const Eigen::VectorXd& aba(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec tau) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(tau.size(), model.nv, "tau");
  data.v[0] = Motion::Zero();

  // forward pass: placements, twists, velocity-product accelerations c_i = v_i x vJ; the
  // articulated inertias start as the bodies' own, with bias forces pA_i = v_i x* I_i v_i
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int p = model.parent[i];
    const SE3 liMi = place_joint(model, data, i, q);
    const Motion vJ = joint_motion(jnt, v);
    const Motion vi = liMi.act_inv(data.v[p]) + vJ;
    data.v[i] = vi;
    data.c[i] = cross(vi, vJ);
    const Inertia& I = model.inertia[i];
    data.IA[i] = I.matrix();
    data.pA[i] = cross_force(vi, I * vi);
  }

  // backward pass: U = IA S, D = S^T U, u = tau - S^T pA; hand the parent the articulated
  // inertia Ia = IA - U D^-1 U^T and bias pa = pA + Ia c + U D^-1 u seen through the joint
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& jnt = model.joints[i];
    const int nv = jnt.nv;
    auto& U = data.U[i];
    auto& Dinv = data.Dinv[i];
    U.noalias() = data.IA[i] * jnt.S;
    Dinv.noalias() = jnt.S.transpose() * U;
    // D must be positive definite: a joint that moves no inertia along its motion makes M singular
    const double scale = std::max(1.0, data.IA[i].diagonal().maxCoeff());
    const Eigen::LLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>> llt(Dinv);
    if (llt.info() != Eigen::Success ||
        !(llt.matrixLLT().diagonal().minCoeff() > 1e-9 * std::sqrt(scale))) {
      throw NumericalError("joint '" + model.joint_names[i] +
                           "' moves no mass or inertia along its motion: the mass matrix is "
                           "singular and forward dynamics is undefined");
    }
    Dinv =
        llt.solve(Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>::Identity(nv, nv));
    data.u[i].head(nv).noalias() =
        tau.segment(jnt.idx_v, nv) - jnt.S.transpose() * data.pA[i].vector();

    const int p = model.parent[i];
    if (p == 0) continue;
    const Mat6 Ia = data.IA[i] - U * Dinv * U.transpose();
    const Vec6 pa = data.pA[i].vector() + Ia * data.c[i].vector() + U * (Dinv * data.u[i].head(nv));
    // forces go to the parent with liMi.act, inertias as X^T Ia X with X = Xup (parent to i)
    const Mat6 X = data.liMi[i].inverse().action();
    data.IA[p].noalias() += X.transpose() * Ia * X;
    data.pA[p] += data.liMi[i].act(Force::from(pa));
  }

  // forward pass: a_i = Xup a_p + c_i + S qdd_i, qdd_i = D^-1 (u - U^T (Xup a_p + c_i));
  // gravity enters as an upward acceleration of the base
  data.a[0] = Motion{-model.gravity, Vec3::Zero()};
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int nv = jnt.nv;
    const Motion ap = data.liMi[i].act_inv(data.a[model.parent[i]]) + data.c[i];
    auto qdd = data.qdd.segment(jnt.idx_v, nv);
    qdd.noalias() = data.Dinv[i] * (data.u[i].head(nv) - data.U[i].transpose() * ap.vector());
    data.a[i] = ap + joint_motion(jnt, data.qdd);
  }
  return data.qdd;
}

Friction Friction::from_model(const Model& model) { return {model.damping, model.friction, 0.0}; }

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
  forward_kinematics(model, data, q);
  for (size_t k = 0; k < frames.size(); ++k) {
    // tau = J^T F: the power of F on the frame's motion is F . J v = (J^T F) . v
    out.noalias() += frame_jacobian(model, data, frames[k], reference).transpose() *
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
