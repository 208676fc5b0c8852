// The row engine of tools/, driven in-process by a minimal per-row command that writes the
// derivatives it was given, which is also the example of what a new subcommand needs: a column
// list and one function per row. Derived derivatives of orders 1 to 6 are checked against exact
// ones, interior and ends, for a fixed and a floating base.

#include <unistd.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

#include <eom/core/errors.hpp>
#include <eom/io/table.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"
#include "scratch.hpp"
#include <eom/rows/row_engine.hpp>

using namespace eom;
using namespace eom::rows;

namespace {

// The whole of a per-row subcommand: the columns it writes and what it does per row. This one
// writes d<k>.<coordinate> for the derivatives k = 1..order the engine bound or derived.
class EchoDerivatives final : public RowTask {
 public:
  EchoDerivatives(const Model& model, int order) {
    for (int k = 1; k <= order; ++k) {
      for (const auto& name : model.v_names)
        columns.push_back("d" + std::to_string(k) + "." + name);
    }
  }
  void compute(const Sample& s, double* out) override {
    for (int k = 0; k < s.dq.cols(); ++k) {
      for (int i = 0; i < s.dq.rows(); ++i) *out++ = s.dq(i, k);
    }
  }
};

struct Run {
  int rc = 0;
  std::string err;
  Table table;
};

Run run_echo(const Model& model, int order, const Table& input, RowOptions opt = {},
             SettingNames names = setting_name) {
  // one directory per process: ctest -j runs test cases (and other checkouts) side by side
  const auto dir =
      std::filesystem::temp_directory_path() / ("eom_engine_test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "in.csv").string(), out = (dir / "out.csv").string();
  write_table(input, in, Format::csv);
  opt.tables = {in};
  opt.output.path = out;
  opt.robot.path = "robot.urdf";
  RowCommand command;
  command.name = "echo";
  command.order = order;
  command.make_task = [&](const Header&, const std::string&, const Notes&) {
    return std::make_unique<EchoDerivatives>(model, order);
  };
  std::ostringstream out_stream, err_stream;
  Streams io{out_stream, err_stream, {}, names};
  Run run;
  run.rc = run_rows(opt, model, command, io);
  run.err = err_stream.str();
  run.table = read_table(out, Format::csv);
  return run;
}

// q_i = A cos(w_i t + phi_i) + c_i on every coordinate, and its exact derivatives
struct Sinusoids {
  std::vector<double> A, w, phi;
  double value(int i, int k, double t) const {
    // d^k/dt^k cos(x) = cos(x + k pi/2)
    return A[i] * std::pow(w[i], k) * std::cos(w[i] * t + phi[i] + k * M_PI / 2);
  }
};

Table sampled(const Model& model, const Sinusoids& f, const std::vector<double>& times,
              int given_orders) {
  Table t;
  t.header.names.push_back("t");
  for (int k = 0; k <= given_orders; ++k) {
    for (const auto& n : k == 0 ? model.q_names : model.v_names) {
      t.header.names.push_back(derivative_prefix(k) + "." + n);
    }
  }
  for (double time : times) {
    t.values.push_back(time);
    for (int k = 0; k <= given_orders; ++k) {
      for (int i = 0; i < model.nv; ++i) t.values.push_back(f.value(i, k, time));
    }
  }
  return t;
}

// largest |derived - exact| of order k over rows [begin, end), relative to the largest |exact|
double relative_error(const Model& model, const Run& run, const Sinusoids& f, int k, int begin,
                      int end, double time_origin = 0) {
  double error = 0, scale = 0;
  for (int r = begin; r < end; ++r) {
    const double time = run.table.at(r, 0) - time_origin;
    for (int i = 0; i < model.nv; ++i) {
      const int c = run.table.header.index("d" + std::to_string(k) + "." + model.v_names[i]);
      error = std::max(error, std::abs(run.table.at(r, c) - f.value(i, k, time)));
      scale = std::max(scale, std::abs(f.value(i, k, time)));
    }
  }
  return error / scale;
}

}  // namespace

TEST_CASE("derived derivatives of orders 1 to 6 against exact ones", "[engine][derive]") {
  const Model model = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
  const Sinusoids f{{0.5, 0.4, 0.3}, {2 * M_PI * 0.5, 2 * M_PI * 0.7, 2 * M_PI * 0.9}, {0, 0.5, 1}};
  std::vector<double> times;
  for (int k = 0; k <= 3000; ++k) times.push_back(k / 1000.0);  // 3 s at 1 kHz, as shipped
  const int rows = static_cast<int>(times.size());

  // the accuracy the README states, relative to each order's largest value: {interior, first
  // and last 20 rows}; from q only, v comes from a fit of q on the manifold, a to d6q from a fit
  // of v (degree 8, the window chosen from the data: 49 rows for v); the ends fit one-sided
  // windows
  struct Bound {
    double interior, ends;
  };
  const Bound from_q[] = {{1e-12, 1e-10}, {1e-10, 1e-8}, {1e-8, 1e-6},
                          {1e-6, 1e-4},   {1e-4, 1e-2},  {1e-3, 0.3}};
  const Run q_only = run_echo(model, 6, sampled(model, f, times, 0));
  REQUIRE(q_only.rc == kExitOk);
  CHECK_THAT(q_only.err,
             Catch::Contains("derived v from q (on the configuration manifold) and t by "
                             "least-squares fits of degree 8 over 49 rows (chosen from the "
                             "first 1000 rows"));
  CHECK_THAT(q_only.err, Catch::Contains("derived a, d3q, d4q, d5q, d6q from v and t"));
  for (int k = 1; k <= 6; ++k) {
    const double interior = relative_error(model, q_only, f, k, 20, rows - 20);
    const double ends = std::max(relative_error(model, q_only, f, k, 0, 20),
                                 relative_error(model, q_only, f, k, rows - 20, rows));
    WARN("from q: order " << k << " interior " << interior << " ends " << ends);
    CHECK(interior < from_q[k - 1].interior);
    CHECK(ends < from_q[k - 1].ends);
  }

  // a command that needs at most a: fits of degree 4 over the window the data chooses (5 rows on
  // these clean samples), or the
  // three-point formulas, second order in the step (the second derivative first order at the
  // ends)
  const Run fits = run_echo(model, 2, sampled(model, f, times, 0));
  REQUIRE(fits.rc == kExitOk);
  CHECK_THAT(fits.err, Catch::Contains("derived v, a from q (on the configuration manifold) and t "
                                       "by least-squares fits of degree 4 over 5 rows (chosen "
                                       "from the first 1000 rows"));
  RowOptions three_point_option;
  three_point_option.derive = "three-point";
  const Run three_point = run_echo(model, 2, sampled(model, f, times, 0), three_point_option);
  REQUIRE(three_point.rc == kExitOk);
  CHECK_THAT(three_point.err, Catch::Contains("and t by three-point differences"));
  const Bound fit[] = {{3e-8, 2e-7}, {2e-8, 4e-5}}, three[] = {{1e-5, 2e-5}, {5e-6, 1e-2}};
  for (int k = 1; k <= 2; ++k) {
    for (const auto& [run, bound, name] :
         {std::tuple(&fits, fit, "fits"), std::tuple(&three_point, three, "three-point")}) {
      const double interior = relative_error(model, *run, f, k, 20, rows - 20);
      const double ends = std::max(relative_error(model, *run, f, k, 0, 20),
                                   relative_error(model, *run, f, k, rows - 20, rows));
      WARN(name << ": order " << k << " interior " << interior << " ends " << ends);
      CHECK(interior < bound[k - 1].interior);
      CHECK(ends < bound[k - 1].ends);
    }
  }

  // given v and a, the fits start from the exact a
  const Run qva = run_echo(model, 6, sampled(model, f, times, 2));
  REQUIRE(qva.rc == kExitOk);
  for (int k = 1; k <= 2; ++k) CHECK(relative_error(model, qva, f, k, 0, rows) == 0);
  const Bound from_a[] = {{1e-12, 1e-9}, {1e-10, 1e-8}, {1e-8, 1e-6}, {1e-6, 1e-5}};
  for (int k = 3; k <= 6; ++k) {
    const double interior = relative_error(model, qva, f, k, 20, rows - 20);
    const double ends = std::max(relative_error(model, qva, f, k, 0, 20),
                                 relative_error(model, qva, f, k, rows - 20, rows));
    WARN("from exact a: order " << k << " interior " << interior << " ends " << ends);
    CHECK(interior < from_a[k - 3].interior);
    CHECK(ends < from_a[k - 3].ends);
  }
}

TEST_CASE("derivation on non-uniform times", "[engine][derive]") {
  const Model model = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
  const Sinusoids f{{0.5, 0.4, 0.3}, {3.0, 4.0, 5.0}, {0, 0.5, 1}};
  std::vector<double> times;
  for (int k = 0; k <= 2000; ++k) times.push_back(k / 1000.0 + 2e-4 * std::sin(1.7 * k));
  const Run run = run_echo(model, 4, sampled(model, f, times, 0));
  REQUIRE(run.rc == kExitOk);
  const int rows = static_cast<int>(times.size());
  CHECK(relative_error(model, run, f, 1, 0, rows) < 1e-5);
  CHECK(relative_error(model, run, f, 2, 20, rows - 20) < 1e-2);
  CHECK(relative_error(model, run, f, 4, 20, rows - 20) < 0.1);
}

TEST_CASE("a floating base is differentiated on the manifold: body twist and its derivatives",
          "[engine][derive]") {
  LoadOptions options;
  options.floating_base = true;
  const Model model = load_urdf(test::kRobotsDir + "/solo12.urdf", options);
  const Table exact =
      read_table(test::kSourceDir + "/trajectories/solo12_floating_walk.csv", Format::csv);
  Table q_only;
  q_only.header.names.push_back("t");
  for (auto& n : coordinate_columns(model, "q", Space::q)) q_only.header.names.push_back(n);
  for (int r = 0; r < exact.rows(); ++r) {
    for (const auto& name : q_only.header.names)
      q_only.values.push_back(exact.at(r, exact.header.index(name)));
  }
  const Run run = run_echo(model, 4, q_only);
  REQUIRE(run.rc == kExitOk);
  // compare with the exact body twist and its derivatives, relative to each order's scale
  for (int k = 1; k <= 4; ++k) {
    double error = 0, scale = 0;
    for (int r = 20; r < exact.rows() - 20; ++r) {
      for (const auto& n : model.v_names) {
        const double x = exact.at(r, exact.header.index(derivative_prefix(k) + "." + n));
        error = std::max(
            error,
            std::abs(run.table.at(r, run.table.header.index("d" + std::to_string(k) + "." + n)) -
                     x));
        scale = std::max(scale, std::abs(x));
      }
    }
    INFO("order " << k);
    CHECK(error / scale < (k <= 2 ? 1e-5 : 1e-4));
  }
}

TEST_CASE("derivation refuses what it cannot trust, naming the row", "[engine][derive]") {
  const Model model = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
  const Sinusoids f{{0.5, 0.4, 0.3}, {3.0, 4.0, 5.0}, {0, 0.5, 1}};
  SECTION("too few rows for a fit") {
    // degree 8 fits need 9 rows; a table shorter than the window (33) but with 9 rows is fitted
    // over the rows it has
    std::vector<double> times;
    for (int k = 0; k < 8; ++k) times.push_back(k / 100.0);
    CHECK_THROWS_WITH(
        run_echo(model, 6, sampled(model, f, times, 0)),
        Catch::Contains("deriving v needs at least 9 rows (a fit of degree 8), the table has 8"));
    times.push_back(0.08);
    CHECK(run_echo(model, 6, sampled(model, f, times, 0)).rc == kExitOk);
  }
  SECTION("t going backwards") {
    CHECK_THROWS_WITH(run_echo(model, 2, sampled(model, f, {0, 0.01, 0.02, 0.015, 0.03}, 0)),
                      Catch::Contains(":5: t is not strictly increasing (t = 0.015 after 0.02)"));
  }
  const std::vector<double> gap{0, 0.01, 0.02, 0.03, 0.04, 0.5, 0.51, 0.52, 0.53};
  SECTION("a gap, with --gaps refuse") {
    RowOptions opt;
    opt.gaps = "refuse";
    CHECK_THROWS_WITH(run_echo(model, 2, sampled(model, f, gap, 0), opt),
                      Catch::Contains(":7: the step in t changes from 0.01 to 0.46 s"));
  }
  SECTION("a segment between gaps too short to derive") {
    // degree 4 fits need 5 rows: lines 2-6 are enough, lines 7-10 (4 rows) are not
    CHECK_THROWS_WITH(run_echo(model, 2, sampled(model, f, gap, 0)),
                      Catch::Contains(":7: deriving v needs at least 5 rows (a fit of degree "
                                      "4), the segment of lines 7-10 between gaps in t has 4"));
  }
  SECTION("--no-derive") {
    RowOptions opt;
    opt.no_derive = true;
    CHECK_THROWS_WITH(run_echo(model, 1, sampled(model, f, {0, 0.01, 0.02}, 0), opt),
                      Catch::Contains("missing columns v.joint1, v.joint2, v.joint3"));
  }
}

TEST_CASE("a dropped stretch splits the log: each segment derived on its own, said once",
          "[engine][derive]") {
  const Model model = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
  const Sinusoids f{{0.5, 0.4, 0.3}, {3.0, 4.0, 5.0}, {0, 0.5, 1}};
  // 1 kHz with jitter of up to 0.2 ms; 19 messages dropped after row 400 (a 20 ms step) and 2
  // after row 700
  std::vector<double> times;
  for (int k = 0; k <= 1000; ++k) {
    if ((k > 400 && k < 420) || (k > 700 && k < 703)) continue;
    times.push_back(k / 1000.0 + 1e-4 * std::sin(2.3 * k));
  }
  const Run run = run_echo(model, 2, sampled(model, f, times, 0));
  REQUIRE(run.rc == kExitOk);
  const int rows = static_cast<int>(times.size());
  REQUIRE(run.table.rows() == rows);
  // table rows 401 (line 403) and 682 (line 684) follow the gaps; 3 rows on each side of each
  // gap are derived from one-sided windows (the window chosen: 7 rows)
  CHECK_THAT(run.err, Catch::Contains("2 gaps in t (a step over 1.5 times the usual one), before "
                                      "line 403 (t 0.4"));
  CHECK_THAT(run.err, Catch::Contains("line 684 (t 0.7"));
  CHECK_THAT(run.err, Catch::Contains("v, a derived within each segment, 12 rows near the gaps "
                                      "from one-sided windows"));
  // the one-sided windows near the gaps are as accurate as those at the ends of a table
  CHECK(relative_error(model, run, f, 1, 0, rows) < 1e-7);  // measured 3.2e-8
  CHECK(relative_error(model, run, f, 2, 0, rows) < 2e-5);  // measured 6.7e-6
}

TEST_CASE("a time column in ROS nanoseconds, named and scaled", "[engine]") {
  const Model model = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
  const Sinusoids f{{0.5, 0.4, 0.3}, {3.0, 4.0, 5.0}, {0, 0.5, 1}};
  std::vector<double> times;
  for (int k = 0; k <= 100; ++k) times.push_back(k / 1000.0);
  Table table = sampled(model, f, times, 0);
  table.header.names[0] = "stamp";
  for (int r = 0; r < table.rows(); ++r) table.values[r * table.header.size()] = 1.7e18 + r * 1e6;
  RowOptions opt;
  opt.time.column = "stamp";
  opt.time.scale = 1e-9;
  const Run run = run_echo(model, 1, table, opt);
  REQUIRE(run.rc == kExitOk);
  CHECK(run.table.header.names[0] == "t");  // the time column, in seconds
  // 1.7e18 ns as a double is exact to 256 ns, and 1.7e9 s to 2.4e-7 s: the steps carry about
  // 2.5e-4 relative noise, which the derivatives inherit
  CHECK(run.table.at(1, 0) - run.table.at(0, 0) == Approx(1e-3).epsilon(1e-3));
  CHECK(relative_error(model, run, f, 1, 1, 100, 1.7e9) < 1e-3);
}

namespace {

// how a program (here: eom's options) names the settings the engine's messages name
std::string_view option_names(Setting setting) {
  switch (setting) {
    case Setting::keep:
      return "--keep";
    case Setting::no_derive:
      return "--no-derive";
    case Setting::derive_window:
      return "--derive-window";
    case Setting::output:
      return "-o";
    case Setting::output_dir:
      return "--output-dir";
    default:
      return "?";
  }
}

}  // namespace

TEST_CASE("the engine's messages name settings as the program gives them", "[engine]") {
  const Model model = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
  const Sinusoids f{{0.5, 0.4, 0.3}, {3.0, 4.0, 5.0}, {0, 0.5, 1}};
  std::vector<double> times;
  for (int k = 0; k <= 20; ++k) times.push_back(k / 100.0);
  const Table table = sampled(model, f, times, 0);

  SECTION("a warning, in the library's words or the program's") {
    CHECK_THAT(run_echo(model, 1, table).err,
               Catch::Contains("; derive window sets them) (no derive forbids this)\n"));
    CHECK_THAT(run_echo(model, 1, table, {}, option_names).err,
               Catch::Contains("; --derive-window sets them) (--no-derive forbids this)\n"));
  }
  SECTION("an error: the setting is data until the program spells it") {
    RowOptions opt;
    opt.keep = {"q.joint1:d1.joint1"};
    try {
      run_echo(model, 1, table, opt, option_names);
      FAIL("a column written twice is refused");
    } catch (const InputError& e) {
      const std::string advice = " (rename a kept column with ";
      CHECK_THAT(e.what(), Catch::EndsWith(advice + "keep NAME:NEW_NAME)"));
      CHECK(e.text(option_names) ==
            "output column d1.joint1 would appear twice" + advice + "--keep NAME:NEW_NAME)");
    }
    opt.keep.clear();
    opt.output_dir = test::scratch_path("batch");
    try {
      run_echo(model, 1, table, opt, option_names);  // it gives -o too
      FAIL("-o and a batch's directory are refused together");
    } catch (const InputError& e) {
      CHECK(e.text(option_names) == "-o and --output-dir exclude each other");
      CHECK(e.message() == "output and output directory exclude each other");
    }
  }
  SECTION("a batch's messages, with each table's error") {
    const std::string a = test::scratch_path("a.csv"), b = test::scratch_path("b.csv");
    write_table(table, a, Format::csv);
    write_table(table, b, Format::csv);
    RowOptions opt;
    opt.tables = {a, b};
    opt.output_dir = test::scratch_path("out");
    opt.keep = {"nosuch"};
    RowCommand command;
    command.name = "echo";
    command.order = 1;
    command.make_task = [&](const Header&, const std::string&, const Notes&) {
      return std::make_unique<EchoDerivatives>(model, 1);
    };
    std::ostringstream out, err;
    Streams io{out, err, {}, option_names};
    CHECK(run_rows(opt, model, command, io) == kExitUsage);
    CHECK(err.str() == "eom echo: error: " + a + ":1: --keep: no column 'nosuch'\n" +
                           "eom echo: error: " + b + ":1: --keep: no column 'nosuch'\n");
  }
}
