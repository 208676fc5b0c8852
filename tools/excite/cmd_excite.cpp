// eom excite: an excitation trajectory for identification (design_excitation), written as t, q, v,
// a columns at a rate that eom id, eom sim and eom identify read.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
#include <eom/solvers/excitation.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct ExciteOptions {
  RobotOptions robot;
  OutputOptions output;
  double period = 10;
  int harmonics = 5;
  double rate = 100;
  int cycles = 1;
  ExcitationEnds ends = ExcitationEnds::rest_to_rest;
  ExcitationCriterion criterion = ExcitationCriterion::condition;
  std::vector<std::string> limits;            // JOINT=LO:HI
  std::vector<std::string> max_velocity;      // V or JOINT=V
  std::vector<std::string> max_acceleration;  // A or JOINT=A
  double velocity_scale = 1;
  std::vector<std::string> friction{"viscous", "coulomb"};  // or "none"
  bool armature = false;
  double friction_smoothing = 0;
  std::vector<std::string> only;  // links
  unsigned long seed = 1;
  int evaluations = 2000;
  bool quiet = false;
};

// --max-velocity and --max-acceleration: one number for every coordinate, or JOINT=VALUE items.
void assign_bounds(const std::string& option, const std::vector<std::string>& items,
                   const Model& model, Eigen::VectorXd& out) {
  std::vector<std::string> named;
  for (const std::string& item : items) {
    if (item.find('=') != std::string::npos) {
      named.push_back(item);
      continue;
    }
    const auto value = parse_number(item);
    if (!value || !(*value > 0) || !std::isfinite(*value)) {
      throw InputError(option + " " + item + ": expected a positive number or JOINT=VALUE");
    }
    out.setConstant(*value);
  }
  assign_coordinates(option, named, model, model.v_names, out);
}

// The file's limits, then the options' (--limits JOINT=LO:HI, --max-velocity, --velocity-scale,
// --max-acceleration).
ExcitationLimits limits_of(const ExciteOptions& opt, const Model& model) {
  ExcitationLimits limits = model_limits(model);
  std::vector<std::string> lower, upper;
  for (const std::string& item : opt.limits) {
    const size_t eq = item.find('='), colon = item.find(':', eq == std::string::npos ? 0 : eq);
    const auto lo = eq == std::string::npos || colon == std::string::npos
                        ? std::nullopt
                        : parse_number(item.substr(eq + 1, colon - eq - 1));
    const auto hi = lo ? parse_number(item.substr(colon + 1)) : std::nullopt;
    if (!lo || !hi || !(*hi > *lo)) {
      throw InputError("--limits " + item + ": expected JOINT=LO:HI with numbers LO < HI");
    }
    lower.push_back(item.substr(0, colon));
    upper.push_back(item.substr(0, eq + 1) + item.substr(colon + 1));
  }
  assign_coordinates("--limits", lower, model, model.v_names, limits.lower);
  assign_coordinates("--limits", upper, model, model.v_names, limits.upper);
  assign_bounds("--max-velocity", opt.max_velocity, model, limits.velocity);
  limits.velocity *= opt.velocity_scale;
  assign_bounds("--max-acceleration", opt.max_acceleration, model, limits.acceleration);
  for (const int k : excited_coordinates(model)) {
    const std::string& joint = model.v_names[k];
    if (!std::isfinite(limits.lower[k]) || !std::isfinite(limits.upper[k])) {
      throw InputError("joint '" + joint + "' has no position limits in " + opt.robot.path +
                       ": give them with --limits " + joint + "=LO:HI");
    }
    if (!std::isfinite(limits.velocity[k])) {
      throw InputError("joint '" + joint + "' has no velocity limit in " + opt.robot.path +
                       ": give it with --max-velocity " + joint + "=V");
    }
  }
  return limits;
}

// The regressor's columns of the --only links' bodies, then every drive column.
std::vector<int> chosen_columns(const ExciteOptions& opt, const Model& model,
                                const DriveParameters& drive) {
  if (opt.only.empty()) return {};
  std::vector<std::string> bodies;
  for (int i = 1; i < model.njoints; ++i) bodies.push_back(model.info[i].child_link);
  std::vector<int> columns;
  for (const std::string& link : opt.only) {
    const auto it = std::find(bodies.begin(), bodies.end(), link);
    if (it == bodies.end()) {
      const int frame = model.frame_index(link);
      const int body = frame >= 0 ? model.frames[frame].parent : -1;
      throw InputError("--only " + link + ": " +
                       (body > 0    ? "a link fixed to " + bodies[body - 1] + ", name that body"
                        : body == 0 ? "a link fixed to the world moves no torque"
                                    : "no moving body has that link" + did_you_mean(bodies, link)));
    }
    const int first = kInertialParameterCount * static_cast<int>(it - bodies.begin());
    for (int p = 0; p < kInertialParameterCount; ++p) columns.push_back(first + p);
  }
  for (int c = kInertialParameterCount * (model.njoints - 1); c < regressor_columns(model, drive);
       ++c) {
    columns.push_back(c);
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

int run_excite(const ExciteOptions& opt, Streams& io) {
  check_destinations(io.inputs, {opt.output.path}, "");
  const Model model = load_robot(opt.robot, io, "excite", opt.quiet);
  if (model.floating_base) {
    throw InputError("an excitation moves the joints of a fixed-base robot: drop --floating-base");
  }
  ExcitationOptions design;
  design.period = opt.period;
  design.harmonics = opt.harmonics;
  design.ends = opt.ends;
  design.criterion = opt.criterion;
  for (const std::string& kind : opt.friction) {
    design.drive.viscous = design.drive.viscous || kind == "viscous";
    design.drive.coulomb = design.drive.coulomb || kind == "coulomb";
    design.drive.offset = design.drive.offset || kind == "offset";
  }
  design.drive.armature = opt.armature;
  design.drive.smoothing = opt.friction_smoothing;
  design.columns = chosen_columns(opt, model, design.drive);
  design.seed = opt.seed;
  design.evaluations = opt.evaluations;
  const ExcitationLimits limits = limits_of(opt, model);
  const Excitation excitation = design_excitation(model, limits, design);

  std::vector<std::string> names{"t"};
  for (const char* prefix : {"q", "v", "a"}) {
    for (const std::string& c :
         coordinate_columns(model, prefix, *prefix == 'q' ? Space::q : Space::v)) {
      names.push_back(c);
    }
  }
  auto out = open_output(opt.output, Header{names});
  Eigen::VectorXd row(static_cast<Eigen::Index>(names.size()));
  const long rows = excitation_rows(opt.period * opt.cycles, opt.rate);
  for (long k = 0; k < rows; ++k) {
    row[0] = static_cast<double>(k) / opt.rate;
    excitation.trajectory.evaluate(model, row[0], row.segment(1, model.nq),
                                   row.segment(1 + model.nq, model.nv),
                                   row.segment(1 + model.nq + model.nv, model.nv));
    out->write_row(row.data());
  }
  out->finish();
  if (!opt.quiet) {
    std::ostringstream report;
    report << "eom excite: " << excitation.base_parameters << " base parameters, "
           << excitation.evaluations << " evaluations; condition number "
           << number_text(excitation.condition) << " (starting guess "
           << number_text(excitation.start_condition) << "), log det "
           << number_text(excitation.log_det) << " (starting guess "
           << number_text(excitation.start_log_det) << ")\n";
    io.err << report.str();
  }
  out->commit();
  return kExitOk;
}

}  // namespace

void register_excite(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<ExciteOptions>(
      app, dispatch, "excite",
      "Design an excitation trajectory for identification: per joint a finite Fourier series\n"
      "(Swevers et al. 1997) within the joints' position, velocity and acceleration limits,\n"
      "optimised for the condition number of the base regressor over a period; writes t,\n"
      "q.<joint>, v.<joint>, a.<joint> (exact derivatives of the series) at --rate.",
      {"eom excite robots/ur5.urdf --period 10 --harmonics 5 --rate 100 -o excitation.csv",
       "eom excite robots/iiwa14.urdf --velocity-scale 0.5 --max-acceleration 3 --cycles 2 "
       "--seed 7 -o iiwa_excitation.csv",
       "eom excite robots/panda.urdf --lock 'panda_finger_joint*' --only panda_link7 "
       "--friction none --criterion d-optimal -o payload_excitation.csv"},
      run_excite);
  add_robot_options(*cmd, opt->robot);
  add_output_options(*cmd, opt->output);
  cmd->add_option("--period", opt->period, "The series' period T in seconds (default 10)")
      ->check(kPositive);
  cmd->add_option("--harmonics", opt->harmonics, "Harmonics K of each joint's series (default 5)")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--rate", opt->rate, "Rows per second of the output (default 100)")
      ->check(kPositive);
  cmd->add_option("--cycles", opt->cycles, "Periods written (default 1)")
      ->check(CLI::Range(1, 1000000));
  add_choice(*cmd, "--ends", opt->ends,
             NamedValues<ExcitationEnds>{{"rest-to-rest", ExcitationEnds::rest_to_rest},
                                         {"periodic", ExcitationEnds::periodic}},
             "rest-to-rest: v = a = 0 at the start and at each period's end; periodic: the "
             "series alone",
             true);
  add_choice(*cmd, "--criterion", opt->criterion,
             NamedValues<ExcitationCriterion>{{"condition", ExcitationCriterion::condition},
                                              {"d-optimal", ExcitationCriterion::d_optimal}},
             "Minimise the base regressor's condition number, or maximise log det(W^T W)", true);
  cmd->add_option("--limits", opt->limits,
                  "Position limits JOINT=LO:HI (a list), for joints the file gives none or "
                  "narrower than the file's")
      ->delimiter(',');
  cmd->add_option("--max-velocity", opt->max_velocity,
                  "Velocity limit: V for every joint, or JOINT=V (a list; default the file's)")
      ->delimiter(',');
  cmd->add_option("--velocity-scale", opt->velocity_scale,
                  "Use this fraction of the velocity limits (default 1)")
      ->check(kUnitInterval);
  cmd->add_option("--max-acceleration", opt->max_acceleration,
                  "Acceleration limit: A for every joint, or JOINT=A (a list; default none)")
      ->delimiter(',');
  cmd->add_option("--friction", opt->friction,
                  "Drive columns in the criterion, as eom identify fits them: viscous, coulomb, "
                  "offset (a list), or none (default viscous,coulomb)")
      ->delimiter(',')
      ->check(CLI::IsMember({"viscous", "coulomb", "offset", "none"}));
  cmd->add_flag("--armature", opt->armature, "Count each joint's armature in the criterion");
  cmd->add_option("--friction-smoothing", opt->friction_smoothing,
                  "tanh(v / EPS) for sgn(v) in the Coulomb columns (as eom identify)")
      ->check(kNonNegative);
  cmd->add_option("--only", opt->only,
                  "Count only these links' bodies (a list) and the drive columns in the criterion")
      ->delimiter(',');
  cmd->add_option("--seed", opt->seed, "Seed of the starting guess (default 1)");
  cmd->add_option("--evaluations", opt->evaluations,
                  "Evaluations of the criterion at most (default 2000)")
      ->check(CLI::Range(1, 100000000));
  cmd->add_flag("-q,--quiet", opt->quiet, "Errors only");
}

}  // namespace eom::cli
