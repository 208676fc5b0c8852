// Partial derivatives of inverse and forward dynamics with respect to q and v, and M^-1.
//
// Configuration derivatives are taken in the tangent space with the perturbation on the right,
// q (+) dq = integrate(q, dq) (a body-frame twist for a floating joint, the angle for a
// continuous one), so they have nv columns and chain with eom::integrate / eom::difference.
// Rows and columns follow eom's velocity order. Every function checks sizes (InputError) and
// allocates nothing.
#pragma once

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// Partial derivatives of inverse dynamics tau = rnea(q, v, a) at (q, v, a): fills
/// data.dtau_dq = dtau/dq, data.dtau_dv = dtau/dv and data.M = dtau/da (nv x nv each, M full
/// and symmetric), and data.tau = rnea(q, v, a). Carpentier & Mansard, "Analytical derivatives of
/// rigid body dynamics algorithms" (RSS 2018), Algorithm 1: a world-frame recursion, O(n d) for
/// a tree of depth d.
void rnea_derivatives(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a);

/// The inverse of the joint-space inertia matrix, data.Minv = M(q)^-1 (nv x nv, full and
/// symmetric), from M by crba and its tree-sparse factor M = L^T D L (Featherstone 2008, Section
/// 6.5: no fill-in, O(n d^2)), then M^-1 by Takahashi's recurrence on L M^-1 = D^-1 L^-T,
/// O(n^2 d), in place of the factor; fills data.M.
/// Throws NumericalError naming a joint when M is singular (a joint moves no mass or inertia
/// beyond its descendants'). Returns data.Minv.
const Eigen::MatrixXd& mass_matrix_inverse(const Model& model, Data& data, ConstVec q);

/// Partial derivatives of forward dynamics qdd = aba(q, v, tau) at (q, v, tau): fills
/// data.qdd, data.dqdd_dq = dqdd/dq, data.dqdd_dv = dqdd/dv and data.Minv = dqdd/dtau (nv x nv
/// each), with the rnea_derivatives fields at a = qdd (data.tau then reproduces the input tau). qdd
/// comes from M^-1 (tau - nle), M and nle being computed in the same world-frame passes;
/// differentiating M qdd + nle = tau gives dqdd/dx = -M^-1 dtau/dx at a = qdd (Carpentier & Mansard
/// 2018, Section IV). Throws NumericalError naming the joint when M is singular. tau may be
/// data.tau but not data.qdd (which holds nle on the way).
void aba_derivatives(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec tau);

}  // namespace eom
