// Tallies kept while scanning the rows of a table: how often something happened, where first,
// and where a quantity was worst.
#pragma once

#include <vector>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"
#include "eom/trajectory/row_statistics.hpp"

namespace eom {

/// Joint forces over the model's effort limits, per velocity coordinate k: the rows where
/// |tau_k| > effort_limit[k] and the largest such tau_k. An absent (infinite) limit is never
/// exceeded. Allocates nothing after construction.
class EffortLimitScan {
 public:
  explicit EffortLimitScan(const Model& model);
  void observe(ConstVec tau, double t, int line);
  /// (nv): the tally of coordinate k
  const std::vector<RowTally>& excesses() const { return excesses_; }
  bool exceeded() const;

 private:
  const Model& model_;
  std::vector<RowTally> excesses_;
};

}  // namespace eom
