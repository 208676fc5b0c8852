// Measured joint forces against a model's over the rows of a log: how much of the measurement the
// model misses, per coordinate (eom id --residual, eom check --against).
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/trajectory/row_statistics.hpp"

namespace eom {

/// The residual r = measured - model of a list of coordinates, row by row: its root mean square,
/// its largest magnitude (where, sign kept) and the measured force's root mean square. Memory
/// independent of the row count; allocates nothing after construction.
class TorqueResidualScan {
 public:
  explicit TorqueResidualScan(int coordinates);

  /// One row: residual = measured - model (each `coordinates` entries), tallied.
  void observe(ConstVec measured, ConstVec model, double t, int line, VecRef residual);

  struct Statistics {
    double rms = 0;           // sqrt(mean r^2)
    double measured_rms = 0;  // sqrt(mean measured^2)
    double relative_rms = 0;  // rms / measured_rms: 0 when both are 0, infinite for rms > 0 = 0
    RowTally largest;         // largest |r| (worst: its signed value, line and t)
  };
  /// Coordinate k's statistics over the rows observed (zeros before any).
  Statistics statistics(int k) const;
  long rows() const { return rows_; }

 private:
  std::vector<double> residual_squares_, measured_squares_;
  std::vector<RowTally> largest_;
  long rows_ = 0;
};

}  // namespace eom
