// Deriving missing derivative columns row by row: the plan, the time checks, the sliding window
// exact on polynomial trajectories, on the configuration manifold for quaternions,
// allocation-free; and the joints a table lacks, filled.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/trajectory/derivation.hpp>
#include <eom/trajectory/joint_fill.hpp>

#include "allocations.hpp"
#include "paths.hpp"
#include "stage_run.hpp"

using namespace eom;
using eom::test::kRobotsDir;
using eom::test::planar_rows;
using eom::test::Row;
using eom::test::run_stage;
using eom::test::StageRun;

TEST_CASE("plan_derivation: every order by fits of order + 2, or v and a by three points",
          "[derivation]") {
  // q only, up to a: one stage on the manifold, fits of degree 2 + 2 over the window
  auto stages = plan_derivation({true, false, false}, 25);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].source == 0);
  CHECK(stages[0].targets == std::vector<int>{1, 2});
  CHECK(stages[0].window == 25);
  CHECK(stages[0].degree == 4);
  // ... or by the three-point formulas
  stages = plan_derivation({true, false, false}, 25, DerivationMethod::three_point);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].window == 3);
  CHECK(stages[0].degree == 2);
  // which do not reach d3q
  CHECK_THROWS_AS(plan_derivation({true, false, false, false}, 25, DerivationMethod::three_point),
                  InputError);
  // a given, v missing: v alone from q
  stages = plan_derivation({true, false, true}, 25);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].targets == std::vector<int>{1});
  // v given, up to d4q: a, d3q, d4q from v by fits of degree 4 + 2 over the window given
  stages = plan_derivation({true, true, false, false, false}, 25);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].source == 1);
  CHECK(stages[0].targets == std::vector<int>{2, 3, 4});
  CHECK(stages[0].degree == 6);
  CHECK(stages[0].window == 25);
  // q and a given up to d3q: v from q, then d3q from a
  stages = plan_derivation({true, false, true, false}, 11);
  REQUIRE(stages.size() == 2);
  CHECK(stages[0].source == 0);
  CHECK(stages[0].targets == std::vector<int>{1});
  CHECK(stages[1].source == 2);
  CHECK(stages[1].targets == std::vector<int>{3});
  CHECK(derivation_degree(3) == 5);
  CHECK(default_derivation_window(4) == 17);
  CHECK(default_derivation_window(5) == 21);
  CHECK(default_derivation_window(20) == PolynomialFit::kMaxSamples);
}

TEST_CASE("wrapping_angles: unlimited angles and revolute limits more than a turn apart",
          "[derivation]") {
  const std::string urdf = test::kDataDir + "/urdf/";
  CHECK(wrapping_angles(load_urdf(kRobotsDir + "/planar_2r.urdf")).empty());  // limits +-pi
  CHECK(wrapping_angles(load_urdf(urdf + "planar_2r_continuous.urdf")) == std::vector<int>{0});
  CHECK(wrapping_angles(load_urdf(urdf + "planar_2r_wide_limits.urdf")) == std::vector<int>{0});
  // a planar joint's theta (not its x, y), a continuous rotor; not a quaternion nor a prismatic
  const Model mixed = load_urdf(test::kDataDir + "/robots/mixed_joints.urdf");
  const int glide = mixed.joints[mixed.joint_index("glide")].idx_q;
  const int rotor = mixed.joints[mixed.joint_index("rotor")].idx_q;
  CHECK(wrapping_angles(mixed) == std::vector<int>{glide + 2, rotor});
}

TEST_CASE("DerivativeWindow: three points differentiate a quadratic exactly at every row",
          "[derivation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");  // two revolute joints
  // q_i(t) = c0 + c1 t + c2 t^2: v = c1 + 2 c2 t, a = 2 c2
  const double c0[] = {0.2, -0.4}, c1[] = {1.5, 0.3}, c2[] = {-0.8, 2.5};
  std::vector<Row> rows(6);
  for (int r = 0; r < 6; ++r) {
    rows[r].t = 0.1 * r;
    rows[r].q.resize(2);
    rows[r].dq = Eigen::MatrixXd::Zero(2, 2);
    const double t = rows[r].t;
    for (int i = 0; i < 2; ++i) rows[r].q[i] = c0[i] + c1[i] * t + c2[i] * t * t;
  }
  DerivationStage stage;
  stage.targets = {1, 2};
  const auto out = run_stage(model, stage, rows).rows;
  REQUIRE(out.size() == 6);
  for (int r = 0; r < 6; ++r) {
    CHECK(out[r].t == rows[r].t);
    for (int i = 0; i < 2; ++i) {
      CHECK(out[r].dq(i, 0) == Approx(c1[i] + 2 * c2[i] * rows[r].t).margin(1e-12));
      CHECK(out[r].dq(i, 1) == Approx(2 * c2[i]).margin(1e-9));
    }
  }
}

TEST_CASE("DerivativeWindow: a quaternion turning at a constant rate has that angular velocity",
          "[derivation]") {
  LoadOptions options;
  options.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf", options);
  // the base turns about z at w rad/s: q_base = (0, 0, sin(w t / 2), cos(w t / 2)); in the
  // tangent space that is a straight line, so v = (0, 0, 0, 0, 0, w) and a = 0 exactly
  const double w = 0.7;
  std::vector<Row> rows(5);
  for (int r = 0; r < 5; ++r) {
    rows[r].t = 0.25 * r + 0.01 * r * r;  // non-uniform steps
    rows[r].q = neutral(model);
    rows[r].q.segment<4>(3) << 0, 0, std::sin(w * rows[r].t / 2), std::cos(w * rows[r].t / 2);
    rows[r].dq = Eigen::MatrixXd::Zero(model.nv, 2);
  }
  DerivationStage stage;
  stage.targets = {1, 2};
  const auto out = run_stage(model, stage, rows).rows;
  REQUIRE(out.size() == 5);
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(model.nv);
  expected[5] = w;
  for (const Row& r : out) {
    CHECK((r.dq.col(0) - expected).norm() == Approx(0).margin(1e-12));
    CHECK(r.dq.col(1).norm() == Approx(0).margin(1e-9));
  }
}

TEST_CASE("DerivativeWindow: fits from v give a and d3q of a cubic exactly, ends included",
          "[derivation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  // v(t) = 1 - 2 t + 3 t^2 + 0.5 t^3: a = -2 + 6 t + 1.5 t^2, d3q = 6 + 3 t
  std::vector<Row> rows(15);
  for (int r = 0; r < 15; ++r) {
    const double t = 0.05 * r;
    rows[r].t = t;
    rows[r].q = Eigen::VectorXd::Zero(2);
    rows[r].dq = Eigen::MatrixXd::Zero(2, 3);
    rows[r].dq.col(0).setConstant(1 - 2 * t + 3 * t * t + 0.5 * t * t * t);
  }
  const auto stages = plan_derivation({true, true, false, false}, 9);
  REQUIRE(stages.size() == 1);
  const auto out = run_stage(model, stages[0], rows).rows;
  REQUIRE(out.size() == 15);
  for (const Row& r : out) {
    CHECK(r.dq(1, 1) == Approx(-2 + 6 * r.t + 1.5 * r.t * r.t).margin(1e-8));
    CHECK(r.dq(0, 2) == Approx(6 + 3 * r.t).margin(1e-6));
  }
}

TEST_CASE("DerivativeWindow: fits of q over a wrapping angle are those of the unwrapped angle",
          "[derivation]") {
  // joint1 turns through several turns, written in (-pi, pi]; q is a quartic, which the
  // default fits (degree 4) differentiate exactly, so v and a are exact at every row
  const auto angle = [](double t) { return 0.3 + 9 * t - 2 * t * t + 0.5 * t * t * t * t; };
  const auto wrapped = [&](double t) {
    Eigen::VectorXd q(2);
    q << std::remainder(angle(t), 2 * M_PI), -0.2 + t;
    return q;
  };
  std::vector<double> times;
  for (int r = 0; r < 60; ++r) times.push_back(0.02 * r + 0.002 * std::sin(3.0 * r));  // jitter
  const auto rows = planar_rows(times, wrapped);
  const auto stages = plan_derivation({true, false, false}, 17);
  for (const char* robot : {"planar_2r_continuous", "planar_2r_wide_limits"}) {
    const Model model = load_urdf(test::kDataDir + "/urdf/" + robot + ".urdf");
    const auto out = run_stage(model, stages[0], rows).rows;
    REQUIRE(out.size() == rows.size());
    for (const Row& r : out) {
      const double t = r.t;
      CHECK(r.dq(0, 0) == Approx(9 - 4 * t + 2 * t * t * t).margin(1e-8));
      CHECK(r.dq(0, 1) == Approx(-4 + 6 * t * t).margin(1e-6));
      CHECK(r.dq(1, 0) == Approx(1).margin(1e-9));
    }
  }
  // the same log on the arm whose joint1 is limited to +-pi: the jumps are taken as they are
  const Model limited = load_urdf(kRobotsDir + "/planar_2r.urdf");
  const auto out = run_stage(limited, stages[0], rows).rows;
  double largest = 0;  // of a, which stays under 5 in magnitude
  for (const Row& r : out) largest = std::max(largest, std::abs(r.dq(0, 1)));
  CHECK(largest > 50);
}

TEST_CASE("DerivativeWindow: a gap splits the rows into segments, each derived on its own",
          "[derivation]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  // a quartic in t differentiated exactly by fits of degree 4, rows near the gap included;
  // across the gap the data jumps (another motion), which must not leak into either side
  const auto q_of = [](double t) {
    Eigen::VectorXd q(2);
    const double jump = t > 0.5 ? 1.0 : 0.0;
    q << 0.1 + 0.7 * t - 0.3 * t * t + 0.2 * t * t * t * t + jump, -t * t + jump;
    return q;
  };
  std::vector<double> times;
  for (int r = 0; r < 40; ++r) times.push_back(0.01 * r);
  for (int r = 0; r < 30; ++r) times.push_back(0.6 + 0.01 * r);
  auto rows = planar_rows(times, q_of);
  rows[40].segment_start = true;
  const auto stages = plan_derivation({true, false, false}, 17);
  const auto run = run_stage(model, stages[0], rows);
  REQUIRE(run.rows.size() == rows.size());
  for (const Row& r : run.rows) {
    const double t = r.t;
    CHECK(r.dq(0, 0) == Approx(0.7 - 0.6 * t + 0.8 * t * t * t).margin(1e-8));
    CHECK(r.dq(0, 1) == Approx(-0.6 + 2.4 * t * t).margin(1e-6));
    CHECK(r.dq(1, 1) == Approx(-2).margin(1e-6));
  }
  // the windows moved off-centre by the gap: 8 rows on each side of it
  CHECK(run.rows_near_gaps == 16);

  // a segment shorter than a window but with degree + 1 rows is fitted over its rows
  auto short_rows = planar_rows(times, q_of);
  short_rows[35].segment_start = true;  // rows 35..39: 5 rows, degree 4
  short_rows[40].segment_start = true;
  const auto short_run = run_stage(model, stages[0], short_rows);
  REQUIRE(short_run.rows.size() == rows.size());
  for (int r = 35; r < 40; ++r) {
    const double t = short_run.rows[r].t;
    CHECK(short_run.rows[r].dq(0, 0) == Approx(0.7 - 0.6 * t + 0.8 * t * t * t).margin(1e-7));
  }
  // ... and one with fewer rows cannot be derived: the rows before it come out, then it stops
  short_rows[35].segment_start = false;
  short_rows[36].segment_start = true;  // rows 36..39: 4 rows
  const auto too_short = run_stage(model, stages[0], short_rows);
  CHECK(too_short.too_short == 4);
  CHECK(too_short.rows.size() == 36);
}

TEST_CASE("DerivativeWindow: deriving a row allocates nothing", "[derivation]" EOM_ALLOCATION_TAG) {
  LoadOptions options;
  options.floating_base = true;
  // a continuous joint: the window's angles are unwrapped in place
  const Model model = load_urdf(test::kDataDir + "/urdf/planar_2r_continuous.urdf", options);
  const auto stages = plan_derivation({true, false, false, false}, 11);
  std::vector<Row> slots(DerivativeWindow::slots_needed(stages[0]));
  std::vector<DerivativeWindow::Slot> views;
  for (size_t r = 0; r < slots.size(); ++r) {
    slots[r].t = 0.01 * static_cast<double>(r);
    slots[r].q = neutral(model);
    slots[r].dq = Eigen::MatrixXd::Zero(model.nv, 3);
    views.push_back({&slots[r].t, &slots[r].q, &slots[r].dq});
  }
  DerivativeWindow window(model, stages[0], views);
  Eigen::MatrixXd dq = Eigen::MatrixXd::Zero(model.nv, 3);
  const long allocations = test::allocations_during([&] {
    for (int r = 0; r < stages[0].window; ++r) window.filled();
    window.end();
    while (window.ready()) window.derive(dq);
  });
  CHECK(allocations == 0);
  CHECK(window.slot_to_emit() == stages[0].window);
}

TEST_CASE("TimeStepCheck: strictly increasing times; a step over 1.5 times the usual is a gap",
          "[derivation]") {
  TimeStepCheck check;
  for (double t : {0.0, 0.1, 0.2, 0.3, 0.4}) CHECK(check(t) == TimeStepCheck::Result::ok);
  CHECK(check(0.53) == TimeStepCheck::Result::ok);  // 1.3 times the step: jitter
  CHECK(check(0.6) == TimeStepCheck::Result::ok);   // smaller steps are never gaps
  CHECK(check(0.6) == TimeStepCheck::Result::not_increasing);
  CHECK(check.previous_t() == 0.6);
  CHECK(check(0.8) == TimeStepCheck::Result::gap);  // 0.2 after steps of 0.1 (median)
  CHECK(check.usual_step() == Approx(0.1));
  CHECK(check.step() == Approx(0.2));
  CHECK(check(0.9) == TimeStepCheck::Result::ok);  // the usual step again

  // while fewer than kSettled steps are known, only three times the usual step is a gap
  TimeStepCheck early;
  early(0.0);
  early(0.1);
  CHECK(early(0.35) == TimeStepCheck::Result::ok);
  TimeStepCheck early_gap;
  early_gap(0.0);
  early_gap(0.1);
  CHECK(early_gap(0.45) == TimeStepCheck::Result::gap);

  // a lasting change of the sampling rate is one gap, then the new step is the usual one
  TimeStepCheck slower;
  double t = 0;
  for (int k = 0; k < 20; ++k) CHECK(slower(t += 0.001) == TimeStepCheck::Result::ok);
  int gaps = 0;
  for (int k = 0; k < 20; ++k) gaps += slower(t += 0.01) == TimeStepCheck::Result::gap;
  CHECK(gaps == 1);
  CHECK(slower(t + 0.025) == TimeStepCheck::Result::gap);  // and a gap at the new rate is one
}

TEST_CASE("fill_configuration and fill_derivative: a mimic follows its leader, others neutral",
          "[derivation]") {
  LoadOptions options;
  options.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf", options);
  const int base = model.joint_index("root"), joint1 = model.joint_index("joint1"),
            joint2 = model.joint_index("joint2");
  // joint2 = 2 joint1 + 0.1; the floating base neutral (identity pose)
  const std::vector<JointFill> fills{{joint2, joint1, 2, 0.1}, {base, -1, 1, 0}};
  Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 5);
  q[model.joints[joint1].idx_q] = 0.3;
  fill_configuration(model, fills, q);
  CHECK(q[model.joints[joint2].idx_q] == Approx(0.7));
  Eigen::VectorXd base_neutral(7);
  base_neutral << 0, 0, 0, 0, 0, 0, 1;
  CHECK(q.segment<7>(model.joints[base].idx_q) == base_neutral);
  // derivatives: the multiplier alone (the offset is constant); the base at rest
  Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 5);
  v[model.joints[joint1].idx_v] = -1.5;
  fill_derivative(model, fills, v);
  CHECK(v[model.joints[joint2].idx_v] == Approx(-3));
  CHECK(v.segment<6>(model.joints[base].idx_v).isZero());
}
