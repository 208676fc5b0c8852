// The forward pass of the recursive Newton-Euler algorithm (private to libeom): rnea and its
// relatives finish it with a backward pass, the joint torque regressor with the body regressors.
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

}  // namespace eom::detail
