// The forward pass of the recursive Newton-Euler algorithm (private to libeom): rnea and its
// relatives finish it with a backward pass, the joint torque regressor with the body regressors;
// and Newton-Euler folded into crba, for the contact dynamics.
#pragma once

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom::detail {

using OptionalVec = const Eigen::Ref<const Eigen::VectorXd>*;

/// Featherstone 2008, Table 5.1, first loop: joint placements (data.liMi, data.oMi), body twists
/// data.v and accelerations data.a (gravity entering as an upward acceleration of the base) and
/// net body forces data.f = I a + v x* I v, each in its joint's frame; a null v or a means zero.
void newton_euler_forward(const Model& model, Data& data, ConstVec q, OptionalVec v, OptionalVec a);

/// M(q) (crba) and the nonlinear effects h = C(q, v) v + g(q) in one pass over the joints: the
/// Newton-Euler recursion run in crba's base frame, about its origin, where the bodies' inertias
/// and the columns of S already are, so that no joint is placed twice and no force is transformed
/// on its way to the root (Pinocchio's constraintDynamics computes M and h together the same way,
/// in world axes). M is crba's, bit for bit; h is nonlinear_effects' to round-off and, like M, does
/// not depend on where the base stands. Fills what crba fills, data.tau (h) and, in base axes
/// about the base origin, data.ov (twists), data.oa (velocity-product accelerations, gravity left
/// out) and data.oF (subtree forces); returns data.M.
const Eigen::MatrixXd& crba_nonlinear_effects(const Model& model, Data& data, ConstVec q,
                                              ConstVec v);

}  // namespace eom::detail
