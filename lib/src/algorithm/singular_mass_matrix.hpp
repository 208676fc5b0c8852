// The one message of a singular mass matrix (private to libeom): aba, forward_dynamics_crba,
// mass_matrix_inverse and aba_derivatives find a pivot that fails the rule of core/pivot.hpp
// (aba's D = S^T IA S, the D of M = L^T D L) and say the same thing about it.
#pragma once

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom::detail {

/// Throws the NumericalError of a singular mass matrix at q, found at joint `joint`: whether the
/// model is singular at every configuration (a joint moves no mass: a model defect) or only at this
/// one, and then the combination of joint velocities that moves no mass or inertia. Allocates (the
/// path of a failure only).
[[noreturn]] void throw_singular_mass_matrix(const Model& model, ConstVec q, int joint);

/// H := data.M factored as L^T D L (linalg::ltdl over Data::dof_parent); throws as above when a
/// pivot D_k fails the rule of core/pivot.hpp, the first from the leaves: in exact arithmetic the
/// D_k are aba's D = S^T IA S (both eliminate from the leaves up), so every method tests the same
/// numbers with the same rule.
void factor_mass_matrix(const Model& model, const Data& data, ConstVec q, Eigen::MatrixXd& H);

}  // namespace eom::detail
