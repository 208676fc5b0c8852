// The tree-sparse factor of the mass matrix (private to libeom): forward_dynamics_crba,
// mass_matrix_inverse and aba_derivatives factor M this way, and aba's pivots D = S^T IA S are, in
// exact arithmetic, the pivots of this same factorization (both eliminate from the leaves up), so
// every method tests the same numbers with the same rule (core/pivot.hpp, relative to
// Data::pivot_scale); algorithm/singular_mass_matrix.hpp names the failure with one message.
#pragma once

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom::linalg {

/// M = L^T L of data.M with L lower triangular and the tree's sparsity (Featherstone 2008, Section
/// 6.5, Table 6.3: factoring from the leaves up makes no fill-in), into data.L_ancestors and
/// data.pivot_inv (1 / L_kk). Returns -1, or the joint of the first pivot (from the leaves) that
/// fails the pivot rule.
int factor_mass_matrix(const Model& model, Data& data);

/// x := M^-1 x with the factor of factor_mass_matrix (Featherstone 2008, Table 6.4): O(n d).
void solve_factored(const Data& data, Eigen::VectorXd& x);

}  // namespace eom::linalg
