#include "eom/trajectory/decimation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"

namespace eom {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

MinMaxDecimator::MinMaxDecimator(int series, int buckets)
    : series_(series),
      buckets_(buckets),
      cells_(static_cast<size_t>(buckets) * series, Extremes{kNaN, kNaN, kNaN, kNaN}),
      scratch_(cells_.size()),
      x_min_(kNaN),
      x_max_(kNaN),
      y_min_(series, kNaN),
      y_max_(series, kNaN) {
  if (buckets < 2) throw InputError("a decimation needs at least 2 buckets");
}

double MinMaxDecimator::index_of(double x) const {
  return width_ == 0 ? 0 : std::floor((x - origin_) / width_);
}

void MinMaxDecimator::widen(int times, double low, double high) {
  const double factor = std::ldexp(1.0, times);
  const double new_low = std::floor(low / factor), new_high = std::floor(high / factor);
  // room on the side the table grows towards: a new x left of the buckets puts the occupied
  // ones at the right end, anything else at the left end
  const double new_first = low < first_ ? new_high - (buckets_ - 1) : new_low;
  std::fill(scratch_.begin(), scratch_.end(), Extremes{kNaN, kNaN, kNaN, kNaN});
  for (int b = 0; b < buckets_; ++b) {
    const int to = static_cast<int>(std::floor((first_ + b) / factor) - new_first);
    for (int s = 0; s < series_; ++s) {
      const Extremes& from = at(b, s);
      if (std::isnan(from.min_y)) continue;
      Extremes& into = scratch_[static_cast<size_t>(to) * series_ + s];
      // buckets merge in increasing x: on a tie the earlier x stays
      if (std::isnan(into.min_y) || from.min_y < into.min_y) {
        into.min_x = from.min_x;
        into.min_y = from.min_y;
      }
      if (std::isnan(into.max_y) || from.max_y > into.max_y) {
        into.max_x = from.max_x;
        into.max_y = from.max_y;
      }
    }
  }
  cells_.swap(scratch_);
  width_ *= factor;
  first_ = new_first;
}

void MinMaxDecimator::add(double x, const double* y) {
  if (rows_ == 0) {
    origin_ = x;
    x_min_ = x_max_ = x;
  } else if (width_ == 0 && x != origin_) {
    width_ = std::fabs(x - origin_);  // the first step
  }
  double index = index_of(x);
  if (!std::isfinite(index)) {
    throw InputError("x spans more than the largest double: " + fixed_text(x, 6));
  }
  if (index < first_ || index >= first_ + buckets_) {
    // the occupied buckets and this x must fit: double the width until they do
    const double low = std::min(first_ + occupied_low_, index);
    const double high = std::max(first_ + occupied_high_, index);
    int times = 0;
    while (std::floor(high / std::ldexp(1.0, times)) - std::floor(low / std::ldexp(1.0, times)) >=
           buckets_) {
      ++times;
    }
    widen(times, low, high);
    occupied_low_ = std::floor(low / std::ldexp(1.0, times)) - first_;
    occupied_high_ = std::floor(high / std::ldexp(1.0, times)) - first_;
    index = index_of(x);
  }
  const int b = static_cast<int>(index - first_);
  occupied_low_ = rows_ == 0 ? b : std::min<double>(occupied_low_, b);
  occupied_high_ = rows_ == 0 ? b : std::max<double>(occupied_high_, b);
  for (int s = 0; s < series_; ++s) {
    const double v = y[s];
    if (std::isnan(v)) continue;
    Extremes& cell = at(b, s);
    if (std::isnan(cell.min_y) || v < cell.min_y) {
      cell.min_x = x;
      cell.min_y = v;
    }
    if (std::isnan(cell.max_y) || v > cell.max_y) {
      cell.max_x = x;
      cell.max_y = v;
    }
    if (std::isnan(y_min_[s]) || v < y_min_[s]) y_min_[s] = v;
    if (std::isnan(y_max_[s]) || v > y_max_[s]) y_max_[s] = v;
  }
  x_min_ = std::min(x_min_, x);
  x_max_ = std::max(x_max_, x);
  ++rows_;
}

std::vector<PlotPoint> MinMaxDecimator::points(int s) const {
  std::vector<PlotPoint> out;
  for (int b = 0; b < buckets_; ++b) {
    const Extremes& cell = at(b, s);
    if (std::isnan(cell.min_y)) continue;
    const PlotPoint low{cell.min_x, cell.min_y}, high{cell.max_x, cell.max_y};
    if (high.x < low.x) {
      out.push_back(high);
      out.push_back(low);
    } else {
      out.push_back(low);
      if (high.x != low.x || high.y != low.y) out.push_back(high);
    }
  }
  return out;
}

IntervalRecorder::IntervalRecorder(int capacity) : capacity_(std::max(capacity, 2)) {
  intervals_.reserve(capacity_ + 1);
}

void IntervalRecorder::add(double x, bool holds) {
  if (!holds) {
    open_ = false;
    return;
  }
  ++rows_;
  if (open_ || (!intervals_.empty() && resolution_ > 0 &&
                std::fabs(x - intervals_.back().end) <= resolution_)) {
    intervals_.back().end = x;
  } else {
    intervals_.push_back({x, x});
    if (intervals_.size() > capacity_) coalesce();
  }
  open_ = true;
}

void IntervalRecorder::coalesce() {
  while (intervals_.size() > capacity_ / 2) {
    double smallest = std::numeric_limits<double>::infinity();
    for (size_t k = 1; k < intervals_.size(); ++k) {
      smallest = std::min(smallest, std::fabs(intervals_[k].start - intervals_[k - 1].end));
    }
    resolution_ = std::max(2 * resolution_, smallest);
    size_t kept = 0;
    for (size_t k = 1; k < intervals_.size(); ++k) {
      if (std::fabs(intervals_[k].start - intervals_[kept].end) <= resolution_) {
        intervals_[kept].end = intervals_[k].end;
      } else {
        intervals_[++kept] = intervals_[k];
      }
    }
    intervals_.resize(kept + 1);
  }
}

std::vector<PlotPoint> points_beyond(const std::vector<PlotPoint>& points, double lower,
                                     double upper) {
  std::vector<PlotPoint> out;
  for (const PlotPoint& p : points) {
    if (p.y > upper || p.y < lower) out.push_back(p);
  }
  return out;
}

}  // namespace eom
