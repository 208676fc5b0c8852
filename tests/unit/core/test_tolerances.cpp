// The named tolerances against the questions they answer, each with numbers worked by hand.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/tolerances.hpp"

using eom::detail::kEulerSingular;
using eom::detail::kGivenUnitNorm;
using eom::detail::kModelRoundOff;
using eom::detail::kPivotTolerance;
using eom::detail::kRankTolerance;
using eom::detail::kSeriesAngle;
using eom::detail::kSmallTurn;
using eom::detail::kStepCountRoundOff;
using eom::detail::kZeroLength;

TEST_CASE("tolerances sit between round-off and what they must tell apart", "[core][tolerances]") {
  const double eps = std::numeric_limits<double>::epsilon();  // 2.2e-16
  // a pivot: a sum of a few products carries a few eps of round-off, far below kPivotTolerance
  CHECK(8 * eps < kPivotTolerance);
  // rank: dependent constraints leave about 1e-16 of the largest singular value, a real one
  // (a contact 1 mm off a 1 m lever) 1e-3
  CHECK(1e-16 < kRankTolerance);
  CHECK(kRankTolerance < 1e-3);
  // a model file's decimals: 9 significant digits leave 5e-10 relative, a real error (1e-6) stays
  CHECK(0.5e-9 <= kModelRoundOff);
  CHECK(kModelRoundOff < 1e-6);
  // a unit axis written to 9 digits has a norm 1 within kModelRoundOff
  CHECK(std::abs(std::hypot(0.707106781, 0.707106781) - 1) < kModelRoundOff);
  // a zero direction: below the shortest a file writes with 9 decimals (1e-9)
  CHECK(kZeroLength < 1e-9);
}

TEST_CASE("tolerances of series and step counts, worked in doubles", "[core][tolerances]") {
  const double eps = std::numeric_limits<double>::epsilon();
  // below kSeriesAngle the two-term series of sin(t) / t is exact to double precision
  const double t = kSeriesAngle;
  CHECK(std::abs((1 - t * t / 6) - std::sin(t) / t) <= eps);
  // below kSmallTurn the direct (1 - cos w) / w loses every digit (cos rounds to 1), the series
  // w / 2 keeps them, and sin(w) / w is 1
  CHECK(1 - std::cos(kSmallTurn) == 0);
  CHECK(std::sin(kSmallTurn) / kSmallTurn == 1);
  // 0.3 / 0.1 is 2.9999999999999996: kStepCountRoundOff keeps its three steps
  CHECK(std::floor(0.3 / 0.1) == 2);
  CHECK(std::floor(0.3 / 0.1 * (1 + kStepCountRoundOff)) == 3);
  // the double nearest pi/2 has a cosine of 6e-17: the Euler singularity is found there
  CHECK(std::abs(std::cos(std::asin(1.0))) < kEulerSingular);
  // a unit quaternion written to 7 digits (a float's) is unit within kGivenUnitNorm
  CHECK(std::abs(std::hypot(0.7071068, 0.7071068) - 1) < kGivenUnitNorm);
  CHECK(std::abs(std::hypot(static_cast<double>(0.6f), static_cast<double>(0.8f)) - 1) <
        kGivenUnitNorm);
}
