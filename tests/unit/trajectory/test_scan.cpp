// RowTally, EffortLimitScan and TimeDerivativeCheck: the tallies kept over the rows of a table.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/trajectory/scan.hpp>
#include <eom/trajectory/verify.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;

TEST_CASE("RowTally counts events from the first and keeps the largest magnitude with its sign",
          "[scan]") {
  RowTally tally;
  CHECK(tally.rows == 0);
  tally.count(0.5, 7);
  tally.count(0.75, 8);
  CHECK(tally.rows == 2);
  CHECK(tally.first_t == 0.5);
  CHECK(tally.first_line == 7);
  tally.extreme(2.0, 0.1, 3);
  tally.extreme(-3.0, 0.2, 4);
  tally.extreme(3.0, 0.3, 5);  // a tie keeps the first
  tally.extreme(std::numeric_limits<double>::quiet_NaN(), 0.4, 6);
  CHECK(tally.worst == -3.0);
  CHECK(tally.worst_t == 0.2);
  CHECK(tally.worst_line == 4);
  RowTally zero;
  zero.extreme(0.0, 1.0, 2);  // nothing beats 0 but a nonzero value
  CHECK(zero.worst_line == 0);
}

TEST_CASE("EffortLimitScan tallies the rows over the effort limits per coordinate", "[scan]") {
  // robots/planar_2r.urdf: effort 100 on both joints
  const Model model = load_urdf(test::kRobotsDir + "/planar_2r.urdf");
  EffortLimitScan scan(model);
  scan.observe(Eigen::Vector2d(99, -100), 0.0, 2);  // at the limit is within it
  CHECK_FALSE(scan.exceeded());
  scan.observe(Eigen::Vector2d(150, 20), 0.1, 3);
  scan.observe(Eigen::Vector2d(-200, 50), 0.2, 4);
  scan.observe(Eigen::Vector2d(120, 0), 0.3, 5);
  CHECK(scan.exceeded());
  const RowTally& first = scan.excesses()[0];
  CHECK(first.rows == 3);
  CHECK(first.first_t == 0.1);
  CHECK(first.first_line == 3);
  CHECK(first.worst == -200);
  CHECK(first.worst_t == 0.2);
  CHECK(first.worst_line == 4);
  CHECK(scan.excesses()[1].rows == 0);
}

TEST_CASE("TimeDerivativeCheck: a pose held still under a load quadratic in time",
          "[scan]" EOM_ALLOCATION_TAG) {
  // q fixed, v = a = 0: tau = g(q) + external(t) with external = t^2 (1, -2), whose derivative
  // 2t (1, -2) the three-point rule reproduces exactly on any three times; M is constant and
  // C = 0, so dM/dt = 0 too
  const Model model = load_urdf(test::kRobotsDir + "/planar_2r.urdf");
  Data data(model);
  TimeDerivativeData series(model, 1);
  const Eigen::Vector2d q(0.3, -0.5), load(1, -2);
  const Eigen::MatrixXd dq = Eigen::MatrixXd::Zero(2, 3);
  const Eigen::VectorXd g = gravity_torque(model, data, q);
  const double times[] = {0.0, 0.1, 0.35, 0.4};
  auto run = [&](TimeDerivativeCheck& check, double d1tau_error) {
    for (int r = 0; r < 4; ++r) {
      const double t = times[r];
      const Eigen::Vector2d external = t * t * load;
      Eigen::Matrix<double, 2, 2> tau;
      tau.col(0) = g + external;
      tau.col(1) = 2 * t * load;
      if (r == 2) tau(1, 1) += d1tau_error;
      check.observe(model, series, false, t, r + 2, q, dq, tau, external);
    }
  };
  TimeDerivativeCheck consistent(model, 1);
  run(consistent, 0);
  CHECK(consistent.rows() == 4);
  CHECK(consistent.not_positive_definite().rows == 0);
  for (int k = 0; k <= 2; ++k) {
    CHECK(consistent.result(k, 1e-9).checked);
    CHECK(consistent.residual(k).worst <= 1e-12);
  }
  // dM/dt is 0 throughout, so only an exact 0 would pass relative to it
  CHECK(consistent.result(0, 1e-9).pass);
  CHECK(consistent.result(1, 1e-9).pass);
  // an error of 0.5 in d1tau.joint2 at the third row (line 4, t = 0.35), which turns its
  // 2 t (1, -2) = (0.7, -1.4) into (0.7, -0.9): the largest d1tau of the two central rows is 0.9
  TimeDerivativeCheck wrong(model, 1);
  run(wrong, 0.5);
  const TimeDerivativeCheck::Result r = wrong.result(1, 1e-3);
  CHECK_FALSE(r.pass);
  CHECK(wrong.residual(1).worst == Approx(0.5));
  CHECK(wrong.residual(1).worst_line == 4);
  CHECK(wrong.residual(1).worst_t == 0.35);
  CHECK(r.relative == Approx(0.5 / 0.9));
  CHECK(wrong.result(0, 1e-3).pass);
  // the derivatives need three rows
  TimeDerivativeCheck short_table(model, 1);
  const Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(2, 2);
  const long n = test::allocations_during([&] {
    for (int r = 0; r < 2; ++r) {
      short_table.observe(model, series, false, times[r], r + 2, q, dq, zero, g);
    }
  });
  CHECK(n == 0);
  CHECK(short_table.result(0, 1e-3).checked);
  CHECK_FALSE(short_table.result(1, 1e-3).checked);
  CHECK_FALSE(short_table.result(2, 1e-3).checked);
}
