// The equations of motion of a serial chain and their first and second time derivatives in closed
// form, after A. Müller and S. Kumar, "Closed Form Time Derivatives of the Equations of Motion of
// Rigid Body Systems" (equation numbers below are the paper's). An independent path to the
// recursive algorithms of dynamics.hpp: it builds the system Jacobian J = A X and the matrices of
// the EOM from the joint screws and the body inertias, and never calls rnea or crba.
//
// Notation and conventions (the paper's, in eom's linear-first ordering of spatial.hpp; the
// paper's equations are cited by number, the derivatives of A, J, N and U written out below follow
// from its (19)-(26) by the product rule):
//   body i is the body of joint i, its frame the joint frame; V_i = [v; ω] its body-fixed twist.
//   X_i         screw coordinates of joint i in the body frame (constant), eq. (6)-(7)
//   A           block lower-triangular, A_ij = Ad_{C_{i,j}} (motions of body j to body i), (17)-(18)
//   X           block-diagonal diag(X_1 ... X_n), J = A X (6n x n), V = J qdot, eq. (15)-(16)
//   a(u)        diag(ad_{X_1 u_1} ... ad_{X_n u_n}), eq. (20), so that dJ/dt = -A a(qdot) J (19)
//   b(V)        diag(ad_{V_1} ... ad_{V_n}), eq. (30)
//   M_b         diag(M_1 ... M_n), body inertias about the body frame origins, eq. (31)
// and the EOM, eq. (1), with the external-load term on the right-hand side:
//   tau = M(q) qddot + C(q, qdot) qdot + Q_grav(q) - Q_ext(q, t)
//   M = J^T M_b J                                                         (27)
//   C = -J^T (M_b A a + b^T M_b - M_b b) J                                (29), (61)-(62)
//     (the term M_b b J qdot = 0 is added so that Mdot - 2C is skew-symmetric, section 5)
//   Q_grav = J^T M_b U,  U_i = Ad_{C_i}^-1 [-g; 0]                        (32)-(33)
//   Q_ext = J^T W^ext, W^ext the wrench acting ON the robot               (34)
// tau is what the actuators apply, so a load pushing on the robot lowers it (as eom id's -J^T F).
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

/// An external wrench [f; n] acting on the robot at the origin of one frame, with its first and
/// second time derivatives, in the frame's axes (reference = local) or in world axes
/// (reference = local_world_aligned; the world frame reference is not accepted).
struct FrameWrench {
  int frame = -1;  // index into model.frames (required; pass no FrameWrench for no load)
  ReferenceFrame reference = ReferenceFrame::local;
  Vec6 W = Vec6::Zero();    // the wrench
  Vec6 dW = Vec6::Zero();   // its first time derivative (in the same axes)
  Vec6 d2W = Vec6::Zero();  // its second time derivative
};

/// Throws ModelError unless the model is a serial chain of revolute and prismatic joints on a
/// fixed base (the case the closed form covers); the message names the first offending joint and
/// suggests the recursive method.
void require_serial_chain(const Model& model);

/// Workspace and results of closed_form_dynamics, all allocated here from the Model (throws
/// ModelError, see require_serial_chain). n = model.nv.
struct ClosedFormData {
  explicit ClosedFormData(const Model& model);

  int n = 0;
  // constant model data (body-fixed, linear first)
  std::vector<Vec6> X;   // joint screw coordinates X_i, (6)-(7)                           (n)
  std::vector<Mat6> Mb;  // body inertias M_i about the body frame origin, (31)           (n)
  // configuration dependent                                                               (n)
  std::vector<SE3> C_body;    // C_i of (5): body i in the world
  std::vector<Mat6> Ad_prev;  // Ad_{C_{i,i-1}}: motions of body i-1 expressed in body i, (18)
  // the system Jacobian and its time derivatives (6n x n), (16), (19), (26)
  Eigen::MatrixXd J, dJ, d2J;
  // system twist and its time derivatives (6n), (15), (22)
  Eigen::VectorXd V, dV, d2V;
  // gravity twists U (33) and their time derivatives (6n)
  Eigen::VectorXd U, dU, d2U;

  // results: the matrices of the EOM and their time derivatives (n x n)
  Eigen::MatrixXd M, dM, d2M;  // (27), (36), (46)
  Eigen::MatrixXd C, dC, d2C;  // Coriolis matrix (61), (38), (52)
  // generalized gravity and external-load forces and their time derivatives (n)
  Eigen::VectorXd Q_grav, dQ_grav, d2Q_grav;  // (32), (43)
  Eigen::VectorXd Q_ext, dQ_ext, d2Q_ext;     // (34), (44); zero without a wrench
  // the actuator forces and their time derivatives (n): (1), (35), (45)
  Eigen::VectorXd tau, dtau, d2tau;

  // scratch: products with N of (61) and its derivatives, M_b times J and dJ (6n x n), M_b
  // times U and its derivatives (6n), working space (6n x n)
  Eigen::MatrixXd NJ, NdJ, Nd2J, dNJ, dNdJ, d2NJ, MbJ, MbdJ;
  Eigen::VectorXd MbU, MbdU, Mbd2U;
  Eigen::MatrixXd work1, work2, work3, work4, work5, work6;
};

/// The closed-form EOM and their time derivatives up to order (0, 1 or 2) at q, v = dq/dt,
/// a = d2q/dt2, d3q, d4q (n each; d3q is read for order >= 1 and d4q for order 2, otherwise they
/// may be empty). Fills, for k = 0 .. order, the k-th time derivatives of M, C, Q_grav,
/// Q_ext and tau (tau, dtau, d2tau), plus J, V, U and their derivatives to the same order (and
/// dJ always); the others keep stale values. Gravity is model.gravity. wrench may be null.
/// Allocates nothing; throws InputError for wrong sizes, an order outside 0..2 or an unusable
/// wrench frame.
void closed_form_dynamics(const Model& model, ClosedFormData& data, ConstVec q, ConstVec v,
                          ConstVec a, ConstVec d3q, ConstVec d4q, int order,
                          const FrameWrench* wrench = nullptr);

}  // namespace eom
