// The intervals of a trajectory near singularities: runs of consecutive rows whose Jacobian is
// rank deficient, or whose measure of conditioning (the smallest singular value, or Yoshikawa's
// manipulability) is below a threshold, each with its worst row and the task-space directions
// lost there (singular.hpp).
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "eom/algorithm/singular.hpp"

namespace eom {

/// The figure an interval scan compares with its threshold.
enum class SingularMeasure {
  sigma,           // the smallest singular value sigma_p
  manipulability,  // sigma_1 ... sigma_p
};

struct SingularScanOptions {
  SingularMeasure measure = SingularMeasure::sigma;
  /// Rows whose measure is below this belong to an interval; NaN: rows below full rank.
  double threshold = std::numeric_limits<double>::quiet_NaN();
  bool has_threshold() const { return !std::isnan(threshold); }
};

/// A run of consecutive rows below the threshold (or rank deficient).
struct SingularInterval {
  double start_t = 0, end_t = 0;
  int start_line = 0, end_line = 0;
  long rows = 0;
  double worst = 0, worst_t = 0;  // the lowest measure, and where
  int worst_line = 0;
  int rank = 0;  // at the worst row
  /// Directions kept from the worst row: its lost ones (lost of them), else (lost = 0) its
  /// weakest in directions[0].
  int lost = 0;
  std::array<DirectionDescription, 6> directions;
};

/// Scans the rows of a trajectory, one SingularityAnalysis per row, for singular intervals.
class SingularIntervalScan {
 public:
  /// full_rank: the number of singular values, min(task rows, nv).
  SingularIntervalScan(const SingularScanOptions& options, int full_rank);

  /// The measure of an analysed row: its smallest singular value (0 when there is none) or its
  /// manipulability.
  double measure(const SingularityAnalysis& analysis) const;
  /// Whether the row belongs to an interval. Such rows need their directions
  /// (SingularityAnalysis::compute) before add().
  bool below(const SingularityAnalysis& analysis) const;
  /// The next row, at time t on line `line`: extends the open interval, opens one, or closes it.
  /// Allocates only when an interval opens.
  void add(double t, int line, const SingularityAnalysis& analysis);

  const std::vector<SingularInterval>& intervals() const { return intervals_; }
  const SingularScanOptions& options() const { return options_; }

  /// "smallest singular value" or "manipulability".
  const char* measure_name() const;
  /// An interval in words: "rank-deficient from t=1 to t=1.2 (lines 3-5, 3 rows): worst smallest
  /// singular value 1e-07 at t=1.1 (line 4), rank 5 of 6; lost: linear motion along world x",
  /// "smallest singular value below 0.01 from ..." with a threshold; "weakest: ..." when the
  /// worst row lost no direction. Numbers with 6 significant digits.
  std::string describe(const SingularInterval& interval, std::string_view frame_name) const;
  /// "lost: A; B" or "weakest: A", the directions of describe().
  static std::string directions_text(const SingularInterval& interval, std::string_view frame_name);

 private:
  SingularScanOptions options_;
  int full_rank_;
  std::vector<SingularInterval> intervals_;
  bool open_ = false;
};

}  // namespace eom
