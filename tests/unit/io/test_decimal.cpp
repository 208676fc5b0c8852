// Exact decimals and time stamps (eom/io/decimal.hpp): what a double cannot hold, kept digit for
// digit, and differences of epoch stamps exact. Expected values are written out by hand.

#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <eom/io/decimal.hpp>
#include <eom/io/table.hpp>
#include <eom/io/time_stamps.hpp>

using eom::Decimal;
using eom::SplitTime;
using eom::TimeScale;

namespace {

Decimal decimal(const std::string& text) {
  Decimal d;
  REQUIRE(eom::parse_decimal(text, d));
  return d;
}

std::string text_of(const std::string& text) {
  std::string out;
  eom::append_decimal(out, decimal(text));
  return out;
}

SplitTime split(const std::string& text) {
  SplitTime s;
  REQUIRE(eom::split_time(decimal(text), s));
  return s;
}

std::string number_text(const std::string& text) {
  std::string out;
  eom::append_number_text(out, text);
  return out;
}

}  // namespace

TEST_CASE("parse_decimal keeps every digit, without leading or trailing zeros", "[decimal]") {
  const Decimal stamp = decimal("1700000000123456789");
  CHECK(stamp.digits == "1700000000123456789");
  CHECK(stamp.exponent == 0);
  CHECK_FALSE(stamp.negative);
  CHECK(decimal("1.50") == Decimal{false, "15", -1});
  CHECK(decimal("+0.00100") == Decimal{false, "1", -3});
  CHECK(decimal("-250") == Decimal{true, "25", 1});
  CHECK(decimal("12.5e-2") == Decimal{false, "125", -3});
  CHECK(decimal("1E3") == Decimal{false, "1", 3});
  CHECK(decimal(".5") == Decimal{false, "5", -1});
  CHECK(decimal("5.") == Decimal{false, "5", 0});
  CHECK(decimal("-0.0") == Decimal{});  // zero has no sign
  CHECK(decimal("0e5") == Decimal{});
  Decimal d;
  for (const char* bad :
       {"", "+", "-", ".", "1e", "1e+", "inf", "nan", "0x1p3", " 1", "1 ", "1.2.3", "1,5", "abc"}) {
    INFO(bad);
    CHECK_FALSE(eom::parse_decimal(bad, d));
  }
}

TEST_CASE("append_decimal writes the exact value, plain where reasonable", "[decimal]") {
  CHECK(text_of("1.50") == "1.5");
  CHECK(text_of("1e-3") == "0.001");
  CHECK(text_of("25e1") == "250");
  CHECK(text_of("-0.0") == "0");
  CHECK(text_of("-12.5") == "-12.5");
  CHECK(text_of("1700000000123456789e-9") == "1700000000.123456789");
  CHECK(text_of("15e-31") == "15e-31");
  CHECK(text_of("1e30") == "1e30");
  CHECK(text_of("1e21") == "1000000000000000000000");
}

TEST_CASE("append_number_text: shortest form unless the number is no double's",
          "[decimal][table]") {
  CHECK(number_text("+1.50") == "1.5");
  CHECK(number_text("0.0") == "0");
  CHECK(number_text("1e-05") == "1e-05");  // to_chars' own spelling
  CHECK(number_text("0.00001") == "1e-05");
  CHECK(number_text("0.1") == "0.1");
  CHECK(number_text("0.30000000000000004") == "0.30000000000000004");
  // 17 significant digits or fewer: the spelling of a double
  CHECK(number_text("4.9406564584124654e-324") == "5e-324");
  CHECK(number_text("0.10000000000000001") == "0.1");
  // more digits than a double holds: every one of them
  CHECK(number_text("1700000000123456789") == "1700000000123456789");
  CHECK(number_text("1700000000.123456789") == "1700000000.123456789");
  CHECK(number_text("+1700000000.1234567890") == "1700000000.123456789");
  // 2^53 + 1 is no double
  CHECK(number_text("9007199254740993") == "9007199254740993");
  CHECK(number_text("9007199254740992") == "9007199254740992");
  // an integer stays one; other numbers take the shortest form
  CHECK(number_text("1700000000") == "1700000000");
  CHECK(number_text("+0017") == "17");
  CHECK(number_text("-0") == "-0");
  CHECK(number_text("1.7e9") == "1.7e+09");
}

TEST_CASE("split_time: integer and fraction parts as integers", "[decimal]") {
  const SplitTime s = split("1700000000.123456789");
  CHECK(s.whole == 1700000000);
  CHECK(s.fraction == 123456789);
  CHECK(s.places == 9);
  const SplitTime negative = split("-2.5");
  CHECK(negative.whole == -2);
  CHECK(negative.fraction == -5);
  CHECK(negative.places == 1);
  const SplitTime ns = split("1700000000123456789");
  CHECK(ns.whole == 1700000000123456789LL);
  CHECK(ns.places == 0);
  const SplitTime small = split("1e-20");  // past 18 places: dropped
  CHECK(small.whole == 0);
  CHECK(small.fraction == 0);
  CHECK(split("9223372036854775807").whole == 9223372036854775807LL);
  SplitTime out;
  CHECK_FALSE(eom::split_time(decimal("9223372036854775808"), out));
  CHECK_FALSE(eom::split_time(decimal("1e19"), out));
}

TEST_CASE("TimeScale: differences of epoch stamps are exact", "[decimal][time]") {
  const TimeScale nanoseconds(1e-9);
  int power = 0;
  CHECK(nanoseconds.power_of_ten(power));
  CHECK(power == -9);
  const long long origin = 1700000000123456789LL;
  const SplitTime first = split(std::to_string(origin));
  for (int k = 0; k < 2000; ++k) {
    // k ms after the first stamp is k / 1000 s, correctly rounded: the same double as k / 1000.
    // Through doubles (1.7e18 rounds to multiples of 256 ns) the steps would be off by 2.6e-4.
    const SplitTime now = split(std::to_string(origin + k * 1000000LL));
    REQUIRE(nanoseconds.seconds_between(now, first) == k / 1000.0);
  }
  // seconds since the epoch with microsecond digits
  const TimeScale seconds(1);
  const SplitTime a = split("1700000000.123456"), b = split("1700000000.124456");
  CHECK(seconds.seconds_between(b, a) == 0.001);
  CHECK(seconds.seconds_between(a, b) == -0.001);
  // different numbers of places
  CHECK(seconds.seconds_between(split("1700000000.5"), split("1700000000.25")) == 0.25);
  // a scale that is no power of ten multiplies: minutes
  const TimeScale minutes(60);
  CHECK_FALSE(minutes.power_of_ten(power));
  CHECK(minutes.seconds_between(split("28333333.5"), split("28333333")) == 30);
  // microseconds: 10^-6
  const TimeScale microseconds(1e-6);
  CHECK(microseconds.power_of_ten(power));
  CHECK(power == -6);
  CHECK(microseconds.seconds_between(split("1700000000123457"), split("1700000000123456")) == 1e-6);
}

TEST_CASE("add_decimals: exact sums of any signs and places", "[decimal]") {
  const auto sum = [](const std::string& a, const std::string& b) {
    Decimal out;
    eom::add_decimals(decimal(a), decimal(b), out);
    std::string text;
    eom::append_decimal(text, out);
    return text;
  };
  CHECK(sum("1700000000.123456789", "0.001") == "1700000000.124456789");
  CHECK(sum("0.1", "0.2") == "0.3");  // as doubles: 0.30000000000000004
  CHECK(sum("999.999", "0.001") == "1000");
  CHECK(sum("1e12", "0.002") == "1000000000000.002");
  CHECK(sum("5", "-7.25") == "-2.25");
  CHECK(sum("-5", "7.25") == "2.25");
  CHECK(sum("-1.5", "-2.5") == "-4");
  CHECK(sum("3.14", "-3.14") == "0");
  CHECK(sum("0", "-0.5") == "-0.5");
  CHECK(sum("120", "0") == "120");
  CHECK(sum("1e-20", "1") == "1.00000000000000000001");
}

namespace {

// the stamps of a table's time columns, read row by row with TableTime
struct StampedTable {
  std::istringstream text;
  std::unique_ptr<eom::TableReader> reader;
  eom::TableTime time;
  std::vector<double> row;

  StampedTable(const std::string& csv, const std::string& column, double scale)
      : text(csv),
        reader(eom::TableReader::from_stream(text, "log.csv", eom::Format::csv)),
        time(eom::find_time_columns(reader->header(), column), scale) {}
  bool next() {
    if (!reader->next(row)) return false;
    time.read(*reader, reader->line());
    return true;
  }
};

}  // namespace

TEST_CASE("TableTime: stamps since one origin, exact, and t with every digit", "[decimal][time]") {
  StampedTable log("stamp,x\n1700000000123456789,0\n1700000000124456789,1\n", "stamp", 1e-9);
  REQUIRE(log.next());
  CHECK(log.time.elapsed() == 0);
  std::string t;
  CHECK(log.time.append_seconds(t));
  CHECK(t == "1700000000.123456789");
  REQUIRE(log.next());
  CHECK(log.time.elapsed() == 0.001);
  CHECK(log.time.seconds() == 1700000000.124456789);
  t.clear();
  CHECK(log.time.append_after_origin(t, 0.25));
  CHECK(t == "1700000000.373456789");

  // a second table counted from the first one's origin: ROS 2 split stamps, same scale of the
  // integer part (seconds) as the nanoseconds' sum
  StampedTable ros2("h.sec,h.nanosec\n1700000000,123456789\n1700000000,133456789\n", "h", 1);
  StampedTable origin("t\n1700000000.123456789\n", "t", 1);
  REQUIRE(origin.next());
  ros2.time.count_from(origin.time);
  REQUIRE(ros2.next());
  CHECK(ros2.time.elapsed() == 0);
  REQUIRE(ros2.next());
  CHECK(ros2.time.elapsed() == 0.01);

  // no time column read: the origin is 0, exactly
  const eom::TableTime none(eom::TimeColumns{}, 1);
  StampedTable plain("t\n0.5\n", "t", 1);
  plain.time.count_from(none);
  REQUIRE(plain.next());
  CHECK(plain.time.elapsed() == 0.5);

  // a split stamp's nanoseconds must be 0 .. 999999999
  StampedTable bad("h.sec,h.nanosec\n1,1000000000\n", "h", 1);
  CHECK_THROWS_WITH(bad.next(), Catch::Contains("log.csv:2: column h.nanosec: '1000000000' is not "
                                                "nanoseconds (an integer from 0 to 999999999)"));
}

TEST_CASE("compare_decimals orders exactly, beyond a double's digits", "[decimal]") {
  const auto compare = [](const std::string& a, const std::string& b) {
    return eom::compare_decimals(decimal(a), decimal(b));
  };
  CHECK(compare("1", "2") == -1);
  CHECK(compare("2.50", "2.5") == 0);
  CHECK(compare("0", "-0") == 0);
  CHECK(compare("1e-19", "0") == 1);
  CHECK(compare("2e-19", "1e-19") == 1);
  // 1e22 + 0.001: a double holds only 1e22
  CHECK(compare("10000000000000000000000.001", "1e22") == 1);
  CHECK(compare("12", "123") == -1);
  CHECK(compare("13", "123") == -1);
  CHECK(compare("0.13", "0.123") == 1);
  CHECK(compare("-0.13", "-0.123") == -1);
  CHECK(compare("-5", "3") == -1);
  CHECK(compare("-5", "0") == -1);
  CHECK(compare("0", "0.001") == -1);
  CHECK(compare("1700000000.000000001", "1700000000") == 1);
}

TEST_CASE("TableTime: the sign of each step, exactly as the stamps are written",
          "[decimal][time]") {
  // steps of 1e-19 s, and of 1 ms at 1e22 ns: the seconds between them round to 0, the stamps
  // still increase; a repeated stamp is 0, one going back -1
  StampedTable log("t\n0\n1e-19\n2e-19\n2e-19\n1e-19\n", "t", 1);
  std::vector<int> signs;
  while (log.next()) signs.push_back(log.time.step_sign());
  CHECK(signs == std::vector<int>{1, 1, 1, 0, -1});
  CHECK(log.time.elapsed() == 0);
  StampedTable far("t\n10000000000000000000000\n10000000000000001000000\n", "t", 1e-9);
  REQUIRE(far.next());
  REQUIRE(far.next());
  CHECK(far.time.step_sign() == 1);
  CHECK(far.time.elapsed() == 0);
}
