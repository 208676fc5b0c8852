// eom ik: inverse kinematics for every row of a table of target poses: the joint configuration
// that places a frame at the row's pose (IkSolver of eom/solvers/ik.hpp), written as q columns so the
// output feeds eom fk, eom id and eom jac. With --velocity, the velocity level instead
// (ik_velocity.cpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>

#include <eom/io/columns.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/core/errors.hpp>
#include <eom/solvers/ik.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "ik_velocity.hpp"
#include "row_engine.hpp"

namespace eom::cli {
namespace {

struct IkCliOptions {
  RowOptions rows;
  std::string frame;
  std::string relative_to;
  std::string mask;
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

// Target columns of <frame>: the position, and the orientation in one of three forms.
constexpr const auto& kPosition = kPositionComponents;
constexpr const auto& kQuaternion = kQuaternionComponents;
const char* const kMatrix[] = {"R.x.x", "R.x.y", "R.x.z", "R.y.x", "R.y.y",
                               "R.y.z", "R.z.x", "R.z.y", "R.z.z"};
const char* const kRpy[] = {"roll", "pitch", "yaw"};
const char* const kWeight[] = {"ik.weight.x",  "ik.weight.y",  "ik.weight.z",
                               "ik.weight.rx", "ik.weight.ry", "ik.weight.rz"};

enum class Orientation { none, quaternion, matrix, rpy };

// "name=value" -> the q coordinate and the value; throws naming the option
std::pair<int, double> coordinate_value(const Model& model, const std::string& item,
                                        const std::string& option) {
  const size_t eq = item.find('=');
  const std::string name = item.substr(0, eq);
  const auto value = eq == std::string::npos ? std::nullopt : parse_number(item.substr(eq + 1));
  if (!value) throw InputError(option + " " + item + ": expected NAME=VALUE");
  const auto it = std::find(model.q_names.begin(), model.q_names.end(), name);
  if (it == model.q_names.end()) {
    throw InputError(option + " " + item + ": the model has no joint coordinate '" + name +
                     "' (`eom info` lists them)");
  }
  return {static_cast<int>(it - model.q_names.begin()), *value};
}

// The default seed: the middle of every bounded coordinate's limits (the TRAC-IK benchmark's
// nominal seed), neutral for the others (continuous joints, the free-flyer)
Eigen::VectorXd nominal_seed(const Model& model) {
  Eigen::VectorXd q = neutral(model);
  for (int k = 0; k < model.nq; ++k) {
    if (std::isfinite(model.lower_limit[k]) && std::isfinite(model.upper_limit[k]))
      q[k] = 0.5 * (model.lower_limit[k] + model.upper_limit[k]);
  }
  return q;
}

// Solve times on a log scale, 100 bins per decade from 0.1 us: the median without storing rows.
class TimeHistogram {
 public:
  void add(double us) {
    const double bin = std::floor(100 * std::log10(std::max(us, 0.1) / 0.1));
    ++bins_[static_cast<size_t>(std::min(bin, double(bins_.size() - 1)))];
    ++count_;
    largest_ = std::max(largest_, us);
  }
  double median() const {
    long seen = 0;
    for (size_t b = 0; b < bins_.size(); ++b) {
      seen += bins_[b];
      if (2 * seen >= count_) return 0.1 * std::pow(10.0, (b + 0.5) / 100);
    }
    return 0;
  }
  double largest() const { return largest_; }

 private:
  std::array<long, 900> bins_{};
  long count_ = 0;
  double largest_ = 0;
};

// A row event counted for the summary: how many, the first line, the worst value and its line.
struct Tally {
  long rows = 0;
  int first_line = 0, worst_line = 0;
  double worst = 0;
  void add(int line, double value) {
    if (rows++ == 0) first_line = line;
    if (value > worst || rows == 1) worst = value, worst_line = line;
  }
  // lines and values are null when no row counted
  nlohmann::json to_json() const {
    const auto when_any = [&](auto x) { return rows > 0 ? nlohmann::json(x) : nlohmann::json(); };
    return {{"rows", rows},
            {"first_line", when_any(first_line)},
            {"worst", when_any(worst)},
            {"worst_line", when_any(worst_line)}};
  }
};

class IkTask final : public RowTask {
 public:
  IkTask(const Model& model, const IkCliOptions& opt, const IkProblem& problem,
         const Eigen::VectorXd& base_seed, const Header& in, const std::string& file)
      : model_(model),
        opt_(opt),
        file_(file),
        solver_(model),
        problem_(problem),
        global_weights_(problem.weights),
        base_seed_(base_seed),
        seed_(base_seed),
        previous_(base_seed) {
    bind_targets(in);
    // a q column seeds its coordinate; without any, a table with time is a path: each row
    // starts from the previous row's solution
    from_table_.assign(model.nq, 0);
    bool any_q = false;
    for (int k = 0; k < model.nq; ++k) {
      from_table_[k] = in.index(column_name("q", model.q_names[k])) >= 0;
      any_q = any_q || from_table_[k];
    }
    continuous_ = !any_q && !opt.independent && in.index(opt.rows.time_column) >= 0;

    for (auto& n : coordinate_columns(model, "q", Space::q)) columns.push_back(std::move(n));
    for (const char* n :
         {"ik.status", "ik.position_error", "ik.orientation_error", "ik.iterations", "ik.restarts"})
      columns.emplace_back(n);
    if (opt.timing) columns.emplace_back("ik.time_us");
  }

  void compute(const Sample& s, double* out) override {
    try {
      read_target(s);
    } catch (const InputError& e) {
      throw InputError(file_, s.line, 0, e.message());
    }
    if (continuous_) {
      seed_ = previous_;
    } else {
      for (int k = 0; k < model_.nq; ++k) seed_[k] = from_table_[k] ? s.q[k] : base_seed_[k];
    }
    const IkResult& r = solver_.solve(problem_, seed_, opt_.solver);

    ++rows_;
    times_.add(r.time_us);
    iterations_ += r.iterations;
    restarts_ += r.restarts;
    most_iterations_ = std::max<long>(most_iterations_, r.iterations);
    most_restarts_ = std::max<long>(most_restarts_, r.restarts);
    if (r.converged()) {
      ++converged_;
      previous_ = r.q;
      if (continuous_ && rows_ > 1 && r.jump > opt_.jump_threshold) jumps_.add(s.line, r.jump);
    } else {
      failures_.add(s.line, r.position_error);
      if (failures_.rows == 1) first_failure_ = {r.position_error, r.orientation_error};
    }
    if (r.timed_out) timeouts_.add(s.line, r.time_us);

    for (int k = 0; k < model_.nq; ++k) *out++ = r.q[k];
    *out++ = r.converged() ? 1 : 0;
    *out++ = r.position_error;
    *out++ = r.orientation_error;
    *out++ = r.iterations;
    *out++ = r.restarts;
    if (opt_.timing) *out++ = r.time_us;
  }

  int finish(const Notes& notes) override {
    std::ostringstream line;
    const auto print = [&](bool error) {
      error ? notes.error(line.str()) : notes.warning(line.str());
      line.str("");
    };
    if (renormalised_.rows > 0) {
      line << file_ << ": normalised the target rotation of " << renormalised_.rows
           << (renormalised_.rows == 1 ? " row" : " rows")
           << " (a quaternion not of unit norm, or a matrix not quite orthonormal; first at line "
           << renormalised_.first_line << ", largest deviation " << renormalised_.worst
           << " at line " << renormalised_.worst_line << "; beyond " << kQuaternionTolerance
           << " a target is refused)";
      print(false);
    }
    if (jumps_.rows > 0) {
      line << file_ << ": the joint path jumps by more than " << opt_.jump_threshold
           << " (--jump-threshold) in " << jumps_.rows << (jumps_.rows == 1 ? " row" : " rows")
           << ": first at line " << jumps_.first_line << ", largest " << jumps_.worst << " at line "
           << jumps_.worst_line;
      print(false);
    }
    if (timeouts_.rows > 0) {
      line << file_ << ": " << timeouts_.rows << (timeouts_.rows == 1 ? " row" : " rows")
           << " stopped at the --timeout wall-clock cap (first at line " << timeouts_.first_line
           << "): their results depend on the machine's speed; raise --timeout or lower "
              "--max-total-iterations for reproducible output";
      print(false);
    }
    const bool failing = failures_.rows > 0 && !opt_.allow_failures;
    if (failures_.rows > 0) {
      line << file_ << ": " << failures_.rows << " of " << rows_ << (rows_ == 1 ? " row" : " rows")
           << " did not converge (first at line " << failures_.first_line << ": best residual "
           << first_failure_[0] << " m, " << first_failure_[1] << " rad; largest position error "
           << failures_.worst << " m at line " << failures_.worst_line
           << "); their q is the best residual found, with ik.status 0"
           << (failing ? " (--allow-failures writes them)" : "");
      print(failing);
    }
    if (!notes.quiet && rows_ > 0 && (opt_.summary || failures_.rows > 0)) {
      std::ostringstream summary;
      summary << std::fixed << std::setprecision(1) << "eom ik: " << file_ << ": " << converged_
              << " of " << rows_ << " rows converged (" << 100.0 * converged_ / rows_
              << "%); solve time median " << times_.median() << " us, slowest " << times_.largest()
              << " us\n";
      notes.out << summary.str();
    }
    return failing ? kExitFailure : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    const auto when = [](bool any, auto x) { return any ? nlohmann::json(x) : nlohmann::json(); };
    const auto when_any = [&](auto x) { return when(rows_ > 0, x); };
    nlohmann::json failures = failures_.to_json();
    failures["first_position_error"] = when(failures_.rows > 0, first_failure_[0]);
    failures["first_orientation_error"] = when(failures_.rows > 0, first_failure_[1]);
    table["frame"] = opt_.frame;
    table["converged"] = converged_;
    table["failed"] = failures_.rows;
    table["success_rate"] = when_any(static_cast<double>(converged_) / std::max(rows_, 1L));
    table["allow_failures"] = opt_.allow_failures;
    table["solve_time_us"] = {{"median", when_any(times_.median())},
                              {"max", when_any(times_.largest())}};
    table["iterations"] = {{"total", iterations_}, {"max", most_iterations_}};
    table["restarts"] = {{"total", restarts_}, {"max", most_restarts_}};
    table["failures"] = failures;
    table["jumps"] = jumps_.to_json();
    table["timeouts"] = timeouts_.to_json();
    table["targets_normalised"] = renormalised_.to_json();
  }

 private:
  std::string column(const char* suffix) const { return column_name(opt_.frame, suffix); }

  template <class Suffixes>
  bool any_present(const Header& in, const Suffixes& suffixes) const {
    return std::any_of(std::begin(suffixes), std::end(suffixes),
                       [&](const char* s) { return in.index(column(s)) >= 0; });
  }

  template <class Suffixes>
  void bind(const Header& in, const Suffixes& suffixes, int* index) {
    std::vector<std::string> names;
    for (const char* s : suffixes) names.push_back(column(s));
    const std::vector<int> found = bind_columns(in, names, file_);  // throws naming the missing
    std::copy(found.begin(), found.end(), index);
    inputs.insert(inputs.end(), found.begin(), found.end());  // must hold numbers
  }

  void bind_targets(const Header& in) {
    bool position = (global_weights_.head<3>().array() > 0).any();
    bool orientation = (global_weights_.tail<3>().array() > 0).any();
    for (int k = 0; k < 6; ++k) {
      weight_[k] = in.index(kWeight[k]);
      if (weight_[k] >= 0) {
        (k < 3 ? position : orientation) = true;
        inputs.push_back(weight_[k]);
      }
    }
    if (position) bind(in, kPosition, position_.data());

    std::vector<std::pair<Orientation, std::string>> given;
    if (any_present(in, kQuaternion)) given.emplace_back(Orientation::quaternion, "quaternion");
    if (any_present(in, kMatrix)) given.emplace_back(Orientation::matrix, "rotation matrix");
    if (any_present(in, kRpy)) given.emplace_back(Orientation::rpy, "roll-pitch-yaw");
    if (given.size() > 1) {
      throw InputError(file_, 1, 0,
                       "the orientation of " + opt_.frame + " is given both as " + given[0].second +
                           " and as " + given[1].second + ": give one");
    }
    if (!orientation) return;
    if (given.empty()) {
      throw InputError(file_, 1, 0,
                       "missing the target orientation of " + opt_.frame + ": columns " +
                           column("qx") + " .qy .qz .qw, or " + column("R.x.x") + " ... " +
                           column("R.z.z") + ", or " + column("roll") +
                           " .pitch .yaw (or --mask position)");
    }
    orientation_kind_ = given[0].first;
    switch (orientation_kind_) {
      case Orientation::quaternion:
        bind(in, kQuaternion, orientation_.data());
        break;
      case Orientation::matrix:
        bind(in, kMatrix, orientation_.data());
        break;
      case Orientation::rpy:
        bind(in, kRpy, orientation_.data());
        break;
      case Orientation::none:
        break;
    }
  }

  // the row's target placement and weights into problem_ (throws InputError without location)
  void read_target(const Sample& s) {
    const auto& row = s.row;
    for (int k = 0; k < 3; ++k) problem_.target.p[k] = position_[k] >= 0 ? row[position_[k]] : 0;
    bool renormalised = false;
    const int* c = orientation_.data();
    switch (orientation_kind_) {
      case Orientation::none:
        problem_.target.R.setIdentity();
        break;
      case Orientation::quaternion: {
        problem_.target.R =
            checked_quaternion(row[c[0]], row[c[1]], row[c[2]], row[c[3]], renormalised);
        if (renormalised) {
          const double n = std::sqrt(row[c[0]] * row[c[0]] + row[c[1]] * row[c[1]] +
                                     row[c[2]] * row[c[2]] + row[c[3]] * row[c[3]]);
          renormalised_.add(s.line, std::abs(n - 1));
        }
        break;
      }
      case Orientation::matrix: {
        Mat3 R;
        for (int k = 0; k < 9; ++k) R(k / 3, k % 3) = row[c[k]];
        problem_.target.R = checked_rotation_matrix(R, renormalised);
        if (renormalised) renormalised_.add(s.line, (problem_.target.R - R).cwiseAbs().maxCoeff());
        break;
      }
      case Orientation::rpy:
        problem_.target.R = rpy_to_matrix(Vec3(row[c[0]], row[c[1]], row[c[2]]));
        break;
    }
    for (int k = 0; k < 6; ++k) {
      problem_.weights[k] = weight_[k] >= 0 ? row[weight_[k]] : global_weights_[k];
    }
    if ((problem_.weights.array() < 0).any()) {
      throw InputError("ik.weight.* columns must not be negative");
    }
    if ((problem_.weights.array() == 0).all()) {
      throw InputError("the ik.weight.* columns and --mask select nothing in this row");
    }
  }

  const Model& model_;
  const IkCliOptions& opt_;
  const std::string file_;
  IkSolver solver_;
  IkProblem problem_;
  const Vec6 global_weights_;
  const Eigen::VectorXd& base_seed_;
  Eigen::VectorXd seed_, previous_;
  std::vector<char> from_table_;  // per q coordinate: the table's q column seeds it
  bool continuous_ = false;       // seed = the previous row's solution
  std::array<int, 3> position_{-1, -1, -1};
  Orientation orientation_kind_ = Orientation::none;
  std::array<int, 9> orientation_{};
  std::array<int, 6> weight_{};
  // for the summary
  long rows_ = 0, converged_ = 0;
  long iterations_ = 0, restarts_ = 0, most_iterations_ = 0, most_restarts_ = 0;
  TimeHistogram times_;
  Tally failures_, jumps_, timeouts_, renormalised_;
  std::array<double, 2> first_failure_{};  // its position and orientation errors
};

int run_ik(IkCliOptions& opt, Streams& io) {
  if (opt.velocity) {
    if (!opt.frame.empty()) throw InputError("--frame places a pose; with --velocity use --task");
    return run_ik_velocity(opt.velocity_tasks, opt.rows, io);
  }
  if (opt.frame.empty()) throw InputError("--frame is required (or --velocity with --task)");
  if (!opt.velocity_tasks.tasks.empty()) throw InputError("--task needs --velocity");
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

  const Eigen::VectorXd base_seed = [&] {
    Eigen::VectorXd q = nominal_seed(model);
    for (const auto& item : opt.q0) {
      const auto [k, value] = coordinate_value(model, item, "--q0");
      q[k] = value;
    }
    return q;
  }();
  IkOptions& solver = opt.solver;
  if (opt.posture.size() == 1 && (opt.posture[0] == "seed" || opt.posture[0] == "none" ||
                                  opt.posture[0] == "centre" || opt.posture[0] == "center")) {
    const std::string& p = opt.posture[0];
    solver.null_space = p == "seed"   ? NullSpaceObjective::seed
                        : p == "none" ? NullSpaceObjective::none
                                      : NullSpaceObjective::centre;
  } else if (opt.posture.size() == 1 && opt.posture[0].find('=') == std::string::npos) {
    throw InputError("--posture " + opt.posture[0] +
                     ": expected seed, centre, none or NAME=VALUE,... (a posture)");
  } else if (!opt.posture.empty()) {
    solver.null_space = NullSpaceObjective::posture;
    solver.posture = base_seed;
    for (const auto& item : opt.posture) {
      const auto [k, value] = coordinate_value(model, item, "--posture");
      solver.posture[k] = value;
    }
  }

  RowCommand command;
  command.name = "ik";
  // q columns are optional seeds: no joint is required, absent ones start from --q0
  command.joints.assign(model.njoints, false);
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    return std::make_unique<IkTask>(model, opt, problem, base_seed, header, file);
  };
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_ik(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<IkCliOptions>();
  // the iteration budget decides (reproducible); the wall-clock cap only catches runaways, far
  // above the 5-15 ms the whole budget takes, so that a preempted process keeps its results
  opt->solver.timeout = 0.5;
  CLI::App* cmd = add_command(
      app, "ik",
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
       "frame:ee:vx,vz --task joints:joint1,joint2 --priority strict"});
  add_robot_options(*cmd, opt->rows.robot, false);
  add_row_options(*cmd, opt->rows, false);
  cmd->add_option("--frame", opt->frame,
                  "The frame to place (any URDF link); required without --velocity");
  cmd->add_flag("--velocity", opt->velocity,
                "Velocity level instead: for every row (q columns), the joint velocity v that "
                "realises the --task velocities (damped pseudo-inverse, stacked or strict "
                "priority); writes v.<joint> and ik.residual.<k>, |J_k v - w_k| of the k-th task");
  add_ik_velocity_options(*cmd, opt->velocity_tasks);
  cmd->add_option("--relative-to", opt->relative_to,
                  "Targets are placements in this frame (default: the world); it may move with q");
  cmd->add_option("--mask", opt->mask,
                  "Error components to reach, comma separated: x, y, z (position), rx, ry, rz "
                  "(rotation vector), both in the axes of --relative-to (the world's by "
                  "default); position, orientation, all (default)");
  cmd->add_option("--position-weight", opt->position_weight,
                  "Weight of the position error (per m; default 1)");
  cmd->add_option("--orientation-weight", opt->orientation_weight,
                  "Weight of the orientation error (per rad; default 1)");
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
  cmd->add_option("--position-tolerance", opt->solver.position_tolerance,
                  "Converged when the position error is at most this (m; default 1e-6)");
  cmd->add_option("--orientation-tolerance", opt->solver.orientation_tolerance,
                  "... and the orientation error at most this (rad; default 1e-6)");
  cmd->add_option("--max-iterations", opt->solver.max_iterations,
                  "Iterations per attempt (the seed, then each restart; default 50)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-total-iterations", opt->solver.max_total_iterations,
                  "Iterations per row over all attempts (default 5000): the budget that decides, "
                  "so that output is reproducible")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-restarts", opt->solver.max_restarts,
                  "Random restarts within the limits per row (default 200)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--timeout", opt->solver.timeout,
                  "Wall-clock cap per row in seconds (default 0.5), a safety net above the "
                  "iteration budget; rows it stops are reported (their results depend on the "
                  "machine); 0 disables it")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--solutions", opt->solver.solutions,
                  "Converged solutions to collect per row; the one nearest the seed is written "
                  "(default 1)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->solver.random_seed,
                  "Seed of the random restarts (default 0); the same seed gives the same output");
  cmd->add_option("--jump-threshold", opt->jump_threshold,
                  "Report rows of a path whose joints move more than this from the previous "
                  "row's solution (rad or m; default 0.3)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--allow-failures", opt->allow_failures,
                "Rows that do not converge do not fail the run (exit 0; ik.status 0 marks them)");
  cmd->add_flag("--timing", opt->timing,
                "Also write ik.time_us, the wall-clock solve time (differs from run to run)");
  cmd->add_flag("--summary", opt->summary,
                "Print the success rate and the median and largest solve times on stderr (printed "
                "anyway when a row fails); --summary-json FILE writes them, and more, as JSON");
  dispatch.on(cmd, [opt](Streams& io) { return run_ik(*opt, io); });
}

}  // namespace eom::cli
