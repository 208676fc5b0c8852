// The one answer to "is this pivot zero?" (private to libeom): a joint that moves no mass or
// inertia along its motion leaves a zero pivot in every factorisation of the mass matrix, and
// every place that asks (the articulated-body algorithm's D = S^T IA S, the D of M = L^T D L,
// the model check's S^T I S of a leaf body) asks it with this rule.
#pragma once

#include "core/tolerances.hpp"

namespace eom::detail {

/// Whether a pivot (a diagonal entry left to factor, in the units of the matrix's diagonal) is
/// positive beyond round-off, for a matrix whose entries are of size `scale`.
inline bool pivot_positive(double pivot, double scale) { return pivot > kPivotTolerance * scale; }

}  // namespace eom::detail
