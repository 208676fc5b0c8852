#include "eom/trajectory/scan.hpp"

#include <algorithm>
#include <cmath>

namespace eom {

EffortLimitScan::EffortLimitScan(const Model& model) : model_(model), excesses_(model.nv) {}

void EffortLimitScan::observe(ConstVec tau, double t, int line) {
  for (int k = 0; k < model_.nv; ++k) {
    if (!(std::abs(tau[k]) > model_.effort_limit[k])) continue;
    excesses_[k].count(t, line);
    excesses_[k].extreme(tau[k], t, line);
  }
}

bool EffortLimitScan::exceeded() const {
  return std::any_of(excesses_.begin(), excesses_.end(),
                     [](const RowTally& e) { return e.rows > 0; });
}

}  // namespace eom
