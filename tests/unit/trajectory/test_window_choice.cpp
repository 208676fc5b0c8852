// The window of the derivation's fits chosen from the data (choose_derivation_window): on
// sinusoids with exact derivatives, logged slowly and fast, clean and noisy, the chosen window's
// accelerations are within a stated factor of the best fixed window's.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/trajectory/derivation.hpp>

#include "paths.hpp"
#include "stage_run.hpp"

using namespace eom;
using eom::test::kRobotsDir;
using eom::test::planar_rows;
using eom::test::Row;
using eom::test::run_stage;

namespace {

constexpr double kTwoPi = 6.283185307179586;
// the motion: joint1 at 0.4 Hz (the slow motion), joint2 at 0.25 Hz with a drift
constexpr double kW1 = kTwoPi * 0.4, kW2 = kTwoPi * 0.25;

Eigen::Vector2d exact_q(double t) {
  return {0.3 + 0.8 * std::sin(kW1 * t), -0.5 + 0.6 * std::cos(kW2 * t) + 0.1 * t};
}
Eigen::Vector2d exact_a(double t) {
  return {-0.8 * kW1 * kW1 * std::sin(kW1 * t), -0.6 * kW2 * kW2 * std::cos(kW2 * t)};
}

// Deterministic noise uniform in [-amplitude, amplitude] (a hash of the row, no generator state).
double noise(int row, int coordinate, double amplitude) {
  const double x = std::sin(12.9898 * row + 78.233 * coordinate) * 43758.5453;
  return amplitude * (2 * (x - std::floor(x)) - 1);
}

std::vector<Row> log_rows(double rate, double seconds, double amplitude) {
  std::vector<double> times;
  for (int k = 0; k <= static_cast<int>(std::lround(rate * seconds)); ++k)
    times.push_back(k / rate);
  std::vector<Row> rows = planar_rows(times, exact_q);
  for (size_t k = 0; k < rows.size(); ++k) {
    for (int c = 0; c < 2; ++c) rows[k].q[c] += noise(static_cast<int>(k), c, amplitude);
  }
  return rows;
}

// The largest error of a over the rows more than half the widest window from the ends,
// relative to the largest |a|.
double interior_error(const Model& model, const DerivationStage& stage,
                      const std::vector<Row>& rows) {
  const auto run = run_stage(model, stage, rows);
  const size_t skip = PolynomialFit::kMaxSamples / 2;
  double error = 0, largest = 0;
  for (size_t k = skip; k + skip < run.rows.size(); ++k) {
    const Eigen::Vector2d a = exact_a(run.rows[k].t);
    error = std::max(error, (run.rows[k].dq.col(1) - a).cwiseAbs().maxCoeff());
    largest = std::max(largest, a.cwiseAbs().maxCoeff());
  }
  return error / largest;
}

WindowChoice choose(const Model& model, const DerivationStage& stage,
                    const std::vector<Row>& rows) {
  std::vector<double> t;
  for (const Row& r : rows) t.push_back(r.t);
  return choose_derivation_window(stage, t.data(), static_cast<int>(rows.size()), model.nv,
                                  [&](int from, int to, Eigen::Ref<Eigen::VectorXd> out) {
                                    difference(model, rows[from].q, rows[to].q, out);
                                  });
}

}  // namespace

TEST_CASE(
    "choose_derivation_window: near the best fixed window on sinusoids, slow and fast, "
    "clean and noisy",
    "[derivation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  DerivationStage stage = plan_derivation({true, false, false}, 0).front();
  REQUIRE(stage.choose_window);
  struct Case {
    double rate, seconds, amplitude;
  };
  for (const Case& c :
       {Case{50, 10, 0}, Case{50, 10, 1e-6}, Case{50, 10, 1e-4}, Case{1000, 3, 0},
        Case{1000, 3, 1e-6}, Case{1000, 3, 1e-4}, Case{200, 5, 0}, Case{200, 5, 1e-5}}) {
    const auto rows = log_rows(c.rate, c.seconds, c.amplitude);
    const WindowChoice choice = choose(model, stage, rows);
    double best = 1e300;
    int best_window = 0;
    for (int n = stage.degree + 1; n <= PolynomialFit::kMaxSamples; n += 2) {
      stage.window = n;
      const double e = interior_error(model, stage, rows);
      if (e < best) {
        best = e;
        best_window = n;
      }
    }
    stage.window = choice.window;
    const double chosen = interior_error(model, stage, rows);
    INFO(c.rate << " Hz, noise " << c.amplitude << ": chosen " << choice.window << " rows, error "
                << chosen << "; best " << best_window << " rows, error " << best);
    // measured: within 1.7 times the best (1 kHz clean: 7 rows against 9); 2 states it
    CHECK(chosen <= 2 * best);
    // the noise estimated: the uniform noise's standard deviation, amplitude / sqrt(3), when it
    // is above the data's round-off (within 20 %: 48 residuals per coordinate)
    if (c.amplitude > 0) CHECK(choice.noise == Approx(c.amplitude / std::sqrt(3.0)).epsilon(0.2));
  }
}
