// Partial fits (eom identify --partial, --merge): the file gives back every bit of the factors,
// fits combined part by part equal one fit over every row, and a partial fit of another robot or
// other settings is refused saying what differs.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/trajectory/partial_fit.hpp>

#include "paths.hpp"

using namespace eom;
using eom::test::kRobotsDir;

namespace {

// Whether two doubles have the same bits (-0 and 0 differ, as they would in a written output).
bool partial_same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool partial_same_factors(const StreamingLeastSquares& a, const StreamingLeastSquares& b) {
  if (a.groups() != b.groups() || a.unknowns() != b.unknowns() || a.rows() != b.rows()) {
    return false;
  }
  for (int g = 0; g < a.groups(); ++g) {
    for (Eigen::Index k = 0; k < a.factor(g).size(); ++k) {
      if (!partial_same_bits(a.factor(g).data()[k], b.factor(g).data()[k])) return false;
    }
  }
  return true;
}

// `rows` random rows of `groups` x `unknowns` added to `fit`, flushed
void add_partial_rows(StreamingLeastSquares& fit, Rng& rng, int rows) {
  Eigen::MatrixXd A(fit.groups(), fit.unknowns());
  Eigen::VectorXd y(fit.groups());
  for (int r = 0; r < rows; ++r) {
    for (Eigen::Index k = 0; k < A.size(); ++k) A.data()[k] = rng.uniform(-3, 3);
    for (int g = 0; g < fit.groups(); ++g) y[g] = rng.uniform(-10, 10);
    fit.add(A, y);
  }
  fit.flush();
}

struct PartialFitSetup {
  Model model = load_model(kRobotsDir + "/planar_2r.urdf");
  DriveParameters drive;
  BaseParameters base;
  PartialFitKey key;
  PartialFitSetup() {
    drive.viscous = drive.coulomb = true;
    base = base_parameters(model, drive);
    key = partial_fit_key(model, drive, base);
  }
  int r() const { return static_cast<int>(base.independent.size()); }
};

}  // namespace

TEST_CASE("A partial fit's file gives back every bit of its factors", "[partial_fit]") {
  const PartialFitSetup setup;
  Rng rng(361);
  StreamingLeastSquares fit(setup.model.nv, setup.r());
  add_partial_rows(fit, rng, 37);
  // the factor's values extreme and signed zeros: the text must keep them all
  Eigen::MatrixXd T = fit.factor(1);
  T(0, 0) = -0.0;
  T(0, 1) = std::numeric_limits<double>::denorm_min();
  T(0, 2) = std::numeric_limits<double>::max();
  T(1, 1) = 0.1;
  T(1, 2) = -1.0 / 3.0;
  T(2, 2) = 1e-300;
  T(setup.r(), setup.r()) = 123456789.0;
  fit.set_factor(1, T, fit.rows());
  const std::string text = partial_fit_text(setup.key, {"a.csv", "b.csv"}, fit);
  const PartialFit back = parse_partial_fit(text, "p.json");
  CHECK(partial_same_factors(fit, back.fit));
  CHECK(std::signbit(back.fit.factor(1)(0, 0)));
  CHECK(back.logs == std::vector<std::string>{"a.csv", "b.csv"});
  CHECK(back.key.model_hash == setup.key.model_hash);
  CHECK(back.key.base == setup.key.base);
  // and written again, the same text
  CHECK(partial_fit_text(back.key, back.logs, back.fit) == text);
  CHECK_NOTHROW(check_partial_fit_key(setup.key, back.key, "p.json"));
}

TEST_CASE("Fits combined part by part equal one fit over every row; through files bit for bit",
          "[partial_fit]") {
  const PartialFitSetup setup;
  const int groups = setup.model.nv, r = setup.r();
  // the same rows into one accumulator and into three parts (the rng replayed)
  StreamingLeastSquares all(groups, r);
  Rng rng_all(3601);
  add_partial_rows(all, rng_all, 40 + 25 + 61);
  Rng rng(3601);
  std::vector<StreamingLeastSquares> parts;
  for (const int rows : {40, 25, 61}) {
    parts.emplace_back(groups, r);
    add_partial_rows(parts.back(), rng, rows);
  }
  std::vector<std::string> texts;
  for (const auto& part : parts) texts.push_back(partial_fit_text(setup.key, {}, part));
  std::optional<StreamingLeastSquares> combined, merged;
  for (auto& part : parts) combine_fit(combined, std::move(part));
  for (size_t k = 0; k < texts.size(); ++k) {
    combine_fit(merged, parse_partial_fit(texts[k], "p" + std::to_string(k)).fit);
  }
  CHECK(partial_same_factors(*combined, *merged));
  CHECK(combined->rows() == all.rows());
  const Eigen::VectorXd weights = Eigen::VectorXd::LinSpaced(groups, 1, 2);
  const auto one = all.solve(weights, 1e12);
  const auto parted = combined->solve(weights, 1e12);
  REQUIRE(one.x.size() == r);
  CHECK((parted.x - one.x).norm() <= 1e-12 * one.x.norm());
  CHECK(parted.sigma == Approx(one.sigma).epsilon(1e-12));
  // the two-step weighting (each joint by its own residual) from the merged factors too: the
  // rows are not noise free, so the second step weights
  const auto two_step = all.solve_two_step(1e12);
  const auto merged_two_step = merged->solve_two_step(1e12);
  REQUIRE(two_step.x.size() == r);
  CHECK((two_step.weights.array() != 1.0).all());
  CHECK((merged_two_step.weights - two_step.weights).norm() <= 1e-12 * two_step.weights.norm());
  CHECK((merged_two_step.x - two_step.x).norm() <= 1e-12 * two_step.x.norm());
  for (int g = 0; g < groups; ++g) {
    CHECK(combined->residual_squares(g, one.x) ==
          Approx(all.residual_squares(g, one.x)).epsilon(1e-12));
  }
}

TEST_CASE("A partial fit of another robot or other settings is refused, saying what differs",
          "[partial_fit]") {
  const PartialFitSetup setup;
  const auto refusal = [&](const Model& model, const DriveParameters& drive) {
    try {
      check_partial_fit_key(setup.key, partial_fit_key(model, drive, base_parameters(model, drive)),
                            "other.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal(setup.model, setup.drive) == "accepted");
  DriveParameters viscous = setup.drive;
  viscous.coulomb = false;
  CHECK_THAT(refusal(setup.model, viscous),
             Catch::Contains("other.json: a partial fit made with the friction columns viscous, "
                             "this run with viscous,coulomb"));
  Model moon = setup.model;
  moon.gravity = Vec3(0, 0, -1.62);
  CHECK_THAT(refusal(moon, setup.drive),
             Catch::Contains("gravity 0,0,-1.62, this run with 0,0,-9.81"));
  Model heavier = setup.model;
  heavier.inertia[2].m *= 1.5;
  CHECK_THAT(refusal(heavier, setup.drive), Catch::Contains("prior hash"));
  Model longer = setup.model;
  longer.placement[2].p.x() += 0.1;
  CHECK_THAT(refusal(longer, setup.drive), Catch::Contains("model hash"));
  Model renamed = setup.model;
  renamed.name = "other";
  CHECK_THAT(refusal(renamed, setup.drive), Catch::Contains("the robot 'other'"));
}

TEST_CASE("A partial fit records its contacts and equations; others are refused", "[partial_fit]") {
  const PartialFitSetup setup;
  const int tip = setup.model.frame_index("tip"), link2 = setup.model.frame_index("link2");
  ContactSet point, normal;
  add_contact(setup.model, tip, ContactKind::point, Vec3::UnitZ(), point);
  add_contact(setup.model, tip, ContactKind::normal, Vec3(0, 1, 0), normal);
  const PartialFitKey with_point = partial_fit_key(setup.model, setup.drive, setup.base, point);
  CHECK(with_point.contacts == std::vector<std::string>{"tip:3d"});
  CHECK(partial_fit_key(setup.model, setup.drive, setup.base, normal).contacts ==
        std::vector<std::string>{"tip:1d:0,1,0"});
  // without contacts the hash is a fixed base's as before; the contacts' frames enter it
  CHECK(with_point.model_hash != setup.key.model_hash);
  // through the file: the contacts kept, and written only when there are some
  Rng rng(363);
  StreamingLeastSquares fit(setup.model.nv, setup.r());
  add_partial_rows(fit, rng, 12);
  const std::string text = partial_fit_text(with_point, {"a.csv"}, fit);
  const PartialFit back = parse_partial_fit(text, "p.json");
  CHECK(back.key.contacts == with_point.contacts);
  CHECK_NOTHROW(check_partial_fit_key(with_point, back.key, "p.json"));
  CHECK(partial_fit_text(setup.key, {"a.csv"}, fit).find("\"contacts\"") == std::string::npos);
  // (the library names the setting; the command line names it --contacts)
  const auto refusal = [&](const PartialFitKey& run, const PartialFitKey& partial) {
    try {
      check_partial_fit_key(run, partial, "p.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refusal(setup.key, with_point),
             Catch::Contains("p.json: a partial fit made with the contacts (contacts) tip:3d, "
                             "this run with none"));
  CHECK_THAT(refusal(with_point, setup.key),
             Catch::Contains("the contacts (contacts) none, this run with tip:3d"));
  // the same name on another frame (a file edited): the model hash tells
  ContactSet elsewhere;
  add_contact(setup.model, link2, ContactKind::point, Vec3::UnitZ(), elsewhere);
  PartialFitKey renamed = partial_fit_key(setup.model, setup.drive, setup.base, elsewhere);
  renamed.contacts = with_point.contacts;
  CHECK_THAT(refusal(with_point, renamed), Catch::Contains("model hash"));
  // the first equation alone: one factor, the other equations refused
  const PartialFitKey first = partial_fit_key(setup.model, setup.drive, setup.base, {}, 1);
  CHECK(first.joints == std::vector<std::string>{setup.model.tau_names[0]});
  CHECK_THAT(refusal(setup.key, first),
             Catch::Contains("the equations of 1 coordinate, this run with 2 coordinates"));
}

TEST_CASE("A truncated or malformed partial fit is refused with its place", "[partial_fit]") {
  const PartialFitSetup setup;
  Rng rng(362);
  StreamingLeastSquares fit(setup.model.nv, setup.r());
  add_partial_rows(fit, rng, 20);
  const std::string text = partial_fit_text(setup.key, {"a.csv"}, fit);
  const auto message = [](const std::string& bad) {
    try {
      parse_partial_fit(bad, "p.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // cut in its factors: the end of the text, with its line and column
  CHECK_THAT(message(text.substr(0, text.size() - 40)),
             Catch::Matches("p\\.json:[0-9]+:[0-9]+: malformed JSON: .*unexpected end of input.*"));
  // a log where a partial fit is read
  CHECK_THAT(message("t,q.joint1\n0,1\n"),
             Catch::StartsWith("p.json:1:1: expected a partial fit of eom identify"));
  // a row of R one number short
  std::string short_row = text;
  const size_t second_row = short_row.find("\"R\": [\n      [");
  const size_t row_end = short_row.find(']', short_row.find('\n', second_row + 10) + 1);
  const size_t last_comma = short_row.rfind(',', row_end);
  short_row.erase(last_comma, row_end - last_comma);
  CHECK_THAT(message(short_row), Catch::Contains("p.json: /factors/0/R/1: "));
  std::string newer = text;
  newer.replace(newer.find("\"version\": 1"), 12, "\"version\": 7");
  CHECK_THAT(message(newer), Catch::Contains("/version: 7, expected 1"));
}
