// The two number formatters: shortest round-trip (what reads back to the same double) and a given
// number of significant digits (printf's %g rules), with expected spellings written by hand.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include <eom/core/number_text.hpp>

using eom::number_text;
using eom::shortest_text;

TEST_CASE("shortest_text: the fewest digits that read back to the same double",
          "[core][number_text]") {
  CHECK(shortest_text(0.1) == "0.1");
  CHECK(shortest_text(2) == "2");
  CHECK(shortest_text(-0.5) == "-0.5");
  CHECK(shortest_text(0.1 + 0.2) == "0.30000000000000004");  // 0.3 is another double
  CHECK(shortest_text(1e-5) == "1e-05");                     // shorter than 0.00001
  CHECK(shortest_text(1e20) == "1e+20");
  CHECK(shortest_text(123456) == "123456");
  CHECK(shortest_text(std::numeric_limits<double>::denorm_min()) == "5e-324");
  std::string out = "x=";
  eom::append_number(out, 1.5);
  CHECK(out == "x=1.5");
}

TEST_CASE("number_text: significant digits as %g writes them", "[core][number_text]") {
  CHECK(number_text(0.001) == "0.001");
  CHECK(number_text(1234567) == "1.23457e+06");  // more than 6 digits before the point
  CHECK(number_text(123456.7) == "123457");
  CHECK(number_text(2.0) == "2");
  CHECK(number_text(1e200) == "1e+200");
  CHECK(number_text(0.1 + 0.2) == "0.3");
  CHECK(number_text(1.0 / 3, 9) == "0.333333333");
  CHECK(number_text(0.70710678, 3) == "0.707");
  CHECK(number_text(1e-5, 4) == "1e-05");
  CHECK(number_text(-0.0) == "-0");
  CHECK(number_text(std::numeric_limits<double>::infinity()) == "inf");
}
