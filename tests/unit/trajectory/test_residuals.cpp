// TorqueResidualScan: measured minus model torques, tallied over rows.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/trajectory/residuals.hpp>

using namespace eom;

TEST_CASE("TorqueResidualScan: RMS, measured RMS, relative RMS and the largest residual by hand",
          "[residuals]") {
  TorqueResidualScan scan(2);
  Eigen::Vector2d residual;
  // rows (measured, model): coordinate 0 misses 3, then -4; coordinate 1 matches exactly
  scan.observe(Eigen::Vector2d(6, 0), Eigen::Vector2d(3, 0), 0.5, 2, residual);
  CHECK(residual == Eigen::Vector2d(3, 0));
  scan.observe(Eigen::Vector2d(-8, 2), Eigen::Vector2d(-4, 2), 1.0, 3, residual);
  CHECK(scan.rows() == 2);
  const TorqueResidualScan::Statistics s0 = scan.statistics(0);
  CHECK(s0.rms == Approx(std::sqrt((9.0 + 16.0) / 2)).epsilon(1e-15));
  CHECK(s0.measured_rms == Approx(std::sqrt((36.0 + 64.0) / 2)).epsilon(1e-15));
  CHECK(s0.relative_rms == Approx(0.5).epsilon(1e-15));  // sqrt(12.5) / sqrt(50)
  CHECK(s0.largest.worst == -4);
  CHECK(s0.largest.worst_t == 1.0);
  CHECK(s0.largest.worst_line == 3);
  const TorqueResidualScan::Statistics s1 = scan.statistics(1);
  CHECK(s1.rms == 0);
  CHECK(s1.relative_rms == 0);
}

TEST_CASE("TorqueResidualScan: a residual of a torque measured as zero is infinitely relative",
          "[residuals]") {
  TorqueResidualScan scan(1);
  Eigen::VectorXd residual(1);
  CHECK(scan.statistics(0).rms == 0);  // before any row
  scan.observe(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 0.25), 0, 2, residual);
  CHECK(std::isinf(scan.statistics(0).relative_rms));
}
