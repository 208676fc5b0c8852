// Christoffel symbols of the first kind of the mass matrix.
#pragma once

#include <Eigen/Core>

#include "eom/algorithm/time_derivatives.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The Christoffel symbols of the first kind Gamma_ijk of M(q), arranged as coriolis_matrix's C:
/// C(q, v)_ij = sum_k Gamma_ijk v_k; for coordinates whose velocities are their time
/// derivatives, Gamma_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2 (symmetric in j, k).
/// C is linear in v, so Gamma_ijk = C(q, e_k)_ij; with the velocity e_k only the bodies below
/// the joint of coordinate k move, so one sweep for the world columns and subtree inertias and
/// then O(d) work per nonzero symbol give them all: O(n d^2) for a tree of depth d besides
/// writing the nv^3 entries (most are 0 on a branched tree). gamma is (nv^2 x nv): column k is
/// C(q, e_k) stacked column by column, gamma(i + j nv, k) = Gamma_ijk. data.M[0] and g are left
/// as at q, data.C[0] as C(q, 0) = 0. Throws InputError on wrong sizes. Allocates nothing.
void christoffel_symbols(const Model& model, TimeDerivativeData& data, ConstVec q,
                         Eigen::Ref<Eigen::MatrixXd> gamma);

}  // namespace eom
