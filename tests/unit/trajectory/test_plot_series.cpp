// What eom plot computes without drawing: panels and units from column names (io/column_units),
// the streaming min/max decimation with doubling buckets, the interval recorder and the points
// beyond limits (trajectory/decimation). Expected values are written out by hand.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include <eom/io/column_units.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/trajectory/decimation.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("column groups and members follow the naming contract", "[plot]") {
  CHECK(column_group("tau.elbow") == "tau");
  CHECK(column_group("tau.root.fx") == "tau");
  CHECK(column_member("tau.root.fx") == "root.fx");
  CHECK(column_group("d3q.elbow") == "d3q");
  CHECK(column_group("tau_gravity.elbow") == "tau_gravity");
  CHECK(column_group("power.total") == "power");
  CHECK(column_group("f.FL_FOOT.fx") == "f.FL_FOOT");
  CHECK(column_member("f.FL_FOOT.fx") == "fx");
  CHECK(column_group("J.vx.elbow") == "J.vx");
  CHECK(column_group("sigma.1") == "sigma");
  CHECK(column_member("sigma.1") == "1");
  CHECK(column_group("tool0.x") == "tool0");
  CHECK(column_group("rank") == "rank");
  CHECK(column_member("rank") == "rank");
}

TEST_CASE("units from column names", "[plot]") {
  CHECK(column_unit("q.elbow") == "rad");
  CHECK(column_unit("v.elbow") == "rad/s");
  CHECK(column_unit("a.elbow") == "rad/s²");
  CHECK(column_unit("jerk.elbow") == "rad/s³");
  CHECK(column_unit("d5q.elbow") == "rad/s⁵");
  CHECK(column_unit("tau.elbow") == "N m");
  CHECK(column_unit("d2tau.elbow") == "N m/s²");
  CHECK(column_unit("tau_gravity.elbow") == "N m");
  CHECK(column_unit("q.root.z") == "m");
  CHECK(column_unit("q.root.qw").empty());
  CHECK(column_unit("v.root.vx") == "m/s");
  CHECK(column_unit("v.root.wz") == "rad/s");
  CHECK(column_unit("tau.root.fy") == "N");
  CHECK(column_unit("tau.root.mz") == "N m");
  CHECK(column_unit("f.FL_FOOT.fz") == "N");
  CHECK(column_unit("f.foot.fn") == "N");
  CHECK(column_unit("f.foot.my") == "N m");
  CHECK(column_unit("wrench.tool0.fx") == "N");
  CHECK(column_unit("cop.foot.x") == "m");
  CHECK(column_unit("tool0.z") == "m");
  CHECK(column_unit("tool0.qx").empty());
  CHECK(column_unit("power.total") == "W");
  CHECK(column_unit("energy.kinetic") == "J");
  CHECK(column_unit("sigma.1").empty());
  CHECK(column_unit("rank").empty());
  CHECK(column_unit("friction.foot").empty());
}

TEST_CASE("a prismatic joint of the model gets linear units", "[plot]") {
  // block.urdf: a block on a prismatic rail
  const Model model = load_urdf(test::kRobotsDir + "/block.urdf");
  REQUIRE(model.joints[1].kind == JointKind::prismatic);
  const std::string joint = model.joint_names[1];
  CHECK(column_unit("tau." + joint, &model) == "N");
  CHECK(column_unit("v." + joint, &model) == "m/s");
  CHECK(column_unit("q." + joint, &model) == "m");
  CHECK(column_unit("tau." + joint) == "N m");  // without the model: revolute assumed
}

TEST_CASE("decimation keeps every extreme of a long series in bounded buckets", "[plot]") {
  constexpr int kBuckets = 100;
  MinMaxDecimator d(2, kBuckets);
  const long n = 1000000;
  std::vector<double> y(2);
  for (long k = 0; k < n; ++k) {
    const double t = k * 1e-3;
    y[0] = std::sin(t);
    y[1] = k == 777777 ? 1e6 : (k == 123456 ? -5.0 : 0.0);  // one spike each way
    d.add(t, y.data());
  }
  CHECK(d.rows() == n);
  CHECK(d.buckets() == kBuckets);
  // the width doubled from the first step (1e-3) until 1000 s fit: 1e-3 * 2^14 = 16.384 s
  CHECK(d.width() == Approx(1e-3 * 16384).epsilon(1e-12));
  const auto spikes = d.points(1);
  CHECK(spikes.size() <= 2 * kBuckets);
  // more than half the buckets hold rows: 999.999 / 16.384 -> 62 buckets, one point each but
  // the two with a spike
  CHECK(spikes.size() >= kBuckets / 2);
  bool high = false, low = false;
  for (const auto& p : spikes) {
    high = high || (p.y == 1e6 && p.x == Approx(777.777));
    low = low || (p.y == -5.0 && p.x == Approx(123.456));
  }
  CHECK(high);
  CHECK(low);
  CHECK(d.y_max(1) == 1e6);
  CHECK(d.y_min(1) == -5);
  CHECK(d.y_max(0) == Approx(1).margin(1e-6));
  const auto sine = d.points(0);
  for (size_t k = 1; k < sine.size(); ++k) CHECK(sine[k].x >= sine[k - 1].x);
}

TEST_CASE("decimation of a short series keeps every row", "[plot]") {
  MinMaxDecimator d(1, 10);
  const double xs[] = {0, 1, 2, 3}, ys[] = {5, -1, kNaN, 2};
  for (int k = 0; k < 4; ++k) d.add(xs[k], &ys[k]);
  const auto p = d.points(0);
  REQUIRE(p.size() == 3);  // the NaN is no value
  CHECK(p[0].x == 0);
  CHECK(p[0].y == 5);
  CHECK(p[1].x == 1);
  CHECK(p[1].y == -1);
  CHECK(p[2].x == 3);
  CHECK(p[2].y == 2);
  CHECK(d.width() == 1);
}

TEST_CASE("decimation grows to the left as well", "[plot]") {
  MinMaxDecimator d(1, 4);
  for (int k = 0; k < 20; ++k) {
    const double x = -k, y = k;
    d.add(x, &y);
  }
  CHECK(d.x_min() == -19);
  CHECK(d.x_max() == 0);
  const auto p = d.points(0);
  REQUIRE(!p.empty());
  CHECK(p.front().x == -19);
  CHECK(p.front().y == 19);
  CHECK(p.back().x == 0);
  CHECK(p.size() <= 8);
}

TEST_CASE("intervals of rows where a condition holds", "[plot]") {
  IntervalRecorder r(10);
  const bool holds[] = {false, true, true, false, true, false, false, true};
  for (int k = 0; k < 8; ++k) r.add(k, holds[k]);
  REQUIRE(r.intervals().size() == 3);
  CHECK(r.intervals()[0].start == 1);
  CHECK(r.intervals()[0].end == 2);
  CHECK(r.intervals()[1].start == 4);
  CHECK(r.intervals()[1].end == 4);
  CHECK(r.intervals()[2].start == 7);
  CHECK(r.rows() == 4);
  CHECK(r.resolution() == 0);
}

TEST_CASE("a flickering condition merges into bands, never losing a row", "[plot]") {
  IntervalRecorder r(8);
  for (int k = 0; k < 1000; ++k) r.add(k, k % 2 == 0);  // every other row
  CHECK(r.intervals().size() <= 8);
  CHECK(r.rows() == 500);
  CHECK(r.intervals().front().start == 0);
  CHECK(r.intervals().back().end == 998);
  for (size_t k = 1; k < r.intervals().size(); ++k) {
    CHECK(r.intervals()[k].start > r.intervals()[k - 1].end);
  }
  CHECK(r.resolution() >= 2);
}

TEST_CASE("points beyond limits", "[plot]") {
  const std::vector<PlotPoint> p = {{0, 1}, {1, 5}, {2, -6}, {3, 2}};
  const auto out = points_beyond(p, -5, 4);
  REQUIRE(out.size() == 2);
  CHECK(out[0].x == 1);
  CHECK(out[1].x == 2);
  CHECK(points_beyond(p, -INFINITY, INFINITY).empty());
}

TEST_CASE("decimating and recording rows allocates nothing", "[plot]" EOM_ALLOCATION_TAG) {
  MinMaxDecimator d(3, 64);
  IntervalRecorder r(16);
  double y[3] = {0, 0, 0};
  const long n = test::allocations_during([&] {
    for (int k = 0; k < 100000; ++k) {  // the width doubles many times, the runs merge
      y[0] = k % 7;
      y[1] = -k;
      y[2] = k % 3 == 0 ? kNaN : 1.0;
      d.add(k * 0.01, y);
      r.add(k * 0.01, k % 5 == 0);
    }
  });
  CHECK(n == 0);
  CHECK(d.rows() == 100000);
  CHECK(r.intervals().size() <= 16);
}
