// The named tolerances against the questions they answer, each with numbers worked by hand.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/tolerances.hpp"

using namespace eom::detail;

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
