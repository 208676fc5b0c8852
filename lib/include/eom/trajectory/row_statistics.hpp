// Statistics over the rows of a table, kept without storing the rows: how often an event
// happened, where first, and its worst value (RowTally); the median of a duration
// (LogScaleHistogram).
#pragma once

#include <array>

namespace eom {

/// A row event counted over a table: how many rows it happened on, the first of them, and the
/// row where a value that goes with it was worst. Rows are named by their line in the input and
/// their time t. "Worst" is the largest value (add) or the largest magnitude with its sign kept
/// (extreme), as the quantity asks.
struct RowTally {
  long rows = 0;
  int first_line = 0, worst_line = 0;
  double first_t = 0, worst_t = 0;
  double worst = 0;  // 0, at line 0, until a value is kept

  /// The event happened on this row: counted, the first such row remembered.
  void count(double t, int line);
  /// The event happened on this row with `value`: counted, and the value kept when it is the
  /// first or larger than the worst so far (the first one on ties).
  void add(double value, double t, int line);
  /// `value` on this row, kept when its magnitude beats the worst one's (a NaN never does);
  /// counts nothing.
  void extreme(double value, double t, int line);
};

/// Values on a log scale, 100 bins per decade from 0.1 to 1e8 (a solve time in microseconds,
/// say): the median within half a bin (1.2%) from fixed storage, whatever the number of rows.
class LogScaleHistogram {
 public:
  /// Values below 0.1 count in the first bin, above 1e8 in the last.
  void add(double value);
  /// The centre of the bin holding the median (the lower median for an even count); 0 when empty.
  double median() const;
  /// The largest value added (0 when empty).
  double largest() const { return largest_; }
  long count() const { return count_; }

 private:
  std::array<long, 900> bins_{};
  long count_ = 0;
  double largest_ = 0;
};

}  // namespace eom
