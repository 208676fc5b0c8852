#include "eom/io/time_stamps.hpp"

#include <charconv>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"

namespace eom {
namespace {

double value_of(const Decimal& d, std::string& text) {
  text.clear();
  append_decimal(text, d);
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

bool is_integer(const Decimal& d) { return d.exponent >= 0; }

[[noreturn]] void bad(const TableReader& in, int line, int column, std::string_view text,
                      const std::string& expected) {
  throw InputError(in.name(), line, 0,
                   "column " + shown_input(in.header().names[column]) + ": " + quote_input(text) +
                       " is not " + expected);
}

}  // namespace

TimeColumns find_time_columns(const Header& header, const std::string& name) {
  if (const int t = header.index(name); t >= 0) return {t, -1};
  for (const auto& [sec, nanosec] : {std::pair{".sec", ".nanosec"}, std::pair{".secs", ".nsecs"}}) {
    const int s = header.index(name + sec), n = header.index(name + nanosec);
    if (s >= 0 && n >= 0) return {s, n};
  }
  return {};
}

TableTime::TableTime(TimeColumns columns, double seconds_per_unit)
    : columns_(columns), scale_(seconds_per_unit) {
  shift_ = scale_.power_of_ten(power_);
}

void TableTime::count_from(const TableTime& origin) {
  has_origin_ = true;
  exact_ = origin.exact_;
  origin_ = origin.origin_;
  origin_stamp_ = origin.origin_stamp_;
  origin_units_ = origin.origin_units_;
  origin_seconds_ = origin.origin_seconds_;
}

void TableTime::read(const TableReader& in, int line) {
  read_stamp(in, line);
  exact_ = split_time(stamp_, now_) && exact_;
  if (!has_origin_) set_origin();
}

void TableTime::set_origin() {
  has_origin_ = true;
  origin_ = now_;
  origin_stamp_ = stamp_;
  origin_units_ = value_of(stamp_, text_);
  origin_seconds_ = origin_units_ * scale_.seconds_per_unit();
}

// the current row's stamp into stamp_: the time column, or sec + nanosec * 1e-9
void TableTime::read_stamp(const TableReader& in, int line) {
  const Field field = in.field(columns_.stamp);
  if (columns_.nanosec < 0) {
    if (!parse_decimal(field.text, stamp_)) bad(in, line, columns_.stamp, field.text, "a number");
    return;
  }
  const Field nanosec = in.field(columns_.nanosec);
  if (!parse_decimal(field.text, stamp_) || stamp_.negative || !is_integer(stamp_)) {
    bad(in, line, columns_.stamp, field.text, "whole seconds (an integer >= 0)");
  }
  if (!parse_decimal(nanosec.text, nanosec_) || nanosec_.negative || !is_integer(nanosec_) ||
      nanosec_.digits.size() + nanosec_.exponent > 9) {
    bad(in, line, columns_.nanosec, nanosec.text, "nanoseconds (an integer from 0 to 999999999)");
  }
  // sec.nnnnnnnnn as text, read back as one decimal
  composed_.clear();
  append_decimal(composed_, stamp_);
  text_.clear();
  append_decimal(text_, nanosec_);
  composed_ += '.';
  composed_.append(9 - text_.size(), '0');
  composed_ += text_;
  parse_decimal(composed_, stamp_);
}

double TableTime::elapsed() const {
  if (exact_) return scale_.seconds_between(now_, origin_);
  return (value_of(stamp_, text_) - origin_units_) * scale_.seconds_per_unit();
}

double TableTime::seconds() const {
  if (!shift_) return value_of(stamp_, text_) * scale_.seconds_per_unit();
  in_seconds_ = stamp_;
  if (!in_seconds_.digits.empty()) in_seconds_.exponent += power_;
  return value_of(in_seconds_, text_);  // one rounding
}

bool TableTime::append_seconds(std::string& out) const {
  if (!shift_) return false;
  in_seconds_ = stamp_;
  if (!in_seconds_.digits.empty()) in_seconds_.exponent += power_;  // moving the point: exact
  text_.clear();
  append_decimal(text_, in_seconds_);
  append_number_text(out, text_);
  return true;
}

bool TableTime::append_after_origin(std::string& out, double offset) const {
  if (!shift_) return false;
  in_seconds_ = origin_stamp_;
  if (!in_seconds_.digits.empty()) in_seconds_.exponent += power_;
  text_.clear();
  append_number(text_, offset);
  parse_decimal(text_, offset_);  // the double's shortest form
  add_decimals(in_seconds_, offset_, sum_);
  text_.clear();
  append_decimal(text_, sum_);
  append_number_text(out, text_);
  return true;
}

}  // namespace eom
