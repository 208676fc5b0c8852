// The two number formatters: shortest round-trip (what reads back to the same double) and a given
// precision (printf's %g and %f rules), with expected spellings written by hand.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include <eom/core/number_text.hpp>

namespace {

// the double strtod reads from `text`, compared bit for bit with x (so -0 differs from 0)
bool reads_back_as(const std::string& text, double x) {
  char* end = nullptr;
  const double read = std::strtod(text.c_str(), &end);
  return *end == '\0' && std::memcmp(&read, &x, sizeof x) == 0;
}

}  // namespace

TEST_CASE("shortest_text: the fewest digits that read back to the same double",
          "[core][number_text]") {
  CHECK(eom::shortest_text(0.1) == "0.1");
  CHECK(eom::shortest_text(2) == "2");
  CHECK(eom::shortest_text(-0.5) == "-0.5");
  CHECK(eom::shortest_text(-0.0) == "-0");
  CHECK(eom::shortest_text(0.1 + 0.2) == "0.30000000000000004");  // 0.3 is another double
  CHECK(eom::shortest_text(1e-5) == "1e-05");                     // shorter than 0.00001
  CHECK(eom::shortest_text(1e20) == "1e+20");
  CHECK(eom::shortest_text(123456) == "123456");
  CHECK(eom::shortest_text(1e-320) == "1e-320");  // subnormal: %.17g would give 9.99988...e-321
  CHECK(eom::shortest_text(std::numeric_limits<double>::denorm_min()) == "5e-324");
  CHECK(eom::shortest_text(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  std::string out = "x=";
  eom::append_number(out, 1.5);
  CHECK(out == "x=1.5");
}

TEST_CASE("shortest_text reads back bit for bit", "[core][number_text]") {
  const double values[] = {0.1,
                           1.0 / 3,
                           -0.0,
                           1e-320,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(),
                           -std::numeric_limits<double>::max(),
                           2.5e-7,
                           6.02214076e23};
  for (const double x : values) {
    INFO(eom::shortest_text(x));
    CHECK(reads_back_as(eom::shortest_text(x), x));
  }
}

TEST_CASE("number_text: significant digits as %g writes them", "[core][number_text]") {
  CHECK(eom::number_text(0.001) == "0.001");
  CHECK(eom::number_text(0.0001) == "0.0001");        // %g's fixed notation down to 1e-4
  CHECK(eom::number_text(0.00001) == "1e-05");        // below: exponent notation
  CHECK(eom::number_text(1234567) == "1.23457e+06");  // more than 6 digits before the point
  CHECK(eom::number_text(123456.7) == "123457");
  CHECK(eom::number_text(2.0) == "2");
  CHECK(eom::number_text(1e200) == "1e+200");
  CHECK(eom::number_text(0.1 + 0.2) == "0.3");
  CHECK(eom::number_text(1.0 / 3, 9) == "0.333333333");
  CHECK(eom::number_text(0.70710678, 3) == "0.707");
  CHECK(eom::number_text(1e-5, 4) == "1e-05");
  CHECK(eom::number_text(-0.0) == "-0");
  CHECK(eom::number_text(std::numeric_limits<double>::max(), 17) == "1.7976931348623157e+308");
  CHECK(eom::number_text(std::numeric_limits<double>::infinity()) == "inf");
}

TEST_CASE("fixed_text: places after the point as %f writes them", "[core][number_text]") {
  CHECK(eom::fixed_text(0.5, 6) == "0.500000");  // std::to_string's spelling
  CHECK(eom::fixed_text(1.0 / 3, 2) == "0.33");
  CHECK(eom::fixed_text(99.6, 0) == "100");
  CHECK(eom::fixed_text(-0.4, 0) == "-0");
  CHECK(eom::fixed_text(1e-7, 6) == "0.000000");
  CHECK(eom::fixed_text(-std::numeric_limits<double>::infinity(), 6) == "-inf");
  // longer than any %g: the 309 digits of the largest double, exactly
  const std::string largest = eom::fixed_text(std::numeric_limits<double>::max(), 0);
  CHECK(largest.size() == 309);
  CHECK(largest.substr(0, 20) == "17976931348623157081");
  CHECK(largest.substr(300) == "124858368");
}
