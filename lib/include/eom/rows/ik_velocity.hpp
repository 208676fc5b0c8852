// eom ik --velocity: multi-task differential IK per row (DifferentialIk of eom/solvers/ik.hpp), the
// velocity-level mode of eom ik, kept apart from the pose solver's glue in cmd_ik.cpp.
#pragma once

#include <string>
#include <vector>

#include <eom/rows/run.hpp>
#include <eom/rows/row_engine.hpp>

namespace eom::rows {

struct IkVelocityOptions {
  std::vector<std::string> tasks;  // frame:FRAME[:COMPONENTS] | joints:NAME,NAME...; priority order
  std::string priority = "stacked";
  double damping = 0;
  std::vector<double> weights;  // one per task, or empty
};

/// Runs the velocity mode over opt.tables.
int run_ik_velocity(const IkVelocityOptions& velocity, const RowOptions& rows, Streams& io);

}  // namespace eom::rows
