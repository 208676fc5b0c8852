// Signals sampled over time (TimeSeries) and reference trajectories interpolated from them
// (ReferenceTrajectory): hold and linear values against hand-computed ones, the ends held,
// derived velocities and accelerations exact for a quadratic, quaternions kept unit, no
// allocation per sample, and streamed series that read rows as needed and hold a few.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/trajectory/interpolation.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// rows (t, x, y): (0, 1, 10), (1, 3, 10), (3, -1, 20)
TimeSeries three_rows() {
  const double rows[3][3] = {{0, 1, 10}, {1, 3, 10}, {3, -1, 20}};
  TimeSeries series(3);
  for (const auto& row : rows) series.append(row[0], row);
  return series;
}

}  // namespace

TEST_CASE("TimeSeries: hold keeps the earlier row, linear interpolates", "[interpolation]") {
  TimeSeries series = three_rows();
  REQUIRE(series.rows() == 3);
  REQUIRE(series.width() == 3);
  Eigen::VectorXd out(2);
  const std::vector<int> columns{1, 2};

  series.sample(0.5, Interpolation::hold, columns, out);
  CHECK(out[0] == 1);
  CHECK(out[1] == 10);
  series.sample(2, Interpolation::linear, columns, out);  // halfway from row 1 to row 2
  CHECK(out[0] == Approx(1).margin(1e-15));
  CHECK(out[1] == Approx(15));
  series.sample(1, Interpolation::linear, columns, out);  // at a sample: that row exactly
  CHECK(out[0] == 3);
  CHECK(out[1] == 10);

  int k;
  double s;
  series.locate(2.5, Interpolation::linear, k, s);
  CHECK(k == 1);
  CHECK(s == Approx(0.75));
  series.locate(2.5, Interpolation::hold, k, s);
  CHECK(k == 1);
  CHECK(s == 0);
}

TEST_CASE("TimeSeries: the first and last rows hold outside the time range", "[interpolation]") {
  TimeSeries series = three_rows();
  Eigen::VectorXd all(3);
  series.sample(-5, Interpolation::linear, all);
  CHECK(all[1] == 1);
  CHECK(all[2] == 10);
  series.sample(7, Interpolation::linear, all);
  CHECK(all[1] == -1);
  CHECK(all[2] == 20);
  CHECK(series.covers(0, 3));
  CHECK(series.covers(0.5, 2));
  CHECK_FALSE(series.covers(-0.1, 2));
  CHECK_FALSE(series.covers(0, 3.5));
}

TEST_CASE("TimeSeries: times must increase strictly", "[interpolation]") {
  TimeSeries series(1);
  const double x = 0;
  series.append(0.2, &x);
  CHECK_THROWS_WITH(series.append(0.1, &x), "t must increase strictly: 0.1 after 0.2");
  CHECK_THROWS_AS(series.append(0.2, &x), InputError);
  CHECK(series.rows() == 1);
}

TEST_CASE("TimeSeries: sampling allocates nothing", "[interpolation]" EOM_ALLOCATION_TAG) {
  TimeSeries series = three_rows();
  const std::vector<int> columns{2, 1};
  Eigen::VectorXd out(2), all(3);
  const long n = allocations_during([&] {
    for (double t = -1; t < 4; t += 0.25) {
      series.sample(t, Interpolation::linear, columns, out);
      series.sample(t, Interpolation::hold, all);
    }
  });
  CHECK(n == 0);
}

TEST_CASE("ReferenceTrajectory: v and a of a quadratic derived exactly", "[interpolation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");  // two revolute joints
  // q1 = t^2, q2 = 1 - t at t = 0, 0.1, 0.3, 0.6 (uneven steps): v = (2t, -1), a = (2, 0)
  TimeSeries samples(3);
  for (double t : {0.0, 0.1, 0.3, 0.6}) {
    const double row[3] = {t, t * t, 1 - t};
    samples.append(t, row);
  }
  ReferenceTrajectory reference(model, samples, {1, 2}, {}, {}, Interpolation::linear);
  Eigen::VectorXd q(2), v(2), a(2);
  for (double t : {0.0, 0.3, 0.6}) {
    reference(t, q, v, a);
    CHECK(q[0] == Approx(t * t).margin(1e-15));
    CHECK(v[0] == Approx(2 * t).margin(1e-12));
    CHECK(v[1] == Approx(-1));
    CHECK(a[0] == Approx(2));
    CHECK(a[1] == Approx(0).margin(1e-12));
  }
  // halfway between the samples at 0.1 and 0.3: q1 from 0.01 to 0.09, v1 from 0.2 to 0.6
  reference(0.2, q, v, a);
  CHECK(q[0] == Approx(0.05));
  CHECK(q[1] == Approx(0.8));
  CHECK(v[0] == Approx(0.4));
  CHECK(a[0] == Approx(2));
}

TEST_CASE("ReferenceTrajectory: given v and a are used, hold keeps the earlier row",
          "[interpolation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  TimeSeries samples(7);  // t, q1, q2, v1, v2, a1, a2
  const double rows[2][7] = {{0, 0, 0, 1, 2, 3, 4}, {1, 1, 2, 5, 6, 7, 8}};
  for (const auto& row : rows) samples.append(row[0], row);
  ReferenceTrajectory hold(model, samples, {1, 2}, {3, 4}, {5, 6}, Interpolation::hold);
  Eigen::VectorXd q(2), v(2), a(2);
  hold(0.5, q, v, a);
  CHECK(q == Eigen::Vector2d(0, 0));
  CHECK(v == Eigen::Vector2d(1, 2));
  CHECK(a == Eigen::Vector2d(3, 4));
  ReferenceTrajectory linear(model, samples, {1, 2}, {3, 4}, {5, 6}, Interpolation::linear);
  linear(0.25, q, v, a);
  CHECK(q[0] == Approx(0.25));
  CHECK(q[1] == Approx(0.5));
  CHECK(v[0] == Approx(2));
  CHECK(a[1] == Approx(5));
}

TEST_CASE("ReferenceTrajectory: deriving needs three rows", "[interpolation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  TimeSeries samples(3);
  const double row[2][3] = {{0, 0, 0}, {1, 1, 1}};
  samples.append(0, row[0]);
  samples.append(1, row[1]);
  CHECK_THROWS_AS(ReferenceTrajectory(model, samples, {1, 2}, {}, {}, Interpolation::linear),
                  InputError);
}

TEST_CASE("ReferenceTrajectory: a floating base moves on SE(3), its quaternion unit",
          "[interpolation]") {
  LoadOptions options;
  options.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf", options);
  // the base turns by pi/2 about z between t = 0 and t = 1; halfway it has turned by pi/4
  Eigen::VectorXd q0 = neutral(model), q1 = neutral(model);
  q1.segment<4>(3) << 0, 0, std::sin(M_PI / 4), std::cos(M_PI / 4);
  TimeSeries samples(1 + model.nq);
  for (int r = 0; r < 3; ++r) {
    Eigen::VectorXd row(1 + model.nq);
    row << r, (r == 0 ? q0 : q1);
    samples.append(r, row.data());
  }
  std::vector<int> q_columns(model.nq);
  for (int i = 0; i < model.nq; ++i) q_columns[i] = i + 1;
  ReferenceTrajectory reference(model, samples, q_columns, {}, {}, Interpolation::linear);
  Eigen::VectorXd q(model.nq), v(model.nv), a(model.nv);
  reference(0.5, q, v, a);
  CHECK(q.segment<4>(3).norm() == Approx(1).margin(1e-15));
  CHECK(q[5] == Approx(std::sin(M_PI / 8)));
  CHECK(q[6] == Approx(std::cos(M_PI / 8)));
}

TEST_CASE("ReferenceTrajectory: evaluating allocates nothing",
          "[interpolation]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  TimeSeries samples(3);
  for (double t : {0.0, 0.5, 1.0}) {
    const double row[3] = {t, t, -t};
    samples.append(t, row);
  }
  ReferenceTrajectory reference(model, samples, {1, 2}, {}, {}, Interpolation::linear);
  Eigen::VectorXd q(2), v(2), a(2);
  const long n = allocations_during([&] {
    for (double t = -0.5; t < 1.5; t += 0.1) reference(t, q, v, a);
  });
  CHECK(n == 0);
}

namespace {

// a streamed series of rows (t, 2 t, -t) at t = 0, 0.1, .. (rows - 1) / 10, counting the rows
// read
TimeSeries streamed_ramp(int rows, int& read) {
  return TimeSeries(3, [rows, &read, r = 0](double& t, double* values) mutable {
    if (r == rows) return false;
    t = r / 10.0;
    values[0] = t;
    values[1] = 2 * t;
    values[2] = -t;
    ++r;
    ++read;
    return true;
  });
}

}  // namespace

TEST_CASE("TimeSeries: a streamed series reads the rows the times need and drops the released",
          "[interpolation]") {
  int read = 0;
  TimeSeries series = streamed_ramp(1000, read);
  CHECK(read == 0);
  Eigen::VectorXd out(2);
  const std::vector<int> columns{1, 2};
  // linear at t = 0.25 needs the rows at 0.2 and 0.3; the row after tells which is before
  series.sample(0.25, Interpolation::linear, columns, out);
  CHECK(read == 4);
  CHECK(out[0] == Approx(0.5));
  CHECK(out[1] == Approx(-0.25));
  CHECK_FALSE(series.complete());
  series.release(0.25);  // the row at 0.2 and the one after stay
  CHECK(series.first() == 2);
  CHECK(series.rows() == 4);
  // a run that walks the whole table, releasing as it goes, holds a few rows at any time
  int most_held = 0;
  for (int k = 5; k <= 2000; ++k) {
    const double t = k * 0.05;
    series.sample(t, Interpolation::linear, columns, out);
    CHECK(out[0] == Approx(2 * std::min(t, 99.9)));
    series.release(t);
    most_held = std::max(most_held, series.rows() - series.first());
  }
  CHECK(series.complete());
  CHECK(read == 1000);
  CHECK(most_held <= 3);
  // past the end the last row holds; before the rows released is a caller's mistake
  series.sample(200, Interpolation::hold, columns, out);
  CHECK(out[0] == Approx(199.8));
  CHECK_THROWS_AS(series.sample(1, Interpolation::hold, columns, out), std::logic_error);
}

TEST_CASE("TimeSeries: covers and reach read as far as they need", "[interpolation]") {
  int read = 0;
  TimeSeries series = streamed_ramp(11, read);  // t = 0 .. 1
  CHECK(series.covers(0, 0.35));
  CHECK(read == 5);  // up to the row at 0.4
  CHECK_FALSE(series.covers(0, 1.5));
  CHECK(series.complete());
  CHECK(series.reach(10));
  CHECK_FALSE(series.reach(11));
}

TEST_CASE("ReferenceTrajectory: streamed, the same values as held whole, in a window of rows",
          "[interpolation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  int read = 0, unused = 0;
  TimeSeries whole = streamed_ramp(200, unused);
  REQUIRE_FALSE(whole.reach(200));  // every row read: held whole
  ReferenceTrajectory held(model, std::move(whole), {1, 2}, {}, {}, Interpolation::linear);
  ReferenceTrajectory streamed(model, streamed_ramp(200, read), {1, 2}, {}, {},
                               Interpolation::linear);
  CHECK(read == 3);  // the three rows the differences need, read to refuse fewer
  Eigen::VectorXd q(2), v(2), a(2), q_held(2), v_held(2), a_held(2);
  int most_held = 0;
  for (int k = 0; k <= 2100; ++k) {
    const double t = k * 0.01;
    streamed(t, q, v, a);
    held(t, q_held, v_held, a_held);
    // the same operations on the same rows: the same bits
    CHECK(q == q_held);
    CHECK(v == v_held);
    CHECK(a == a_held);
    streamed.release(t);
    most_held = std::max(most_held, streamed.samples().rows() - streamed.samples().first());
  }
  CHECK(v[0] == Approx(2));  // q1 = 2 t: v1 = 2 to the last row
  CHECK(most_held <= 5);     // two rows back for the differences, two around t, one ahead
}

TEST_CASE("ReferenceTrajectory: a streamed reference refuses fewer than three rows to derive",
          "[interpolation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  int read = 0;
  CHECK_THROWS_AS(
      ReferenceTrajectory(model, streamed_ramp(2, read), {1, 2}, {}, {}, Interpolation::linear),
      InputError);
}
