// Exact decimal numbers as tables spell them, for what a double cannot hold: the time stamps of
// real logs. Nanoseconds since the epoch (about 1.7e18) need 61 bits and a double has 53, so a
// double rounds each such stamp to a multiple of 256 ns, and second differences over 1 ms steps
// turn that into accelerations off by percents; seconds since the epoch with microsecond digits
// (1.7e9) lose their last digits the same way. Here a stamp keeps its digits; differences are taken before anything is rounded.
#pragma once

#include <string>
#include <string_view>

namespace eom {

/// A decimal number exactly: (negative ? -1 : 1) * digits * 10^exponent, `digits` without
/// leading or trailing zeros (zero has no digits and is not negative).
struct Decimal {
  bool negative = false;
  std::string digits;
  int exponent = 0;

  bool operator==(const Decimal& o) const {
    return negative == o.negative && digits == o.digits && exponent == o.exponent;
  }
};

/// Reads a number as tables write it (what std::from_chars reads, and a leading '+'): a sign,
/// digits with an optional point, an optional exponent. False for anything else (inf, nan, hex,
/// empty, blanks). Reuses out.digits' storage.
bool parse_decimal(std::string_view text, Decimal& out);

/// The exact value of `d`: in plain notation (1700000000.123456789, 0.001, 250) unless that takes
/// more than 21 zeros, then as digits and an exponent (15e-31). Valid in CSV and JSON.
void append_decimal(std::string& out, const Decimal& d);

/// sum = a + b, exactly (sum's storage reused; it must not be a or b).
void add_decimals(const Decimal& a, const Decimal& b, Decimal& sum);

/// -1, 0 or 1 as a < b, a == b or a > b, exactly (1e22 + 1e-3 > 1e22, 1e-19 > 0).
int compare_decimals(const Decimal& a, const Decimal& b);

/// A time stamp as integers, so that differences are exact: value = whole + fraction *
/// 10^-places, `fraction` of the sign of the value and at most 18 `places` (digits past 1e-18
/// units are dropped).
struct SplitTime {
  long long whole = 0;
  long long fraction = 0;
  int places = 0;
};
/// False when the integer part of `d` does not fit in 63 bits (|d| >= 9.2e18).
bool split_time(const Decimal& d, SplitTime& out);

/// Seconds per unit of a time column, and the arithmetic that keeps stamps exact.
class TimeScale {
 public:
  /// `seconds_per_unit` > 0 (1e-9 for nanoseconds).
  explicit TimeScale(double seconds_per_unit);

  /// (a - b) in seconds: the difference is taken exactly in integers, N * 10^-places, and
  /// rounded once to a double, N / 10^(places - power) when the scale is 10^power (1e-9, 1e-6,
  /// 1, correctly rounded: 1000000 ns is 0.001 s to the last bit, whatever the epoch), else
  /// N / 10^places times the scale. Stamps more than 9e18 / 10^places units apart (never in a
  /// log) fall back to doubles.
  double seconds_between(const SplitTime& a, const SplitTime& b) const;

  /// The power of ten the scale is (-9 for 1e-9, 0 for 1), with true; false for other scales.
  bool power_of_ten(int& exponent) const {
    exponent = power_;
    return exact_power_;
  }
  double seconds_per_unit() const { return scale_; }

 private:
  double scale_;
  int power_ = 0;
  bool exact_power_ = false;
};

}  // namespace eom
