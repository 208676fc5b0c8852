// The tolerances of libeom, named once (MuJoCo's mjMINVAL), each with the question it answers.
// A tolerance used in one place only, with its reason beside it, stays there. Private to libeom.
#pragma once

namespace eom::detail {

/// Is this pivot zero? Round-off allowed in a pivot of the mass matrix (or of S^T I S), relative
/// to the size of the matrix's entries: about 1e4 times the double precision of a sum of a few
/// products. The rule itself: core/pivot.hpp.
constexpr double kPivotTolerance = 1e-12;

/// Is this singular value (or pivot of a column-pivoted QR) zero? Relative to the largest: the
/// round-off of a rank-deficient matrix (dependent contact constraints leave about 1e-16 of the
/// largest) is far below it; counting such values would give forces of the order of 1 / round-off.
constexpr double kRankTolerance = 1e-9;

/// Do two quantities a model file states agree, up to what its decimals cannot say exactly?
/// Relative: a rotation's orthonormality, an inertia's symmetry and triangle inequality, a screw
/// axis's pitch (model files carry 6 to 9 significant digits).
constexpr double kModelRoundOff = 1e-9;

/// Is a direction a model file gives (an axis, a quaternion, a segment) too short to normalise?
constexpr double kZeroLength = 1e-10;

}  // namespace eom::detail
