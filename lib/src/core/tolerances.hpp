// The tolerances of libeom, named once (MuJoCo's mjMINVAL), each with the question it answers
// and why its value. Two places that ask the same question use the same name; a documented
// default of an option (SimOptions::atol, RankTolerance::relative, ...) stays with its option.
// Private to libeom.
#pragma once

namespace eom::detail {

// ---- factorisations and ranks ----

/// Is this pivot zero? Round-off allowed in a pivot of the mass matrix (or of S^T I S), relative
/// to the size of the matrix's entries: about 1e4 times the double precision of a sum of a few
/// products. The rule itself: core/pivot.hpp.
constexpr double kPivotTolerance = 1e-12;

/// Is this singular value (or pivot of a column-pivoted QR, or of the LDLT factor of a symmetric
/// positive semi-definite matrix) zero? Relative to the largest: the round-off of a
/// rank-deficient matrix (dependent contact constraints leave about 1e-16 of the largest) is far
/// below it; counting such values would give forces of the order of 1 / round-off.
constexpr double kRankTolerance = 1e-9;

/// Is A A^T regular enough for the normal equations A^T (A A^T)^-1 b? Every pivot of its LDLT
/// factor above this part of the largest: the normal equations square the condition number, so
/// there they lose at most 1e-8 relative; any other A goes to the SVD.
constexpr double kGramPivotTolerance = 1e-8;

/// Is a singular value of a velocity task zero (the undamped pseudo-inverse, 1 / s above it)?
/// Relative to the largest: far above a Jacobian's round-off (1e-16), low enough that a task near
/// but not at a singularity is still followed.
constexpr double kTaskRankTolerance = 1e-10;

/// Is a Householder vector y - e1 zero, y already e1 (y of unit norm)? A few hundred units of
/// the last place: no reflection is needed.
constexpr double kReflectionNegligible = 1e-14;

/// Is a symmetric matrix's eigenvalue negative beyond the eigen-solver's round-off? Relative to
/// the largest (an inertia's, at least 1 kg m^2): about 1e4 times the double precision.
constexpr double kEigenvalueRoundOff = 1e-12;

// ---- orientations and joints ----

/// Are Euler angles at their singularity (|cos| of the middle angle below it)? The map from the
/// angular velocity to the angles' rates grows as 1 / cos: past 1e9 it only carries round-off.
constexpr double kEulerSingular = 1e-9;

/// Is a rotation vector at its singularity (within this of a half turn, rad)? The map from the
/// angular velocity to its rate divides by sin(theta), 1e-6 there.
constexpr double kRotationVectorSingular = 1e-6;

/// Is a rotation angle (rad) small enough for the Taylor series of the Rodrigues coefficients
/// (sin t / t = 1 - t^2 / 6, ...)? The first term left out is of order t^4 / 120, below the
/// double precision of the terms kept.
constexpr double kSeriesAngle = 1e-4;

/// Is a planar joint's turn w (rad) small enough for the series sin(w) / w = 1 and
/// (1 - cos(w)) / w = w / 2? The terms left out, w^2 / 6, are below the double precision of 1.
constexpr double kSmallTurn = 1e-8;

/// Is a configuration's quaternion too short to normalise? Far below any unit quaternion a
/// table or an integrator holds; the direction of a shorter one is round-off.
constexpr double kZeroQuaternion = 1e-12;

// ---- what model files and tables state ----

/// Do two quantities a model file states agree, up to what its decimals cannot say exactly?
/// Relative: a rotation's orthonormality, an inertia's symmetry and triangle inequality, a screw
/// axis's pitch (model files carry 6 to 9 significant digits).
constexpr double kModelRoundOff = 1e-9;

/// Is a direction a model file gives (an axis, a quaternion, a segment) too short to normalise?
constexpr double kZeroLength = 1e-10;

/// Is a hinge's range (rad) wider than a full turn beyond the round-off of its decimals?
constexpr double kFullTurnRoundOff = 1e-9;

/// The smallest inertia (kg m^2) round-off is judged against: a numerically zero tensor (a point
/// mass's) keeps a tolerance, far below any real link's principal moments.
constexpr double kSmallestInertiaScale = 1e-12;

/// A square millimetre in m^2: a body's mass spread over a millimetre, the smallest inertia of a
/// body that has mass.
constexpr double kSquareMillimetre = 1e-6;

/// Does a mesh have area (m^2), enclose volume (m^3)? Absolute: a 0.1 mm cube has 1e-12 m^3; a
/// degenerate (flat, open) mesh leaves the round-off of its sums, far below.
constexpr double kZeroMeshMeasure = 1e-15;

/// Are the pyramids of a mesh's faces that turn away from its surface centroid only round-off of
/// its volume (relative), so that the mesh is star-shaped from there?
constexpr double kMeshVolumeRoundOff = 1e-9;

/// Is a vector given as unit (a table's quaternion, a contact normal) unit, up to the round-off of
/// the text it came from? Float precision (1.2e-7) and 7 written digits stay within it; beyond, it
/// is not what its writer meant.
constexpr double kGivenUnitNorm = 1e-6;

// ---- what a model may state (physical bounds, whatever its format) ----

/// The longest length (m) a model may state: a joint's placement, a centre of mass, a frame's
/// placement, a prismatic joint's travel. A thousand kilometres is far beyond any machine; with
/// kLargestMass, the products the dynamics form (m d^2 w^2, m g d) stay far within a double, where
/// a link 1e308 m away overflows every row.
constexpr double kLargestLength = 1e6;

/// The heaviest body (kg) a model may state: far above any machine (the largest excavators weigh
/// about 1e7 kg), far below where a mass matrix stops holding the other links (1e308 kg beside
/// 1 kg leaves their pivots to round-off).
constexpr double kLargestMass = 1e9;

/// The largest rotational inertia (kg m^2, a principal moment): the heaviest body spread over the
/// longest length.
constexpr double kLargestInertia = kLargestMass * kLargestLength * kLargestLength;

/// The largest motion per unit of q (m or rad) of a joint's scaled screw axis (Joint::scale), and
/// its inverse the smallest: a gear ratio is far within; beyond, the joint's column of the
/// Jacobian dwarfs (or vanishes against) the others.
constexpr double kLargestJointScale = 1e6;

// ---- simulation ----

/// How many whole steps fit a duration? The quotient's relative round-off (0.3 / 0.1 is
/// 2.9999999999999996) must not drop a step.
constexpr double kStepCountRoundOff = 1e-12;

/// Does a time fall on the grid of fixed steps (relative to the step)? Far above the round-off of
/// a sum of steps, far below any interval a user means.
constexpr double kStepGridRoundOff = 1e-9;

/// Do two times count as equal in an adaptive run (a step landing on an output time, the end)?
/// Relative to the size of the times (at least 1 s): a few thousand units of their last place.
constexpr double kSameTimeAdaptive = 1e-12;

/// Do two times count as equal in a run of fixed steps? Relative to the step (or to the run when
/// it is shorter than one step, so that it still takes one): far below it, far above the
/// round-off of adding steps.
constexpr double kSameTimeFixed = 1e-6;

/// Is a step matrix's spectral radius at most 1? Slack for the accuracy of the eigenvalues of a
/// non-symmetric matrix (a defective one loses half the digits).
constexpr double kSpectralRadiusSlack = 1e-6;

/// Is a contact at rest (m/s or rad/s, relative to the largest speed, at least 1)? The round-off
/// of J_c v.
constexpr double kContactAtRest = 1e-9;

/// Do two pulling contact forces tie (relative to the forces' size)? The corners of a symmetric
/// box pull alike up to round-off and open together.
constexpr double kForceTie = 1e-9;

/// Does a contact's normal force pull beyond round-off (relative to the weight plus the forces'
/// size)? A force growing by the weight per second crosses it within 1e-12 s of zero.
constexpr double kPullingForce = 1e-12;

// ---- inverse kinematics and the singularity analysis ----

/// Did normalising a target rotation (a quaternion's norm, a matrix's distance to the nearest
/// rotation) change it beyond round-off, so that a caller warns?
constexpr double kRenormalisedRoundOff = 1e-9;

/// The regularisation eps of the null-space step eps (J^T W J + eps I)^-1 z = (I - J^+ J) z as
/// eps -> 0: small against J^T W J, large enough for the Cholesky factor.
constexpr double kNullSpaceRegularisation = 1e-9;

/// Is a null-space step negligible (m or rad): the secondary objective at its optimum on the
/// solution set.
constexpr double kNullStepNegligible = 1e-9;

/// Is a frame axis clearly closer to a lost direction than the world's (cosines)? Ties go to the
/// world.
constexpr double kAxisTie = 1e-9;

/// Does a candidate direction project clearly more onto the lost directions than the best so far
/// (norms of unit vectors' projections)? Ties keep the earlier, world axes first.
constexpr double kCandidateTie = 1e-12;

/// Is a velocity coordinate part of a null motion (its component, the largest being 1)? Below
/// it, a message leaves it out.
constexpr double kNullMotionShown = 1e-6;

}  // namespace eom::detail
