// eom jac: a frame's Jacobian for every row of a table of configurations, and what its singular
// value decomposition says (rank, conditioning, manipulability, null space, lost directions);
// the intervals of a trajectory near singularities; task-space dynamics; workspace sampling.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/singular.hpp>
#include <eom/algorithm/task_space.hpp>

#include "cli.hpp"
#include "row_engine.hpp"

namespace eom::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

enum class Measure { sigma, manipulability };

struct JacOptions {
  RowOptions rows;
  std::string frame;
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
};

// Everything the options say, checked once.
struct JacSettings {
  int frame = 0;
  ReferenceFrame reference = ReferenceFrame::local_world_aligned;
  bool analytical = false;
  OrientationParametrization parametrization = OrientationParametrization::euler_zyx;
  TaskRows task;
  RankTolerance tolerance;
  bool scan_threshold = false;  // --threshold given
  Measure measure = Measure::sigma;
  TaskInverse inverse = TaskInverse::truncated;
};

const char* reference_name(ReferenceFrame r) {
  return r == ReferenceFrame::world   ? "world"
         : r == ReferenceFrame::local ? "local"
                                      : "local-world-aligned";
}

ReferenceFrame parse_reference(const std::string& name) {
  for (ReferenceFrame r :
       {ReferenceFrame::world, ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
    if (name == reference_name(r)) return r;
  }
  throw InputError("--reference " + name +
                   ": unknown reference (choose world, local or local-world-aligned)");
}

struct Parametrization {
  const char* name;
  OrientationParametrization value;
  std::array<const char*, 4> rows;  // names of the orientation rows of the analytical Jacobian
};
constexpr Parametrization kParametrizations[] = {
    {"euler-zyx", OrientationParametrization::euler_zyx, {"ez", "ey", "ex", nullptr}},
    {"euler-xyz", OrientationParametrization::euler_xyz, {"ex", "ey", "ez", nullptr}},
    {"quaternion", OrientationParametrization::quaternion, kQuaternionComponents},
    {"rotation-vector", OrientationParametrization::rotation_vector, {"rx", "ry", "rz", nullptr}},
};

const Parametrization& parse_parametrization(const std::string& name) {
  for (const auto& p : kParametrizations) {
    if (name == p.name) return p;
  }
  throw InputError("--analytical " + name +
                   ": unknown parametrisation (choose euler-zyx, euler-xyz, quaternion or "
                   "rotation-vector)");
}

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
    text << option << ' ' << value << ": must be a positive number";
    throw InputError(text.str());
  }
}

JacSettings settle(const Model& model, const JacOptions& opt) {
  JacSettings s;
  s.frame = require_frame_option(model, "--frame", opt.frame);
  // a Jacobian without columns has no singular values to report
  if (model.nv == 0) {
    throw InputError("--frame " + opt.frame +
                     ": the model has no joint coordinates (every joint is fixed), so its "
                     "Jacobian has no columns to analyse");
  }
  s.reference = parse_reference(opt.reference);
  if (!opt.analytical.empty()) {
    s.analytical = true;
    s.parametrization = parse_parametrization(opt.analytical).value;
  }
  s.task = parse_task(opt.task);
  // --tol alone: relative; --abs-tol alone: absolute; both: the larger threshold of the two
  const bool relative = !std::isnan(opt.tol), absolute = !std::isnan(opt.abs_tol);
  if (relative) check_positive("--tol", opt.tol);
  if (absolute) check_positive("--abs-tol", opt.abs_tol);
  if (relative || absolute) {
    s.tolerance = RankTolerance{absolute ? opt.abs_tol : 0, relative ? opt.tol : 0};
  }
  s.scan_threshold = !std::isnan(opt.threshold);
  if (s.scan_threshold) check_positive("--threshold", opt.threshold);
  s.measure = opt.measure == "manipulability" ? Measure::manipulability : Measure::sigma;
  s.inverse = opt.inverse == "damped" ? TaskInverse::damped : TaskInverse::truncated;
  if (opt.dynamics) refuse_singular_mass_matrix(model, "--dynamics: ", "task-space dynamics");
  return s;
}

// sigma_m / sigma_1 in [0, 1]: the reciprocal of the condition number, 0 at a singularity, where
// the condition number is infinite and no table could hold it (0 as well when J = 0)
double inverse_condition(const Eigen::VectorXd& sigma) {
  const Eigen::Index m = sigma.size();
  return m > 0 && sigma[0] > 0 ? sigma[m - 1] / sigma[0] : 0;
}

nlohmann::json direction_json(const DirectionDescription& d, const std::string& frame) {
  return {{"description", to_string(d, frame)},
          {"world", {d.world[0], d.world[1], d.world[2], d.world[3], d.world[4], d.world[5]}}};
}

// A run of consecutive rows whose measure is below the threshold.
struct Interval {
  double start_t = 0, end_t = 0, worst = 0, worst_t = 0;
  int start_line = 0, end_line = 0, worst_line = 0, rank = 0;
  long rows = 0;
  int lost = 0;  // directions kept: the lost ones at the worst row, else its weakest
  std::array<DirectionDescription, 6> directions;
};

class JacTask final : public RowTask {
 public:
  JacTask(const Model& model, const JacOptions& opt, const JacSettings& settings,
          const std::string& file)
      : model_(model),
        opt_(opt),
        s_(settings),
        file_(file),
        data_(model),
        analysis_(model.nv, settings.task, settings.tolerance),
        dynamics_(model,
                  TaskSpaceOptions{settings.task, settings.inverse, TaskSpaceOptions{}.tolerance}),
        analytical_(3 + orientation_parameter_count(settings.parametrization), model.nv),
        p_(std::min(settings.task.size, model.nv)) {
    const TaskRows& task = s_.task;
    auto rows_by_coordinates = [&](const std::string& prefix) {
      for (int r = 0; r < task.size; ++r) {
        for (const auto& c : model.v_names) {
          columns.push_back(matrix_column(prefix, task_row_name(task.rows[r]), c));
        }
      }
    };
    if (opt.jacobian) rows_by_coordinates("J");
    if (opt.jdot) {
      if (opt.jacobian) rows_by_coordinates("Jdot");
      for (int r = 0; r < task.size; ++r) {
        columns.push_back(column_name("Jdot_v", task_row_name(task.rows[r])));
      }
    }
    if (s_.analytical) {
      const auto& rows = parse_parametrization(opt.analytical).rows;
      std::vector<std::string> names(kPositionComponents.begin(), kPositionComponents.end());
      for (const char* r : rows) {
        if (r) names.push_back(r);
      }
      for (const auto& r : names) {
        for (const auto& c : model.v_names) columns.push_back(matrix_column("JA", r, c));
      }
    }
    for (int k = 1; k <= p_; ++k) columns.push_back(column_name("sigma", std::to_string(k)));
    for (const char* name :
         {"rank", "rank_margin", "inverse_condition", "manipulability", "nullity"}) {
      columns.push_back(name);
    }
    if (opt.nullspace) {
      for (int k = 1; k <= model.nv; ++k) {
        for (const auto& c : model.v_names) {
          columns.push_back(matrix_column("null", std::to_string(k), c));
        }
      }
    }
    if (opt.dynamics) {
      for (int i = 0; i < task.size; ++i) {
        for (int j = 0; j < task.size; ++j) {
          columns.push_back(
              matrix_column("Lambda", task_row_name(task.rows[i]), task_row_name(task.rows[j])));
        }
      }
      for (const char* prefix : {"mu", "p"}) {
        for (int r = 0; r < task.size; ++r)
          columns.push_back(column_name(prefix, task_row_name(task.rows[r])));
      }
      for (const auto& c : model.v_names) {
        for (int r = 0; r < task.size; ++r) {
          columns.push_back(matrix_column("Jbar", c, task_row_name(task.rows[r])));
        }
      }
      columns.push_back("Lambda_rank");
    }
  }

  void compute(const Sample& s, double* out) override {
    const int nv = model_.nv;
    const TaskRows& task = s_.task;
    // the analytical Jacobian first: it leaves data.J local-world-aligned
    if (s_.analytical) {
      try {
        analytical_jacobian(model_, data_, s.q, s_.frame, s_.parametrization, analytical_);
      } catch (const NumericalError& e) {
        throw InputError(
            file_, s.line, 0,
            "--analytical " + opt_.analytical + ": " + e.what() + " (the quaternion never is)");
      }
    }
    // dJ/dt needs v; frame_jacobian_time_variation fills data.J as well
    if (opt_.jdot) {
      frame_jacobian_time_variation(model_, data_, s.q, s.dq.col(0), s_.frame, s_.reference);
    } else {
      frame_jacobian(model_, data_, s.q, s_.frame, s_.reference);
    }
    const auto& J = data_.J;
    if (opt_.jacobian) {
      for (int r = 0; r < task.size; ++r) {
        for (int c = 0; c < nv; ++c) *out++ = J(task.rows[r], c);
      }
    }
    if (opt_.jdot) {
      if (opt_.jacobian) {
        for (int r = 0; r < task.size; ++r) {
          for (int c = 0; c < nv; ++c) *out++ = data_.dJ(task.rows[r], c);
        }
      }
      for (int r = 0; r < task.size; ++r) *out++ = data_.dJ.row(task.rows[r]).dot(s.dq.col(0));
    }
    if (s_.analytical) {
      for (int r = 0; r < analytical_.rows(); ++r) {
        for (int c = 0; c < nv; ++c) *out++ = analytical_(r, c);
      }
    }

    // the singular values alone unless vectors are needed: the null space, or the lost
    // directions of a row the scan reports
    analysis_.compute_values(J);
    if (opt_.nullspace || below()) analysis_.compute(J, s_.reference, data_.oMf[s_.frame]);
    const Eigen::VectorXd& sigma = analysis_.singular_values();
    for (int k = 0; k < p_; ++k) *out++ = sigma[k];
    *out++ = analysis_.rank();
    *out++ = analysis_.rank_margin();
    *out++ = inverse_condition(sigma);
    *out++ = analysis_.manipulability();
    *out++ = analysis_.nullity();
    if (opt_.nullspace) {
      const auto basis = analysis_.null_space();
      for (int k = 0; k < nv; ++k) {
        for (int c = 0; c < nv; ++c) *out++ = k < basis.cols() ? basis(c, k) : 0;
      }
    }
    scan(s);

    if (opt_.dynamics) {
      dynamics_.compute(model_, data_, s.q, s.dq.col(0), s_.frame, s_.reference);
      const int m = task.size;
      const Eigen::MatrixXd& Lambda = dynamics_.inertia();
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) *out++ = Lambda(i, j);
      }
      for (int r = 0; r < m; ++r) *out++ = dynamics_.coriolis()[r];
      for (int r = 0; r < m; ++r) *out++ = dynamics_.gravity()[r];
      const Eigen::MatrixXd& Jbar = dynamics_.pseudo_inverse();
      for (int c = 0; c < nv; ++c) {
        for (int r = 0; r < m; ++r) *out++ = Jbar(c, r);
      }
      *out++ = dynamics_.rank();
      if (dynamics_.singular() && dynamics_singular_++ == 0) dynamics_first_t_ = s.t;
    }
  }

  int finish(const Notes& notes) override {
    const bool failing = opt_.fail_on_singular && !intervals_.empty();
    print_intervals(notes, failing);
    if (dynamics_singular_ > 0) {
      notes.warning(file_ + ": J M^-1 J^T is singular in " + std::to_string(dynamics_singular_) +
                    " rows (first at t=" + number_text(dynamics_first_t_) +
                    "): Lambda, mu, p and "
                    "Jbar there use the " +
                    opt_.inverse + " inverse, eigenvalues at or below " + "max(" +
                    number_text(dynamics_.options().tolerance.absolute) + ", " +
                    number_text(dynamics_.options().tolerance.relative) + " * largest) " +
                    (s_.inverse == TaskInverse::truncated ? "dropped" : "damped") +
                    " (Lambda_rank counts the others)");
    }
    return failing ? kExitFailure : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    const std::string& frame = model_.frames[s_.frame].name;
    nlohmann::json intervals = nlohmann::json::array();
    for (const Interval& in : intervals_) {
      nlohmann::json directions = nlohmann::json::array();
      for (int k = 0; k < std::max(in.lost, 1); ++k) {
        directions.push_back(direction_json(in.directions[k], frame));
      }
      intervals.push_back({{"start", in.start_t},
                           {"end", in.end_t},
                           {"start_line", in.start_line},
                           {"end_line", in.end_line},
                           {"rows", in.rows},
                           {"worst", in.worst},
                           {"worst_t", in.worst_t},
                           {"worst_line", in.worst_line},
                           {"rank", in.rank},
                           {in.lost > 0 ? "lost" : "weakest", directions}});
    }
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < s_.task.size; ++r) rows.push_back(task_row_name(s_.task.rows[r]));
    table["frame"] = frame;
    table["reference"] = reference_name(s_.reference);
    table["task"] = rows;
    table["tolerance"] = {{"relative", s_.tolerance.relative}, {"absolute", s_.tolerance.absolute}};
    table["measure"] = s_.measure == Measure::manipulability ? "manipulability" : "sigma";
    table["threshold"] =
        s_.scan_threshold ? nlohmann::json(opt_.threshold) : nlohmann::json("rank-deficient");
    table["intervals"] = intervals;
  }

 private:
  double measure() const {
    if (s_.measure == Measure::manipulability) return analysis_.manipulability();
    return p_ > 0 ? analysis_.singular_values()[p_ - 1] : 0;
  }
  bool below() const {
    return s_.scan_threshold ? measure() < opt_.threshold : analysis_.rank() < p_;
  }

  // Extends or closes the current interval. No allocation but when a new interval opens.
  void scan(const Sample& s) {
    if (!below()) {
      open_ = false;
      return;
    }
    const double value = measure();
    if (!open_) {
      open_ = true;
      intervals_.emplace_back();
      Interval& fresh = intervals_.back();
      fresh.start_t = s.t;
      fresh.start_line = s.line;
      fresh.worst = std::numeric_limits<double>::infinity();
    }
    Interval& in = intervals_.back();
    in.end_t = s.t;
    in.end_line = s.line;
    ++in.rows;
    if (!(value < in.worst)) return;
    in.worst = value;
    in.worst_t = s.t;
    in.worst_line = s.line;
    in.rank = analysis_.rank();
    in.lost = analysis_.lost_count();
    for (int k = 0; k < in.lost; ++k) in.directions[k] = analysis_.lost_description(k);
    if (in.lost == 0) in.directions[0] = analysis_.weakest_description();
  }

  std::string measure_name() const {
    return s_.measure == Measure::manipulability ? "manipulability" : "smallest singular value";
  }

  std::string directions_text(const Interval& in) const {
    const std::string& frame = model_.frames[s_.frame].name;
    std::string text = in.lost > 0 ? "lost: " : "weakest: ";
    for (int k = 0; k < std::max(in.lost, 1); ++k) {
      text += (k ? "; " : "") + to_string(in.directions[k], frame);
    }
    return text;
  }

  void print_intervals(const Notes& notes, bool failing) const {
    constexpr size_t kShown = 10;
    const std::string what = s_.scan_threshold
                                 ? measure_name() + " below " + number_text(opt_.threshold)
                                 : "rank-deficient";
    for (size_t k = 0; k < intervals_.size() && k < kShown; ++k) {
      const Interval& in = intervals_[k];
      std::ostringstream line;
      line << file_ << ": " << what << " from t=" << in.start_t << " to t=" << in.end_t
           << " (lines " << in.start_line << "-" << in.end_line << ", " << in.rows
           << (in.rows == 1 ? " row" : " rows") << "): worst " << measure_name() << ' ' << in.worst
           << " at t=" << in.worst_t << " (line " << in.worst_line << "), rank " << in.rank
           << " of " << p_ << "; " << directions_text(in);
      failing ? notes.error(line.str()) : notes.warning(line.str());
    }
    if (intervals_.size() > kShown) {
      const std::string line =
          file_ + ": and " + std::to_string(intervals_.size() - kShown) + " more intervals";
      failing ? notes.error(line) : notes.warning(line);
    }
  }

  const Model& model_;
  const JacOptions& opt_;
  const JacSettings& s_;
  const std::string file_;
  Data data_;
  SingularityAnalysis analysis_;
  TaskSpaceDynamics dynamics_;
  Eigen::MatrixXd analytical_;  // (3 + parameters) x nv
  const int p_;                 // singular values: min(task rows, nv)
  std::vector<Interval> intervals_;
  bool open_ = false;
  long dynamics_singular_ = 0;
  double dynamics_first_t_ = 0;
};

// --sample N: configurations drawn within the limits; the worst as a table, quantiles on stderr.
int run_sample(const JacOptions& opt, const JacSettings& s, const Model& model, Streams& io) {
  check_summary_destination(opt.rows.summary, {opt.rows.output.path});
  refuse_to_replace_inputs({}, opt.rows.robot.path, {opt.rows.output.path, opt.rows.summary});
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
  out->commit();

  auto quantiles = [&](const std::vector<double>& values) {
    std::ostringstream text;
    for (size_t k = 0; k < values.size(); ++k) {
      text << (k ? ", " : "") << result.probabilities[k] * 100 << "%: " << values[k];
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
    write_summary(opt.rows.summary, nlohmann::json::array({summary}));
  }
  return kExitOk;
}

int run_jac(const JacOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "jac");
  const JacSettings settings = settle(model, opt);
  if (opt.sample > 0) {
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
    // only the joints that move the frame need columns
    command.joints.assign(model.njoints, false);
    for (int i = model.frames[settings.frame].parent; i > 0; i = model.parent[i]) {
      command.joints[i] = true;
    }
  }
  command.make_task = [&](const Header&, const std::string& file, const Notes&) {
    return std::make_unique<JacTask>(model, opt, settings, file);
  };
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_jac(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<JacOptions>();
  CLI::App* cmd = add_command(
      app, "jac",
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
       "eom jac robots/panda.urdf --frame panda_hand_tcp --sample 10000 --seed 3 -o worst.csv"});
  add_robot_options(*cmd, opt->rows.robot);
  add_row_options(*cmd, opt->rows, true);
  cmd->get_option("TABLE")->required(false);
  cmd->add_option("--frame", opt->frame, "The frame (a link name)")->required();
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
  cmd->add_option("--threshold", opt->threshold,
                  "Report the intervals where the measure is below this (default: where the "
                  "rank is below m)");
  cmd->add_option("--measure", opt->measure,
                  "sigma (the smallest singular value, default) or manipulability")
      ->check(CLI::IsMember({"sigma", "manipulability"}));
  cmd->add_option("--summary", opt->rows.summary,
                  "The former name of --summary-json: the intervals (or the --sample report) are "
                  "in its objects")
      ->excludes("--summary-json");
  cmd->add_flag("--fail-on-singular", opt->fail_on_singular,
                "Exit 1, writing no output table, when an interval is found");
  cmd->add_flag("--dynamics", opt->dynamics,
                "Task-space dynamics (reads v): Lambda.<row>.<row> = (J M^-1 J^T)^-1, mu.<row> "
                "(Coriolis), p.<row> (gravity), Jbar.<coordinate>.<row> = M^-1 J^T Lambda and "
                "Lambda_rank");
  cmd->add_option("--inverse", opt->inverse,
                  "How Lambda is inverted near singularities: truncated (default) or damped, "
                  "threshold max(0, 1e-12 * the largest eigenvalue of J M^-1 J^T)")
      ->check(CLI::IsMember({"truncated", "damped"}));
  cmd->add_option("--sample", opt->sample,
                  "Draw N configurations within the limits instead of reading TABLE; writes the "
                  "worst (q.*, manipulability, inverse_condition, rank), quantiles on stderr")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "Seed of --sample (default 1)");
  cmd->add_option("--worst", opt->worst, "Configurations --sample writes (default 5)")
      ->check(CLI::PositiveNumber);
  dispatch.on(cmd, [opt](Streams& io) { return run_jac(*opt, io); });
}

}  // namespace eom::cli
