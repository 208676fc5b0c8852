// eom ik --velocity: multi-task differential IK per row (DifferentialIk of eom/solvers/ik.hpp), the
// velocity-level mode of eom ik, kept apart from the pose solver's glue in cmd_ik.cpp.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <eom/rows/run.hpp>
#include <eom/rows/row_engine.hpp>

namespace eom::cli {

using namespace eom::rows;

/// --priority: how the tasks share the joint velocities.
enum class TaskPriority {
  stacked,  // weighted least squares over all tasks at once
  strict,   // each task only in the null space of those before it
};

struct IkVelocityOptions {
  std::vector<std::string> tasks;  // frame:FRAME[:COMPONENTS] | joints:NAME,NAME...; priority order
  TaskPriority priority = TaskPriority::stacked;
  double damping = 0;
  std::vector<double> weights;  // one per task, or empty
};

/// Adds --velocity (setting `velocity`), --task (which needs it), --priority, --damping and
/// --weights.
void add_ik_velocity_options(CLI::App& cmd, bool& velocity, IkVelocityOptions& opt);

/// Runs the velocity mode over opt.tables.
int run_ik_velocity(const IkVelocityOptions& velocity, const RowOptions& rows, Streams& io);

}  // namespace eom::cli
