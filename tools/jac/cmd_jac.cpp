// eom jac: a frame's Jacobian for every row of a table of configurations, and what its singular
// value decomposition says (rank, conditioning, manipulability, null space, lost directions);
// the intervals of a trajectory near singularities; task-space dynamics; workspace sampling.
// This file declares and checks the options and runs the task of jac_task.cpp over the tables.

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include <eom/algorithm/singular.hpp>
#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>

#include "cli.hpp"
#include "contact_options.hpp"
#include "jac/jac_task.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

const NamedValues<SingularMeasure> kMeasures = {
    {"sigma", SingularMeasure::sigma}, {"manipulability", SingularMeasure::manipulability}};
const NamedValues<TaskInverse> kInverses = {{"truncated", TaskInverse::truncated},
                                            {"damped", TaskInverse::damped}};

TaskRows parse_task(const std::string& text) {
  if (text == "full") return TaskRows::full();
  if (text == "position") return TaskRows::position();
  if (text == "orientation") return TaskRows::orientation();
  std::vector<std::string> names;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');) names.push_back(name);
  try {
    return TaskRows::named(names);
  } catch (const InputError& e) {
    throw InputError("--task " + text + ": " + e.what() + "; or full, position, orientation");
  }
}

void check_positive(const char* option, double value) {
  if (!(value > 0) || !std::isfinite(value)) {
    std::ostringstream text;
    text << option << ' ' << number_text(value) << ": must be a positive number";
    throw InputError(text.str());
  }
}

JacSettings settle(const Model& model, const JacOptions& opt) {
  JacSettings s;
  if (opt.frame.empty() && opt.contacts.specs.empty()) {
    throw InputError("--frame is required (or --contacts)");
  }
  if (!opt.frame.empty()) s.frame = require_frame_option(model, "--frame", opt.frame);
  // a Jacobian without columns has no singular values to report
  if (model.nv == 0) {
    throw InputError((opt.frame.empty() ? "--contacts" : "--frame " + opt.frame) +
                     ": the model has no joint coordinates (every joint is fixed), so its "
                     "Jacobian has no columns to analyse");
  }
  const auto reference = parse_reference_frame(opt.reference);
  if (!reference) {
    throw InputError("--reference " + opt.reference +
                     ": unknown reference (choose world, local or local-world-aligned)");
  }
  s.reference = *reference;
  if (!opt.analytical.empty()) {
    s.analytical = parse_orientation_parametrization(opt.analytical);
    if (!s.analytical) {
      throw InputError("--analytical " + opt.analytical +
                       ": unknown parametrisation (choose euler-zyx, euler-xyz, quaternion or "
                       "rotation-vector)");
    }
  }
  s.task = parse_task(opt.task);
  // --tol alone: relative; --abs-tol alone: absolute; both: the larger threshold of the two
  const bool relative = !std::isnan(opt.tol), absolute = !std::isnan(opt.abs_tol);
  if (relative) check_positive("--tol", opt.tol);
  if (absolute) check_positive("--abs-tol", opt.abs_tol);
  if (relative || absolute) {
    s.tolerance = RankTolerance{absolute ? opt.abs_tol : 0, relative ? opt.tol : 0};
  }
  if (!std::isnan(opt.threshold)) check_positive("--threshold", opt.threshold);
  s.scan.threshold = opt.threshold;
  s.scan.measure = opt.measure;
  s.time_variation = opt.jdot;
  s.inverse = opt.inverse;
  if (opt.dynamics) refuse_singular_mass_matrix(model, "--dynamics: ", "task-space dynamics");
  return s;
}

// --sample N: configurations drawn within the limits; the worst as a table, quantiles on stderr.
int run_sample(const JacOptions& opt, const JacSettings& s, const Model& model, Streams& io) {
  check_destinations(io.inputs, {opt.rows.output.path}, opt.rows.summary);
  WorkspaceSampleOptions options;
  options.samples = opt.sample;
  options.seed = opt.seed;
  options.worst = opt.worst;
  options.reference = s.reference;
  options.task = s.task;
  options.tolerance = s.tolerance;
  const WorkspaceSampleResult result = sample_workspace(model, s.frame, options);

  Header header;
  header.names = coordinate_columns(model, "q", Space::q);
  for (const char* name : {"manipulability", "inverse_condition", "rank"}) {
    header.names.push_back(name);
  }
  auto out = open_output(opt.rows.output, header);
  std::vector<double> row(header.names.size());
  for (const WorkspaceSamplePoint& point : result.worst) {
    std::copy(point.q.data(), point.q.data() + model.nq, row.begin());
    row[model.nq] = point.manipulability;
    row[model.nq + 1] = 1 / point.condition;  // 0 for an infinite condition number
    row[model.nq + 2] = point.rank;
    out->write_row(row.data());
  }

  auto quantiles = [&](const std::vector<double>& values) {
    std::ostringstream text;
    for (size_t k = 0; k < values.size(); ++k) {
      text << (k ? ", " : "") << number_text(result.probabilities[k] * 100)
           << "%: " << number_text(values[k]);
    }
    return text.str();
  };
  if (!opt.rows.quiet) {
    const std::string& frame = model.frames[s.frame].name;
    io.err << "eom jac: " << frame << " over " << opt.sample << " configurations (seed " << opt.seed
           << ")\n  manipulability quantiles: " << quantiles(result.manipulability)
           << "\n  condition quantiles: " << quantiles(result.condition)
           << "\n  rank-deficient: " << result.rank_deficient << '\n';
  }
  nlohmann::json summaries;
  if (!opt.rows.summary.empty()) {
    nlohmann::json worst = nlohmann::json::array();
    for (const WorkspaceSamplePoint& point : result.worst) {
      worst.push_back({{"q", std::vector<double>(point.q.data(), point.q.data() + model.nq)},
                       {"manipulability", point.manipulability},
                       {"condition", point.condition},
                       {"rank", point.rank}});
    }
    // one object, as for a table: no input file, the K worst configurations as rows
    nlohmann::json summary =
        summary_object("jac", nullptr, opt.rows.output.path, true,
                       static_cast<long>(result.worst.size()), kExitOk, MessageLog{});
    summary["frame"] = model.frames[s.frame].name;
    summary["samples"] = opt.sample;
    summary["seed"] = opt.seed;
    summary["probabilities"] = result.probabilities;
    summary["manipulability"] = result.manipulability;
    summary["condition"] = result.condition;
    summary["rank_deficient"] = result.rank_deficient;
    summary["worst"] = worst;
    summaries = nlohmann::json::array({summary});
  }
  commit_results({out.get()}, opt.rows.summary, summaries);
  return kExitOk;
}

int run_jac(const JacOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "jac");
  const JacSettings settings = settle(model, opt);
  const ContactSet contacts = load_contacts(model, opt.contacts);
  if (opt.sample > 0) {
    if (!contacts.contacts.empty()) throw InputError("--sample is not available with --contacts");
    if (!opt.rows.tables.empty()) {
      throw InputError("--sample draws its configurations: give no TABLE");
    }
    return run_sample(opt, settings, model, io);
  }
  if (opt.rows.tables.empty()) throw InputError("TABLE is required (or --sample N)");
  RowCommand command;
  command.name = "jac";
  command.order = opt.jdot || opt.dynamics ? 1 : 0;
  if (!opt.dynamics) {
    // only the joints that move the frame and the contacts need columns
    command.joints.assign(model.njoints, false);
    std::vector<int> frames;
    if (!opt.frame.empty()) frames.push_back(settings.frame);
    for (const Contact& contact : contacts.contacts) frames.push_back(contact.frame);
    for (int f : frames) {
      for (int i = model.frames[f].parent; i > 0; i = model.parent[i]) command.joints[i] = true;
    }
  }
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    std::unique_ptr<RowTask> task;
    if (!opt.frame.empty()) task = make_jac_task(model, opt, settings, file);
    if (contacts.contacts.empty()) return task;
    return with_contact_ranks(std::move(task), model, contacts, settings.tolerance, header, file);
  };
  return run_rows(opt.rows, model, command, io);
}

// the report of the intervals near singularities (stderr, --summary-json) and its exit code
void add_singularity_options(CLI::App& cmd, JacOptions& opt) {
  cmd.add_option("--threshold", opt.threshold,
                 "Report the intervals where the measure is below this (default: where the "
                 "rank is below m)");
  add_choice(cmd, "--measure", opt.measure, kMeasures,
             "sigma (the smallest singular value, default) or manipulability");
  cmd.add_option("--summary", opt.rows.summary,
                 "The former name of --summary-json: the intervals (or the --sample report) are "
                 "in its objects")
      ->excludes("--summary-json");
  cmd.add_flag("--fail-on-singular", opt.fail_on_singular,
               "Exit 1, writing no output table, when an interval is found");
}

// workspace sampling instead of a table
void add_sample_options(CLI::App& cmd, JacOptions& opt) {
  cmd.add_option("--sample", opt.sample,
                 "Draw N configurations within the limits instead of reading TABLE; writes the "
                 "worst (q.*, manipulability, inverse_condition, rank), quantiles on stderr")
      ->check(kPositive);
  cmd.add_option("--seed", opt.seed, "Seed of --sample (default 1)");
  cmd.add_option("--worst", opt.worst, "Configurations --sample writes (default 5)")
      ->check(kPositive);
}

}  // namespace

void register_jac(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<JacOptions>(
      app, dispatch, "jac",
      "A frame's Jacobian for every row of q columns, with its singular values, rank,\n"
      "condition number, manipulability and null space over the task rows; the intervals of\n"
      "a trajectory near singularities with the lost directions in words (stderr,\n"
      "--summary-json);\n"
      "task-space dynamics; or workspace sampling (--sample N, without TABLE). Writes t,\n"
      "sigma.1..sigma.m (m = min(task rows, nv)), rank, rank_margin, inverse_condition\n"
      "(sigma_m / sigma_1: 0 where the condition number is infinite), manipulability, nullity\n"
      "and the columns the options add.\n"
      "Rank rule: sigma_i counts iff sigma_i > max(--abs-tol, --tol * sigma_1); default --tol\n"
      "1e-6 (relative). rank_margin = min |sigma_i - threshold| / (1 + tol): no perturbation of\n"
      "J smaller than that (2-norm) changes the rank; decisions closer than that are fragile.",
      {"eom jac robots/ur5.urdf trajectories/ur5_wave.csv --frame tool0 -o ur5_jac.csv",
       "eom jac robots/iiwa14.urdf trajectories/iiwa14_wave.csv --frame iiwa_link_ee "
       "--jacobian --reference world --task position",
       "eom jac robots/ur5.urdf trajectories/ur5_wave.csv --frame tool0 --threshold 0.01 "
       "--summary-json singular.json --fail-on-singular -o /dev/null",
       "eom jac robots/panda.urdf --frame panda_hand_tcp --sample 10000 --seed 3 -o worst.csv"},
      run_jac);
  add_robot_options(*cmd, opt->rows.robot);
  add_row_options(*cmd, opt->rows, true);
  cmd->get_option("TABLE")->required(false);
  CLI::Option* frame = cmd->add_option(
      "--frame", opt->frame, "The frame (a link name); required unless --contacts is given");
  cmd->add_flag("--jacobian", opt->jacobian,
                "Write the Jacobian's task rows as J.<row>.<coordinate> (rows vx vy vz wx wy wz, "
                "coordinates the velocity coordinates: joint names, root.vx..root.wz)");
  cmd->add_option("--reference", opt->reference,
                  "world, local or local-world-aligned (default: J v = [p_dot; omega] of the "
                  "frame origin in world axes)");
  cmd->add_flag("--jdot", opt->jdot,
                "Write Jdot_v.<row> = dJ/dt v (reads v, derived from q and t when absent); with "
                "--jacobian also Jdot.<row>.<coordinate>");
  cmd->add_option(
      "--analytical", opt->analytical,
      "Write the analytical Jacobian JA.<x|y|z|param>.<coordinate>, d/dt [p; chi] "
      "= JA v, for euler-zyx (ez ey ex), euler-xyz (ex ey ez), quaternion (qx qy qz "
      "qw) or rotation-vector (rx ry rz); a row at the parametrisation's own singularity is "
      "an error");
  cmd->add_option("--task", opt->task,
                  "The task rows every figure uses: full (default), position, orientation, or "
                  "rows by name, comma separated (vx,vz,wy)");
  cmd->add_option("--tol", opt->tol,
                  "Rank tolerance relative to the largest singular value (default 1e-6)");
  cmd->add_option("--abs-tol", opt->abs_tol,
                  "Absolute rank tolerance (alone: replaces the relative one; with --tol: the "
                  "larger threshold wins)");
  cmd->add_flag("--nullspace", opt->nullspace,
                "Write an orthonormal null-space basis null.<k>.<coordinate>, k = 1..nv; "
                "columns past the nullity are 0");
  add_singularity_options(*cmd, *opt);
  cmd->add_flag("--dynamics", opt->dynamics,
                "Task-space dynamics (reads v): Lambda.<row>.<row> = (J M^-1 J^T)^-1, mu.<row> "
                "(Coriolis), p.<row> (gravity), Jbar.<coordinate>.<row> = M^-1 J^T Lambda and "
                "Lambda_rank");
  add_choice(*cmd, "--inverse", opt->inverse, kInverses,
             "How Lambda is inverted near singularities: truncated (default) or damped, "
             "threshold max(0, 1e-12 * the largest eigenvalue of J M^-1 J^T)");
  add_sample_options(*cmd, *opt);
  for (const char* name : {"--jacobian", "--reference", "--jdot", "--analytical", "--task",
                           "--nullspace", "--threshold", "--measure", "--fail-on-singular",
                           "--dynamics", "--inverse", "--sample", "--seed", "--worst"}) {
    cmd->get_option(name)->needs(frame);
  }
  add_contact_options(*cmd, opt->contacts, false);
  cmd->get_option("--contacts")
      ->description(
          "Also write contact.rank, contact.base_rank, contact.internal and contact.full of "
          "these contacts (FRAME[:1d|:3d|:6d],...; the rank rule of --tol and --abs-tol)");
}

}  // namespace eom::cli
