// Singular intervals over a hand-built sequence of singular values, and the row statistics
// (RowTally, LogScaleHistogram) that per-row subcommands keep.

#include <catch2/catch.hpp>

#include <vector>

#include <eom/trajectory/row_statistics.hpp>
#include <eom/trajectory/singular_intervals.hpp>

using namespace eom;

namespace {

// A two-row task (vx, vy) over two coordinates whose Jacobian has the singular values s1 along x
// and s2 along y.
struct Rows {
  SingularityAnalysis analysis{2, TaskRows::named({"vx", "vy"})};

  const SingularityAnalysis& at(double s1, double s2) {
    Eigen::Matrix<double, 6, Eigen::Dynamic> J = Eigen::Matrix<double, 6, 2>::Zero();
    J(0, 0) = s1;
    J(1, 1) = s2;
    analysis.compute(J, ReferenceFrame::local_world_aligned, SE3());
    return analysis;
  }
};

}  // namespace

TEST_CASE("rank-deficient intervals of a sequence", "[singular_intervals]") {
  SingularIntervalScan scan(SingularScanOptions{}, 2);
  Rows rows;
  const std::vector<double> s2 = {1, 0, 0, 1, 0};  // lines 2..6, t = 0, 0.1, ...
  for (size_t k = 0; k < s2.size(); ++k) {
    const SingularityAnalysis& a = rows.at(1, s2[k]);
    CHECK(scan.below(a) == (s2[k] == 0));
    scan.add(0.1 * k, static_cast<int>(k) + 2, a);
  }
  const std::vector<SingularInterval>& in = scan.intervals();
  REQUIRE(in.size() == 2);
  CHECK(in[0].start_t == 0.1);
  CHECK(in[0].end_t == 0.2);
  CHECK(in[0].start_line == 3);
  CHECK(in[0].end_line == 4);
  CHECK(in[0].rows == 2);
  CHECK(in[0].worst == 0);
  CHECK(in[0].worst_line == 3);  // the first of equal values
  CHECK(in[0].rank == 1);
  CHECK(in[0].lost == 1);
  CHECK(to_string(in[0].directions[0], "ee") == "linear motion along world y");
  CHECK(in[1].start_line == 6);
  CHECK(in[1].end_line == 6);
  CHECK(in[1].rows == 1);
  CHECK(scan.describe(in[1], "ee") ==
        "rank-deficient from t=0.4 to t=0.4 (lines 6-6, 1 row): worst smallest singular value 0 "
        "at t=0.4 (line 6), rank 1 of 2; lost: linear motion along world y");
}

TEST_CASE("intervals below a threshold keep the weakest direction", "[singular_intervals]") {
  SingularScanOptions options;
  options.threshold = 0.05;
  SingularIntervalScan scan(options, 2);
  Rows rows;
  const std::vector<double> s2 = {0.1, 0.04, 0.01, 0.03, 0.2};
  for (size_t k = 0; k < s2.size(); ++k)
    scan.add(0.1 * k, static_cast<int>(k) + 2, rows.at(1, s2[k]));
  REQUIRE(scan.intervals().size() == 1);
  const SingularInterval& in = scan.intervals()[0];
  CHECK(in.rows == 3);
  CHECK(in.worst == Approx(0.01));
  CHECK(in.worst_t == 0.2);
  CHECK(in.rank == 2);
  CHECK(in.lost == 0);
  CHECK(scan.describe(in, "ee") ==
        "smallest singular value below 0.05 from t=0.1 to t=0.3 (lines 3-5, 3 rows): worst "
        "smallest singular value 0.01 at t=0.2 (line 4), rank 2 of 2; weakest: linear motion "
        "along world y");
}

TEST_CASE("intervals by manipulability", "[singular_intervals]") {
  SingularScanOptions options;
  options.measure = SingularMeasure::manipulability;
  options.threshold = 0.5;
  SingularIntervalScan scan(options, 2);
  Rows rows;
  // manipulability s1 s2: 1, 0.4, 0.9, 0.3
  const std::vector<std::pair<double, double>> s = {{1, 1}, {2, 0.2}, {3, 0.3}, {0.5, 0.6}};
  for (size_t k = 0; k < s.size(); ++k) {
    const SingularityAnalysis& a = rows.at(s[k].first, s[k].second);
    CHECK(scan.measure(a) == Approx(s[k].first * s[k].second));
    scan.add(k, static_cast<int>(k) + 2, a);
  }
  REQUIRE(scan.intervals().size() == 2);
  CHECK(scan.intervals()[0].worst == Approx(0.4));
  CHECK(scan.intervals()[1].worst == Approx(0.3));
  CHECK(std::string(scan.measure_name()) == "manipulability");
}

TEST_CASE("a row tally counts, remembers the first row and the worst", "[row_statistics]") {
  RowTally tally;
  tally.add(0.2, 0.1, 3);
  tally.add(0.7, 0.2, 5);
  tally.add(0.7, 0.4, 9);
  CHECK(tally.rows == 3);
  CHECK(tally.first_line == 3);
  CHECK(tally.first_t == 0.1);
  CHECK(tally.worst == 0.7);
  CHECK(tally.worst_line == 5);  // the first on ties
  CHECK(tally.worst_t == 0.2);

  RowTally negative;  // the first value is the worst so far, whatever its sign
  negative.add(-1, 0, 2);
  CHECK(negative.worst == -1);
  CHECK(negative.worst_line == 2);
}

TEST_CASE("a log-scale histogram gives the median within a bin", "[row_statistics]") {
  LogScaleHistogram h;
  CHECK(h.median() == 0);
  for (double x : {1.0, 10.0, 100.0}) h.add(x);
  // 10 falls in bin floor(100 log10(10 / 0.1)) = 200, centred at 0.1 * 10^2.005
  CHECK(h.median() == Approx(10.115794542598985));
  CHECK(h.largest() == 100);
  CHECK(h.count() == 3);
  h.add(0.01);  // below the first bin's edge: counted there
  CHECK(h.median() == Approx(0.1 * std::pow(10.0, 100.5 / 100)));  // the lower median, 1
}
