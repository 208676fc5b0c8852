#include "eom/io/decimal.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace eom {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr int kMaxPlainZeros = 21;
constexpr int kMaxPlaces = 18;  // 10^18 < 2^63

long long power_of_ten_integer(int k) {
  long long p = 1;
  while (k-- > 0) p *= 10;
  return p;
}

// the double nearest 10^k, as the literal 1eK is (std::from_chars rounds correctly)
double power_of_ten_double(int k) {
  const std::string text = "1e" + std::to_string(k);
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// 10^k for 0 <= k <= 22: exact doubles (5^22 < 2^53)
double exact_power_of_ten(int k) {
  static const double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  return kPowers[k];
}

}  // namespace

bool parse_decimal(std::string_view text, Decimal& out) {
  size_t i = 0;
  const size_t n = text.size();
  out.negative = false;
  out.digits.clear();
  if (i < n && (text[i] == '-' || text[i] == '+')) out.negative = text[i++] == '-';
  long long point = 0;  // digits kept before the point, minus those after it
  bool any = false, after_point = false;
  long long trailing_zeros = 0;  // zeros held back: kept only when a non-zero digit follows
  for (; i < n; ++i) {
    const char c = text[i];
    if (c == '.' && !after_point) {
      after_point = true;
      continue;
    }
    if (!is_digit(c)) break;
    any = true;
    if (c == '0') {
      if (!out.digits.empty()) ++trailing_zeros;
      if (after_point) --point;
      continue;
    }
    out.digits.append(static_cast<size_t>(trailing_zeros), '0');
    trailing_zeros = 0;
    out.digits += c;
    if (after_point) --point;
  }
  if (!any) return false;
  // the value so far is digits * 10^(point + trailing zeros held back)
  long long exponent = point + trailing_zeros;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < n && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    if (i == n || !is_digit(text[i])) return false;
    long long e = 0;
    for (; i < n && is_digit(text[i]); ++i) {
      if (e < 100000) e = 10 * e + (text[i] - '0');
    }
    exponent += negative ? -e : e;
  }
  if (i != n) return false;
  if (out.digits.empty()) {  // zero, whatever its sign and exponent
    out.negative = false;
    exponent = 0;
  }
  constexpr long long kLimit = std::numeric_limits<int>::max() / 2;  // far beyond any double
  if (exponent > kLimit || exponent < -kLimit) return false;
  out.exponent = static_cast<int>(exponent);
  return true;
}

void append_decimal(std::string& out, const Decimal& d) {
  if (d.digits.empty()) {
    out += '0';
    return;
  }
  if (d.negative) out += '-';
  const long long size = static_cast<long long>(d.digits.size());
  const long long point = size + d.exponent;  // digits before the point
  if (d.exponent >= 0 && d.exponent <= kMaxPlainZeros) {
    out += d.digits;
    out.append(static_cast<size_t>(d.exponent), '0');
  } else if (d.exponent < 0 && point > 0) {
    out.append(d.digits, 0, static_cast<size_t>(point));
    out += '.';
    out.append(d.digits, static_cast<size_t>(point), std::string::npos);
  } else if (d.exponent < 0 && -point <= kMaxPlainZeros) {
    out += "0.";
    out.append(static_cast<size_t>(-point), '0');
    out += d.digits;
  } else {
    out += d.digits;
    out += 'e';
    out += std::to_string(d.exponent);
  }
}

namespace {

// |a| - |b| digit by digit into out (aligned to the exponent `low`), for |a| >= |b|; or the sum
void combine_magnitudes(const Decimal& a, const Decimal& b, int low, bool subtract,
                        std::string& out) {
  const long long top = std::max(static_cast<long long>(a.digits.size()) + a.exponent,
                                 static_cast<long long>(b.digits.size()) + b.exponent);
  const size_t width = static_cast<size_t>(top - low) + 1;  // one more for a carry
  out.assign(width, '0');
  // the digit of d at 10^p, p from low
  auto digit = [](const Decimal& d, long long p) {
    const long long k = static_cast<long long>(d.digits.size()) - 1 - (p - d.exponent);
    return k >= 0 && k < static_cast<long long>(d.digits.size())
               ? d.digits[static_cast<size_t>(k)] - '0'
               : 0;
  };
  int carry = 0;
  for (size_t i = 0; i < width; ++i) {
    const long long p = low + static_cast<long long>(i);
    int x = digit(a, p) + (subtract ? -(digit(b, p) + carry) : digit(b, p) + carry);
    carry = 0;
    if (x < 0) {
      x += 10;
      carry = 1;
    } else if (x > 9) {
      x -= 10;
      carry = 1;
    }
    out[width - 1 - i] = static_cast<char>('0' + x);
  }
}

// |a| >= |b|
bool magnitude_not_less(const Decimal& a, const Decimal& b) {
  const long long ta = static_cast<long long>(a.digits.size()) + a.exponent;
  const long long tb = static_cast<long long>(b.digits.size()) + b.exponent;
  if (a.digits.empty() || b.digits.empty()) return b.digits.empty();
  if (ta != tb) return ta > tb;
  const size_t n = std::max(a.digits.size(), b.digits.size());
  for (size_t k = 0; k < n; ++k) {
    const char da = k < a.digits.size() ? a.digits[k] : '0';
    const char db = k < b.digits.size() ? b.digits[k] : '0';
    if (da != db) return da > db;
  }
  return true;
}

}  // namespace

int compare_decimals(const Decimal& a, const Decimal& b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;  // zero is not negative
  const int sign = a.negative ? -1 : 1;
  if (a.digits.empty() || b.digits.empty()) {
    return sign * (static_cast<int>(!a.digits.empty()) - static_cast<int>(!b.digits.empty()));
  }
  // the place of the leading digit first; at the same place the digits, compared as text, a
  // missing one reading as 0 (no trailing zeros: a prefix is the smaller)
  const long lead_a = static_cast<long>(a.digits.size()) + a.exponent;
  const long lead_b = static_cast<long>(b.digits.size()) + b.exponent;
  if (lead_a != lead_b) return sign * (lead_a < lead_b ? -1 : 1);
  const int order = a.digits.compare(b.digits);
  return sign * ((order > 0) - (order < 0));
}

void add_decimals(const Decimal& a, const Decimal& b, Decimal& sum) {
  if (a.digits.empty() || b.digits.empty()) {
    sum = a.digits.empty() ? b : a;
    return;
  }
  const bool a_larger = magnitude_not_less(a, b);
  const Decimal& big = a_larger ? a : b;
  const Decimal& small = a_larger ? b : a;
  const int low = std::min(a.exponent, b.exponent);
  combine_magnitudes(big, small, low, a.negative != b.negative, sum.digits);
  // the digits without leading and trailing zeros
  const size_t first = sum.digits.find_first_not_of('0');
  if (first == std::string::npos) {
    sum.digits.clear();
    sum.negative = false;
    sum.exponent = 0;
    return;
  }
  const size_t last = sum.digits.find_last_not_of('0');
  sum.exponent = low + static_cast<int>(sum.digits.size() - 1 - last);
  sum.digits.erase(last + 1);
  sum.digits.erase(0, first);
  sum.negative = big.negative;
}

bool split_time(const Decimal& d, SplitTime& out) {
  const long long size = static_cast<long long>(d.digits.size());
  const long long point = size + d.exponent;  // digits of the integer part
  if (point > 19) return false;               // 10^19 <= |d|
  long long whole = 0;
  for (long long k = 0; k < point; ++k) {
    const int digit = k < size ? d.digits[static_cast<size_t>(k)] - '0' : 0;
    if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, digit, &whole)) {
      return false;
    }
  }
  long long fraction = 0;
  int places = 0;
  for (long long k = point; k < size && places < kMaxPlaces; ++k, ++places) {
    fraction = 10 * fraction + (k < 0 ? 0 : d.digits[static_cast<size_t>(k)] - '0');
  }
  out.whole = d.negative ? -whole : whole;
  out.fraction = d.negative ? -fraction : fraction;
  out.places = places;
  return true;
}

TimeScale::TimeScale(double seconds_per_unit) : scale_(seconds_per_unit) {
  for (int k = -kMaxPlaces; k <= kMaxPlaces; ++k) {
    if (power_of_ten_double(k) == scale_) {
      power_ = k;
      exact_power_ = true;
    }
  }
}

double TimeScale::seconds_between(const SplitTime& a, const SplitTime& b) const {
  const int places = std::max(a.places, b.places);
  const long long unit = power_of_ten_integer(places);
  // a - b = (whole difference * 10^places + fraction difference) * 10^-places, in integers
  long long whole = 0, scaled = 0, n = 0;
  const long long fraction = a.fraction * power_of_ten_integer(places - a.places) -
                             b.fraction * power_of_ten_integer(places - b.places);
  if (__builtin_sub_overflow(a.whole, b.whole, &whole) ||
      __builtin_mul_overflow(whole, unit, &scaled) ||
      __builtin_add_overflow(scaled, fraction, &n)) {
    const double units = static_cast<double>(a.whole) - static_cast<double>(b.whole) +
                         static_cast<double>(fraction) / static_cast<double>(unit);
    return units * scale_;
  }
  const double count = static_cast<double>(n);  // exact below 2^53 (104 days in nanoseconds)
  if (exact_power_) {
    // N * 10^(power - places), one rounding (powers of ten up to 1e22 are exact doubles)
    const int exponent = power_ - places;
    if (exponent <= 0 && exponent >= -22) return count / exact_power_of_ten(-exponent);
    if (exponent > 0 && exponent <= 22) return count * exact_power_of_ten(exponent);
  }
  return count / static_cast<double>(unit) * scale_;
}

}  // namespace eom
