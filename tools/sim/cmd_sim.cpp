// eom sim: forward simulation from an initial state: integrates the equations of motion with
// joint torques from a controller (or a torque table) and writes the state at the output times.
// The mathematics is eom::Simulator (simulate.hpp); sim_setup.cpp turns the options into what
// drives it, this file declares and checks the options (every check of eom sim's options is
// here), runs it and writes the table and the summary through the output half of the row engine.

#include <algorithm>
#include <functional>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>

#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/multibody/data.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/solvers/simulation_setup.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "contact_options.hpp"
#include "options.hpp"
#include "sim/sim_report.hpp"
#include "sim/sim_setup.hpp"

namespace eom::cli {
namespace {

// The checks CLI11 cannot declare, of values: the step and tolerances, and the options that have
// no effect with the controller (given, else from --torques or --torque); returns the controller.
SimController check_options(const SimOptions& opt) {
  if (!(opt.dt > 0)) throw InputError("--dt must be positive");
  if (!(opt.duration > 0)) throw InputError("--duration must be positive");
  if (!(opt.rtol > 0) || !(opt.atol > 0)) throw InputError("--rtol and --atol must be positive");
  const SimController controller = opt.controller != SimController::from_inputs ? opt.controller
                                   : !opt.torques.empty() ? SimController::table
                                   : !opt.torque.empty()  ? SimController::constant
                                                          : SimController::zero;
  const std::string& name = name_of(kControllers, controller);
  const bool pd = has_gains(controller);
  auto refuse = [&](bool given, const std::string& option, const std::string& needs) {
    if (given) {
      throw InputError(option + " has no effect with --controller " + name + " (" + needs + ")");
    }
  };
  refuse(!opt.torques.empty() && controller != SimController::table, "--torques",
         "it drives 'table'");
  refuse(!opt.torque.empty() && controller != SimController::constant, "--torque",
         "it drives 'constant'");
  refuse(!pd && !opt.reference.empty(), "--reference",
         "it is the target of pd, pd-gravity and computed-torque");
  refuse(!pd && !opt.setpoint.empty(), "--setpoint",
         "it is the target of pd, pd-gravity and computed-torque");
  refuse(!opt.reference.empty() && !opt.setpoint.empty(), "--setpoint",
         "--reference gives the target");
  refuse(controller == SimController::table && opt.torques.empty(),
         "--controller table without --torques", "give the torque table");
  refuse(controller == SimController::stand && !opt.reference.empty(), "--reference",
         "stand holds the initial posture, or --setpoint");
  if (controller == SimController::stand && opt.contacts.specs.empty()) {
    throw InputError("--controller stand needs --contacts: the frames the robot stands on");
  }
  // the time-stepped contacts' law: with a ground, or with a schedule whose contacts slip
  for (const auto& [given, option] : {std::pair{opt.friction_facets != 0, "--friction-facets"},
                                      std::pair{!std::isnan(opt.restitution), "--restitution"}}) {
    if (given && !time_stepped(opt)) {
      throw InputError(std::string(option) +
                       " needs --ground, or --contact-schedule with --friction-coefficient (the "
                       "time-stepped contacts: held ones neither slip nor bounce)");
    }
  }
  return controller;
}

// The output function of a run: a row of the state (and what the options add) per output time,
// the energy kept for the summary, the progress shown.
struct RowWriter {
  const SimOptions& opt;
  const Model& model;
  const SimStart& start;
  double origin;  // the output's clock: the origin's time plus the run's
  const SimulationOptions& sim;
  const Simulator& simulator;
  TableWriter& result;
  std::vector<double> row;
  std::vector<Field> fields;
  std::string t_text;
  Data energy_data;
  Progress progress;
  EnergyRecord energy;
  const bool track_energy = opt.energy || !opt.summary.empty();
  double impacts_written = 0;  // the impacts' energy loss up to the last row

  RowWriter(const SimOptions& o, const Model& m, const SimStart& s, double t0,
            const SimulationOptions& so, const Simulator& run, TableWriter& out, int columns)
      : opt(o),
        model(m),
        start(s),
        origin(t0),
        sim(so),
        simulator(run),
        result(out),
        row(columns),
        fields(columns),
        energy_data(m),
        progress("sim", !o.quiet, 1, o.duration) {}

  void operator()(double t, ConstVec q, ConstVec v, ConstVec tau, ConstVec qdd) {
    row[0] = origin + t;
    // t: the origin's stamp plus the clock, every digit kept, unless --time-origin first
    t_text.clear();
    const bool exact = !opt.time.from_first && start.clock.append_after_origin(t_text, t);
    fields[0] = {exact ? FieldKind::number : FieldKind::none, t_text};
    double* out = std::copy(q.data(), q.data() + model.nq, row.data() + 1);
    out = std::copy(v.data(), v.data() + model.nv, out);
    if (opt.accelerations) out = std::copy(qdd.data(), qdd.data() + model.nv, out);
    if (opt.torques_out) out = std::copy(tau.data(), tau.data() + model.nv, out);
    const Eigen::VectorXd& f = simulator.contact_forces();
    if (opt.forces_out) out = std::copy(f.data(), f.data() + f.size(), out);
    if (opt.forces_out && (sim.ground || sim.schedule)) {
      for (const char closed : simulator.contact_active()) *out++ = closed;
      *out++ = simulator.stats().impact_energy_loss - impacts_written;  // since the last row
      impacts_written = simulator.stats().impact_energy_loss;
    }
    if (track_energy) {
      const double kinetic = kinetic_energy(model, energy_data, q, v);
      const double potential = potential_energy(model, energy_data, q);
      if (opt.energy) {
        *out++ = kinetic;
        *out++ = potential;
        *out++ = kinetic + potential;
      }
      energy.add(kinetic, potential);
    }
    result.write_row(row.data(), fields.data());
    progress.done_to(t);
    progress.add_rows(1);
  }
};

int run_sim(const SimOptions& opt, Streams& io) {
  const SimController controller = check_options(opt);
  const std::string kept = opt.keep_truncated ? truncated_path(opt.output.path) : "";
  check_destinations(io.inputs, {opt.output.path}, opt.summary, {kept});
  MessageLog log;
  const Notes notes{io.err, "sim", opt.quiet, opt.summary.empty() ? nullptr : &log, io.names};
  const Model model = load_robot(opt.robot, io, "sim", opt.quiet);
  refuse_singular_mass_matrix(model);
  const ContactSet contacts = load_contacts(model, opt.contacts);
  SimulationOptions sim = simulation_options(opt, model);
  const SimStart start = initial_state(model, opt, notes);
  ContactSchedule schedule;
  set_contact_changes(opt, model, contacts, start, schedule, sim);
  const double t_end = opt.duration;  // the clock counts from the start (SimStart)
  // the output's clock: the origin's time plus the run's, or the run's with --time-origin first
  const double origin = opt.time.from_first ? 0 : start.clock.origin_seconds();
  SimDrive drive(opt, model, notes, start, t_end);
  const std::unique_ptr<Controller> control = drive.controller(controller, contacts);
  if (!opt.wrenches.empty()) drive.add_wrenches(sim);
  drive.release_tables(sim);
  if (sim.integrator != Integrator::rk45)
    check_step(model, *control, sim, opt, start, has_gains(controller), notes);
  const Header header = output_header(opt, model, contacts);
  const OutputTimes times =
      OutputTimes::grid(0, opt.duration, opt.output_dt > 0 ? opt.output_dt : opt.dt);
  warn_about_steps(opt, sim.integrator, notes);
  const std::unique_ptr<TableWriter> result = open_output(opt.output, header);
  Simulator simulator(model);
  RowWriter write{opt, model, start, origin, sim, simulator, *result, header.size()};
  try {
    simulator.run(*control, start.q, start.v, 0, t_end, sim, times, std::ref(write));
  } catch (const NumericalError& e) {
    // what happened before the failure explains it: the touchdowns, impacts, limit crossings and
    // clipped torques so far, said first
    report_sim(opt, model, contacts, simulator.stats(), times.size(), origin, t_end, notes, io);
    // the library's times are the clock's: seconds since the start
    const std::string when =
        origin != 0 ? " (t in seconds since the start, t = " + number_text(origin) + " s)" : "";
    if (kept.empty()) throw NumericalError(e.what() + when);
    result->commit_as(kept);
    throw NumericalError(e.what() + when + "; the rows so far are in " + kept);
  }
  report_sim(opt, model, contacts, simulator.stats(), times.size(), origin, t_end, notes, io);
  nlohmann::json summaries;
  if (!opt.summary.empty()) {
    summaries = nlohmann::json::array(
        {sim_summary(opt, model, contacts, name_of(kControllers, controller), simulator.stats(),
                     times.size(), origin, t_end, write.energy, log)});
    summaries[0]["gains"] = drive.gains_summary();
  }
  commit_results({result.get()}, opt.summary, summaries);
  return kExitOk;
}

// What a run may write besides the state: --energy, --write-accelerations, --write-torques,
// --write-forces (needs --contacts), and --keep-truncated.
void add_output_flags(CLI::App& cmd, SimOptions& opt) {
  cmd.add_flag("--energy", opt.energy,
               "Also write energy.kinetic, energy.potential, energy.total (J)");
  cmd.add_flag("--write-accelerations", opt.accelerations, "Also write a.<coordinate>");
  cmd.add_flag("--write-torques", opt.torques_out,
               "Also write the applied tau.<joint> (after saturation; friction and wrenches not "
               "included)");
  cmd.add_flag("--keep-truncated", opt.keep_truncated,
               "On a blow-up, keep the rows so far in OUT.truncated.<ext> (exit code still 2)");
  needs(cmd.add_flag("--write-forces", opt.forces_out,
                     "Also write the contact forces f.<frame>.* (world axes, on the robot; with "
                     "--contacts)"),
        cmd.get_option("--contacts"), ": the forces are the contacts'");
}

// --controller and what it follows: --torque, --torques, --interpolation, --reference,
// --setpoint, --kp, --kd (check_options refuses those of no effect with the controller).
void add_controller_options(CLI::App& cmd, SimOptions& opt) {
  add_choice(cmd, "--controller", opt.controller, kControllers,
             "zero, constant (--torque), table (--torques), gravity (compensation), pd, "
             "pd-gravity (PD plus g(q)), computed-torque (M (a_ref + Kd e' + Kp e) + C v + g), "
             "stand (computed torque holding the posture on --contacts); default: table with "
             "--torques, constant with --torque, else zero");
  cmd.add_option("--torque", opt.torque, "Constant torques: name=value,... (others 0)")
      ->delimiter(',');
  reads_files(cmd.add_option("--torques", opt.torques,
                             "Torque table: t and tau.<joint> for every joint, between rows by "
                             "--interpolation"))
      ->check(CLI::ExistingPath);
  add_choice(cmd, "--interpolation", opt.interpolation, kInterpolations,
             "Between the rows of --torques, --reference and --wrenches: hold (zero-order hold) "
             "or linear",
             true);
  reads_files(
      cmd.add_option("--reference", opt.reference,
                     "Reference trajectory of pd, pd-gravity and computed-torque: t, q.* (v.*, a.* "
                     "optional: three-point differences of q when absent)"))
      ->check(CLI::ExistingPath);
  cmd.add_option("--setpoint", opt.setpoint,
                 "Set-point of pd, pd-gravity and computed-torque: name=value,... (others: the "
                 "initial q; default: hold the initial q)")
      ->delimiter(',');
  cmd.add_option("--kp", opt.kp,
                 "Position gains: one value or one per velocity coordinate (default: scaled to "
                 "the model and --dt, doc/sim.md)")
      ->delimiter(',');
  cmd.add_option("--kd", opt.kd,
                 "Velocity gains: one value or one per velocity coordinate (with --kp)")
      ->delimiter(',');
}

// The contacts and how they change: --contacts with its options, --ground (with --restitution)
// or --contact-schedule (each needs --contacts, the ground neither a schedule nor another
// normal), --baumgarte.
void add_contact_changes(CLI::App& cmd, SimOptions& opt) {
  add_contact_options(cmd, opt.contacts, false, true);
  cmd.get_option("--friction-coefficient")
      ->description(
          "With --ground: Coulomb's coefficient MU of its contacts (default 1); with "
          "--contact-schedule: the scheduled contacts slip, time-stepped as the ground's with "
          "MU, each on the plane of --contact-normal through where it closes; with held "
          "contacts: report on stderr the rows whose contacts need more friction than MU, "
          "|f_t| / f_n > MU");
  CLI::Option* contacts = cmd.get_option("--contacts");
  CLI::Option* ground = needs(
      cmd.add_option("--ground", opt.ground,
                     "With --contacts (points): a flat ground at z = HEIGHT; its contacts are "
                     "unilateral with Coulomb friction, time-stepped (one impulse problem per "
                     "step: doc/sim.md)"),
      contacts, " (the points that touch it)");
  cmd.add_option("--friction-facets", opt.friction_facets,
                 "With --ground (or --contact-schedule and --friction-coefficient): friction in "
                 "the pyramid of N facets around Coulomb's cone (4: |f_x|, |f_y| <= MU f_n in "
                 "world axes) instead of the exact cone")
      ->check(CLI::Range(3, 1000));
  cmd.add_option("--restitution", opt.restitution,
                 "With --ground (or --contact-schedule and --friction-coefficient): coefficient "
                 "of restitution e in [0, 1] of its contacts (default 0, inelastic)")
      ->check(kUnitInterval);
  CLI::Option* schedule =
      needs(reads_files(cmd.add_option("--contact-schedule", opt.contact_schedule,
                                       "With --contacts: t and contact.<frame> (1 active, 0 "
                                       "not), held from each row to the next; a contact closes "
                                       "by an impact (with --friction-coefficient: on its plane, "
                                       "and may slip)"))
                ->check(CLI::ExistingPath),
            contacts);
  excludes(ground, schedule,
           "--ground and --contact-schedule contradict each other: contacts are made and broken "
           "either by the ground (touchdown, lift-off) or by the "
           "schedule; give one");
  excludes(ground, cmd.get_option("--contact-normal"),
           "--ground and --contact-normal contradict each other: the ground's normal is world z "
           "(0,0,1), which its contacts and their friction use; "
           "drop --contact-normal");
  add_baumgarte_option(cmd, opt.baumgarte);
}

}  // namespace

void register_sim(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<SimOptions>(
      app, dispatch, "sim",
      "Forward simulation: integrates M(q) a + C(q, v) v + g(q) = tau (+ friction, + J^T F of\n"
      "external wrenches) from an initial state with torques from a controller or a table, and\n"
      "writes t, q.*, v.* (and a.*, tau.*, energy.*) every --output-dt.",
      {"eom sim robots/ur5.urdf --q0 shoulder_lift_joint=-1 --duration 2 --integrator rk45 "
       "--rtol 1e-10 --energy -o ur5_fall.csv",
       "eom sim robots/iiwa14.urdf --initial trajectories/iiwa14_wave.csv --controller "
       "computed-torque --reference trajectories/iiwa14_wave.csv --duration 5 -o tracked.csv",
       "eom sim robots/planar_2r.urdf --initial trajectories/planar_2r_small.csv --torques "
       "tests/data/planar_2r_small.tau.csv --interpolation linear --duration 2 --dt 5e-4 "
       "--output-dt 0.01 -o replay.csv"},
      run_sim);
  add_robot_options(*cmd, opt->robot);
  reads_files(
      cmd->add_option("--initial", opt->initial,
                      "Table whose first row is the initial state: q.* (v.* optional, zero when "
                      "absent; t the start time, 0 when absent)"))
      ->check(CLI::ExistingPath);
  cmd->add_option("--q0", opt->q0,
                  "Initial q: name=value,... (others: the --initial row, else "
                  "zero / identity)")
      ->delimiter(',');
  cmd->add_option("--v0", opt->v0, "Initial v: name=value,... (others: the --initial row, else 0)")
      ->delimiter(',');
  cmd->add_option("--duration", opt->duration, "Simulated time (s)")->required();
  cmd->add_option("--dt", opt->dt, "Fixed step (s); rk45: the first trial step")
      ->capture_default_str();
  cmd->add_option("--output-dt", opt->output_dt,
                  "Time between output rows (s; default --dt); a multiple of --dt, else the "
                  "fixed-step schemes shorten steps to land on each output time")
      ->check(kPositive);
  add_choice(*cmd, "--integrator", opt->integrator, kIntegrators,
             "euler, semi-implicit (symplectic Euler), rk4, or rk45 (adaptive Dormand-Prince "
             "with dense output)",
             true);
  cmd->add_option("--rtol", opt->rtol, "rk45: relative error bound per step")
      ->capture_default_str();
  cmd->add_option("--atol", opt->atol, "rk45: absolute error bound per step")
      ->capture_default_str();
  add_controller_options(*cmd, *opt);
  reads_files(cmd->add_option(
                  "--wrenches", opt->wrenches,
                  "External wrenches over time: t and wrench.<frame>.fx .. .mz (as eom id reads "
                  "them)"))
      ->check(CLI::ExistingPath);
  add_time_options(*cmd, opt->time);
  add_force_options(*cmd, opt->forces);
  add_contact_changes(*cmd, *opt);
  cmd->add_flag("--no-saturate{false}", opt->saturate,
                "Apply the commanded torques unclipped (by default they are clipped at the "
                "model's effort limits, and how often is said; a joint without a limit, or with "
                "effort 0, is unlimited)");
  add_output_flags(*cmd, *opt);
  add_output_options(*cmd, opt->output);
  add_summary_option(*cmd, opt->summary);
  cmd->add_flag("-q,--quiet", opt->quiet, "Print errors only");
  cmd->add_flag("-v,--verbose", opt->verbose,
                "Also print the integrator's step and evaluation counts on stderr");
}

}  // namespace eom::cli
