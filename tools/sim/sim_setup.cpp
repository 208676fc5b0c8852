#include "sim/sim_setup.hpp"

#include <algorithm>
#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/solvers/simulation_setup.hpp>

namespace eom::cli {

const NamedValues<Integrator> kIntegrators = {{"euler", Integrator::euler},
                                              {"semi-implicit", Integrator::semi_implicit_euler},
                                              {"rk4", Integrator::rk4},
                                              {"rk45", Integrator::rk45}};
const NamedValues<SimController> kControllers = {
    {"zero", SimController::zero},
    {"constant", SimController::constant},
    {"table", SimController::table},
    {"gravity", SimController::gravity},
    {"pd", SimController::pd},
    {"pd-gravity", SimController::pd_gravity},
    {"computed-torque", SimController::computed_torque},
    {"stand", SimController::stand}};
const NamedValues<Interpolation> kInterpolations = {{"hold", Interpolation::hold},
                                                    {"linear", Interpolation::linear}};

namespace {

// a unit quaternion off by more than float round-off: not what its writer meant (the row
// input's warning on a table's quaternions)
constexpr double kQuaternionNormWarned = 1e-6;
// rad (m): on a ground with saturation, the default gains ask for a joint's effort limit at this
// error (default_gains): a landing bends the legs by this order, which stiffer gains meet only
// with saturated torques that no longer share the load (a robot sinks into a squat it cannot
// leave)
constexpr double kLandingError = 0.5;

// one value for every coordinate, or one per coordinate
Eigen::VectorXd given_gains(const std::string& option, const std::vector<double>& values,
                            const Model& model) {
  if (values.size() == 1) return Eigen::VectorXd::Constant(model.nv, values[0]);
  if (values.size() != static_cast<size_t>(model.nv)) {
    throw InputError(option + " has " + std::to_string(values.size()) + " values: give one, or " +
                     std::to_string(model.nv) + " (one per velocity coordinate, in the order of " +
                     "eom info)");
  }
  return Eigen::Map<const Eigen::VectorXd>(values.data(), model.nv);
}

}  // namespace

SimulationOptions simulation_options(const SimOptions& opt, const Model& model) {
  SimulationOptions sim;
  sim.integrator = opt.integrator;
  sim.dt = opt.dt;
  sim.rtol = opt.rtol;
  sim.atol = opt.atol;
  sim.saturate = opt.saturate;
  sim.friction = opt.forces.friction;
  sim.friction_smoothing = opt.forces.friction_smoothing;
  if (opt.forces.friction) sim.friction_parameters = load_friction(model, opt.forces);
  return sim;
}

namespace {

// --contact-schedule: t and contact.<frame> of the --contacts (a contact without a column holds
// throughout), each 0 or 1.
void read_contact_schedule(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                           const SimStart& start, ContactSchedule& schedule) {
  const std::string& path = opt.contact_schedule;
  std::vector<std::string> flags;
  for (const Contact& contact : contacts.contacts) {
    flags.push_back(contact_activity_column(model.frames[contact.frame].name));
  }
  const TimeTable table =
      read_time_table(path, {kContactActivityPrefix}, opt.time, start.clock, flags);
  const ContactActivity activity(model, contacts, table.header, path);
  if (activity.inputs().empty()) {
    throw InputError(path, 1, 0, "no contact.<frame> column of the --contacts");
  }
  std::vector<double> values(table.header.names.size());
  for (int r = 0; r < table.series.rows(); ++r) {
    for (std::size_t c = 0; c < values.size(); ++c)
      values[c] = table.series.at(r, static_cast<int>(c));
    schedule.times.push_back(table.series.time(r));
    std::vector<char>& row = schedule.active.emplace_back(contacts.contacts.size(), 1);
    for (std::size_t k = 0; k < row.size(); ++k) {
      row[k] = activity.active(k, values.data()) ? 1 : 0;
    }
  }
}

}  // namespace

bool time_stepped(const SimOptions& opt) {
  return !std::isnan(opt.ground) ||
         (!opt.contact_schedule.empty() && opt.contacts.friction_coefficient > 0);
}

double ground_friction_coefficient(const SimOptions& opt) {
  return opt.contacts.friction_coefficient > 0 ? opt.contacts.friction_coefficient : 1;
}

void set_contact_changes(const SimOptions& opt, const Model& model, const ContactSet& contacts,
                         const SimStart& start, ContactSchedule& schedule, SimulationOptions& sim) {
  if (contacts.contacts.empty()) return;
  sim.contacts = &contacts;
  sim.baumgarte_kp = opt.baumgarte[0];
  sim.baumgarte_kd = opt.baumgarte[1];
  sim.friction_coefficient = opt.contacts.friction_coefficient;
  sim.friction_normal =
      Vec3(opt.contacts.normal[0], opt.contacts.normal[1], opt.contacts.normal[2]);
  if (time_stepped(opt)) {
    if (!std::isnan(opt.ground)) sim.ground = opt.ground;
    sim.friction_coefficient = ground_friction_coefficient(opt);
    sim.restitution = std::isnan(opt.restitution) ? 0 : opt.restitution;
    sim.friction_facets = opt.friction_facets;
  }
  if (opt.contact_schedule.empty()) return;
  read_contact_schedule(opt, model, contacts, start, schedule);
  sim.schedule = &schedule;
  sim.schedule_slips = time_stepped(opt);
}

bool has_gains(SimController kind) {
  return kind == SimController::pd || kind == SimController::pd_gravity ||
         kind == SimController::computed_torque || kind == SimController::stand;
}

void check_step(const Model& model, Controller& controller, const SimulationOptions& sim,
                const SimOptions& opt, const SimStart& start, bool gains, const Notes& notes) {
  Data data(model);
  const StepLimit limit = closed_loop_step_limit(model, data, controller, 0, start.q, sim);
  if (!(opt.dt > limit.max_step)) return;
  const std::string message =
      "--dt " + number_text(opt.dt) + " s is too long for the gains and joint damping at the " +
      "initial state: their fastest mode (rate " + number_text(limit.rate) + " 1/s, mostly v." +
      model.v_names[limit.coordinate] + ") is stable with " +
      (time_stepped_contacts(sim) ? std::string(sim.ground ? "the ground's" : "the schedule's") +
                                        " semi-implicit contact steps"
                                  : "--integrator " + name_of(kIntegrators, opt.integrator)) +
      " only for steps up to " + number_text(limit.max_step) + " s, and would blow up";
  const double effort = model.effort_limit[limit.coordinate];
  if (gains && opt.saturate && effort > 0 && std::isfinite(effort)) {
    notes.warning(message +
                  " but for the torques clipped at the effort limits (--no-saturate "
                  "refuses it)");
    return;
  }
  throw InputError(message + ": give a --dt of at most " + number_text(limit.max_step) +
                   " s, lower --kp/--kd (or leave them out: gains scaled to the model and the "
                   "step), or rk45, which chooses its own steps");
}

Header output_header(const SimOptions& opt, const Model& model, const ContactSet& contacts) {
  Header header{{"t"}};
  auto append = [&](const std::vector<std::string>& names) {
    header.names.insert(header.names.end(), names.begin(), names.end());
  };
  append(coordinate_columns(model, "q", Space::q));
  append(coordinate_columns(model, "v", Space::v));
  if (opt.accelerations) append(coordinate_columns(model, "a", Space::v));
  if (opt.torques_out) append(coordinate_columns(model, "tau", Space::tau));
  if (opt.forces_out) append(contact_force_columns(model, contacts));
  if (opt.forces_out && (!std::isnan(opt.ground) || !opt.contact_schedule.empty())) {
    for (const Contact& contact : contacts.contacts) {
      header.names.push_back(contact_activity_column(model.frames[contact.frame].name));
    }
    header.names.push_back(kImpactEnergyLossColumn);
  }
  if (opt.energy) append(energy_columns());
  return header;
}

void warn_about_steps(const SimOptions& opt, Integrator integrator, const Notes& notes) {
  if (integrator == Integrator::rk45) return;
  if (opt.output_dt > 0 && !is_step_multiple(opt.output_dt, opt.dt)) {
    notes.warning("--output-dt " + number_text(opt.output_dt) + " is not a multiple of --dt " +
                  number_text(opt.dt) + ": steps are shortened to land on every output time");
  }
  // with shorter output steps, the steps land on them (said above): more than one
  if (opt.dt > opt.duration && !(opt.output_dt > 0 && opt.output_dt < opt.duration)) {
    notes.warning("--dt " + number_text(opt.dt) + " is longer than --duration " +
                  number_text(opt.duration) + ": one step of " + number_text(opt.duration) +
                  " s is taken");
  }
}

SimStart initial_state(const Model& model, const SimOptions& opt, const Notes& notes) {
  SimStart start{neutral(model), Eigen::VectorXd::Zero(model.nv),
                 TableTime(TimeColumns{}, opt.time.scale)};
  if (!opt.initial.empty()) {
    const auto reader = TableReader::open(opt.initial, format_for(opt.initial, std::nullopt));
    const Header& header = reader->header();
    check_coordinate_columns(header, model, opt.initial);
    const auto q_cols = bind_columns(header, coordinate_columns(model, "q", Space::q), opt.initial);
    const auto v_names = coordinate_columns(model, "v", Space::v);
    const bool has_v = std::any_of(v_names.begin(), v_names.end(),
                                   [&](const std::string& n) { return header.index(n) >= 0; });
    // the other columns may hold anything (labels, a log's text)
    std::vector<bool> used(header.names.size(), false);
    for (int c : q_cols) used[c] = true;
    for (const std::string& n : v_names) {
      if (header.index(n) >= 0) used[header.index(n)] = true;
    }
    const TimeColumns time = bind_time_columns(header, opt.time, opt.initial, false);
    if (time.stamp >= 0) used[time.stamp] = true;
    if (time.nanosec >= 0) used[time.nanosec] = true;
    reader->read_columns(std::move(used));
    std::vector<double> row;
    if (!reader->next(row)) throw InputError(opt.initial, 1, 0, "no row: nothing to start from");
    gather(row, q_cols, start.q);
    if (has_v) gather(row, bind_columns(header, v_names, opt.initial), start.v);
    if (time.stamp >= 0) {
      start.clock = TableTime(time, opt.time.scale);
      start.clock.read(*reader, reader->line());
    }
  }
  if (!opt.q0.empty()) assign_coordinates("--q0", opt.q0, model, model.q_names, start.q);
  if (!opt.v0.empty()) assign_coordinates("--v0", opt.v0, model, model.v_names, start.v);
  const double off = normalize(model, start.q);  // throws for a quaternion of zero norm
  if (off > kQuaternionNormWarned) {
    notes.warning("the initial floating-base quaternion was not unit (off by " + number_text(off) +
                  "): normalised");
  }
  for (int i : coordinates_outside_limits(model, start.q)) {
    notes.warning("the initial " + model.q_names[i] + " = " + number_text(start.q[i]) +
                  " is outside its limits [" + number_text(model.lower_limit[i]) + ", " +
                  number_text(model.upper_limit[i]) + "]");
  }
  return start;
}

SimDrive::SimDrive(const SimOptions& opt, const Model& model, const Notes& notes,
                   const SimStart& start, double t_end)
    : opt_(opt), model_(model), notes_(notes), start_(start), t_end_(t_end) {}

// torques given for the free-flyer's coordinates, which no motor applies
void SimDrive::note_unactuated(const std::string& what) const {
  notes_.warning(what +
                 " are not applied: the free-flyer is unactuated (hold the robot with "
                 "--contacts, or push the base with --wrenches)");
}

// A table is read as the run reaches it: that it starts after the run is known when it opens,
// that it ends before the run when the run first passes its last row (said once, then).
void SimDrive::note_start(const TimeTable& table, const std::string& what) const {
  if (table.series.time(0) <= 0) return;
  notes_.warning(table.file + ": the " + what + " table starts at t = " +
                 number_text(start_.clock.origin_seconds() + table.series.time(0)) +
                 " s, after the run's start: its first row holds before");
}

void SimDrive::note_end(const TimeSeries& series, const std::string& file, const std::string& what,
                        double t, bool& said) const {
  if (said || !series.complete() || !(t > series.time(series.rows() - 1)) || t > t_end_) return;
  said = true;
  notes_.warning(file + ": the " + what + " table ends at t = " +
                 number_text(start_.clock.origin_seconds() + series.time(series.rows() - 1)) +
                 " s, before the run's end: its last row holds after");
}

// --reference: q columns, and v and a (three-point differences of q when it lacks them)
std::unique_ptr<ReferenceTrajectory> SimDrive::reference() const {
  TimeTable table = stream_time_table(opt_.reference, {"q", "v", "a"}, opt_.time, start_.clock);
  note_start(table, "reference");
  auto q_cols = bind_columns(table.header, coordinate_columns(model_, "q", Space::q), table.file);
  check_coordinate_columns(table.header, model_, table.file);
  const auto v_names = coordinate_columns(model_, "v", Space::v);
  const auto a_names = coordinate_columns(model_, "a", Space::v);
  const bool has_v = table.header.index(v_names[0]) >= 0;
  const bool has_a = table.header.index(a_names[0]) >= 0;
  const auto bind = [&](bool has, const std::vector<std::string>& names) {
    return has ? bind_columns(table.header, names, table.file) : std::vector<int>{};
  };
  std::vector<int> v_cols = bind(has_v, v_names), a_cols = bind(has_a, a_names);
  try {
    auto reference = std::make_unique<ReferenceTrajectory>(model_, std::move(table.series),
                                                           std::move(q_cols), std::move(v_cols),
                                                           std::move(a_cols), opt_.interpolation);
    if (!has_v || !has_a) {
      notes_.warning(table.file + ": reference " + std::string(has_v ? "a" : "v and a") +
                     " derived from q by three-point differences");
    }
    return reference;
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(table.file, 0, 0, e.phrase());
  }
}

std::unique_ptr<Controller> SimDrive::controller(SimController kind, const ContactSet& contacts) {
  const bool computed_torque =
      kind == SimController::computed_torque || kind == SimController::stand;
  if (kind == SimController::pd || kind == SimController::pd_gravity || computed_torque) {
    if (opt_.kp.empty() != opt_.kd.empty()) {
      throw InputError(std::string(opt_.kp.empty() ? "--kd" : "--kp") + " without " +
                       (opt_.kp.empty() ? "--kp" : "--kd") +
                       ": give both, or neither for gains scaled to the model");
    }
    if (opt_.kp.empty()) {
      Data data(model_);
      // with time-stepped contacts the contact steps are semi-implicit Euler (stepping_scheme)
      const Integrator scheme =
          time_stepped(opt_) ? Integrator::semi_implicit_euler : opt_.integrator;
      gains_ = default_gains(model_, data, start_.q, scheme, opt_.dt, computed_torque,
                             opt_.saturate && time_stepped(opt_) ? kLandingError : 0);
    } else {
      gains_ = {given_gains("--kp", opt_.kp, model_), given_gains("--kd", opt_.kd, model_), 0};
    }
    const Eigen::VectorXd& kp = gains_.kp;
    const Eigen::VectorXd& kd = gains_.kd;
    ReferenceFunction follow;
    if (!opt_.reference.empty()) {
      target_ = reference();
      follow = [this, r = target_.get(), said = false](double t, VecRef q, VecRef v,
                                                       VecRef a) mutable {
        (*r)(t, q, v, a);
        note_end(r->samples(), opt_.reference, "reference", t, said);
      };
    } else {
      Eigen::VectorXd q_ref = start_.q;
      if (!opt_.setpoint.empty())
        assign_coordinates("--setpoint", opt_.setpoint, model_, model_.q_names, q_ref);
      normalize(model_, q_ref);
      follow = set_point(q_ref);
    }
    if (computed_torque) {
      return std::make_unique<ComputedTorque>(model_, follow, kp, kd,
                                              contacts.contacts.empty() ? nullptr : &contacts);
    }
    return std::make_unique<PD>(model_, follow, kp, kd, kind == SimController::pd_gravity);
  }
  if (kind == SimController::table) {
    torques_ = std::make_unique<TimeTable>(
        stream_time_table(opt_.torques, {"tau"}, opt_.time, start_.clock));
    check_coordinate_columns(torques_->header, model_, opt_.torques);
    note_start(*torques_, "torques");
    // the free-flyer's six columns come first; the unactuated base needs none (eom id --contacts
    // writes none), and a push given on them is said once when the run meets it
    const std::vector<std::string> names = coordinate_columns(model_, "tau", Space::tau);
    const int root = model_.floating_base ? 6 : 0;
    const bool root_given =
        std::any_of(names.begin(), names.begin() + root,
                    [&](const std::string& name) { return torques_->header.index(name) >= 0; });
    const int skipped = root_given ? 0 : root;
    std::vector<int> columns =
        bind_columns(torques_->header,
                     std::vector<std::string>(names.begin() + skipped, names.end()), opt_.torques);
    return std::make_unique<TorqueCallback>(
        [this, series = &torques_->series, columns = std::move(columns), skipped, said_end = false,
         said_root = false](double t, ConstVec, ConstVec, VecRef tau) mutable {
          tau.head(skipped).setZero();
          series->sample(t, opt_.interpolation, columns, tau.tail(tau.size() - skipped));
          note_end(*series, opt_.torques, "torques", t, said_end);
          if (model_.floating_base && !said_root && !tau.head<6>().isZero(0)) {
            said_root = true;
            note_unactuated(opt_.torques + ": tau.root.*");
          }
        });
  }
  if (kind == SimController::constant) {
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(model_.nv);
    assign_coordinates("--torque", opt_.torque, model_, model_.tau_names, tau);
    if (model_.floating_base && !tau.head<6>().isZero(0)) note_unactuated("--torque root.*");
    return std::make_unique<ConstantTorque>(tau);
  }
  if (kind == SimController::gravity) return std::make_unique<GravityCompensation>();
  return std::make_unique<ZeroTorque>();
}

nlohmann::json SimDrive::gains_summary() const {
  if (gains_.kp.size() == 0) return nullptr;
  const auto list = [](const Eigen::VectorXd& x) {
    return std::vector<double>(x.data(), x.data() + x.size());
  };
  return {{"kp", list(gains_.kp)},
          {"kd", list(gains_.kd)},
          {"bandwidth", gains_.bandwidth > 0 ? nlohmann::json(gains_.bandwidth) : nullptr}};
}

// The environment: --wrenches over time as the generalized forces J^T F (the callback owns the
// table and its workspace).
void SimDrive::add_wrenches(SimulationOptions& sim) {
  auto table = std::make_shared<TimeTable>(
      stream_time_table(opt_.wrenches, {"wrench"}, opt_.time, start_.clock));
  note_start(*table, "wrenches");
  wrenches_ = table;
  auto wrenches =
      std::make_shared<ExternalWrenches>(model_, table->header, opt_.wrenches, opt_.forces);
  if (wrenches->empty()) {
    throw InputError(opt_.wrenches, 1, 0, "no wrench.<frame>.fx .. .mz columns");
  }
  sim.external = [this, table, wrenches, data = std::make_shared<Data>(model_),
                  row = std::vector<double>(table->header.size()),
                  term = Eigen::VectorXd(model_.nv),
                  said = false](double t, ConstVec q, VecRef tau) mutable {
    table->series.sample(t, opt_.interpolation,
                         Eigen::Map<Eigen::VectorXd>(row.data(), row.size()));
    note_end(table->series, opt_.wrenches, "wrenches", t, said);
    wrenches->term(model_, *data, q, row, term);
    tau = -term;  // term is -J^T F, what the joints need less
  };
}

void SimDrive::release_tables(SimulationOptions& sim) {
  sim.released = [this](double t) {
    if (target_) target_->release(t);
    if (torques_) torques_->series.release(t);
    if (wrenches_) wrenches_->series.release(t);
  };
}

}  // namespace eom::cli
