#include "eom/algorithm/dynamics.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>
#include <string>

#include "eom/multibody/configuration.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/core/number_text.hpp"
#include "algorithm/newton_euler.hpp"
#include "algorithm/singular_mass_matrix.hpp"
#include "linalg/ltdl.hpp"
#include "core/pivot.hpp"
#include "core/sizes.hpp"
#include "core/tolerances.hpp"

namespace eom {

namespace detail {

void newton_euler_forward(const Model& model, Data& data, ConstVec q, OptionalVec v,
                          OptionalVec a) {
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
}

}  // namespace detail

namespace {

using detail::OptionalVec;

// Recursive Newton-Euler (Featherstone 2008, Table 5.1) into `tau`; a null v or a means zero, so
// rnea, nonlinear_effects and gravity_torque share one pass.
void newton_euler(const Model& model, Data& data, ConstVec q, OptionalVec v, OptionalVec a,
                  Eigen::VectorXd& tau) {
  detail::newton_euler_forward(model, data, q, v, a);
  // backward pass: project body forces on the joint axes, pass them to the parent
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& jnt = model.joints[i];
    joint_project(jnt, data.f[i], tau);
    const int p = model.parent[i];
    if (p > 0) data.f[p] += data.liMi[i].act(data.f[i]);
  }
  // the motors' rotor inertia (armature), on M's diagonal
  if (a) tau.noalias() += model.armature.cwiseProduct(*a);
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

namespace {

// crba's forward pass: the placements in the base frame (the world for a fixed base; for a
// floating base its own frame, since M does not depend on where the base is (v holds its body
// twist) and there its S = 1), the bodies' inertias as moments about the base origin (composite
// inertias then add up without transforms) and the columns of S in base axes
void place_in_base_frame(const Model& model, Data& data, ConstVec q) {
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
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    model.inertia[i].moments(data.bMi[i], data.bYcrb[i]);
    for (int k = 0; k < j.nv; ++k) joint_column(j, k, data.bMi[i], data.bS[j.idx_v + k]);
  }
}

// The forward pass of Newton-Euler at a = 0 (Featherstone 2008, Table 5.1) in crba's base frame,
// about its origin, where the bodies' inertias I_i (data.bYcrb before they are summed) and the
// columns of S already are: no transform from a joint to its parent and no joint placed again,
//   v_i = v_p + S_i qd_i,   a_i = a_p + v_p x S_i qd_i,   f_i = I_i (a_i + a_g) + v_i x* I_i v_i,
// with a_g = -g the upward acceleration that stands for gravity, in base axes (R^T of the free
// flyer for a floating base: the joint's placement rotation, as newton_euler_forward takes it).
// The base frame is the one the base has at this instant, fixed in the world, so the recursion is
// that of world axes (S fixed in its body moves as v_i x S). Fills data.ov and data.oa (without
// gravity: the frames' velocity products) and data.oF (the body forces), all base axes and origin.
void bias_forces_in_base_frame(const Model& model, Data& data, ConstVec v) {
  Motion gravity{-model.gravity, Vec3::Zero()};
  if (model.floating_base) gravity.lin = data.liMi[1].R.transpose() * gravity.lin;
  data.ov[0] = Motion::Zero();
  data.oa[0] = Motion::Zero();
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    const int p = model.parent[i];
    Motion vJ = Motion::Zero();
    for (int k = 0; k < j.nv; ++k) vJ += data.bS[j.idx_v + k] * v[j.idx_v + k];
    const Motion& vp = data.ov[p];
    data.oa[i] = data.oa[p] + cross(vp, vJ);
    data.ov[i] = vp + vJ;
    const InertiaMoments& I = data.bYcrb[i];
    data.oF[i] = I * (data.oa[i] + gravity) + cross_force(data.ov[i], I * data.ov[i]);
  }
}

// M_ik = S_i^T IC_k S_k by rows (Featherstone 2008, Table 6.2), from place_in_base_frame; with
// `bias`, also h_i = S_i^T F_i for the subtree forces F_i (the backward pass of Newton-Euler from
// bias_forces_in_base_frame, in the same loop: in base axes the forces add up without transforms)
void crba_backward(const Model& model, Data& data, bool bias) {
  const bool base_frame = model.floating_base;
  // by rows: M_ik for the columns k of joint i and of its descendants, which follow it in v; both
  // triangles at once (entries of joints on different branches are never written: they keep the
  // zeros Data starts with)
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& ji = model.joints[i];
    const int begin = ji.idx_v, end = begin + ji.nv, last = begin + model.nv_subtree[i];
    // F = IC_i S_i
    for (int k = begin; k < end; ++k) data.bF[k] = data.bYcrb[i] * data.bS[k];
    if (ji.nv == 1) {
      // one column: M_ik = S_i . F_k
      const Motion S = data.bS[begin];
      for (int k = begin; k < last; ++k) data.M(begin, k) = data.M(k, begin) = data.bF[k].dot(S);
      if (bias) data.tau[begin] = data.oF[i].dot(S);
    } else if (base_frame && i == 1) {
      // the floating base, S = 1: its rows are the F_k
      for (int k = begin; k < last; ++k) {
        const Force& F = data.bF[k];
        for (int r = 0; r < 3; ++r) {
          data.M(begin + r, k) = data.M(k, begin + r) = F.lin[r];
          data.M(begin + 3 + r, k) = data.M(k, begin + 3 + r) = F.ang[r];
        }
      }
      if (bias) data.tau.segment<6>(begin) << data.oF[i].lin, data.oF[i].ang;
    } else {
      // several: F_k in the joint's own axes, where S is sparse
      for (int k = begin; k < last; ++k) {
        const Vec6 t = joint_force(ji, data.bMi[i].act_inv(data.bF[k]));
        for (int r = 0; r < ji.nv; ++r) data.M(begin + r, k) = data.M(k, begin + r) = t[r];
      }
      if (bias) {
        data.tau.segment(begin, ji.nv) =
            joint_force(ji, data.bMi[i].act_inv(data.oF[i])).head(ji.nv);
      }
    }
    // IC_parent += IC_i (and F_parent += F_i)
    const int p = model.parent[i];
    if (p > 0) {
      data.bYcrb[p] += data.bYcrb[i];
      if (bias) data.oF[p] += data.oF[i];
    }
  }
  data.M.diagonal() += model.armature;
}

}  // namespace

const Eigen::MatrixXd& crba(const Model& model, Data& data, ConstVec q) {
  detail::check_size(q.size(), model.nq, "q");
  place_in_base_frame(model, data, q);
  crba_backward(model, data, false);
  return data.M;
}

namespace {

using SmallMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

// The 6x6 matrix of inertia moments, linear first: [m 1, -[h]x; [h]x, I_o].
void inertia_matrix(const InertiaMoments& Y, Mat6& out) {
  const Mat3 H = skew(Y.h);
  out.topLeftCorner<3, 3>() = Y.m * Mat3::Identity();
  out.topRightCorner<3, 3>() = -H;
  out.bottomLeftCorner<3, 3>() = H;
  out.bottomRightCorner<3, 3>() = Y.I_o;
}

// r x X, column by column: [r]x X in 18 products instead of 27
Mat3 cross_columns(const Vec3& r, const Mat3& X) {
  Mat3 out;
  for (int c = 0; c < 3; ++c) out.col(c) = r.cross(X.col(c));
  return out;
}

// out += Ia moved from a point to the point r behind it (o_p = o_i - r, same axes). With K = [r]x
// the motion transform is [1 K; 0 1] one way and the force transform [1 0; K 1] the other, so
// [A B; B^T C] becomes [A, B - A K; (B - A K)^T, C + K B + (K B)^T - K A K] (A, C symmetric,
// A K = -(K A)^T): three column-wise cross products.
void add_moved(const Mat6& Ia, const Vec3& r, Mat6& out) {
  const Mat3 KAt = cross_columns(r, Ia.topLeftCorner<3, 3>()).transpose();  // -A K
  const Mat3 B = Ia.topRightCorner<3, 3>() + KAt;
  const Mat3 KB = cross_columns(r, Ia.topRightCorner<3, 3>());
  out.topLeftCorner<3, 3>() += Ia.topLeftCorner<3, 3>();
  out.topRightCorner<3, 3>() += B;
  out.bottomLeftCorner<3, 3>() += B.transpose();
  out.bottomRightCorner<3, 3>() +=
      Ia.bottomRightCorner<3, 3>() + KB + KB.transpose() + cross_columns(r, KAt);
}

// A force moved from a point to the point r behind it: n += r x f.
Force moved(Force f, const Vec3& r) {
  f.ang += r.cross(f.lin);
  return f;
}
// A motion moved to the point r ahead of where it is given: v += w x r.
Motion moved(Motion m, const Vec3& r) {
  m.lin += m.ang.cross(r);
  return m;
}

// A pivot of joint i that fails the rule: collected in `singular`, its D^-1 taken as 0 (exact when
// IA S = 0); the caller decides what to say (detail::throw_singular_mass_matrix).
void singular_pivot(int i, std::vector<int>* singular) { singular->push_back(i); }

// The pivot rule for a joint of several dofs: those of D = S^T IA S (or of IA itself for a
// free-flyer on the world) are the squared diagonal entries of its Cholesky factor.
template <class Llt>
bool pivots_positive(const Llt& llt, const Data& data) {
  if (llt.info() != Eigen::Success) return false;
  const double l = llt.matrixLLT().diagonal().minCoeff();
  return detail::pivot_positive(l * l, data.pivot_scale);
}

// Whether joint i is a free-flyer on the world, which the passes solve directly: its S is
// invertible, so IA oa = f - pA needs no U, D or u.
bool free_flyer_on_world(const Model& model, int i) {
  return model.parent[i] == 0 && is_floating(model.joints[i]);
}

// ABA first forward pass (Featherstone 2008, Table 7.1, first loop): the axes of each joint, the
// offset r_i from its parent's origin, S, twists v_i = v_p + S qd, velocity-product accelerations
// c_i = v_i x S qd; the articulated inertias start as the bodies' own, IA_i = I_i, with bias
// forces pA_i = v_i x* I_i v_i. Everything of joint i is about joint i's origin, in the axes of
// the base frame (as crba: the floating base's own, the world's for a fixed base), so a floating
// base's placement enters only through gravity's direction, and its S is 1.
void aba_velocities(const Model& model, Data& data, ConstVec q, ConstVec v) {
  data.bMi[0] = SE3::Identity();
  data.ov[0] = Motion::Zero();
  InertiaMoments Y;
  SE3 axes;  // the base frame's axes at the joint's origin
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int p = model.parent[i];
    const SE3 liMi = joint_placement(jnt, model.placement[i], q);
    data.liMi[i] = liMi;
    const bool base = model.floating_base && i == 1;
    data.bMi[i] = base ? SE3::Identity() : data.bMi[p] * liMi;
    axes.R = data.bMi[i].R;
    // from the parent's origin to this joint's, base axes: from rotations and the model's
    // placements only, never from the (possibly huge) world position of either
    Vec3& r = data.parent_offset[i];
    if (base) {
      r.setZero();
    } else {
      r.noalias() = data.bMi[p].R * liMi.p;
    }
    Motion vJ;
    if (jnt.nv == 1) {
      joint_column(jnt, 0, axes, data.oS[i]);
      vJ = data.oS[i] * v[jnt.idx_v];
    } else {
      vJ = axes.act(joint_motion(jnt, v));
      // S in base axes, until U replaces it (a free-flyer on the world needs none)
      if (!free_flyer_on_world(model, i)) data.U[i].noalias() = axes.action() * jnt.S;
    }
    const Motion vi = moved(data.ov[p], r) + vJ;
    data.ov[i] = vi;
    data.c[i] = cross(vi, vJ);
    model.inertia[i].moments(axes, Y);
    inertia_matrix(Y, data.IA[i]);
    data.pA[i] = cross_force(vi, Y * vi);
  }
}

// ABA backward pass for a 1-DoF joint: U = IA S (a 6-vector), D = S^T U (a scalar), u = tau -
// S^T pA; the parent gets Ia = IA - U D^-1 U^T and pa = pA + Ia c + U D^-1 u, moved to its origin.
void aba_project_one_dof(const Model& model, Data& data, int i, ConstVec tau,
                         std::vector<int>* singular) {
  const Joint& jnt = model.joints[i];
  const int p = model.parent[i];
  Mat6& IA = data.IA[i];
  const Motion& S = data.oS[i];
  // U = IA S: a revolute joint's S has no linear part, a prismatic one's no angular part
  const bool turns = is_revolute(jnt);
  Vec6 U;
  if (turns) {
    U.noalias() = IA.rightCols<3>() * S.ang;
  } else {
    U.noalias() = IA.leftCols<3>() * S.lin;
  }
  // D = S^T IA S + armature: D is M's pivot at this coordinate, and the rotor inertia sits on M's
  // diagonal (as Pinocchio's aba adds model.armature to S^T U)
  const double D =
      (turns ? U.tail<3>().dot(S.ang) : U.head<3>().dot(S.lin)) + model.armature[jnt.idx_v];
  double Dinv = 0;
  if (detail::pivot_positive(D, data.pivot_scale)) {
    Dinv = 1 / D;
  } else {
    singular_pivot(i, singular);
  }
  const double u = tau[jnt.idx_v] - data.pA[i].dot(S);
  data.oU[i] = U;
  data.oDinv[i] = Dinv;
  data.ou[i] = u;
  if (p == 0) return;
  // pa = pA + IA c + U D^-1 (u - U^T c), Ia = IA - U D^-1 U^T
  const Vec6 c = data.c[i].vector();
  const Vec6 pa = IA * c + U * ((u - U.dot(c)) * Dinv);
  data.pA[p] += moved(data.pA[i] + Force::from(pa), data.parent_offset[i]);
  const Vec6 DU = Dinv * U;
  for (int k = 0; k < 6; ++k) IA.col(k) -= U[k] * DU;
  add_moved(IA, data.parent_offset[i], data.IA[p]);
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
  const MotionSubspace S = U;  // S in base axes
  U.noalias() = IA * S;
  Dinv.noalias() = S.transpose() * U;
  Dinv.diagonal() += model.armature.segment(jnt.idx_v, nv);  // the motors' rotor inertia
  const Eigen::LLT<SmallMat> llt(Dinv);
  if (!pivots_positive(llt, data)) {
    singular_pivot(i, singular);
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
  add_moved(Ia, data.parent_offset[i], data.IA[p]);
  data.pA[p] += moved(Force::from(pa), data.parent_offset[i]);
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
// force: IA a = f - pA with f the joint wrench in base axes, and qdd = S^-1 (a - a_0) (c = v x v
// = 0).
void aba_free_flyer_acceleration(const Model& model, Data& data, int i, ConstVec tau,
                                 std::vector<int>* singular) {
  const Joint& jnt = model.joints[i];
  const SE3 axes{data.bMi[i].R, Vec3::Zero()};
  // with armature A the joint's equation is S^T IA oa + A qdd = tau - S^T pA, qdd = S^-1 (oa -
  // a_0), S orthogonal (rotations): (IA + B) oa = f - pA + B a_0 with B = S A S^T
  Mat6 IA = data.IA[i];
  Vec6 Ba0 = Vec6::Zero();
  const auto armature = model.armature.segment<6>(jnt.idx_v);
  if (!armature.isZero()) {
    const Mat3& R = axes.R;
    const Mat3 B_lin = R * armature.head<3>().asDiagonal() * R.transpose();
    const Mat3 B_ang = R * armature.tail<3>().asDiagonal() * R.transpose();
    IA.topLeftCorner<3, 3>() += B_lin;
    IA.bottomRightCorner<3, 3>() += B_ang;
    Ba0 << B_lin * data.oa[0].lin, B_ang * data.oa[0].ang;
  }
  const Eigen::LLT<Mat6> llt(IA);
  if (!pivots_positive(llt, data)) {
    singular_pivot(i, singular);
    data.qdd.segment<6>(jnt.idx_v).setZero();
    data.oa[i] = data.oa[0];
    return;
  }
  const Force f = axes.act(Force::from(tau.segment<6>(jnt.idx_v))) - data.pA[i];
  data.oa[i] = Motion::from(llt.solve(f.vector() + Ba0));
  const Motion qdd = axes.act_inv(data.oa[i] - data.oa[0]);
  data.qdd.segment<3>(jnt.idx_v) = qdd.lin;
  data.qdd.segment<3>(jnt.idx_v + 3) = qdd.ang;
}

// ABA second forward pass (Featherstone 2008, Table 7.1, third loop): a_i = a_p + c_i + S qdd_i,
// qdd_i = D^-1 (u - U^T (a_p + c_i)); gravity enters as an upward acceleration of the base.
void aba_accelerations(const Model& model, Data& data, ConstVec tau, std::vector<int>* singular) {
  // gravity in the base frame: turned by the floating base's orientation
  const Vec3 gravity =
      model.floating_base ? Vec3(data.liMi[1].R.transpose() * model.gravity) : model.gravity;
  data.oa[0] = Motion{-gravity, Vec3::Zero()};
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const Motion ap = moved(data.oa[model.parent[i]], data.parent_offset[i]) + data.c[i];
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

// The articulated-body algorithm (Featherstone 2008, Table 7.1) in the axes of the base frame
// (the floating base's own, or the world's), each joint's quantities about that joint's own
// origin. Why not about the world origin (Pinocchio 3's world convention, which eom used: no 6x6
// change of frame at all): there a body at distance d carries inertia moments m d^2 in every
// entry, and the pivot D = S^T IA S of a joint near it comes out as a difference of such terms,
// so its round-off grows as d^2: with the base 1 km away the accelerations of a legged robot
// changed by up to 0.13 relative, at 100 km pivots drowned in round-off (a false "singular"), and
// even within a metre the backward error was 15 to 130 times that of local frames. About the
// joint's own origin the moments are those of its subtree about it, as in Featherstone's local
// frames, and the offsets r_i come from rotations and the model's placements, never from world
// positions: the result is the same, bit for bit, at any base position, and in the base's axes
// the base's orientation enters only through gravity's direction. Why one frame's axes rather
// than each joint's own (Featherstone's and Pinocchio's default): an inertia then passes to the
// parent by a shift of its reference point (three 3x3 cross products, add_moved), not a rotation
// of all four blocks as well. Measured (tests/reference/test_reference_aba_anywhere.cpp,
// bench/README.md): the backward error matches local frames' on every reference robot, at a cost
// of about 2 rnea calls.
// The joints whose pivot fails the rule are collected in `singular` (their D^-1 taken as 0, which
// is exact when IA S = 0).
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
  std::vector<int> singular;  // allocates only when a pivot fails
  articulated_body(model, data, q, v, tau, &singular);
  if (!singular.empty()) detail::throw_singular_mass_matrix(model, q, singular.front());
  return data.qdd;
}

const Eigen::VectorXd& forward_dynamics_crba(const Model& model, Data& data, ConstVec q, ConstVec v,
                                             ConstVec tau) {
  detail::check_size(tau.size(), model.nv, "tau");
  crba(model, data, q);
  nonlinear_effects(model, data, q, v);
  data.qdd = tau - data.tau;
  detail::factor_mass_matrix(model, data, q, data.M_factor);
  linalg::solve_ltdl(data.dof_parent, data.M_factor, data.qdd);
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

double inertia_moved_by(const Model& model, int joint) {
  Data data(model);
  const Eigen::MatrixXd& M = crba(model, data, neutral(model));
  const Joint& j = model.joints.at(joint);
  return j.nv == 0 ? 0 : M.diagonal().segment(j.idx_v, j.nv).maxCoeff();
}

namespace detail {

void factor_mass_matrix(const Model& model, const Data& data, ConstVec q, Eigen::MatrixXd& H) {
  H = data.M;
  linalg::ltdl(data.dof_parent, H);
  // ltdl stops at a pivot that is not positive: the ones after it (towards the leaves) are final
  for (int k = model.nv - 1; k >= 0; --k) {
    if (pivot_positive(H(k, k), data.pivot_scale)) continue;
    int joint = 1;  // the joint of coordinate k
    while (joint + 1 < model.njoints && model.joints[joint + 1].idx_v <= k) ++joint;
    throw_singular_mass_matrix(model, q, joint);
  }
}

void throw_singular_mass_matrix(const Model& model, ConstVec q, int joint) {
  const std::string name = "joint '" + model.joint_names[joint] + "'";
  const std::vector<int> everywhere = joints_without_inertia(model);
  if (std::find(everywhere.begin(), everywhere.end(), joint) != everywhere.end()) {
    throw NumericalError(name +
                         " moves no mass or inertia along its motion: the mass matrix is singular "
                         "at every configuration (a model defect: give the links it moves mass "
                         "and inertia, or lock the joint) and forward dynamics is undefined");
  }
  // only here: the motion that moves nothing is the null direction of M
  Data data(model);
  crba(model, data, q);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(data.M);
  Eigen::Index largest = 0;
  eigen.eigenvectors().col(0).cwiseAbs().maxCoeff(&largest);
  const Eigen::VectorXd x = eigen.eigenvectors().col(0) / eigen.eigenvectors()(largest, 0);
  std::string motion;
  for (int k = 0; k < model.nv; ++k) {
    if (std::abs(x[k]) < kNullMotionShown) continue;
    std::ostringstream term;
    term << (motion.empty() ? "" : ", ") << "v." << model.v_names[k] << " = " << number_text(x[k]);
    motion += term.str();
  }
  throw NumericalError(
      "the mass matrix is singular at this configuration (not at every one): " + name +
      " moves no mass or inertia beyond what the joints after it move; "
      "the joint velocities " +
      motion + " move no mass or inertia, so forward dynamics is undefined here");
}

const Eigen::MatrixXd& crba_nonlinear_effects(const Model& model, Data& data, ConstVec q,
                                              ConstVec v) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  place_in_base_frame(model, data, q);
  bias_forces_in_base_frame(model, data, v);
  crba_backward(model, data, true);
  return data.M;
}

}  // namespace detail

Friction Friction::from_model(const Model& model) { return {model.damping, model.friction, 0.0}; }

void friction_torque(const Friction& friction, ConstVec v, VecRef out) {
  detail::check_size(v.size(), static_cast<int>(friction.viscous.size()), "v");
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    out[k] =
        friction.viscous[k] * v[k] + friction.coulomb[k] * coulomb_sign(v[k], friction.smoothing);
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
  // the motors' rotors: 1/2 v^T diag(armature) v (MuJoCo's mj_energyVel takes 1/2 v^T M v)
  T += 0.5 * v.dot(model.armature.cwiseProduct(v));
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
