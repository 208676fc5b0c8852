// The one pi of libeom: the double nearest to pi, the one acos(-1) and atan2(0, -1) give.

#include <catch2/catch.hpp>

#include <cmath>

#include "core/constants.hpp"

TEST_CASE("kPi is the double nearest to pi", "[core][constants]") {
  // a local name: in a unity batch another test file may see eom::detail::kPi through its own
  // using-directive
  const double kPi = eom::detail::kPi;
  CHECK(kPi == std::acos(-1.0));
  CHECK(kPi == std::atan2(0.0, -1.0));
  // the neighbouring doubles are further from pi (to 21 digits, in long double) than kPi is
  const long double pi = 3.14159265358979323846L;
  const long double off = std::abs(kPi - pi);
  CHECK(std::abs(std::nextafter(kPi, 4.0) - pi) > off);
  CHECK(std::abs(std::nextafter(kPi, 3.0) - pi) > off);
}
