// eom jac over a table: the options, the task that writes a frame's Jacobian figures per row
// (FrameJacobianAnalysis) and reports the intervals near singularities (SingularIntervalScan), and
// the contact ranks of --contacts. cmd_jac.cpp declares and checks the options and runs the task.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/frame_jacobian.hpp>
#include <eom/algorithm/task_space.hpp>
#include <eom/trajectory/singular_intervals.hpp>

#include <eom/rows/row_engine.hpp>

#include "contact_options.hpp"

namespace eom::cli {

using namespace eom::rows;

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
  SingularMeasure measure = SingularMeasure::sigma;
  bool fail_on_singular = false;
  bool dynamics = false;
  TaskInverse inverse = TaskInverse::truncated;
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

/// eom jac --contacts: the contact ranks of each row written after the columns of `frame_task`
/// (none when null), which it runs first; finish() and summarize() are its.
std::unique_ptr<RowTask> with_contact_ranks(std::unique_ptr<RowTask> frame_task, const Model& model,
                                            const ContactSet& contacts,
                                            const RankTolerance& tolerance, const Header& header,
                                            const std::string& file);

}  // namespace eom::cli
