// Statistics over the rows of a table, kept without storing the rows: how often an event
// happened, where first, and its worst value (RowTally); the median of a duration
// (LogScaleHistogram).
#pragma once

#include <array>

namespace eom {

/// A row event counted over a table: how many rows, the first one (line and time) and the
/// largest value with its row.
struct RowTally {
  long rows = 0;
  int first_line = 0, worst_line = 0;
  double first_t = 0, worst_t = 0;
  double worst = 0;  // the largest value added (the first one on ties)

  void add(int line, double t, double value = 0) {
    if (rows++ == 0) first_line = line, first_t = t;
    if (value > worst || rows == 1) worst = value, worst_line = line, worst_t = t;
  }
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
