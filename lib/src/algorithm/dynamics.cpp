#include "eom/algorithm/dynamics.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "eom/multibody/configuration.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "core/pivot.hpp"
#include "core/sizes.hpp"

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

namespace {

using SmallMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

// The 6x6 matrix of inertia moments about the world origin, linear first:
// [m 1, -[h]x; [h]x, I_o].
void inertia_matrix(const InertiaMoments& Y, Mat6& out) {
  const Mat3 H = skew(Y.h);
  out.topLeftCorner<3, 3>() = Y.m * Mat3::Identity();
  out.topRightCorner<3, 3>() = -H;
  out.bottomLeftCorner<3, 3>() = H;
  out.bottomRightCorner<3, 3>() = Y.I_o;
}

// The pivot rule of the articulated-body algorithm: a pivot D = S^T IA S must be positive, or the
// joint moves no inertia along its motion and M is singular. The scale is the largest diagonal
// entry of the articulated inertia, at least 1, so the test is relative for heavy bodies and
// absolute (SI units) for light ones.
bool pivot_ok(double D, const Mat6& IA) {
  return detail::pivot_positive(D, std::max(1.0, IA.diagonal().maxCoeff()));
}
// The same rule for the pivots of a joint of several dofs: those of D = S^T IA S (or of IA itself
// for a free-flyer on the world) are the squared diagonal entries of its Cholesky factor.
template <class Llt>
bool pivots_ok(const Llt& llt, const Mat6& IA) {
  if (llt.info() != Eigen::Success) return false;
  const double l = llt.matrixLLT().diagonal().minCoeff();
  return pivot_ok(l * l, IA);
}

[[noreturn]] void throw_singular(const Model& model, int i) {
  throw NumericalError("joint '" + model.joint_names[i] +
                       "' moves no mass or inertia along its motion: the mass matrix is "
                       "singular and forward dynamics is undefined");
}

// A pivot of joint i that fails the rule: collected in `singular` (with its D^-1 taken as 0 by the
// caller, which is exact when IA S = 0), or thrown without it.
void singular_pivot(const Model& model, int i, std::vector<int>* singular) {
  if (!singular) throw_singular(model, i);
  singular->push_back(i);
}

// Whether joint i is a free-flyer on the world, which the passes solve directly: its S is
// invertible, so IA oa = f - pA needs no U, D or u.
bool free_flyer_on_world(const Model& model, int i) {
  return model.parent[i] == 0 && is_floating(model.joints[i]);
}

// ABA first forward pass (Featherstone 2008, Table 7.1, first loop): placements, S in world axes,
// twists v_i = v_p + S qd, velocity-product accelerations c_i = v_i x S qd; the articulated
// inertias start as the bodies' own, IA_i = I_i, with bias forces pA_i = v_i x* I_i v_i.
void aba_velocities(const Model& model, Data& data, ConstVec q, ConstVec v) {
  data.oMi[0] = SE3::Identity();
  data.ov[0] = Motion::Zero();
  InertiaMoments Y;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    place_joint(model, data, i, q);
    const SE3& oMi = data.oMi[i];
    Motion vJ;
    if (jnt.nv == 1) {
      joint_column(jnt, 0, oMi, data.oS[i]);
      vJ = data.oS[i] * v[jnt.idx_v];
    } else {
      vJ = oMi.act(joint_motion(jnt, v));
      // S in world axes, until U replaces it (a free-flyer on the world needs none)
      if (!free_flyer_on_world(model, i)) data.U[i].noalias() = oMi.action() * jnt.S;
    }
    const Motion vi = data.ov[model.parent[i]] + vJ;
    data.ov[i] = vi;
    data.c[i] = cross(vi, vJ);
    model.inertia[i].moments(oMi, Y);
    inertia_matrix(Y, data.IA[i]);
    data.pA[i] = cross_force(vi, Y * vi);
  }
}

// ABA backward pass for a 1-DoF joint: U = IA S (a 6-vector), D = S^T U (a scalar), u = tau -
// S^T pA; the parent gets Ia = IA - U D^-1 U^T and pa = pA + Ia c + U D^-1 u (same axes: a sum).
void aba_project_one_dof(const Model& model, Data& data, int i, ConstVec tau,
                         std::vector<int>* singular) {
  const Joint& jnt = model.joints[i];
  const int p = model.parent[i];
  const Mat6& IA = data.IA[i];
  const Motion& S = data.oS[i];
  // U = IA S and IA c in one product
  Eigen::Matrix<double, 6, 2> Sc;
  Sc.col(0) = S.vector();
  Sc.col(1) = data.c[i].vector();
  const Eigen::Matrix<double, 6, 2> IASc = IA * Sc;
  const Vec6 U = IASc.col(0);
  const double D = U.dot(Sc.col(0));
  double Dinv = 0;
  if (pivot_ok(D, IA)) {
    Dinv = 1 / D;
  } else {
    singular_pivot(model, i, singular);
  }
  const double u = tau[jnt.idx_v] - data.pA[i].dot(S);
  data.oU[i] = U;
  data.oDinv[i] = Dinv;
  data.ou[i] = u;
  if (p == 0) return;
  // pa = pA + IA c + U D^-1 (u - U^T c), Ia = IA - U D^-1 U^T, both added to the parent's
  const Vec6 pa = IASc.col(1) + U * ((u - U.dot(Sc.col(1))) * Dinv);
  data.pA[p] += data.pA[i] + Force::from(pa);
  const Vec6 DU = Dinv * U;
  Mat6& IAp = data.IA[p];
  for (int k = 0; k < 6; ++k) IAp.col(k) += IA.col(k) - U[k] * DU;
}

// ABA backward pass for a joint of several dofs: the same with U (6 x nv) and D^-1 (nv x nv).
void aba_project_several_dofs(const Model& model, Data& data, int i, ConstVec tau,
                              std::vector<int>* singular) {
  const Joint& jnt = model.joints[i];
  const int p = model.parent[i];
  const Mat6& IA = data.IA[i];
  const int nv = jnt.nv;
  auto& U = data.U[i];
  auto& Dinv = data.Dinv[i];
  const MotionSubspace S = U;  // S in world axes
  U.noalias() = IA * S;
  Dinv.noalias() = S.transpose() * U;
  const Eigen::LLT<SmallMat> llt(Dinv);
  if (!pivots_ok(llt, IA)) {
    singular_pivot(model, i, singular);
    Dinv.setZero();
  } else {
    Dinv = llt.solve(SmallMat::Identity(nv, nv));
  }
  data.u[i].head(nv).noalias() = tau.segment(jnt.idx_v, nv) - S.transpose() * data.pA[i].vector();
  // keep S for the last pass in the spare columns: U (6 x nv) and S (6 x nv) side by side
  data.Sw[i] = S;
  if (p == 0) return;
  const Mat6 Ia = IA - U * Dinv * U.transpose();
  const Vec6 pa = data.pA[i].vector() + Ia * data.c[i].vector() + U * (Dinv * data.u[i].head(nv));
  data.IA[p] += Ia;
  data.pA[p] += Force::from(pa);
}

// ABA backward pass (Featherstone 2008, Table 7.1, second loop): articulated inertias and bias
// forces from the leaves to the root.
void aba_articulated_inertias(const Model& model, Data& data, ConstVec tau,
                              std::vector<int>* singular) {
  for (int i = model.njoints - 1; i > 0; --i) {
    if (model.joints[i].nv == 1) {
      aba_project_one_dof(model, data, i, tau, singular);
    } else if (!free_flyer_on_world(model, i)) {
      // (a free-flyer on the world is solved directly in the last pass, IA oa = f - pA)
      aba_project_several_dofs(model, data, i, tau, singular);
    }
  }
}

// A free-flyer on the world in the second forward pass: S is invertible, so the joint passes any
// force: IA a = f - pA with f the joint wrench in world axes, and qdd = S^-1 (a - a_0) (c = v x v
// = 0).
void aba_free_flyer_acceleration(const Model& model, Data& data, int i, ConstVec tau,
                                 std::vector<int>* singular) {
  const Joint& jnt = model.joints[i];
  const Eigen::LLT<Mat6> llt(data.IA[i]);
  if (!pivots_ok(llt, data.IA[i])) {
    singular_pivot(model, i, singular);
    data.qdd.segment<6>(jnt.idx_v).setZero();
    data.oa[i] = data.oa[0];
    return;
  }
  const Force f = data.oMi[i].act(Force::from(tau.segment<6>(jnt.idx_v))) - data.pA[i];
  data.oa[i] = Motion::from(llt.solve(f.vector()));
  const Motion qdd = data.oMi[i].act_inv(data.oa[i] - data.oa[0]);
  data.qdd.segment<3>(jnt.idx_v) = qdd.lin;
  data.qdd.segment<3>(jnt.idx_v + 3) = qdd.ang;
}

// ABA second forward pass (Featherstone 2008, Table 7.1, third loop): a_i = a_p + c_i + S qdd_i,
// qdd_i = D^-1 (u - U^T (a_p + c_i)); gravity enters as an upward acceleration of the base.
void aba_accelerations(const Model& model, Data& data, ConstVec tau, std::vector<int>* singular) {
  data.oa[0] = Motion{-model.gravity, Vec3::Zero()};
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const Motion ap = data.oa[model.parent[i]] + data.c[i];
    if (jnt.nv == 1) {
      const Vec6& U = data.oU[i];
      const double qdd =
          (data.ou[i] - U.head<3>().dot(ap.lin) - U.tail<3>().dot(ap.ang)) * data.oDinv[i];
      data.qdd[jnt.idx_v] = qdd;
      data.oa[i] = ap + data.oS[i] * qdd;
    } else if (free_flyer_on_world(model, i)) {
      aba_free_flyer_acceleration(model, data, i, tau, singular);
    } else {
      const int nv = jnt.nv;
      auto qdd = data.qdd.segment(jnt.idx_v, nv);
      qdd.noalias() = data.Dinv[i] * (data.u[i].head(nv) - data.U[i].transpose() * ap.vector());
      data.oa[i] = ap + Motion::from(data.Sw[i] * qdd);
    }
  }
}

// The articulated-body algorithm (Featherstone 2008, Table 7.1) with every quantity in world axes
// at the world origin, as Pinocchio 3 does it: articulated inertias then pass to the parent by a
// plain sum, with no 6x6 change of frame, and a 1-DoF joint has a 6-vector U and a scalar D.
// With `singular` non-null the joints whose pivot D is not positive are collected there (their
// D^-1 taken as 0, which is exact when IA S = 0) instead of throwing.
void articulated_body(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec tau,
                      std::vector<int>* singular) {
  aba_velocities(model, data, q, v);
  aba_articulated_inertias(model, data, tau, singular);
  aba_accelerations(model, data, tau, singular);
}

}  // namespace

const Eigen::VectorXd& aba(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec tau) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(tau.size(), model.nv, "tau");
  articulated_body(model, data, q, v, tau, nullptr);
  return data.qdd;
}

const Eigen::VectorXd& forward_dynamics_crba(const Model& model, Data& data, ConstVec q, ConstVec v,
                                             ConstVec tau) {
  detail::check_size(tau.size(), model.nv, "tau");
  crba(model, data, q);
  nonlinear_effects(model, data, q, v);
  data.qdd = tau - data.tau;
  data.M_llt.compute(data.M);
  if (data.M_llt.info() != Eigen::Success) {
    // name the joint: the ABA pivots at this configuration say which
    std::vector<int> singular;
    articulated_body(model, data, q, v, tau, &singular);
    throw_singular(model, singular.empty() ? 1 : singular.front());
  }
  data.M_llt.solveInPlace(data.qdd);
  return data.qdd;
}

std::vector<int> joints_without_inertia(const Model& model) {
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  // singular at two generic configurations: a pivot can vanish at special ones only
  std::vector<int> first, second, both;
  Rng rng(20261123);
  Eigen::VectorXd q = random_configuration(model, rng);
  articulated_body(model, data, q, zero, zero, &first);
  q = random_configuration(model, rng);
  articulated_body(model, data, q, zero, zero, &second);
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  std::set_intersection(first.begin(), first.end(), second.begin(), second.end(),
                        std::back_inserter(both));
  return both;
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
