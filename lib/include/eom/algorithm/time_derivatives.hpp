// Time derivatives of inverse dynamics along a trajectory, to any order.
//
// Along a motion q(t), tau(t) = rnea(q(t), v(t), dv/dt(t)). Given q and its time derivatives at
// one instant, rnea_time_derivatives returns tau and its first K time derivatives there, by one
// forward and one backward pass that carry truncated Taylor series (orders 0..K) of the bodies'
// twists, centre-of-mass motion, angular momenta and joint wrenches: O(n) per order, O(n K^2) in
// all. The passes work in world axes at the world origin, where transporting a series from a
// body to its parent is the identity and every time variation comes from the motion itself:
// d/dt of a world column of S is V x S, of a centre of mass V.lin + w x c, of a rotational
// inertia [w]J - J[w] (the Leibniz rule then gives every order). It serves the purpose of the
// recursive higher-order inverse dynamics of Kumar & Mueller (ICRA 2021), derived here
// independently in Featherstone's (2008) spatial vectors, in world axes as Carpentier & Mansard's
// derivatives are, with Newton-Euler about each centre of mass.
//
// For a floating (or planar) joint, whose velocity block is a child-frame twist, the derivative
// columns are the time derivatives of that twist's components, as the reference values define
// them; for 1-DoF joints they are the plain derivatives of the angle or displacement.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

/// Workspace of rnea_time_derivatives for one model and orders up to max_order, allocated at
/// construction only (one per thread).
struct TimeDerivativeData {
  TimeDerivativeData(const Model& model, int max_order);

  int max_order;                 // highest order K a call may ask for
  int stride;                    // max_order + 2: entries per joint or coordinate below
  std::vector<SE3> oMi;          // joint i in the world                          (njoints)
  std::vector<Motion> S;         // d^k/dt^k of world column r of S at [r * stride + k]
                                 // (nv x (K + 2))
  std::vector<Motion> V;         // d^k/dt^k of the world twist of body i        (njoints x
                                 // (K + 2)), at [i * stride + k]
  std::vector<Force> F;          // d^k/dt^k of the joint wrench of joint i (body and
                                 // subtree), world origin, at [i * stride + k]  (njoints x
                                 // (K + 1) used)
  std::vector<Vec3> c;           // one body's world centre of mass and its derivatives (K + 3)
  std::vector<Mat3> J;           // its rotational inertia about the centre of mass, world
                                 // axes, and derivatives                                (K + 1)
  std::vector<Vec3> L;           // its angular momentum about the centre of mass and
                                 // derivatives                                         (K + 2)
  std::vector<Vec3> p;           // one wrench frame's world origin and derivatives   (K + 1)
  std::vector<Mat3> R;           // its world rotation and derivatives (local wrenches) (K + 1)
  std::vector<Force> W;          // the wrench on it, world axes at its origin, and
                                 // derivatives                                         (K + 1)
  std::vector<double> binomial;  // C(n, k) at [n * stride + k], n <= K + 1
  double choose(int n, int k) const { return binomial[n * stride + k]; }

  // mass_coriolis_gravity_time_derivatives, world axes at the world origin: d^k/dt^k at
  // [i * stride + k] of body i's
  std::vector<Mat6> Ycrb;    // subtree inertia                              (njoints x (K + 1))
  std::vector<Mat6> Bcrb;    // subtree sum of the bodies' B(I, V)           (njoints x (K + 1))
  std::vector<Mat6> Vcross;  // one body's V x matrix and derivatives                  (K + 1)
  std::vector<Vec6> column;  // one column's Y S', B S, Y S, B^T S, each            (4 (K + 2))
  // results: d^k/dt^k of M, C (nv x nv each, at [k]) and g (column k), k = 0..K
  std::vector<Eigen::MatrixXd> M, C;
  Eigen::MatrixXd g;
};

/// Time derivatives of inverse dynamics: out.col(k) = d^k tau / dt^k for k = 0..order, where
/// tau(t) = M(q) a + C(q, v) v + g(q) along the trajectory whose derivatives at this instant
/// are q (nq) and dq (nv x at least order + 2, column k - 1 the k-th derivative: v, a, d3q,
/// ...). out.col(0) equals rnea(q, v, a). out is nv x at least order + 1 (further columns are
/// left alone). Gravity is model.gravity. Throws InputError on wrong sizes, order < 0 or order >
/// data.max_order. Allocates nothing.
void rnea_time_derivatives(const Model& model, TimeDerivativeData& data, ConstVec q,
                           const Eigen::Ref<const Eigen::MatrixXd>& dq, int order,
                           Eigen::Ref<Eigen::MatrixXd> out);

/// The same with external wrenches acting ON the robot, as external_torque takes them: wrench j
/// [f; n] acts at the origin of model frame frames[j], in world axes (reference
/// local_world_aligned) or the frame's own (local). wrenches is (6 * frames.size()) x at least
/// order + 1, rows 6j..6j+5 the wrench on frames[j], column k its k-th time derivative in those
/// axes. out.col(0) equals rnea - external_torque; each wrench's series is moved to the world
/// origin (n + p x f, p(t) the frame origin moving with its body) or first rotated to world
/// axes (R(t) with dR/dt = [w] R) and subtracted from its body's wrench series. Throws
/// InputError also for an unknown frame, the world reference or wrong sizes. Allocates nothing.
void rnea_time_derivatives(const Model& model, TimeDerivativeData& data, ConstVec q,
                           const Eigen::Ref<const Eigen::MatrixXd>& dq, int order,
                           const std::vector<int>& frames,
                           const Eigen::Ref<const Eigen::MatrixXd>& wrenches,
                           ReferenceFrame reference, Eigen::Ref<Eigen::MatrixXd> out);

/// The matrices of the equations of motion tau = M(q) a + C(q, v) v + g(q) and their time
/// derivatives along a trajectory: data.M[k], data.C[k] and data.g.col(k) are the k-th time
/// derivatives of M, C and g for k = 0..order, given q (nq) and dq (nv x at least order + 1,
/// column k - 1 the k-th derivative of q: v, a, d3q, ...). C is the Christoffel arrangement: C v
/// is the Coriolis and centrifugal term of rnea, dM/dt = C + C^T along any motion (so dM/dt - 2C
/// is skew-symmetric) and, for coordinates whose velocities are their time derivatives, C_ij =
/// sum_k Gamma_ijk v_k with the Christoffel symbols of the first kind of M. In world axes, summed
/// over subtrees as the composite-rigid-body algorithm does (Echeandia & Wensing, "Numerical
/// methods to compute the Coriolis matrix and Christoffel symbols for rigid-body systems", JCND
/// 2021, Algorithm 2; as Pinocchio's computeCoriolisMatrix):
///   M_rc = S_r . Y S_c,  C_rc = S_r . (Y dS_c/dt + B S_c),  g_c = S_c . Y (-a_g),
/// with Y a subtree's inertia, B = sum over its bodies of (V x* I - I V x + (I V) x-bar*) / 2,
/// a_g the gravity acceleration, and (ancestor joint r, joint c) filled both ways. Every factor
/// is a product of the world columns S (dS/dt = V x S), the twists V and the inertias (dI/dt =
/// V x* I - I V x), so the Leibniz rule gives each order exactly: O(n d K^2) for a tree of depth
/// d. M[k + 1] = C[k] + C[k]^T holds to round-off, computed independently. Throws InputError on
/// wrong sizes or an order outside 0..data.max_order. Allocates nothing.
void mass_coriolis_gravity_time_derivatives(const Model& model, TimeDerivativeData& data,
                                            ConstVec q, const Eigen::Ref<const Eigen::MatrixXd>& dq,
                                            int order);

/// The Coriolis matrix C(q, v) alone (order 0 of mass_coriolis_gravity_time_derivatives, which
/// fills data.M[0] and data.g.col(0) too); returns data.C[0].
const Eigen::MatrixXd& coriolis_matrix(const Model& model, TimeDerivativeData& data, ConstVec q,
                                       ConstVec v);

}  // namespace eom
