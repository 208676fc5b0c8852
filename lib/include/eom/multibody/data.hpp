// Data: the per-thread workspace for the algorithms of one Model. All memory is allocated at
// construction; no algorithm allocates afterwards.
#pragma once

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

struct Data {
  explicit Data(const Model& model);

  // position dependent                                                                (njoints)
  std::vector<SE3> liMi;  // joint i in its parent joint's frame
  std::vector<SE3> oMi;   // joint i in the world
  std::vector<SE3> oMf;   // frames in the world                                  (nframes)
  // velocity and acceleration dependent, in each joint's own frame                    (njoints)
  std::vector<Motion> v;  // body twists
  std::vector<Motion> a;  // body spatial accelerations (gravity included where stated)
  std::vector<Force> f;   // net body forces (RNEA), then joint forces after the backward pass
  // CRBA, in the base frame: the world for a fixed base, the base's own for a floating one
  std::vector<SE3> bMi;  // joint i in the base frame                            (njoints)
  std::vector<InertiaMoments> bYcrb;  // composite rigid-body inertias, base axes     (njoints)
  std::vector<Motion> bS;  // columns of the motion subspaces, base axes                (nv)
  std::vector<Force> bF;   // F = IC_i S_i for each column of S_i, base axes            (nv)
  // ABA: quantities of joint i about joint i's origin, in the axes of the base frame (the
  // floating base's, or the world's for a fixed base; placements in bMi)              (njoints)
  std::vector<Vec3> parent_offset;  // from the parent joint's origin to joint i's, base axes
  std::vector<Mat6> IA;             // articulated inertias (then IA - U D^-1 U^T, passed up)
  std::vector<Force> pA;            // articulated bias forces
  std::vector<Motion> c;            // velocity-product accelerations v_i x S qd
  std::vector<MotionSubspace> U;    // IA S (6 x nv_i), joints of several dofs
  std::vector<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>> Dinv;  // (S^T U)^-1
  std::vector<Vec6> u;  // tau_i - S^T pA, first nv_i entries
  // joint space
  Eigen::VectorXd tau;  // (nv) result of rnea / nonlinear_effects / gravity_torque
  Eigen::VectorXd g;    // (nv) generalized gravity, when computed separately
  Eigen::VectorXd qdd;  // (nv) result of aba
  Eigen::MatrixXd M;    // (nv x nv) joint-space inertia, full symmetric
  Eigen::Matrix<double, 6, Eigen::Dynamic> J;  // (6 x nv) frame Jacobian
  // centre of mass and energy
  Vec3 com = Vec3::Zero();  // world centre of mass of the moving bodies
  double mass = 0;          // mass of the moving bodies
  double kinetic_energy = 0;
  double potential_energy = 0;
  // forward dynamics (dynamics.hpp: aba, forward_dynamics_crba)       (njoints)
  std::vector<Motion> ov, oa;      // twists and spatial accelerations (aba: base axes, about each
                                   // joint's origin; crba_nonlinear_effects: base axes and origin;
                                   // the other users: world axes and origin)
  std::vector<Motion> oS;          // 1-DoF joints: S (aba: base axes)
  std::vector<Vec6> oU;            // 1-DoF joints: U = IA S
  std::vector<double> oDinv, ou;   // 1-DoF joints: 1 / D and u
  std::vector<MotionSubspace> Sw;  // joints of several dofs: S, base axes (6 x nv_i)
  // forward_dynamics_crba: M = L^T D L in place (linalg/ltdl.hpp, over dof_parent below): D on
  // the diagonal, L_ki at (i, k) for the ancestors i of k                              (nv x nv)
  Eigen::MatrixXd M_factor;
  // The inertia scale of the model: an upper bound, over every configuration, of the inertia any
  // one coordinate moves (sum over its subtree of m d^2 + trace I_c with d bounded by the lengths
  // of the chain, and of the subtree's mass). A pivot of the mass matrix (ABA's D = S^T IA S, a
  // pivot D of M = L^T D L) counts as zero below 1e-12 of it (core/pivot.hpp), whatever the method,
  // the frame or the configuration.
  double pivot_scale = 0;

  // frame Jacobians, their time variation and analytical Jacobians (kinematics.hpp)
  std::vector<int> support;  // joints that support the frame of the last Jacobian, leaf first
  // (ov above: the spatial velocities along that path)
  Eigen::Matrix<double, 6, Eigen::Dynamic> dJ;  // (6 x nv) time derivative of data.J

  // partial derivatives (partial_derivatives.hpp)
  Eigen::MatrixXd dtau_dq, dtau_dv;  // (nv x nv) rnea_derivatives: dtau/dq (tangent), dtau/dv
  Eigen::MatrixXd dqdd_dq, dqdd_dv;  // (nv x nv) aba_derivatives: dqdd/dq (tangent), dqdd/dv
  Eigen::MatrixXd Minv;              // (nv x nv) M^-1 = dqdd/dtau
  // the coordinate before k on its branch, -1 at a root (Featherstone's parent array lambda of the
  // joint-space inertia matrix, RBD 2008, Section 6.5): the previous one of a joint of several,
  // else the last of the nearest ancestor joint that has any. M = L^T D L has L_kj != 0 only for
  // j = k and the coordinates before k on its branch (its ancestors), listed root first at
  // dof_ancestors[b_k .. b_k+1), b = dof_ancestors_begin
  std::vector<int> dof_parent;           // (nv)
  std::vector<int> dof_ancestors_begin;  // (nv + 1)
  std::vector<int> dof_ancestors;
  std::vector<int> rows;             // (nv) workspace: a list of velocity coordinates
  std::vector<double> coefficients;  // (nv) workspace: a weight per velocity coordinate
  // world-frame recursion of rnea_derivatives                                          (njoints)
  // (ov, oa above: twists and accelerations, gravity included, world)
  std::vector<Motion> oc;             // velocity-product accelerations v_i x J_i qd_i, world
  std::vector<InertiaMoments> oYb;    // body inertias about the world origin
  std::vector<InertiaMoments> oYcrb;  // subtree inertias about the world origin
  std::vector<Force> ohb, oh;         // body and subtree momenta
  std::vector<Force> oF;              // body, then subtree, forces (crba_nonlinear_effects:
                                      // base axes and origin)
  std::vector<Mat3> doYcrb;           // symmetric part of the inertia variation (see the .cpp)
  // per column of the motion subspaces, world                                               (nv)
  std::vector<Motion> oJ, dVdq;
  std::vector<Force> dFda;
  // paired so that one pass of 2-wide arithmetic gives an entry of dtau_dq and of dtau_dv:
  // dAdx = [dA/dq dV/dq.ang; dA/dv J.ang] (lin, ang, ang), dFdx = [dF/dq; dF/dv] (lin, ang)
  std::vector<Eigen::Matrix<double, 2, 9>> dAdx;
  std::vector<Eigen::Matrix<double, 2, 6>> dFdx;

  // joint torque regressor (regressor.hpp), in each joint's own frame                 (njoints)
  std::vector<Motion> regressor_S;  // one column of a joint's S, in the frame of each descendant
  std::vector<Eigen::Matrix<double, 6, 10>> body_regressor;  // F_k: f_k = F_k pi_k
};

}  // namespace eom
