// Streaming reduction of long tables for display (eom plot, doc/plot.md "Long tables"): memory
// set at construction whatever the number of rows, and no extreme value lost.
#pragma once

#include <cstddef>
#include <vector>

namespace eom {

/// One point of a decimated series.
struct PlotPoint {
  double x = 0, y = 0;
};

/// Min/max decimation of several series over a shared x, read one row at a time, when the range
/// of x is not known in advance (a pipe). The x axis is cut into `buckets` buckets of equal
/// width; each keeps, per series, its smallest and its largest value and the x where each was
/// first reached, so every peak and trough survives. The buckets start at the first x with the
/// width of the first step; when an x falls outside them, the width doubles (adjacent pairs of
/// buckets merge, as often as needed) until it fits, so at the end the occupied buckets span
/// more than half of them and never more than all. Memory: buckets x series x 4 doubles.
class MinMaxDecimator {
 public:
  MinMaxDecimator(int series, int buckets);

  /// One row: x and the values of every series (NaN: no value there). x must be finite.
  void add(double x, const double* y);

  int series() const { return series_; }
  /// The number of buckets (fixed).
  int buckets() const { return buckets_; }
  /// The width of a bucket now (0 before two different x were seen).
  double width() const { return width_; }
  /// Rows added.
  long long rows() const { return rows_; }
  /// The smallest and largest x added (NaN before the first row).
  double x_min() const { return x_min_; }
  double x_max() const { return x_max_; }
  /// The smallest and largest value of series s (NaN when it has none).
  double y_min(int s) const { return y_min_[s]; }
  double y_max(int s) const { return y_max_[s]; }

  /// The points of series s in increasing x, two per bucket that holds a value (its minimum and
  /// its maximum, in the order of their x; one when they are the same point).
  std::vector<PlotPoint> points(int s) const;

 private:
  struct Extremes {
    double min_x, min_y, max_x, max_y;  // min_y NaN: empty
  };
  Extremes& at(int bucket, int s) { return cells_[static_cast<std::size_t>(bucket) * series_ + s]; }
  const Extremes& at(int bucket, int s) const {
    return cells_[static_cast<std::size_t>(bucket) * series_ + s];
  }
  // bucket index of x relative to the origin (may be outside [first_, first_ + buckets_))
  double index_of(double x) const;
  // doubles the width `times` times and re-bases so that [low, high] (indices at the old width)
  // fits
  void widen(int times, double low, double high);

  int series_, buckets_;
  double origin_ = 0, width_ = 0;
  // bucket indices are counted from origin_ in doubles (exact integers): first_ is that of
  // cells_' first bucket, occupied_low_ .. occupied_high_ the buckets holding rows (from first_)
  double first_ = 0, occupied_low_ = 0, occupied_high_ = 0;
  std::vector<Extremes> cells_, scratch_;  // buckets x series; scratch_ for merging
  long long rows_ = 0;
  double x_min_, x_max_;
  std::vector<double> y_min_, y_max_;
};

/// A closed interval of x.
struct XInterval {
  double start = 0, end = 0;
};

/// The intervals of rows where a condition holds (a singular Jacobian, a contact closed), read
/// one row at a time, as [first x, last x] of each run of consecutive rows. At most `capacity`
/// are kept: past it, runs whose gap is under a growing resolution merge (the gap doubles each
/// time), so a condition that flickers faster than that shows as one band and no row where it
/// holds is ever outside an interval.
class IntervalRecorder {
 public:
  explicit IntervalRecorder(int capacity);
  void add(double x, bool holds);
  const std::vector<XInterval>& intervals() const { return intervals_; }
  /// Rows where the condition held.
  long long rows() const { return rows_; }
  /// The gap under which runs have been merged (0 while none was).
  double resolution() const { return resolution_; }

 private:
  void coalesce();

  std::size_t capacity_;
  std::vector<XInterval> intervals_;
  bool open_ = false;  // the last row added held the condition
  long long rows_ = 0;
  double resolution_ = 0;
};

/// The points of a decimated series beyond [lower, upper] (a limit ±inf is never crossed): where
/// rows over a limit are to be marked.
std::vector<PlotPoint> points_beyond(const std::vector<PlotPoint>& points, double lower,
                                     double upper);

}  // namespace eom
