// Rigid-body dynamics: inverse dynamics, mass matrix, bias forces, energy, centre of mass.
//
// Equations of motion: M(q) a + C(q, v) v + g(q) = tau, with a = dv/dt in the model's tangent
// coordinates (body twist for a floating base). Gravity is model.gravity, in the world frame.
// All functions check sizes (InputError) and allocate nothing.
#pragma once

#include <Eigen/Core>

#include "eom/data.hpp"
#include "eom/joint.hpp"
#include "eom/model.hpp"

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
/// Table 6.2). Fills data.M (nv x nv, full and symmetric), data.liMi, data.oMi, data.Ycrb;
/// returns data.M.
const Eigen::MatrixXd& crba(const Model& model, Data& data, ConstVec q);

/// Kinetic energy 1/2 v^T M v from the body twists. Fills data.v and data.kinetic_energy.
double kinetic_energy(const Model& model, Data& data, ConstVec q, ConstVec v);

/// Potential energy -sum_i m_i g . c_i of the moving bodies (zero at the world origin).
/// Fills data.oMi, data.potential_energy.
double potential_energy(const Model& model, Data& data, ConstVec q);

/// World centre of mass of the moving bodies. Fills data.oMi, data.com, data.mass.
const Vec3& center_of_mass(const Model& model, Data& data, ConstVec q);

}  // namespace eom
