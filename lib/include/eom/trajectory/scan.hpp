// Tallies kept while scanning the rows of a table: how often something happened, where first,
// and where a quantity was worst.
#pragma once

#include <vector>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// One quantity's record over the rows of a table: the rows an event happened on (counted, the
/// first remembered) and the row where the quantity was largest in magnitude, its sign kept.
/// Rows are named by their time t and their line in the input.
struct RowRecord {
  long rows = 0;
  double first_t = 0;
  int first_line = 0;
  double worst = 0, worst_t = 0;  // worst stays 0, at line 0, until a value beats it
  int worst_line = 0;

  /// The event happened on this row.
  void count(double t, int line);
  /// value on this row: kept when its magnitude beats the worst one's (a NaN never does).
  void extreme(double value, double t, int line);
};

/// Joint forces over the model's effort limits, per velocity coordinate k: the rows where
/// |tau_k| > effort_limit[k] and the largest such tau_k. An absent (infinite) limit is never
/// exceeded. Allocates nothing after construction.
class EffortLimitScan {
 public:
  explicit EffortLimitScan(const Model& model);
  void observe(ConstVec tau, double t, int line);
  /// (nv): the tally of coordinate k
  const std::vector<RowRecord>& excesses() const { return excesses_; }
  bool exceeded() const;

 private:
  const Model& model_;
  std::vector<RowRecord> excesses_;
};

}  // namespace eom
