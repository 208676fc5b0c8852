// eom sim's options turned into what drives a simulation: the integrator's options, the initial
// state (--initial, --q0, --v0), the controller with the reference or torque table it follows,
// and the external wrenches. The mathematics is the library's (simulate.hpp, interpolation.hpp);
// cmd_sim.cpp declares and checks the options and runs it.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <eom/multibody/model.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/solvers/step_stability.hpp>
#include <eom/trajectory/interpolation.hpp>

#include <eom/rows/contacts.hpp>
#include <eom/rows/forces.hpp>
#include <eom/rows/run.hpp>
#include <eom/rows/row_engine.hpp>
#include <eom/rows/row_output.hpp>

#include "cli.hpp"
#include "contact_options.hpp"

namespace eom::cli {

/// --controller: what makes the joint torques (SimDrive::controller).
enum class SimController {
  from_inputs,  // not given: table with --torques, constant with --torque, else zero
  zero,
  constant,
  table,
  gravity,
  pd,
  pd_gravity,
  computed_torque,
  stand,
};

/// The names of --integrator, --controller and --interpolation.
extern const NamedValues<Integrator> kIntegrators;
extern const NamedValues<SimController> kControllers;
extern const NamedValues<Interpolation> kInterpolations;

struct SimOptions {
  RobotOptions robot;
  std::string initial;              // table whose first row is the initial state
  std::vector<std::string> q0, v0;  // name=value,... (the others: neutral / zero)
  double duration = 0, dt = 1e-3, output_dt = 0;
  Integrator integrator = Integrator::rk4;
  double rtol = 1e-6, atol = 1e-9;
  SimController controller = SimController::from_inputs;
  std::vector<std::string> torque;           // constant torques, name=value,...
  std::string torques, reference, wrenches;  // time tables
  Interpolation interpolation = Interpolation::hold;
  std::vector<std::string> setpoint;  // name=value,... (the others: initial q)
  // one value, or one per velocity coordinate; none: scaled to the model (default_gains)
  std::vector<double> kp, kd;
  ForceOptions forces;
  ContactOptions contacts;                                   // held for the whole run, unless:
  double ground = std::numeric_limits<double>::quiet_NaN();  // --ground HEIGHT (NaN: none)
  int friction_facets = 0;  // --friction-facets N (time-stepped contacts; 0: not given)
  double restitution = std::numeric_limits<double>::quiet_NaN();  // --restitution e (NaN: 0)
  std::string contact_schedule;                                   // --contact-schedule FILE
  std::vector<double> baumgarte{0, 0};                            // --baumgarte KP,KD
  bool saturate = true, energy = false, accelerations = false, torques_out = false;
  bool forces_out = false;  // --write-forces
  bool keep_truncated = false, quiet = false, verbose = false;
  OutputOptions output;
  std::string summary;  // --summary-json FILE
  TimeOptions time;     // how the tables spell time
};

/// The integrator's options, friction and saturation (the wrenches: SimDrive::add_wrenches).
SimulationOptions simulation_options(const SimOptions& opt, const Model& model);

/// The output's columns: t, q.*, v.* and those the options add (a.*, tau.*, f.<frame>.*,
/// energy.*).
Header output_header(const SimOptions& opt, const Model& model, const ContactSet& contacts);

/// The fixed step's warnings: an --output-dt that is no multiple of --dt (steps are shortened
/// to land on the outputs), a --dt longer than the run (one step of the duration).
void warn_about_steps(const SimOptions& opt, Integrator integrator, const Notes& notes);

/// The fixed step checked against the controller's feedback and the joint damping at the start
/// (closed_loop_step_limit): a step beyond the stable one is refused (InputError naming it), or
/// only said when the fastest mode is the gains' (`gains`: the controller has feedback) and
/// saturation clips the torques of its coordinate (a finite positive effort limit), which bounds
/// them.
struct SimStart;
void check_step(const Model& model, Controller& controller, const SimulationOptions& sim,
                const SimOptions& opt, const SimStart& start, bool gains, const Notes& notes);
/// Whether the controller has feedback gains (pd, pd-gravity, computed-torque, stand).
bool has_gains(SimController kind);

/// The start of a run: the first row of --initial (v zero when absent), then --q0 / --v0; q's
/// quaternions renormalised. Warns of a far-from-unit quaternion and of coordinates outside
/// their limits.
/// The run's clock counts seconds from the start: its origin is the --initial row's time stamp,
/// exactly (0 without one), and every table's times are counted from it exactly, so that
/// stamps since the epoch (1.7e18 ns) lose no digit and steps stay exact.
struct SimStart {
  Eigen::VectorXd q, v;
  TableTime clock{TimeColumns{}, 1};
};
SimStart initial_state(const Model& model, const SimOptions& opt, const Notes& notes);

/// Whether the contacts are time-stepped: --ground, or --contact-schedule with
/// --friction-coefficient (the schedule's contacts slip); else held.
bool time_stepped(const SimOptions& opt);

/// With --ground: Coulomb's coefficient of its contacts, --friction-coefficient or 1 (the
/// default of MuJoCo's sliding friction; doc/sim.md).
double ground_friction_coefficient(const SimOptions& opt);

/// The contacts' options set in `sim`: --ground, --restitution, --baumgarte,
/// --friction-coefficient, and
/// --contact-schedule read into `schedule` (on the run's clock; it must outlive the run). Throws
/// InputError for a schedule's column of no contact or value other than 0 and 1 (file, line,
/// column).
void set_contact_changes(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                         const SimStart& start, ContactSchedule& schedule, SimulationOptions& sim);

/// The tables and functions that drive one run from `start` to t_end; the controller and the
/// wrenches it makes read from it, so it lives as long as the run.
class SimDrive {
 public:
  SimDrive(const SimOptions& opt, const Model& model, const Notes& notes, const SimStart& start,
           double t_end);
  /// The controller `kind` (not from_inputs); throws InputError for bad gains or tables.
  /// computed-torque and stand share the base's load over `contacts` (when it has any).
  std::unique_ptr<Controller> controller(SimController kind, const ContactSet& contacts);
  /// --wrenches as the generalized forces J^T F of sim.external.
  void add_wrenches(SimulationOptions& sim);
  /// sim.released drops the rows of --reference, --torques and --wrenches that the run has
  /// passed: they are read as the run reaches them, and hold only the rows of a step or so.
  void release_tables(SimulationOptions& sim);
  /// The gains of pd, pd-gravity and computed-torque for the summary: {kp, kd, bandwidth} (the
  /// bandwidth null when --kp and --kd gave them), null for the other controllers.
  nlohmann::json gains_summary() const;

 private:
  void note_start(const TimeTable& table, const std::string& what) const;
  void note_end(const TimeSeries& series, const std::string& file, const std::string& what,
                double t, bool& said) const;
  void note_unactuated(const std::string& what) const;
  std::unique_ptr<ReferenceTrajectory> reference() const;

  const SimOptions& opt_;
  const Model& model_;
  const Notes& notes_;
  const SimStart& start_;
  const double t_end_;
  std::unique_ptr<ReferenceTrajectory> target_;
  std::unique_ptr<TimeTable> torques_;
  std::shared_ptr<TimeTable> wrenches_;
  PDGains gains_;
};

}  // namespace eom::cli
