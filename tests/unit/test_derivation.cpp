// Deriving missing derivative columns row by row: the plan, the time checks, the sliding window
// exact on polynomial trajectories, on the configuration manifold for quaternions,
// allocation-free; and the joints a table lacks, filled.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/trajectory/derivation.hpp>
#include <eom/trajectory/joint_fill.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;
using eom::test::kRobotsDir;

namespace {
struct Row {
  double t = 0;
  Eigen::VectorXd q;
  Eigen::MatrixXd dq;
};

// Feeds rows[0..n) through one stage and returns them differentiated, in order.
std::vector<Row> run_stage(const Model& model, const DerivationStage& stage,
                           const std::vector<Row>& rows) {
  std::vector<Row> slots(stage.window, rows.front());
  std::vector<DerivativeWindow::Slot> views;
  for (const Row& r : slots) views.push_back({&r.t, &r.q, &r.dq});
  DerivativeWindow window(model, stage, views);
  std::vector<Row> out;
  size_t next = 0;
  for (;;) {
    if (window.ready()) {
      out.push_back(slots[window.slot_to_emit()]);
      window.derive(out.back().dq);
      continue;
    }
    if (window.ended()) break;
    if (next == rows.size()) {
      window.end();
      continue;
    }
    slots[window.slot_to_fill()] = rows[next++];
    window.filled();
  }
  return out;
}
}  // namespace

TEST_CASE("plan_derivation: v and a from q by three points, higher orders by fits",
          "[derivation]") {
  // q only, up to a: one stage on the manifold, three-point formulas
  auto stages = plan_derivation({true, false, false}, 25);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].source == 0);
  CHECK(stages[0].targets == std::vector<int>{1, 2});
  CHECK(stages[0].window == 3);
  CHECK(stages[0].degree == 2);
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
  CHECK(default_derivation_window(5) == 21);
  CHECK(default_derivation_window(20) == PolynomialFit::kMaxSamples);
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
  const auto out = run_stage(model, stage, rows);
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
  UrdfOptions options;
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
  const auto out = run_stage(model, stage, rows);
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
  const auto out = run_stage(model, stages[0], rows);
  REQUIRE(out.size() == 15);
  for (const Row& r : out) {
    CHECK(r.dq(1, 1) == Approx(-2 + 6 * r.t + 1.5 * r.t * r.t).margin(1e-8));
    CHECK(r.dq(0, 2) == Approx(6 + 3 * r.t).margin(1e-6));
  }
}

TEST_CASE("DerivativeWindow: deriving a row allocates nothing", "[derivation]" EOM_ALLOCATION_TAG) {
  UrdfOptions options;
  options.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf", options);
  const auto stages = plan_derivation({true, false, false, false}, 11);
  std::vector<Row> slots(stages[0].window);
  std::vector<DerivativeWindow::Slot> views;
  for (int r = 0; r < stages[0].window; ++r) {
    slots[r].t = 0.01 * r;
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
  CHECK(window.slot_to_emit() == 0);
}

TEST_CASE("TimeStepCheck: strictly increasing times without tenfold changes of step",
          "[derivation]") {
  TimeStepCheck check;
  CHECK(check(0.0) == TimeStepCheck::Result::ok);
  CHECK(check(0.1) == TimeStepCheck::Result::ok);
  CHECK(check(0.3) == TimeStepCheck::Result::ok);  // twice the step: fine
  CHECK(check(0.3) == TimeStepCheck::Result::not_increasing);
  CHECK(check.previous_t() == 0.3);
  TimeStepCheck jump;
  CHECK(jump(0.0) == TimeStepCheck::Result::ok);
  CHECK(jump(1.0) == TimeStepCheck::Result::ok);
  CHECK(jump(12.0) == TimeStepCheck::Result::step_jump);  // 11 after 1
  CHECK(jump.previous_step() == 1.0);
  CHECK(jump.step() == 11.0);
  TimeStepCheck shrink;
  shrink(0.0);
  shrink(1.0);
  CHECK(shrink(1.05) == TimeStepCheck::Result::step_jump);  // 0.05 after 1
}

TEST_CASE("fill_configuration and fill_derivative: a mimic follows its leader, others neutral",
          "[derivation]") {
  UrdfOptions options;
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
