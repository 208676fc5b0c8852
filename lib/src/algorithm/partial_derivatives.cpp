// Analytical partial derivatives of rnea and aba, after J. Carpentier and N. Mansard, "Analytical
// derivatives of rigid body dynamics algorithms" (RSS 2018), Section III and Algorithm 1.
//
// Everything is in world axes about the first joint's origin (a translated world frame). A tangent perturbation of joint k moves
// its subtree rigidly by the twist J_k dq (world column of S_k), so every world quantity X of a
// body below k changes by J_k x X, except where an ancestor's velocity or acceleration enters:
// with J = column of S_k, p = parent of k,
//   dv_i/dq_k = J x (v_i - v_p),  da_i/dq_k = J x (a_i - a_p) - (J x v_p) x (v_i - v_p),
// and the body force f_i = I_i a_i + v_i x* I_i v_i varies as (the paper's Eq. 12-14)
//   df_i/dq_k = J x* f_i + I_i dAdq + dY_i dVdq,   df_i/dv_k = I_i dAdv + dY_i J,
//   dVdq = v_p x J,  dAdq = a_p x J + v_p x dVdq,  dAdv = (v_k + v_p) x J,
// where dY_i u = u x* I_i v_i + v_i x* I_i u - I_i (v_i x u) is the variation of the inertia.
// tau_j = J_j^T F_j with F_j the force of the subtree of j; the J x* F term cancels the
// variation of J_j itself in the rows of j and of its descendants.
//
// Expanding dY in linear-first coordinates (h = I v the momentum, s = m c the first moment,
// I_o the rotational inertia about the origin) it only sees the angular part of u:
//   dY u = [2 u_w x h_lin; u_w x h_ang + A u_w],
//   A = [v_w]x I_o - I_o [v_w]x - [v_lin]x [s]x - [s]x [v_lin]x   (symmetric),
// so the subtree sums need only the subtree momentum and one symmetric 3x3 matrix per joint,
// not the 6x6 matrix of the paper.

#include "eom/algorithm/partial_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "algorithm/column_combination.hpp"
#include "eom/algorithm/dynamics.hpp"
#include "eom/core/errors.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "algorithm/singular_mass_matrix.hpp"
#include "core/sizes.hpp"

namespace eom {
namespace {

// dY u for a subtree: momentum h, symmetric part A (see above); w is the angular part of u
inline Force inertia_variation(const Force& h, const Mat3& A, const Vec3& w) {
  return {2.0 * w.cross(h.lin), w.cross(h.ang) + A * w};
}
// the angular part of dY^T x (its linear part is zero)
inline Vec3 inertia_variation_transpose(const Force& h, const Mat3& A, const Motion& x) {
  return 2.0 * h.lin.cross(x.lin) + h.ang.cross(x.ang) + A * x.ang;
}

// M^-1 from the tree-sparse factor M = L^T D L (linalg::ltdl, factored in data.Minv's place); a
// singular M at q is named as aba names it.
void invert_mass_matrix(const Model& model, Data& data, ConstVec q) {
  Eigen::MatrixXd& Z = data.Minv;
  detail::factor_mass_matrix(model, data, q, Z);
  const int n = model.nv;
  const int* begin = data.dof_ancestors_begin.data();
  const int* ancestors = data.dof_ancestors.data();
  // M^-1 = Z solves L Z = D^-1 L^-T, upper triangular with diagonal 1 / D_k (Takahashi's
  // recurrence, L unit lower triangular): root first, Z_ck = -sum_a L_ka Z_ca over k's ancestors
  // a, for c < k (column k above the diagonal, from columns already complete down to row k - 1),
  // then the diagonal Z_kk = 1 / D_k - sum_a L_ka Z_ak, and row k by symmetry. In place: column k
  // of the factor (L_ka above the diagonal, D_k on it) is read before column k of Z replaces it,
  // and row k left of the diagonal is the factor's unused lower triangle.
  double* weight = data.coefficients.data();  // L_ka at the ancestors a
  for (int k = 0; k < n; ++k) {
    const int count = begin[k + 1] - begin[k];
    const int* a = ancestors + begin[k];
    double* z = Z.col(k).data();
    for (int t = 0; t < count; ++t) weight[a[t]] = z[a[t]];
    double diagonal = 1 / z[k];
    detail::negative_combination<1>(Z, a, count, {weight}, {z}, k);
    for (int t = 0; t < count; ++t) diagonal -= weight[a[t]] * z[a[t]];
    z[k] = diagonal;
    for (int c = 0; c < k; ++c) Z(k, c) = z[c];
  }
}

// dqdd_dq = -M^-1 dtau_dq and dqdd_dv = -M^-1 dtau_dv. Column c of joint i of dtau is nonzero
// only in the rows of i's ancestors and of its subtree (a force on another branch does not reach
// i, and i's motion does not move it), so each column of the result sums only those columns of
// M^-1: half the work of a dense product for a legged robot.
void minus_minv_times_partials(const Model& model, Data& data) {
  const int n = model.nv;
  int* rows = data.rows.data();
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int iv = jnt.idx_v, end = iv + jnt.nv, last = iv + model.nv_subtree[i];
    if (jnt.nv == 0) continue;
    // the coordinates of the ancestors, then those of the subtree
    const int* ancestors = data.dof_ancestors.data() + data.dof_ancestors_begin[iv];
    int count = data.dof_ancestors_begin[iv + 1] - data.dof_ancestors_begin[iv];
    std::copy(ancestors, ancestors + count, rows);
    for (int r = iv; r < last; ++r) rows[count++] = r;
    // the translations of a floating base leave tau unchanged (gravity is uniform): zero columns
    const int first = model.floating_base && i == 1 ? 3 : iv;
    for (int c = iv; c < end; ++c) {
      const double* xq = data.dtau_dq.col(c).data();
      const double* xv = data.dtau_dv.col(c).data();
      if (c < first) {
        data.dqdd_dq.col(c).setZero();
        detail::negative_combination<1>(data.Minv, rows, count, {xv}, {data.dqdd_dv.col(c).data()},
                                        n);
      } else {
        detail::negative_combination<2>(data.Minv, rows, count, {xq, xv},
                                        {data.dqdd_dq.col(c).data(), data.dqdd_dv.col(c).data()},
                                        n);
      }
    }
  }
}

}  // namespace

namespace {

// forward pass over q and v: placements, world columns of S, twists, velocity-product
// accelerations, body inertias and momenta, the inertia variations and the derivatives of the
// twists; with `bias`, the body forces at zero joint acceleration into data.oF
void velocity_pass(const Model& model, Data& data, ConstVec q, ConstVec v, bool bias) {
  // the world at rest; gravity enters as an upward acceleration of the base. The world is
  // translated to the first joint's origin (the floating base's, for one): the moments about it are
  // those of the robot, not of its distance from the world origin, whose square would otherwise
  // enter every entry of M and of the partials' round-off; a uniform field does not see it.
  data.oMi[0] = SE3{Mat3::Identity(), -joint_placement(model.joints[1], model.placement[1], q).p};
  data.ov[0] = Motion::Zero();
  data.oa[0] = Motion{-model.gravity, Vec3::Zero()};
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int p = model.parent[i], iv = jnt.idx_v, nv = jnt.nv;
    place_joint(model, data, i, q);
    const SE3& oMi = data.oMi[i];
    const Motion& vp = data.ov[p];

    // v_i = v_p + J qd, c_i = v_i x J qd
    Motion vJ = Motion::Zero();
    for (int k = 0; k < nv; ++k) {
      Motion& J = data.oJ[iv + k];
      joint_column(jnt, k, oMi, J);
      vJ += J * v[iv + k];
    }
    const Motion vi = vp + vJ;
    data.ov[i] = vi;
    data.oc[i] = cross(vi, vJ);

    InertiaMoments& Y = data.oYb[i];
    model.inertia[i].moments(oMi, Y);
    data.oYcrb[i] = Y;
    const Force h = Y * vi;
    data.ohb[i] = h;
    data.oh[i] = h;
    if (bias) {
      const Motion ai = data.oa[p] + data.oc[i];
      data.oa[i] = ai;
      data.oF[i] = Y * ai + cross_force(vi, h);
    }
    // the symmetric part of the inertia variation:
    // [w]x I_o - I_o [w]x = C + C^T with C = [w]x I_o; -[v]x[s]x - [s]x[v]x = 2 (s.v) 1 - s v^T - v
    // s^T
    Mat3& A = data.doYcrb[i];
    Mat3 C;
    for (int c = 0; c < 3; ++c) C.col(c) = vi.ang.cross(Y.I_o.col(c));
    A.noalias() = C + C.transpose();
    A.noalias() -= Y.h * vi.lin.transpose() + vi.lin * Y.h.transpose();
    A.diagonal().array() += 2.0 * Y.h.dot(vi.lin);

    for (int k = 0; k < nv; ++k) {
      const Motion& J = data.oJ[iv + k];
      const Motion dV = cross(vp, J);
      data.dVdq[iv + k] = dV;
      // dA/dv = (v_i + v_p) x J; one column is parallel to itself, so v_i x J = v_p x J
      const Motion dA = nv == 1 ? dV * 2.0 : dV + cross(vi, J);
      Eigen::Matrix<double, 2, 9>& X = data.dAdx[iv + k];
      X.block<1, 3>(0, 6) = dV.ang.transpose();
      X.row(1) << dA.lin.transpose(), dA.ang.transpose(), J.ang.transpose();
    }
  }
}

// backward pass: subtree inertias, momenta and inertia variations, F = Y J per column and the
// mass matrix M_rk = J_r . Y_k J_k (the composite rigid body algorithm in world axes); with
// `bias`, the subtree bias forces and nle = J^T F into out
void composite_pass(const Model& model, Data& data, bool bias, Eigen::VectorXd& out) {
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& jnt = model.joints[i];
    const int iv = jnt.idx_v, end = iv + jnt.nv, last = iv + model.nv_subtree[i];
    const InertiaMoments& Y = data.oYcrb[i];
    for (int c = iv; c < end; ++c) data.dFda[c] = Y * data.oJ[c];
    for (int r = iv; r < end; ++r) {
      const Motion& J = data.oJ[r];
      for (int c = iv; c < end; ++c) data.M(r, c) = data.dFda[c].dot(J);
      for (int k = end; k < last; ++k) data.M(r, k) = data.M(k, r) = data.dFda[k].dot(J);
      if (bias) out[r] = data.oF[i].dot(J);
    }
    const int p = model.parent[i];
    if (p > 0) {
      data.oYcrb[p] += Y;
      data.oh[p] += data.oh[i];
      data.doYcrb[p] += data.doYcrb[i];
      if (bias) data.oF[p] += data.oF[i];
    }
  }
  data.M.diagonal() += model.armature;  // the motors' rotor inertia
}

// forward pass over a: accelerations, body forces, derivatives of the accelerations
void acceleration_pass(const Model& model, Data& data, ConstVec a) {
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jnt = model.joints[i];
    const int p = model.parent[i], iv = jnt.idx_v, nv = jnt.nv;
    const Motion& ap = data.oa[p];
    const Motion& vp = data.ov[p];
    // a_i = a_p + J qdd + v_i x J qd
    Motion ai = ap + data.oc[i];
    for (int k = 0; k < nv; ++k) {
      const Motion& J = data.oJ[iv + k];
      ai += J * a[iv + k];
      const Motion dA = cross(ap, J) + cross(vp, data.dVdq[iv + k]);
      data.dAdx[iv + k].block<1, 6>(0, 0) << dA.lin.transpose(), dA.ang.transpose();
    }
    data.oa[i] = ai;
    data.oF[i] = data.oYb[i] * ai + cross_force(data.ov[i], data.ohb[i]);
  }
}

// an entry of dtau_dq and of dtau_dv at once: the paired columns weighted by x
template <typename Paired, typename Weights>
inline Eigen::Vector2d paired_sum(const Paired& paired, const Weights& x) {
  Eigen::Vector2d sum = paired.col(0) * x[0];
  for (int d = 1; d < x.size(); ++d) sum += paired.col(d) * x[d];
  return sum;
}

// backward pass: subtree forces, tau, and the rows of dtau/dq and dtau/dv
void derivative_pass(const Model& model, Data& data) {
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& jnt = model.joints[i];
    const int iv = jnt.idx_v, end = iv + jnt.nv, last = iv + model.nv_subtree[i];
    const InertiaMoments& Y = data.oYcrb[i];
    const Force& h = data.oh[i];
    const Mat3& A = data.doYcrb[i];
    const Force& F = data.oF[i];

    for (int c = iv; c < end; ++c) {
      const Motion& J = data.oJ[c];
      const Eigen::Matrix<double, 2, 9>& X = data.dAdx[c];
      data.tau[c] = F.dot(J);
      const Force dFq =
          Y * Motion{X.block<1, 3>(0, 0).transpose(), X.block<1, 3>(0, 3).transpose()} +
          inertia_variation(h, A, X.block<1, 3>(0, 6).transpose());
      const Force dFv =
          Y * Motion{X.block<1, 3>(1, 0).transpose(), X.block<1, 3>(1, 3).transpose()} +
          inertia_variation(h, A, J.ang);
      data.dFdx[c] << dFq.lin.transpose(), dFq.ang.transpose(), dFv.lin.transpose(),
          dFv.ang.transpose();
    }
    for (int r = iv; r < end; ++r) {
      const Motion& J = data.oJ[r];
      Vec6 Jr;
      Jr << J.lin, J.ang;
      // the joint's own block: J_r^T dF_c (the variation of J_r cancels J_c x* F)
      for (int c = iv; c < end; ++c) {
        const Eigen::Vector2d d = paired_sum(data.dFdx[c], Jr);
        data.dtau_dq(r, c) = d[0];
        data.dtau_dv(r, c) = d[1];
      }
      // descendant columns: J_r^T dF_k
      for (int k = end; k < last; ++k) {
        const Eigen::Vector2d d = paired_sum(data.dFdx[k], Jr);
        data.dtau_dq(r, k) = d[0];
        data.dtau_dv(r, k) = d[1];
      }
    }
    // the ancestors' rows see the variation of F_i with J_c: dF/dq_c += J_c x* F
    for (int c = iv; c < end; ++c) {
      const Force JF = cross_force(data.oJ[c], F);
      data.dFdx[c].block<1, 6>(0, 0) += (Vec6() << JF.lin, JF.ang).finished().transpose();
    }
    for (int r = iv; r < end; ++r) {
      // ancestor columns: J_r^T (Y dA_k + dY dV_k) = (Y J_r) . dA_k + (dY^T J_r) . dV_k
      const Force& P = data.dFda[r];
      Eigen::Matrix<double, 9, 1> PQ;
      PQ << P.lin, P.ang, inertia_variation_transpose(h, A, data.oJ[r]);
      for (int j = model.parent[i]; j > 0; j = model.parent[j]) {
        const Joint& anc = model.joints[j];
        for (int k = anc.idx_v; k < anc.idx_v + anc.nv; ++k) {
          const Eigen::Vector2d d = paired_sum(data.dAdx[k], PQ);
          data.dtau_dq(r, k) = d[0];
          data.dtau_dv(r, k) = d[1];
        }
      }
    }
    const int p = model.parent[i];
    if (p > 0) data.oF[p] += F;
  }
}

}  // namespace

void rnea_derivatives(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(a.size(), model.nv, "a");
  velocity_pass(model, data, q, v, false);
  composite_pass(model, data, false, data.tau);
  acceleration_pass(model, data, a);
  derivative_pass(model, data);
  // the armature's torque is constant in q and v: it adds to tau only
  data.tau.noalias() += model.armature.cwiseProduct(a);
}

const Eigen::MatrixXd& mass_matrix_inverse(const Model& model, Data& data, ConstVec q) {
  crba(model, data, q);
  invert_mass_matrix(model, data, q);
  return data.Minv;
}

void aba_derivatives(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec tau) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(tau.size(), model.nv, "tau");
  // M and the bias forces nle in one pass, then qdd = M^-1 (tau - nle)
  velocity_pass(model, data, q, v, true);
  composite_pass(model, data, true, data.qdd);
  invert_mass_matrix(model, data, q);
  data.tau = tau - data.qdd;
  data.qdd.noalias() = data.Minv * data.tau;
  acceleration_pass(model, data, data.qdd);
  derivative_pass(model, data);
  data.tau.noalias() += model.armature.cwiseProduct(data.qdd);
  // M qdd + b(q, v) = tau  =>  dqdd/dx = -M^-1 dtau/dx at a = qdd
  minus_minv_times_partials(model, data);
}

}  // namespace eom
