// eom jac over a table: the options, and the task that writes a frame's Jacobian figures per row
// (FrameJacobianAnalysis) and reports the intervals near singularities (SingularIntervalScan).
// cmd_jac.cpp checks the options and runs the task.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include <eom/algorithm/frame_jacobian.hpp>
#include <eom/trajectory/singular_intervals.hpp>

#include <eom/rows/contacts.hpp>
#include <eom/rows/row_engine.hpp>

namespace eom::rows {

struct JacOptions {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();  // not given

  RowOptions rows;
  std::string frame;  // empty: only the contacts' ranks (--contacts)
  bool jacobian = false;
  std::string reference = "local-world-aligned";
  bool jdot = false;
  std::string analytical;  // empty: none
  std::string task = "full";
  double tol = kNaN;      // relative tolerance of the rank rule; nan: not given
  double abs_tol = kNaN;  // absolute tolerance; nan: not given
  bool nullspace = false;
  double threshold = kNaN;  // scan threshold; nan: not given (rank-deficient rows)
  std::string measure = "sigma";
  bool fail_on_singular = false;
  bool dynamics = false;
  std::string inverse = "truncated";
  int sample = 0;
  std::uint64_t seed = 1;
  int worst = 5;
  ContactOptions contacts;  // --contacts: their ranks per row
};

// Everything the options say, checked once: what the analysis computes, and the scan.
struct JacSettings : FrameJacobianOptions {
  SingularScanOptions scan;
};

/// The task of one table: the columns the options ask for, the intervals on stderr and in the
/// summary.
std::unique_ptr<RowTask> make_jac_task(const Model& model, const JacOptions& opt,
                                       const JacSettings& settings, const std::string& file);

}  // namespace eom::rows
