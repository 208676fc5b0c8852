// eom ik: inverse kinematics for every row of a table of target poses (IkTargetColumns reads them,
// IkPath seeds and solves the rows), written as q columns that feed eom fk, eom id and eom jac.
// With --velocity, the velocity level instead (ik_velocity.cpp).

#include <algorithm>
#include <sstream>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/solvers/ik_path.hpp>
#include <eom/solvers/ik_target.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "ik/ik_velocity.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct IkCliOptions {
  RowOptions rows;
  std::string frame, relative_to, mask;
  double position_weight = 1, orientation_weight = 1;
  std::vector<std::string> q0;       // name=value seeds
  std::vector<std::string> posture;  // seed | centre | name=value...
  bool independent = false;          // every row from --q0, even with t
  IkOptions solver;
  double jump_threshold = 0.3;  // rad or m, largest joint step between consecutive rows
  bool allow_failures = false;
  bool timing = false;    // ik.time_us (wall clock, not reproducible)
  bool summary = false;   // success rate and solve times on stderr (always when a row fails)
  bool velocity = false;  // the velocity-level mode
  IkVelocityOptions velocity_tasks;
};

// x, or null when no row counted it
template <class T>
nlohmann::json when(bool any, const T& x) {
  return any ? nlohmann::json(x) : nlohmann::json();
}

// A tally for the summary.
nlohmann::json tally_json(const RowTally& t) {
  return {{"rows", t.rows},
          {"first_line", when(t.rows > 0, t.first_line)},
          {"worst", when(t.rows > 0, t.worst)},
          {"worst_line", when(t.rows > 0, t.worst_line)}};
}

const char* rows_word(long n) { return n == 1 ? " row" : " rows"; }

class IkTask final : public RowTask {
 public:
  IkTask(const Model& model, const IkCliOptions& opt, const IkProblem& problem,
         const Eigen::VectorXd& seed, const Header& in, const std::string& file)
      : opt_(opt),
        file_(file),
        problem_(problem),
        target_(in, opt.frame, problem.weights, file),
        path_(model, seed, in, opt.rows.time.column, opt.independent, opt.jump_threshold) {
    inputs = target_.columns();  // they must hold numbers
    append(columns, coordinate_columns(model, "q", Space::q));
    append(columns, {"ik.status", "ik.position_error", "ik.orientation_error", "ik.iterations",
                     "ik.restarts"});
    if (opt.timing) columns.emplace_back("ik.time_us");
    amends_first_row = path_.is_path();
  }

  void compute(const Sample& s, double* out) override {
    try {
      target_.read(s.row, s.line, s.t, problem_);
    } catch (const InputError& e) {
      throw InputError(file_, s.line, 0, e.phrase());
    }
    if (amends_first_row && path_.statistics().rows == 0) first_problem_ = problem_;
    write(path_.solve(problem_, s.q, s.line, s.t, opt_.solver), out);
  }

  // a path's first row solved again from the second's solution where that one jumped
  void amend_first_row(double* first) override {
    if (const IkResult* r = path_.resolve_first(first_problem_, opt_.solver)) write(*r, first);
  }

  void write(const IkResult& r, double* out) const {
    for (Eigen::Index k = 0; k < r.q.size(); ++k) *out++ = r.q[k];
    *out++ = r.converged() ? 1 : 0;
    *out++ = r.position_error;
    *out++ = r.orientation_error;
    *out++ = r.iterations;
    *out++ = r.restarts;
    if (opt_.timing) *out++ = r.time_us;
  }

  int finish(const Notes& notes) override {
    const IkRowStatistics& s = path_.statistics();
    const RowTally& normalised = target_.normalised();
    std::ostringstream line;
    const auto print = [&](bool error) {
      error ? notes.error(line.str()) : notes.warning(line.str());
      line.str("");
    };
    if (normalised.rows > 0) {
      line << file_ << ": normalised the target rotation of " << normalised.rows
           << rows_word(normalised.rows)
           << " (a quaternion not of unit norm, or a matrix not quite orthonormal; first at line "
           << normalised.first_line << ", largest deviation " << number_text(normalised.worst)
           << " at line " << normalised.worst_line << "; beyond "
           << number_text(kQuaternionTolerance) << " a target is refused)";
      print(false);
    }
    if (s.jumps.rows > 0) {
      line << file_ << ": the joint path jumps by more than " << number_text(opt_.jump_threshold)
           << " (--jump-threshold) in " << s.jumps.rows << rows_word(s.jumps.rows)
           << ": first at line " << s.jumps.first_line << ", largest " << number_text(s.jumps.worst)
           << " at line " << s.jumps.worst_line;
      print(false);
    }
    if (s.timeouts.rows > 0) {
      line << file_ << ": " << s.timeouts.rows << rows_word(s.timeouts.rows)
           << " stopped at the --timeout wall-clock cap (first at line " << s.timeouts.first_line
           << "): their results depend on the machine's speed; raise --timeout or lower "
              "--max-total-iterations for reproducible output";
      print(false);
    }
    const bool failing = s.failures.rows > 0 && !opt_.allow_failures;
    if (s.failures.rows > 0) {
      line << file_ << ": " << s.failures.rows << " of " << s.rows << rows_word(s.rows)
           << " did not converge (first at line " << s.failures.first_line << ": best residual "
           << number_text(s.first_failure_position_error) << " m, "
           << number_text(s.first_failure_orientation_error) << " rad; largest position error "
           << number_text(s.failures.worst) << " m at line " << s.failures.worst_line
           << "); their q is the best residual found, with ik.status 0"
           << (failing ? " (--allow-failures writes them)" : "");
      print(failing);
    }
    if (!notes.quiet && s.rows > 0 && (opt_.summary || s.failures.rows > 0)) {
      line << "eom ik: " << file_ << ": " << s.converged << " of " << s.rows << " rows converged ("
           << fixed_text(100.0 * s.converged / s.rows, 1) << "%); solve time median "
           << fixed_text(s.solve_time_us.median(), 1) << " us, slowest "
           << fixed_text(s.solve_time_us.largest(), 1) << " us\n";
      notes.out << line.str();
    }
    return failing ? kExitFailure : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    const IkRowStatistics& s = path_.statistics();
    const bool any = s.rows > 0, failed = s.failures.rows > 0;
    nlohmann::json failures = tally_json(s.failures);
    failures["first_position_error"] = when(failed, s.first_failure_position_error);
    failures["first_orientation_error"] = when(failed, s.first_failure_orientation_error);
    table["frame"] = opt_.frame;
    table["converged"] = s.converged;
    table["failed"] = s.failures.rows;
    table["success_rate"] = when(any, static_cast<double>(s.converged) / std::max(s.rows, 1L));
    table["allow_failures"] = opt_.allow_failures;
    table["solve_time_us"] = {{"median", when(any, s.solve_time_us.median())},
                              {"max", when(any, s.solve_time_us.largest())}};
    table["iterations"] = {{"total", s.iterations}, {"max", s.most_iterations}};
    table["restarts"] = {{"total", s.restarts}, {"max", s.most_restarts}};
    table["failures"] = failures;
    table["jumps"] = tally_json(s.jumps);
    table["timeouts"] = tally_json(s.timeouts);
    table["targets_normalised"] = tally_json(target_.normalised());
  }

 private:
  const IkCliOptions& opt_;
  const std::string file_;
  IkProblem problem_;
  IkProblem first_problem_;  // a path's first target, until the second row is solved
  IkTargetColumns target_;
  IkPath path_;
};

int run_ik(IkCliOptions& opt, Streams& io) {
  if (opt.velocity) {
    if (!opt.frame.empty()) throw InputError("--frame places a pose; with --velocity use --task");
    return run_ik_velocity(opt.velocity_tasks, opt.rows, io);
  }
  if (opt.frame.empty()) throw InputError("--frame is required (or --velocity with --task)");
  const Model model = load_robot(opt.rows, io, "ik");
  IkProblem problem;
  problem.frame = require_frame_option(model, "--frame", opt.frame);
  if (!opt.relative_to.empty())
    problem.reference = require_frame_option(model, "--relative-to", opt.relative_to);
  try {
    problem.weights = ik_mask_weights(opt.mask, opt.position_weight, opt.orientation_weight);
  } catch (const InputError& e) {
    throw InputError("--mask '" + opt.mask + "': " + e.message());
  }
  validate(model, problem);  // a frame no joint moves

  const Eigen::VectorXd base_seed =
      with_coordinate_values(model, nominal_seed(model), opt.q0, "--q0");
  const auto objective =
      opt.posture.size() == 1 ? parse_null_space_objective(opt.posture[0]) : std::nullopt;
  if (objective) {
    opt.solver.null_space = *objective;
  } else if (opt.posture.size() == 1 && opt.posture[0].find('=') == std::string::npos) {
    throw InputError("--posture " + opt.posture[0] +
                     ": expected seed, centre, none or NAME=VALUE,... (a posture)");
  } else if (!opt.posture.empty()) {
    opt.solver.null_space = NullSpaceObjective::posture;
    opt.solver.posture = with_coordinate_values(model, base_seed, opt.posture, "--posture");
  }

  // q columns are optional seeds: no joint is required, absent ones start from --q0
  const std::vector<bool> no_joints(model.njoints, false);
  const RowCommand command{
      "ik", 0, no_joints, [&](const Header& header, const std::string& file, const Notes&) {
        return std::make_unique<IkTask>(model, opt, problem, base_seed, header, file);
      }};
  return run_rows(opt.rows, model, command, io);
}

// the solver's budget and tolerances: what decides when a row has converged or failed
void add_solver_options(CLI::App& cmd, IkOptions& solver) {
  cmd.add_option("--position-tolerance", solver.position_tolerance,
                 "Converged when the position error is at most this (m; default 1e-6)")
      ->check(kPositive);
  cmd.add_option("--orientation-tolerance", solver.orientation_tolerance,
                 "... and the orientation error at most this (rad; default 1e-6)")
      ->check(kPositive);
  cmd.add_option("--max-iterations", solver.max_iterations,
                 "Iterations per attempt (the seed, then each restart; default 50)")
      ->check(kPositive);
  cmd.add_option("--max-total-iterations", solver.max_total_iterations,
                 "Iterations per row over all attempts (default 5000): the budget that decides, "
                 "so that output is reproducible")
      ->check(kPositive);
  cmd.add_option("--max-restarts", solver.max_restarts,
                 "Random restarts within the limits per row (default 200)")
      ->check(kNonNegative);
  cmd.add_option("--timeout", solver.timeout,
                 "Wall-clock cap per row in seconds (default 0.5), a safety net above the "
                 "iteration budget; rows it stops are reported (their results depend on the "
                 "machine); 0 disables it")
      ->check(kNonNegative);
  cmd.add_option("--solutions", solver.solutions,
                 "Converged solutions to collect per row; the one nearest the seed is written "
                 "(default 1)")
      ->check(kPositive);
  cmd.add_option("--seed", solver.random_seed,
                 "Seed of the random restarts (default 0); the same seed gives the same output")
      ->check(kNonNegative);
}

}  // namespace

void register_ik(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<IkCliOptions>(
      app, dispatch, "ik",
      "Inverse kinematics for every row: the joint configuration that places --frame at the\n"
      "row's target pose (damped least squares on the SE(3) error, joint limits respected,\n"
      "random restarts). Reads <frame>.x .y .z and <frame>.qx .qy .qz .qw (what eom fk writes),\n"
      "or <frame>.R.<row>.<col> (rows and columns x, y, z), or <frame>.roll .pitch .yaw; optional\n"
      "q.<joint> seeds and ik.weight.x .y .z .rx .ry .rz per-row weights. Writes t, q.* and\n"
      "ik.status (1 converged, 0 failed), ik.position_error, ik.orientation_error,\n"
      "ik.iterations, ik.restarts. Exit 1 when a row fails, unless --allow-failures.\n"
      "--velocity: multi-task differential IK per row (see --task).",
      {"eom fk robots/iiwa14.urdf trajectories/iiwa14_wave.csv --frames iiwa_link_ee | eom ik "
       "robots/iiwa14.urdf - --frame iiwa_link_ee",
       "eom ik robots/iiwa14.urdf trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee "
       "--posture seed -o circle_q.csv",
       "eom ik robots/iiwa14.urdf tests/data/ik/iiwa_position_only.csv --frame iiwa_link_ee "
       "--mask position --q0 iiwa_joint_4=1.5 --summary",
       "eom ik robots/planar_3r.urdf tests/data/ik/planar3_velocity.csv --velocity --task "
       "frame:ee:vx,vz --task joints:joint1,joint2 --priority strict"},
      run_ik);
  // the iteration budget decides (reproducible); the wall-clock cap only catches runaways, far
  // above the 5-15 ms the whole budget takes, so that a preempted process keeps its results
  opt->solver.timeout = 0.5;
  add_robot_options(*cmd, opt->rows.robot, false);
  add_row_options(*cmd, opt->rows, false);
  cmd->add_option("--frame", opt->frame,
                  "The frame to place (any link of the model); required without --velocity");
  add_ik_velocity_options(*cmd, opt->velocity, opt->velocity_tasks);
  cmd->add_option("--relative-to", opt->relative_to,
                  "Targets are placements in this frame (default: the world); it may move with q");
  cmd->add_option("--mask", opt->mask,
                  "Error components to reach, comma separated: x, y, z (position), rx, ry, rz "
                  "(rotation vector), both in the axes of --relative-to (the world's by "
                  "default); position, orientation, all (default)");
  cmd->add_option("--position-weight", opt->position_weight,
                  "Weight of the position error (per m; default 1)")
      ->check(kNonNegative);
  cmd->add_option("--orientation-weight", opt->orientation_weight,
                  "Weight of the orientation error (per rad; default 1)")
      ->check(kNonNegative);
  cmd->add_option("--q0", opt->q0,
                  "Seed configuration, NAME=VALUE,... of q coordinates (default: the middle of "
                  "each joint's limits, 0 for continuous joints)")
      ->delimiter(',');
  cmd->add_flag("--independent", opt->independent,
                "Start every row from --q0, also in a table with t (default there: from the "
                "previous row's solution)");
  cmd->add_option("--posture", opt->posture,
                  "Null-space objective of redundant arms, once the pose is reached: seed (stay "
                  "near the seed), centre (joints to the middle of their limits), NAME=VALUE,... "
                  "(a posture; other coordinates as --q0), none (default)")
      ->delimiter(',');
  add_solver_options(*cmd, opt->solver);
  cmd->add_option("--jump-threshold", opt->jump_threshold,
                  "Report rows of a path whose joints move more than this from the previous "
                  "row's solution (rad or m; default 0.3)")
      ->check(kNonNegative);
  cmd->add_flag("--allow-failures", opt->allow_failures,
                "Rows that do not converge do not fail the run (exit 0; ik.status 0 marks them)");
  cmd->add_flag("--timing", opt->timing,
                "Also write ik.time_us, the wall-clock solve time (differs from run to run)");
  cmd->add_flag("--summary", opt->summary,
                "Print the success rate and the median and largest solve times on stderr (printed "
                "anyway when a row fails); --summary-json FILE writes them, and more, as JSON");
}

}  // namespace eom::cli
