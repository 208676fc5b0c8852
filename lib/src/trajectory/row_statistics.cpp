#include "eom/trajectory/row_statistics.hpp"

#include <algorithm>
#include <cmath>

namespace eom {

void RowTally::count(double t, int line) {
  if (rows++ == 0) {
    first_t = t;
    first_line = line;
  }
}

void RowTally::add(double value, double t, int line) {
  count(t, line);
  if (value > worst || rows == 1) {
    worst = value;
    worst_t = t;
    worst_line = line;
  }
}

void RowTally::extreme(double value, double t, int line) {
  if (std::abs(value) > std::abs(worst)) {
    worst = value;
    worst_t = t;
    worst_line = line;
  }
}

void LogScaleHistogram::add(double value) {
  const double bin = std::floor(100 * std::log10(std::max(value, 0.1) / 0.1));
  ++bins_[static_cast<size_t>(std::min(bin, double(bins_.size() - 1)))];
  ++count_;
  largest_ = std::max(largest_, value);
}

double LogScaleHistogram::median() const {
  if (count_ == 0) return 0;
  long seen = 0;
  for (size_t b = 0; b < bins_.size(); ++b) {
    seen += bins_[b];
    if (2 * seen >= count_) return 0.1 * std::pow(10.0, (b + 0.5) / 100);
  }
  return 0;
}

}  // namespace eom
