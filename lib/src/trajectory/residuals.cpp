#include "eom/trajectory/residuals.hpp"

#include <cmath>

namespace eom {

TorqueResidualScan::TorqueResidualScan(int coordinates)
    : residual_squares_(coordinates, 0.0),
      measured_squares_(coordinates, 0.0),
      largest_(coordinates) {}

void TorqueResidualScan::observe(ConstVec measured, ConstVec model, double t, int line,
                                 VecRef residual) {
  residual = measured - model;
  for (size_t k = 0; k < residual_squares_.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    residual_squares_[k] += residual[i] * residual[i];
    measured_squares_[k] += measured[i] * measured[i];
    largest_[k].extreme(residual[i], t, line);
  }
  ++rows_;
}

TorqueResidualScan::Statistics TorqueResidualScan::statistics(int k) const {
  Statistics s;
  s.largest = largest_[k];
  if (rows_ == 0) return s;
  s.rms = std::sqrt(residual_squares_[k] / rows_);
  s.measured_rms = std::sqrt(measured_squares_[k] / rows_);
  s.relative_rms = s.rms == 0 ? 0 : s.measured_rms == 0 ? INFINITY : s.rms / s.measured_rms;
  return s;
}

}  // namespace eom
