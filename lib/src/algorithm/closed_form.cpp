// Müller and Kumar, "Closed Form Time Derivatives of the Equations of Motion of Rigid Body
// Systems": the closed-form EOM of a serial chain and their first and second time derivatives.
//
// The block operators of the paper (A, a, b, M_b) are applied to 6n x n matrices block by block
// rather than formed densely: A Y by the recursion Z_i = Y_i + Ad_{C_{i,i-1}} Z_{i-1} (A is the
// inverse of I - D, D holding Ad_{C_{i,i-1}} below the diagonal), the block-diagonal ones per
// body. Every 6n x n matrix here is block lower-triangular like J (block row i, body i, depends
// on joints 0..i only; A, a, b, M_b all keep that pattern), so the operators touch only columns
// 0..i of block row i; the entries above stay zero from the constructor on.

#include "eom/algorithm/closed_form.hpp"

#include <string>

#include "eom/core/errors.hpp"
#include "core/sizes.hpp"

namespace eom {
namespace {

using Matrix = Eigen::MatrixXd;

/// ad_V, the matrix of the Lie bracket V x (.) on motions (linear first): ad_V m = cross(V, m).
Mat6 ad_matrix(const Vec6& V) {
  const Mat3 v = skew(V.head<3>()), w = skew(V.tail<3>());
  Mat6 ad;
  ad << w, v, Mat3::Zero(), w;
  return ad;
}

auto block(Matrix& Y, int i) { return Y.middleRows<6>(6 * i); }
auto block(Eigen::VectorXd& y, int i) { return y.segment<6>(6 * i); }
auto block(const Eigen::VectorXd& y, int i) { return y.segment<6>(6 * i); }

/// Z = A Y, (17); Z may be Y.
void apply_A(const ClosedFormData& d, const Matrix& Y, Matrix& Z) {
  if (&Z != &Y) Z = Y;
  for (int i = 1; i < d.n; ++i) {
    for (int c = 0; c < i; ++c) {
      Z.block<6, 1>(6 * i, c).noalias() += d.Ad_prev[i] * Z.block<6, 1>(6 * (i - 1), c);
    }
  }
}

/// Z = a(u) Y, (20), column by column as u_i ad_{X_i} y = u_i (X_i x y); Z must not be Y.
void apply_a(const ClosedFormData& d, ConstVec u, const Matrix& Y, Matrix& Z) {
  for (int i = 0; i < d.n; ++i) {
    const Motion Xi = Motion::from(d.X[i]);
    for (int c = 0; c <= i; ++c) {
      const Motion y = Motion::from(Y.block<6, 1>(6 * i, c));
      Z.block<6, 1>(6 * i, c) = (cross(Xi, y) * u[i]).vector();
    }
  }
}

/// Z = M_b Y; Z must not be Y.
void apply_Mb(const ClosedFormData& d, const Matrix& Y, Matrix& Z) {
  for (int i = 0; i < d.n; ++i) {
    for (int c = 0; c <= i; ++c) {
      Z.block<6, 1>(6 * i, c).noalias() = d.Mb[i] * Y.block<6, 1>(6 * i, c);
    }
  }
}

/// Z += (b(V)^T M_b - M_b b(V)) Y: the body gyroscopic terms of (61), skew-symmetric per body.
void add_gyroscopic(const ClosedFormData& d, const Eigen::VectorXd& V, const Matrix& Y, Matrix& Z) {
  for (int i = 0; i < d.n; ++i) {
    const Mat6 ad = ad_matrix(block(V, i));
    Mat6 G;
    G.noalias() = ad.transpose() * d.Mb[i];
    G.noalias() -= d.Mb[i] * ad;
    for (int c = 0; c <= i; ++c) {
      Z.block<6, 1>(6 * i, c).noalias() += G * Y.block<6, 1>(6 * i, c);
    }
  }
}

/// Z = dA/dt Y = A a (Y - A Y), from dA/dt = A a - A a A, (25) (a = a(qdot)). Uses tmp.
void apply_dA(const ClosedFormData& d, ConstVec qdot, const Matrix& Y, Matrix& Z, Matrix& tmp) {
  apply_A(d, Y, tmp);
  tmp = Y - tmp;
  apply_a(d, qdot, tmp, Z);
  apply_A(d, Z, Z);
}

/// Z = d2A/dt2 Y = A (a a P - 2 a A a P + adot P) with P = Y - A Y: the derivative of (25) with
/// da/dt = a(qddot). Uses P, t1, t2.
void apply_d2A(const ClosedFormData& d, ConstVec qdot, ConstVec qddot, const Matrix& Y, Matrix& Z,
               Matrix& P, Matrix& t1, Matrix& t2) {
  apply_A(d, Y, P);
  P = Y - P;
  apply_a(d, qdot, P, t1);   // a P
  apply_a(d, qdot, t1, Z);   // a a P
  apply_A(d, t1, t1);        // A a P
  apply_a(d, qdot, t1, t2);  // a A a P
  Z -= 2 * t2;
  apply_a(d, qddot, P, t2);  // adot P
  Z += t2;
  apply_A(d, Z, Z);
}

/// out = d^k N/dt^k Y for N = M_b A a + b^T M_b - M_b b, the inner factor of C = -J^T N J (61),
/// k = 0, 1, 2 (the derivatives (39) and (53): a, b linear in qdot and V, so their derivatives
/// are a(qddot), b(Vdot), ...). Uses work1 to work6.
void apply_N(ClosedFormData& d, int k, ConstVec v, ConstVec a, ConstVec d3q, const Matrix& Y,
             Matrix& out) {
  Matrix& s0 = d.work1;
  Matrix& s1 = d.work2;
  Matrix& s2 = d.work3;
  switch (k) {
    case 0:  // M_b A a Y
      apply_a(d, v, Y, s0);
      apply_A(d, s0, s0);
      apply_Mb(d, s0, out);
      add_gyroscopic(d, d.V, Y, out);
      return;
    case 1:  // M_b (dA a + A adot) Y
      apply_a(d, v, Y, s0);
      apply_dA(d, v, s0, s1, s2);
      apply_a(d, a, Y, s0);
      apply_A(d, s0, s0);
      s1 += s0;
      apply_Mb(d, s1, out);
      add_gyroscopic(d, d.dV, Y, out);
      return;
    default:  // M_b (d2A a + 2 dA adot + A addot) Y
      apply_a(d, d3q, Y, s0);
      apply_A(d, s0, s0);
      apply_Mb(d, s0, out);
      apply_a(d, a, Y, s0);
      apply_dA(d, v, s0, s1, s2);
      s1 *= 2;
      apply_a(d, v, Y, s0);
      apply_d2A(d, v, a, s0, d.work4, s2, d.work5, d.work6);
      s1 += d.work4;
      apply_Mb(d, s1, s0);
      out += s0;
      add_gyroscopic(d, d.d2V, Y, out);
      return;
  }
}

/// S = S + S^T in place, without a temporary.
void add_transpose(Matrix& S) {
  for (Eigen::Index i = 0; i < S.rows(); ++i) {
    S(i, i) *= 2;
    for (Eigen::Index j = 0; j < i; ++j) S(i, j) = S(j, i) = S(i, j) + S(j, i);
  }
}

/// x_f = R^T x with R = oMf.R, and its first two time derivatives from those of x, the angular
/// velocity w and acceleration dw of the frame in its own axes (dR/dt = R [w]x).
void to_frame_axes(const Mat3& R, const Vec3& w, const Vec3& dw, const Vec3& x, const Vec3& dx,
                   const Vec3& d2x, Vec3& y, Vec3& dy, Vec3& d2y) {
  y = R.transpose() * x;
  const Vec3 Rt_dx = R.transpose() * dx;
  dy = Rt_dx - w.cross(y);
  d2y = R.transpose() * d2x - w.cross(Rt_dx) - dw.cross(y) - w.cross(dy);
}

/// Q_ext = J^T W^ext (34) and its derivatives (44): the wrench sits on one body k, so only the
/// block row J_k of the system Jacobian enters.
void external_load(const Model& model, ClosedFormData& d, const FrameWrench& wrench, int order) {
  d.Q_ext.setZero();
  d.dQ_ext.setZero();
  d.d2Q_ext.setZero();
  const Frame& frame = model.frames[wrench.frame];
  if (frame.parent == 0) return;  // on the world: no generalized force
  const int k = frame.parent - 1;
  // the wrench and its derivatives in the frame's axes
  Vec6 W = wrench.W, dW = wrench.dW, d2W = wrench.d2W;
  if (wrench.reference == ReferenceFrame::local_world_aligned) {
    const Mat3 R = d.C_body[k].R * frame.placement.R;
    const Vec3 w = frame.placement.R.transpose() * block(d.V, k).tail<3>();
    const Vec3 dw =
        order >= 2 ? Vec3(frame.placement.R.transpose() * block(d.dV, k).tail<3>()) : Vec3::Zero();
    for (int part = 0; part < 6; part += 3) {
      Vec3 y, dy, d2y;
      to_frame_axes(R, w, dw, wrench.W.segment<3>(part), wrench.dW.segment<3>(part),
                    wrench.d2W.segment<3>(part), y, dy, d2y);
      W.segment<3>(part) = y;
      dW.segment<3>(part) = dy;
      d2W.segment<3>(part) = d2y;
    }
  }
  // to the body frame (a constant transform)
  const Vec6 Wk = frame.placement.act(Force::from(W)).vector();
  d.Q_ext.noalias() = block(d.J, k).transpose() * Wk;
  if (order < 1) return;
  const Vec6 dWk = frame.placement.act(Force::from(dW)).vector();
  d.dQ_ext.noalias() = block(d.dJ, k).transpose() * Wk;
  d.dQ_ext.noalias() += block(d.J, k).transpose() * dWk;
  if (order < 2) return;
  const Vec6 d2Wk = frame.placement.act(Force::from(d2W)).vector();
  d.d2Q_ext.noalias() = block(d.d2J, k).transpose() * Wk;
  d.d2Q_ext.noalias() += 2 * (block(d.dJ, k).transpose() * dWk);
  d.d2Q_ext.noalias() += block(d.J, k).transpose() * d2Wk;
}

}  // namespace

void require_serial_chain(const Model& model) {
  const std::string advice =
      "; the closed form (Müller-Kumar) supports serial chains of revolute and prismatic joints "
      "on a fixed base only: use the recursive method";
  if (model.floating_base) {
    throw ModelError("model '" + model.name + "' has a floating base" + advice);
  }
  for (int i = 1; i < model.njoints; ++i) {
    if (model.parent[i] != i - 1) {
      throw ModelError("model '" + model.name + "' is a tree: joint '" + model.joint_names[i] +
                       "' branches off joint '" + model.joint_names[model.parent[i]] + "'" +
                       advice);
    }
    if (!is_one_dof(model.joints[i])) {
      throw ModelError("model '" + model.name + "': joint '" + model.joint_names[i] +
                       "' has several degrees of freedom" + advice);
    }
  }
}

ClosedFormData::ClosedFormData(const Model& model) : n(model.nv) {
  require_serial_chain(model);
  for (int i = 1; i < model.njoints; ++i) {
    X.push_back(model.joints[i].s.vector());
    Mb.push_back(model.inertia[i].matrix());
  }
  C_body.assign(n, SE3::Identity());
  Ad_prev.assign(n, Mat6::Identity());
  for (Matrix* m : {&J, &dJ, &d2J, &NJ, &NdJ, &Nd2J, &dNJ, &dNdJ, &d2NJ, &MbJ, &MbdJ, &work1,
                    &work2, &work3, &work4, &work5, &work6}) {
    m->setZero(6 * n, n);
  }
  for (Eigen::VectorXd* x : {&V, &dV, &d2V, &U, &dU, &d2U, &MbU, &MbdU, &Mbd2U}) {
    x->setZero(6 * n);
  }
  for (Matrix* m : {&M, &dM, &d2M, &C, &dC, &d2C}) m->setZero(n, n);
  for (Eigen::VectorXd* x :
       {&Q_grav, &dQ_grav, &d2Q_grav, &Q_ext, &dQ_ext, &d2Q_ext, &tau, &dtau, &d2tau}) {
    x->setZero(n);
  }
}

namespace {

void check_closed_form_arguments(const Model& model, ConstVec q, ConstVec v, ConstVec a,
                                 ConstVec d3q, ConstVec d4q, int order, const FrameWrench* wrench) {
  if (order < 0 || order > 2) {
    throw InputError("closed form: order " + std::to_string(order) + " is not 0, 1 or 2");
  }
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(a.size(), model.nv, "a");
  if (order >= 1) detail::check_size(d3q.size(), model.nv, "d3q");
  if (order >= 2) detail::check_size(d4q.size(), model.nv, "d4q");
  if (wrench && (wrench->frame < 0 || wrench->frame >= static_cast<int>(model.frames.size()) ||
                 wrench->reference == ReferenceFrame::world)) {
    throw InputError(
        "closed form: the external wrench needs a model frame and a local or "
        "local_world_aligned reference");
  }
}

// The equations of motion tau = M qddot + C qdot + Q_grav - Q_ext (1) of the chain, with the
// kinematics the derivatives need: C_i, J and V, and dJ, dV (order >= 1), d2J, d2V (order 2).
void equations_of_motion(const Model& model, ClosedFormData& d, ConstVec q, ConstVec v, ConstVec a,
                         ConstVec d3q, int order, const FrameWrench* wrench) {
  const int n = d.n;

  // configurations C_i (5) and the blocks Ad_{C_{i,i-1}} of A (18)
  for (int i = 0; i < n; ++i) {
    const SE3 liMi = joint_placement(model.joints[i + 1], model.placement[i + 1], q);
    d.C_body[i] = i == 0 ? liMi : d.C_body[i - 1] * liMi;
    d.Ad_prev[i] = liMi.inverse().action();
  }

  // J = A X (16): X_j in block (j, j), then the recursion of A down each column
  d.J.setZero();
  for (int j = 0; j < n; ++j) d.J.block<6, 1>(6 * j, j) = d.X[j];
  apply_A(d, d.J, d.J);
  d.V.noalias() = d.J * v;  // (15)
  // Q_grav = J^T M_b U (32) with U_i = Ad_{C_i}^-1 [-g; 0] (33): gravity as a ground acceleration
  const Motion ground{-model.gravity, Vec3::Zero()};
  for (int i = 0; i < n; ++i) block(d.U, i) = d.C_body[i].act_inv(ground).vector();
  apply_Mb(d, d.J, d.MbJ);
  for (int i = 0; i < n; ++i) block(d.MbU, i).noalias() = d.Mb[i] * block(d.U, i);
  d.M.noalias() = d.J.transpose() * d.MbJ;  // (27)
  d.M.diagonal() += model.armature;         // the motors' rotor inertia, constant
  d.Q_grav.noalias() = d.J.transpose() * d.MbU;

  // dJ/dt = -A a J (19), needed by C already
  apply_a(d, v, d.J, d.work1);
  apply_A(d, d.work1, d.dJ);
  d.dJ = -d.dJ;
  if (order >= 1) {
    d.dV.noalias() = d.J * a;  // (22)
    d.dV.noalias() += d.dJ * v;
  }
  if (order >= 2) {
    // d2J/dt2 = -A (a a J + 2 a dJ + adot J): (19) differentiated with (25) and da/dt = a(qddot)
    apply_a(d, v, d.work1, d.work2);  // work1 = a J from above
    apply_a(d, v, d.dJ, d.work1);
    d.work2 += 2 * d.work1;
    apply_a(d, a, d.J, d.work1);
    d.work2 += d.work1;
    apply_A(d, d.work2, d.d2J);
    d.d2J = -d.d2J;
    d.d2V.noalias() = d.J * d3q;
    d.d2V.noalias() += 2 * (d.dJ * a);
    d.d2V.noalias() += d.d2J * v;
  }

  // C = -J^T N J (61)
  apply_N(d, 0, v, a, d3q, d.J, d.NJ);
  d.C.noalias() = -d.J.transpose() * d.NJ;

  if (wrench) {
    external_load(model, d, *wrench, order);
  } else {
    d.Q_ext.setZero();
    d.dQ_ext.setZero();
    d.d2Q_ext.setZero();
  }

  // (1)
  d.tau.noalias() = d.M * a;
  d.tau.noalias() += d.C * v;
  d.tau += d.Q_grav - d.Q_ext;
}

// The first time derivative of the equations of motion (35): dM/dt, dC/dt and dQ_grav/dt.
void first_time_derivative(ClosedFormData& d, ConstVec v, ConstVec a, ConstVec d3q) {
  const int n = d.n;
  // dM/dt = dJ^T M_b J + J^T M_b dJ (36)
  d.dM.noalias() = d.dJ.transpose() * d.MbJ;
  add_transpose(d.dM);
  // dC/dt = -(dJ^T N J + J^T dN J + J^T N dJ) (38)
  apply_N(d, 1, v, a, d3q, d.J, d.dNJ);
  apply_N(d, 0, v, a, d3q, d.dJ, d.NdJ);
  d.dC.noalias() = -d.dJ.transpose() * d.NJ;
  d.dC.noalias() -= d.J.transpose() * d.dNJ;
  d.dC.noalias() -= d.J.transpose() * d.NdJ;
  // dQ_grav/dt = dJ^T M_b U + J^T M_b dU with dU = -b U (43)
  for (int i = 0; i < n; ++i) {
    const Motion Vi = Motion::from(block(d.V, i)), Ui = Motion::from(block(d.U, i));
    block(d.dU, i) = -cross(Vi, Ui).vector();
    block(d.MbdU, i).noalias() = d.Mb[i] * block(d.dU, i);
  }
  d.dQ_grav.noalias() = d.dJ.transpose() * d.MbU;
  d.dQ_grav.noalias() += d.J.transpose() * d.MbdU;
  // (35)
  d.dtau.noalias() = d.dM * a;
  d.dtau.noalias() += d.M * d3q;
  d.dtau.noalias() += d.dC * v;
  d.dtau.noalias() += d.C * a;
  d.dtau += d.dQ_grav - d.dQ_ext;
}

// The second time derivative of the equations of motion (45): d2M/dt2, d2C/dt2 and
// d2Q_grav/dt2.
void second_time_derivative(ClosedFormData& d, ConstVec v, ConstVec a, ConstVec d3q, ConstVec d4q) {
  const int n = d.n;
  // d2M/dt2 = d2J^T M_b J + 2 dJ^T M_b dJ + J^T M_b d2J (46)
  apply_Mb(d, d.dJ, d.MbdJ);
  d.d2M.noalias() = d.d2J.transpose() * d.MbJ;
  add_transpose(d.d2M);
  d.d2M.noalias() += 2 * (d.dJ.transpose() * d.MbdJ);
  // d2C/dt2 = -(d2J^T N J + 2 dJ^T dN J + 2 dJ^T N dJ + J^T d2N J + 2 J^T dN dJ + J^T N d2J) (52)
  apply_N(d, 2, v, a, d3q, d.J, d.d2NJ);
  apply_N(d, 1, v, a, d3q, d.dJ, d.dNdJ);
  apply_N(d, 0, v, a, d3q, d.d2J, d.Nd2J);
  d.d2C.noalias() = -d.d2J.transpose() * d.NJ;
  d.d2C.noalias() -= 2 * (d.dJ.transpose() * d.dNJ);
  d.d2C.noalias() -= 2 * (d.dJ.transpose() * d.NdJ);
  d.d2C.noalias() -= d.J.transpose() * d.d2NJ;
  d.d2C.noalias() -= 2 * (d.J.transpose() * d.dNdJ);
  d.d2C.noalias() -= d.J.transpose() * d.Nd2J;
  // d2U/dt2 = -b(Vdot) U - b dU, the derivative of (43)
  for (int i = 0; i < n; ++i) {
    const Motion Vi = Motion::from(block(d.V, i)), dVi = Motion::from(block(d.dV, i));
    const Motion Ui = Motion::from(block(d.U, i)), dUi = Motion::from(block(d.dU, i));
    block(d.d2U, i) = -(cross(dVi, Ui) + cross(Vi, dUi)).vector();
    block(d.Mbd2U, i).noalias() = d.Mb[i] * block(d.d2U, i);
  }
  d.d2Q_grav.noalias() = d.d2J.transpose() * d.MbU;
  d.d2Q_grav.noalias() += 2 * (d.dJ.transpose() * d.MbdU);
  d.d2Q_grav.noalias() += d.J.transpose() * d.Mbd2U;
  // (45)
  d.d2tau.noalias() = d.d2M * a;
  d.d2tau.noalias() += 2 * (d.dM * d3q);
  d.d2tau.noalias() += d.M * d4q;
  d.d2tau.noalias() += d.d2C * v;
  d.d2tau.noalias() += 2 * (d.dC * a);
  d.d2tau.noalias() += d.C * d3q;
  d.d2tau += d.d2Q_grav - d.d2Q_ext;
}

}  // namespace

void closed_form_dynamics(const Model& model, ClosedFormData& d, ConstVec q, ConstVec v, ConstVec a,
                          ConstVec d3q, ConstVec d4q, int order, const FrameWrench* wrench) {
  check_closed_form_arguments(model, q, v, a, d3q, d4q, order, wrench);
  equations_of_motion(model, d, q, v, a, d3q, order, wrench);
  if (order >= 1) first_time_derivative(d, v, a, d3q);
  if (order >= 2) second_time_derivative(d, v, a, d3q, d4q);
}

}  // namespace eom
