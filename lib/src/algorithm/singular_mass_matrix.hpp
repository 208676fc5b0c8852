// The one message of a singular mass matrix (private to libeom): aba, forward_dynamics_crba,
// mass_matrix_inverse and aba_derivatives find a pivot that fails the rule of core/pivot.hpp
// (linalg/mass_matrix_factor.hpp, aba's D = S^T IA S) and say the same thing about it.
#pragma once

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom::detail {

/// Throws the NumericalError of a singular mass matrix at q, found at joint `joint`: whether the
/// model is singular at every configuration (a joint moves no mass: a model defect) or only at this
/// one, and then the combination of joint velocities that moves no mass or inertia. Allocates (the
/// path of a failure only).
[[noreturn]] void throw_singular_mass_matrix(const Model& model, ConstVec q, int joint);

}  // namespace eom::detail
