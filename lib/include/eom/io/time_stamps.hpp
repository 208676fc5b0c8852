// The time of a table's rows, read exactly (doc/tables.md "Time"). A stamp is read from its text
// as a decimal (decimal.hpp), never through a double: nanoseconds since the epoch have 19 digits,
// a double 16. Differences are taken in integers before anything is rounded, so that a 1 ms step
// at 1.7e18 ns is 0.001 s to the last bit; a scale that is a power of ten moves the decimal
// point, exactly, so the stamp in seconds keeps every digit.
#pragma once

#include <string>

#include <eom/io/decimal.hpp>
#include <eom/io/table.hpp>

namespace eom {

/// Where a table's time is: one column, or the two integer columns of a split stamp.
struct TimeColumns {
  int stamp = -1;    // the time column (of a split stamp: its whole seconds); -1: none
  int nanosec = -1;  // a split stamp's nanoseconds (ROS 2 NAME.nanosec, ROS 1 NAME.nsecs)
};

/// The column `name`, else the pair `name`.sec and `name`.nanosec of a ROS 2 stamp (`name`.secs
/// and `name`.nsecs of a ROS 1 message exported whole); stamp -1 when there is none.
TimeColumns find_time_columns(const Header& header, const std::string& name);

/// One table's stamps, row by row, and the seconds between them and an origin: the first stamp
/// read, or another table's (count_from), so that several tables share one clock.
class TableTime {
 public:
  /// `seconds_per_unit` > 0: the scale of the time column (1e-9 for nanoseconds).
  TableTime(TimeColumns columns, double seconds_per_unit);

  /// Reads the stamp of the current row of `in` (at `line`). Throws InputError naming the file,
  /// line and column for a field that is not a number (or not whole seconds and nanoseconds from
  /// 0 to 999999999 for a split stamp).
  void read(const TableReader& in, int line);
  /// Count from `origin`'s first stamp (0 when it read none: a table without a time column)
  /// instead of this table's own, so that several tables of one scale share a clock. Call before
  /// read().
  void count_from(const TableTime& origin);

  /// Seconds from the origin to the stamp read last, rounded once (doubles only for stamps beyond
  /// 63 bits, 9.2e18 units: no log's).
  double elapsed() const;
  /// The stamp read last in seconds, rounded once.
  double seconds() const;
  /// The stamp read last in seconds with every digit, as a number's text (the double's shortest
  /// form when that is the same number: 0.5, not 0.500000000); false, writing nothing, when the
  /// scale is not a power of ten (then only seconds() says it).
  bool append_seconds(std::string& out) const;
  /// origin + `offset` seconds with every digit, as append_seconds writes a stamp: the time of a
  /// simulation `offset` seconds after the origin stamp. False as append_seconds.
  bool append_after_origin(std::string& out, double offset) const;
  /// -1, 0 or 1 as the stamp read last is before, the same as or after the one read before it,
  /// exactly as written (steps a double cannot resolve included); 1 for the first.
  int step_sign() const { return has_previous_ ? compare_decimals(stamp_, previous_) : 1; }
  /// The origin in seconds, rounded once (0 before anything is read).
  double origin_seconds() const { return origin_seconds_; }

 private:
  void read_stamp(const TableReader& in, int line);
  void set_origin();

  TimeColumns columns_;
  TimeScale scale_;
  int power_ = 0;
  bool shift_ = false;  // the scale is 10^power_
  bool has_origin_ = false;
  bool exact_ = true;  // the origin and every stamp so far fit SplitTime
  SplitTime origin_, now_;
  Decimal origin_stamp_;  // in units of the column
  double origin_units_ = 0, origin_seconds_ = 0;
  Decimal stamp_, nanosec_;
  Decimal previous_;  // the stamp read before stamp_
  bool has_previous_ = false;
  std::string composed_;
  // scratch, so that reading and writing a row's time allocates nothing once warm
  mutable Decimal in_seconds_, offset_, sum_;
  mutable std::string text_;
};

}  // namespace eom
