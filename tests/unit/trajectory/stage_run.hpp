// Feeding rows through one derivation stage as the row engine does, for the derivation tests.
#pragma once

#include <vector>

#include <catch2/catch.hpp>

#include <eom/trajectory/derivation.hpp>

namespace eom::test {

struct Row {
  double t = 0;
  Eigen::VectorXd q;
  Eigen::MatrixXd dq;
  bool segment_start = false;  // a gap in t precedes it
};

struct StageRun {
  std::vector<Row> rows;  // differentiated, in order
  long rows_near_gaps = 0;
  long too_short = 0;  // the rows of a segment too short to derive (the run stops there)
};

// Feeds rows[0..n) through one stage as the row engine does and returns them differentiated.
inline StageRun run_stage(const Model& model, const DerivationStage& stage,
                          const std::vector<Row>& rows) {
  std::vector<Row> slots(DerivativeWindow::slots_needed(stage), rows.front());
  std::vector<DerivativeWindow::Slot> views;
  for (const Row& r : slots) views.push_back({&r.t, &r.q, &r.dq});
  DerivativeWindow window(model, stage, views);
  StageRun run;
  size_t next = 0;
  for (;;) {
    if (window.ready()) {
      run.rows.push_back(slots[window.slot_to_emit()]);
      window.derive(run.rows.back().dq);
      continue;
    }
    if (window.too_few_rows()) {
      run.too_short = window.segment_rows();
      break;
    }
    if (window.next_segment()) continue;
    if (window.ended()) break;
    REQUIRE(window.wants_row());
    if (next == rows.size()) {
      window.end();
      continue;
    }
    const int slot = window.slot_to_fill();
    slots[slot] = rows[next++];
    window.filled(slots[slot].segment_start);
  }
  run.rows_near_gaps = window.rows_near_gaps();
  return run;
}

// Rows of the planar 2R arm at times `t`, q from `q_of(t)` (two joints), derivatives zero.
template <class F>
std::vector<Row> planar_rows(const std::vector<double>& times, F q_of, int order = 2) {
  std::vector<Row> rows;
  for (double t : times) {
    Row r;
    r.t = t;
    r.q = q_of(t);
    r.dq = Eigen::MatrixXd::Zero(2, order);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace eom::test
