#include "eom/trajectory/singular_intervals.hpp"

#include <algorithm>
#include <sstream>

#include "eom/core/number_text.hpp"

namespace eom {

SingularIntervalScan::SingularIntervalScan(const SingularScanOptions& options, int full_rank)
    : options_(options), full_rank_(full_rank) {}

double SingularIntervalScan::measure(const SingularityAnalysis& analysis) const {
  if (options_.measure == SingularMeasure::manipulability) return analysis.manipulability();
  return full_rank_ > 0 ? analysis.singular_values()[full_rank_ - 1] : 0;
}

bool SingularIntervalScan::below(const SingularityAnalysis& analysis) const {
  return options_.has_threshold() ? measure(analysis) < options_.threshold
                                  : analysis.rank() < full_rank_;
}

void SingularIntervalScan::add(double t, int line, const SingularityAnalysis& analysis) {
  if (!below(analysis)) {
    open_ = false;
    return;
  }
  const double value = measure(analysis);
  if (!open_) {
    open_ = true;
    intervals_.emplace_back();
    SingularInterval& fresh = intervals_.back();
    fresh.start_t = t;
    fresh.start_line = line;
    fresh.worst = std::numeric_limits<double>::infinity();
  }
  SingularInterval& in = intervals_.back();
  in.end_t = t;
  in.end_line = line;
  ++in.rows;
  if (!(value < in.worst)) return;
  in.worst = value;
  in.worst_t = t;
  in.worst_line = line;
  in.rank = analysis.rank();
  in.lost = analysis.lost_count();
  for (int k = 0; k < in.lost; ++k) in.directions[k] = analysis.lost_description(k);
  if (in.lost == 0) in.directions[0] = analysis.weakest_description();
}

const char* SingularIntervalScan::measure_name() const {
  return options_.measure == SingularMeasure::manipulability ? "manipulability"
                                                             : "smallest singular value";
}

std::string SingularIntervalScan::directions_text(const SingularInterval& in,
                                                  std::string_view frame_name) {
  std::string text = in.lost > 0 ? "lost: " : "weakest: ";
  for (int k = 0; k < std::max(in.lost, 1); ++k) {
    text += (k ? "; " : "") + to_string(in.directions[k], frame_name);
  }
  return text;
}

std::string SingularIntervalScan::describe(const SingularInterval& in,
                                           std::string_view frame_name) const {
  std::ostringstream text;
  if (options_.has_threshold()) {
    text << measure_name() << " below " << number_text(options_.threshold);
  } else {
    text << "rank-deficient";
  }
  text << " from t=" << number_text(in.start_t) << " to t=" << number_text(in.end_t) << " (lines "
       << in.start_line << "-" << in.end_line << ", " << in.rows
       << (in.rows == 1 ? " row" : " rows") << "): worst " << measure_name() << ' '
       << number_text(in.worst) << " at t=" << number_text(in.worst_t) << " (line " << in.worst_line
       << "), rank " << in.rank << " of " << full_rank_ << "; " << directions_text(in, frame_name);
  return text.str();
}

}  // namespace eom
