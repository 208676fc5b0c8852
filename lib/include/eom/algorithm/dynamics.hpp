// Rigid-body dynamics: inverse dynamics, mass matrix, bias forces, energy, centre of mass.
//
// Equations of motion: M(q) a + C(q, v) v + g(q) = tau, with a = dv/dt in the model's tangent
// coordinates (body twist for a floating base). Gravity is model.gravity, in the world frame.
// All functions check sizes (InputError) and allocate nothing.
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// Inverse dynamics by the recursive Newton-Euler algorithm (Featherstone 2008, Table 5.1):
/// tau = M(q) a + C(q, v) v + g(q). q (nq), v, a (nv). Fills data.liMi, data.oMi, data.v, data.a,
/// data.f; returns data.tau (nv).
const Eigen::VectorXd& rnea(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a);

/// Nonlinear effects C(q, v) v + g(q): rnea with a = 0. Returns data.tau.
const Eigen::VectorXd& nonlinear_effects(const Model& model, Data& data, ConstVec q, ConstVec v);

/// Generalized gravity g(q): rnea with v = a = 0. Returns data.g.
const Eigen::VectorXd& gravity_torque(const Model& model, Data& data, ConstVec q);

/// Joint-space inertia matrix M(q) by the composite rigid body algorithm (Featherstone 2008,
/// Table 6.2), in the base frame (the world, or the floating base's own frame, where M does not
/// depend on the base placement). Fills data.M (nv x nv, full and symmetric), data.liMi,
/// data.bMi, data.bYcrb, data.bS, data.bF (not data.oMi); returns data.M.
const Eigen::MatrixXd& crba(const Model& model, Data& data, ConstVec q);

/// Forward dynamics by the articulated-body algorithm (Featherstone 2008, Table 7.1):
/// qdd = M(q)^-1 (tau - C(q, v) v - g(q)) in O(n). q (nq), v, tau (nv). Works in the base frame's
/// axes (as crba), each joint's quantities about its own origin, so the result does not depend on
/// where the robot stands (the same bits at any base position); fills data.liMi, data.bMi and the
/// ABA fields (data.ov, data.oa, ...), not data.oMi, data.v or data.a; returns data.qdd (nv). Throws NumericalError when
/// M is singular (a pivot below 1e-12 of data.pivot_scale), saying whether at every configuration
/// (naming the joint) or at this one (naming the joint velocities that move nothing).
const Eigen::VectorXd& aba(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec tau);

/// Forward dynamics by an independent path (Lynch and Park, Modern Robotics, section 8.1 / 9.5
/// usage): M(q) from crba, the bias C(q, v) v + g(q) from rnea with a = 0, then M qdd = tau - bias
/// solved with the tree-sparse factor M = L^T D L (Featherstone 2008, Section 6.5), whose pivots
/// D are aba's: it decides "singular" by the same rule and says so in the same words. O(n d^2).
/// Fills data.M, data.tau (the bias), the factor (data.M_factor) and returns data.qdd (nv).
const Eigen::VectorXd& forward_dynamics_crba(const Model& model, Data& data, ConstVec q, ConstVec v,
                                             ConstVec tau);

/// The joints that move no mass or inertia along their motion at a generic configuration (two
/// random configurations, fixed seeds): M(q) is singular and forward dynamics undefined when this
/// is not empty. Joint indices in model order (names in model.joint_names). Allocates; for
/// checking a model once, before any row.
std::vector<int> joints_without_inertia(const Model& model);

/// What the motion of `joint` moves at the neutral configuration: the largest of its diagonal
/// entries of M (its subtree's mass along a translation, inertia about a rotation axis), 0 when
/// it moves nothing. A joint of joints_without_inertia with a positive value moves something that
/// is lost in the round-off of the model's largest inertias (Data::pivot_scale), not nothing.
double inertia_moved_by(const Model& model, int joint);

/// Joint friction, the generalized force the actuators must add to overcome it:
/// tau_f = Fv v + Fs sgn(v) (viscous Fv from URDF damping, Coulomb Fs from URDF friction). With
/// smoothing eps > 0, sgn(v) becomes tanh(v / eps), which is smooth at v = 0 and within 0.1% of
/// sgn(v) for |v| > 4 eps; with eps = 0, sgn(0) = 0.
struct Friction {
  Eigen::VectorXd viscous;  // Fv (nv)
  Eigen::VectorXd coulomb;  // Fs (nv)
  double smoothing = 0;     // eps

  /// The URDF <dynamics damping friction> values of the model.
  static Friction from_model(const Model& model);
};

/// tau_f for velocity v (nv), into out (nv).
void friction_torque(const Friction& friction, ConstVec v, VecRef out);

/// sgn(v) as friction_torque takes it: tanh(v / smoothing) when smoothing > 0, else -1, 0 or 1.
inline double coulomb_sign(double v, double smoothing) {
  return smoothing > 0 ? std::tanh(v / smoothing) : double((v > 0) - (v < 0));
}

/// Generalized force of external wrenches: out = sum_k J_k(q)^T F_k, F_k = [f; n] applied at the
/// origin of frame frames[k], in world axes (reference = local_world_aligned) or in the frame's
/// axes (reference = local). wrenches holds 6 entries per frame. Uses data.oMi and data.J.
void external_torque(const Model& model, Data& data, ConstVec q, const std::vector<int>& frames,
                     ConstVec wrenches, ReferenceFrame reference, VecRef out);

/// Kinetic energy 1/2 v^T M v from the body twists. Fills data.v and data.kinetic_energy.
double kinetic_energy(const Model& model, Data& data, ConstVec q, ConstVec v);

/// Potential energy -sum_i m_i g . c_i of the moving bodies (zero at the world origin).
/// Fills data.oMi, data.potential_energy.
double potential_energy(const Model& model, Data& data, ConstVec q);

/// World centre of mass of the moving bodies. Fills data.oMi, data.com, data.mass.
const Vec3& center_of_mass(const Model& model, Data& data, ConstVec q);

}  // namespace eom
