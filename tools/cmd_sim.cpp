// eom sim: forward simulation from an initial state: integrates the equations of motion with
// joint torques from a controller (or a torque table) and writes the state at the output times.
// The mathematics is eom::Simulator (simulate.hpp); this file reads the inputs, picks the
// controller and writes the table.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/trajectory/finite_difference.hpp>
#include <eom/solvers/simulate.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "forces.hpp"

namespace eom::cli {
namespace {

struct SimOptions {
  RobotOptions robot;
  std::string initial;              // table whose first row is the initial state
  std::vector<std::string> q0, v0;  // name=value,... (the others: neutral / zero)
  double duration = 0, dt = 1e-3, output_dt = 0;
  std::string integrator = "rk4";
  double rtol = 1e-6, atol = 1e-9;
  std::string controller;  // empty: table with --torques, constant with --torque, else zero
  std::vector<std::string> torque;           // constant torques, name=value,...
  std::string torques, reference, wrenches;  // time tables
  std::string interpolation = "hold";
  std::vector<std::string> setpoint;    // name=value,... (the others: initial q)
  std::vector<double> kp{100}, kd{20};  // one value, or one per velocity coordinate
  ForceOptions forces;
  bool saturate = false, energy = false, accelerations = false, torques_out = false;
  bool keep_truncated = false, quiet = false;
  OutputOptions output;
  std::string summary;  // --summary-json FILE
};

const std::vector<std::pair<std::string, Integrator>> kIntegrators = {
    {"euler", Integrator::euler},
    {"semi-implicit", Integrator::semi_implicit_euler},
    {"rk4", Integrator::rk4},
    {"rk45", Integrator::rk45}};
const std::vector<std::string> kControllers = {"zero", "constant",   "table",          "gravity",
                                               "pd",   "pd-gravity", "computed-torque"};

// one value for every coordinate, or one per coordinate
Eigen::VectorXd gains(const std::string& option, const std::vector<double>& values,
                      const Model& model) {
  if (values.size() == 1) return Eigen::VectorXd::Constant(model.nv, values[0]);
  if (values.size() != static_cast<size_t>(model.nv)) {
    throw InputError(option + " has " + std::to_string(values.size()) + " values: give one, or " +
                     std::to_string(model.nv) + " (one per velocity coordinate, in the order of " +
                     "eom info)");
  }
  return Eigen::Map<const Eigen::VectorXd>(values.data(), model.nv);
}

// A table of samples over time (torques, wrenches, a reference trajectory): read whole, t
// strictly increasing, values between samples by zero-order hold or linear interpolation, the
// first and last rows held outside its time range.
class TimeTable {
 public:
  explicit TimeTable(const std::string& path) {
    const auto reader = TableReader::open(path, format_for(path, std::nullopt));
    header_ = reader->header();
    file_ = path;
    const int t_col = header_.index("t");
    if (t_col < 0) throw InputError(path, 1, 0, "missing the time column 't'");
    std::vector<double> row;
    while (reader->next(row)) {
      const double t = row[t_col];
      if (!times_.empty() && !(t > times_.back())) {
        throw InputError(
            path, reader->line(), t_col + 1,
            "t must increase strictly: " + number_text(t) + " after " + number_text(times_.back()));
      }
      times_.push_back(t);
      values_.insert(values_.end(), row.begin(), row.end());
    }
    if (times_.empty()) throw InputError(path, 1, 0, "the table has no rows");
  }

  const Header& header() const { return header_; }
  const std::string& file() const { return file_; }
  int rows() const { return static_cast<int>(times_.size()); }
  double time(int r) const { return times_[r]; }
  double at(int r, int column) const { return values_[static_cast<size_t>(r) * width() + column]; }

  // the sample interval holding t: rows k and k + 1 with weight s of row k + 1 (s = 0 outside)
  void locate(double t, bool linear, int& k, double& s) const {
    const auto it = std::upper_bound(times_.begin(), times_.end(), t);
    k = std::max(0, static_cast<int>(it - times_.begin()) - 1);
    s = 0;
    if (linear && k + 1 < rows() && t > times_[k]) {
      s = (t - times_[k]) / (times_[k + 1] - times_[k]);
    }
  }
  // out[j] = column columns[j] at time t
  void sample(double t, bool linear, const std::vector<int>& columns, VecRef out) const {
    int k;
    double s;
    locate(t, linear, k, s);
    for (size_t j = 0; j < columns.size(); ++j) {
      const double x0 = at(k, columns[j]);
      out[static_cast<Eigen::Index>(j)] = s == 0 ? x0 : x0 + s * (at(k + 1, columns[j]) - x0);
    }
  }
  // says when the simulated interval reaches past the table
  void note_range(double t0, double t_end, const std::string& what, const Notes& notes) const {
    if (t0 >= times_.front() && t_end <= times_.back()) return;
    notes.warning(file_ + ": the " + what + " cover t = " + number_text(times_.front()) + " .. " +
                  number_text(times_.back()) + " s; the first and last rows hold outside");
  }

 private:
  int width() const { return header_.size(); }

  Header header_;
  std::string file_;
  std::vector<double> times_, values_;
};

// A reference trajectory from a table: q on the configuration manifold (q_k (+) s (q_k+1 (-) q_k)
// when linear), v and a interpolated likewise; v and a by three-point differences of q (on the
// manifold) when the table lacks them.
class ReferenceTable {
 public:
  ReferenceTable(const Model& model, const TimeTable& table, bool linear, const Notes& notes)
      : model_(model),
        table_(table),
        linear_(linear),
        q_columns_(
            bind_columns(table.header(), coordinate_columns(model, "q", Space::q), table.file())),
        q0_(model.nq),
        q1_(model.nq),
        dq_(model.nv) {
    check_coordinate_columns(table.header(), model, table.file());
    const int n = table.rows();
    v_.resize(model.nv, n);
    a_.resize(model.nv, n);
    const auto v_names = coordinate_columns(model, "v", Space::v);
    const auto a_names = coordinate_columns(model, "a", Space::v);
    const bool has_v = table.header().index(v_names[0]) >= 0;
    const bool has_a = table.header().index(a_names[0]) >= 0;
    if (!has_v || !has_a) {
      if (n < 3) {
        throw InputError(table.file(), 0, 0,
                         "a reference without v and a columns needs at least 3 rows to derive "
                         "them");
      }
      notes.warning(table.file() + ": reference " + std::string(has_v ? "a" : "v and a") +
                    " derived from q by three-point differences");
    }
    const std::vector<int> v_cols =
        has_v ? bind_columns(table.header(), v_names, table.file()) : std::vector<int>{};
    const std::vector<int> a_cols =
        has_a ? bind_columns(table.header(), a_names, table.file()) : std::vector<int>{};
    ConfigurationDifferentiator differentiate(model);
    std::array<Eigen::VectorXd, 3> q3;
    Eigen::VectorXd v(model.nv), a(model.nv);
    for (int r = 0; r < n; ++r) {
      if (!has_v || !has_a) {
        const int first = std::clamp(r - 1, 0, n - 3);
        std::array<double, 3> t;
        for (int k = 0; k < 3; ++k) {
          t[k] = table.time(first + k);
          q3[k] = configuration(first + k);
        }
        differentiate(t, {&q3[0], &q3[1], &q3[2]}, r - first, v, a);
      }
      for (int i = 0; i < model.nv; ++i) {
        v_(i, r) = has_v ? table.at(r, v_cols[i]) : v[i];
        a_(i, r) = has_a ? table.at(r, a_cols[i]) : a[i];
      }
    }
  }

  void operator()(double t, VecRef q, VecRef v, VecRef a) {
    int k;
    double s;
    table_.locate(t, linear_, k, s);
    for (int i = 0; i < model_.nq; ++i) q0_[i] = table_.at(k, q_columns_[i]);
    if (s == 0) {
      q = q0_;
      v = v_.col(k);
      a = a_.col(k);
      return;
    }
    for (int i = 0; i < model_.nq; ++i) q1_[i] = table_.at(k + 1, q_columns_[i]);
    difference(model_, q0_, q1_, dq_);
    dq_ *= s;
    integrate(model_, q0_, dq_, q);
    v = (1 - s) * v_.col(k) + s * v_.col(k + 1);
    a = (1 - s) * a_.col(k) + s * a_.col(k + 1);
  }

 private:
  Eigen::VectorXd configuration(int r) const {
    Eigen::VectorXd q(model_.nq);
    for (int i = 0; i < model_.nq; ++i) q[i] = table_.at(r, q_columns_[i]);
    return q;
  }

  const Model& model_;
  const TimeTable& table_;
  const bool linear_;
  const std::vector<int> q_columns_;
  Eigen::MatrixXd v_, a_;
  Eigen::VectorXd q0_, q1_, dq_;
};

// The initial state: the first row of --initial (v zero when absent), then --q0 / --v0.
void initial_state(const Model& model, const SimOptions& opt, Eigen::VectorXd& q,
                   Eigen::VectorXd& v, double& t0, const Notes& notes) {
  q = neutral(model);
  v.setZero(model.nv);
  t0 = 0;
  if (!opt.initial.empty()) {
    const auto reader = TableReader::open(opt.initial, format_for(opt.initial, std::nullopt));
    const Header& header = reader->header();
    check_coordinate_columns(header, model, opt.initial);
    const auto q_cols = bind_columns(header, coordinate_columns(model, "q", Space::q), opt.initial);
    const auto v_names = coordinate_columns(model, "v", Space::v);
    const bool has_v = std::any_of(v_names.begin(), v_names.end(),
                                   [&](const std::string& n) { return header.index(n) >= 0; });
    std::vector<double> row;
    if (!reader->next(row)) throw InputError(opt.initial, 1, 0, "no row: nothing to start from");
    gather(row, q_cols, q);
    if (has_v) gather(row, bind_columns(header, v_names, opt.initial), v);
    if (header.index("t") >= 0) t0 = row[header.index("t")];
  }
  if (!opt.q0.empty()) assign_coordinates("--q0", opt.q0, model.q_names, q);
  if (!opt.v0.empty()) assign_coordinates("--v0", opt.v0, model.v_names, v);
  const double off = normalize(model, q);  // throws for a quaternion of zero norm
  if (off > 1e-6) {
    notes.warning("the initial floating-base quaternion was not unit (off by " + number_text(off) +
                  "): normalised");
  }
  for (int i = 0; i < model.nq; ++i) {
    if (q[i] < model.lower_limit[i] || q[i] > model.upper_limit[i]) {
      notes.warning("the initial " + model.q_names[i] + " = " + number_text(q[i]) +
                    " is outside its limits [" + number_text(model.lower_limit[i]) + ", " +
                    number_text(model.upper_limit[i]) + "]");
    }
  }
}

// the rows at t0, t0 + output_dt, ... and the end
std::vector<double> output_times(const SimOptions& opt, double t0) {
  const double step = opt.output_dt > 0 ? opt.output_dt : opt.dt;
  const long n = static_cast<long>(std::floor(opt.duration / step * (1 + 1e-12)));
  std::vector<double> times;
  times.reserve(n + 2);
  for (long k = 0; k <= n; ++k) times.push_back(t0 + k * step);
  if (t0 + opt.duration - times.back() > 1e-9 * step) times.push_back(t0 + opt.duration);
  return times;
}

// The energy of the first and last output rows, for the summary. Of passive frictionless motion
// the change is the integrator's drift, relative to T(0) + |V(0)| as in the README's table.
struct EnergyRecord {
  long rows = 0;
  double initial = 0, scale = 0, last = 0;

  void add(double kinetic, double potential) {
    if (rows++ == 0) {
      initial = kinetic + potential;
      scale = kinetic + std::abs(potential);
    }
    last = kinetic + potential;
  }
  nlohmann::json to_json() const {
    if (rows == 0) return nullptr;
    return {{"initial", initial},
            {"final", last},
            {"change", last - initial},
            {"relative_change", scale > 0 ? nlohmann::json((last - initial) / scale) : nullptr}};
  }
};

// "run.csv" -> "run.truncated.csv"
std::string truncated_path(const std::string& path) {
  std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + ".truncated" + p.extension().string())).string();
}

void refuse_meaningless(const SimOptions& opt, const std::string& controller) {
  const bool pd =
      controller == "pd" || controller == "pd-gravity" || controller == "computed-torque";
  auto refuse = [&](bool given, const std::string& option, const std::string& needs) {
    if (given) {
      throw InputError(option + " has no effect with --controller " + controller + " (" + needs +
                       ")");
    }
  };
  refuse(!opt.torques.empty() && controller != "table", "--torques", "it drives 'table'");
  refuse(!opt.torque.empty() && controller != "constant", "--torque", "it drives 'constant'");
  refuse(!pd && !opt.reference.empty(), "--reference",
         "it is the target of pd, pd-gravity and "
         "computed-torque");
  refuse(!pd && !opt.setpoint.empty(), "--setpoint",
         "it is the target of pd, pd-gravity and "
         "computed-torque");
  refuse(!opt.reference.empty() && !opt.setpoint.empty(), "--setpoint",
         "--reference gives the target");
  refuse(controller == "table" && opt.torques.empty(), "--controller table without --torques",
         "give the torque table");
}

int run_sim(const SimOptions& opt, Streams& io) {
  if (!(opt.dt > 0)) throw InputError("--dt must be positive");
  if (!(opt.duration > 0)) throw InputError("--duration must be positive");
  if (opt.output_dt < 0) throw InputError("--output-dt must be positive");
  if (!(opt.rtol > 0) || !(opt.atol > 0)) throw InputError("--rtol and --atol must be positive");
  const std::string controller = !opt.controller.empty() ? opt.controller
                                 : !opt.torques.empty()  ? "table"
                                 : !opt.torque.empty()   ? "constant"
                                                         : "zero";
  refuse_meaningless(opt, controller);
  std::vector<std::string> inputs;
  for (const auto* f : {&opt.initial, &opt.torques, &opt.reference, &opt.wrenches}) {
    if (!f->empty()) inputs.push_back(*f);
  }
  if (opt.keep_truncated && opt.output.path == "-") {
    throw InputError("--keep-truncated needs -o FILE: the rows so far go to FILE.truncated");
  }
  check_summary_destination(opt.summary, {opt.output.path});
  refuse_to_replace_inputs(
      inputs, opt.robot.path,
      {opt.output.path, opt.keep_truncated ? truncated_path(opt.output.path) : std::string("-"),
       opt.summary});
  MessageLog log;
  const Notes notes{io.err, "sim", opt.quiet, opt.summary.empty() ? nullptr : &log};

  const Model model = load_robot(opt.robot, io, "sim", opt.quiet);
  refuse_singular_mass_matrix(model);
  SimulationOptions sim;
  sim.integrator = std::find_if(kIntegrators.begin(), kIntegrators.end(), [&](const auto& i) {
                     return i.first == opt.integrator;
                   })->second;
  sim.dt = opt.dt;
  sim.rtol = opt.rtol;
  sim.atol = opt.atol;
  sim.saturate = opt.saturate;
  sim.friction = opt.forces.friction;
  sim.friction_smoothing = opt.forces.friction_smoothing;
  if (opt.forces.friction) sim.friction_parameters = load_friction(model, opt.forces);
  const bool linear = opt.interpolation == "linear";

  Eigen::VectorXd q0, v0;
  double t0;
  initial_state(model, opt, q0, v0, t0, notes);
  const double t_end = t0 + opt.duration;
  if (!std::isfinite(t_end)) throw InputError("--duration: the end time is not finite");

  // the torque source
  std::unique_ptr<TimeTable> torque_table, reference_table, wrench_table;
  std::unique_ptr<ReferenceTable> reference;
  std::unique_ptr<Controller> control;
  Eigen::VectorXd kp, kd;
  if (controller == "pd" || controller == "pd-gravity" || controller == "computed-torque") {
    kp = gains("--kp", opt.kp, model);
    kd = gains("--kd", opt.kd, model);
    ReferenceFunction target;
    if (!opt.reference.empty()) {
      reference_table = std::make_unique<TimeTable>(opt.reference);
      reference_table->note_range(t0, t_end, "reference", notes);
      reference = std::make_unique<ReferenceTable>(model, *reference_table, linear, notes);
      target = [r = reference.get()](double t, VecRef q, VecRef v, VecRef a) { (*r)(t, q, v, a); };
    } else {
      Eigen::VectorXd q_ref = q0;
      if (!opt.setpoint.empty())
        assign_coordinates("--setpoint", opt.setpoint, model.q_names, q_ref);
      normalize(model, q_ref);
      target = set_point(q_ref);
    }
    if (controller == "computed-torque") {
      control = std::make_unique<ComputedTorque>(model, target, kp, kd);
    } else {
      control = std::make_unique<PD>(model, target, kp, kd, controller == "pd-gravity");
    }
  } else if (controller == "table") {
    torque_table = std::make_unique<TimeTable>(opt.torques);
    check_coordinate_columns(torque_table->header(), model, opt.torques);
    torque_table->note_range(t0, t_end, "torques", notes);
    control = std::make_unique<TorqueCallback>(
        [table = torque_table.get(), linear,
         columns = bind_columns(torque_table->header(),
                                coordinate_columns(model, "tau", Space::tau), opt.torques)](
            double t, ConstVec, ConstVec, VecRef tau) { table->sample(t, linear, columns, tau); });
  } else if (controller == "constant") {
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
    assign_coordinates("--torque", opt.torque, model.tau_names, tau);
    control = std::make_unique<ConstantTorque>(tau);
  } else if (controller == "gravity") {
    control = std::make_unique<GravityCompensation>();
  } else {
    control = std::make_unique<ZeroTorque>();
  }

  // the environment: wrenches over time, J^T F
  std::unique_ptr<ExternalWrenches> wrenches;
  std::vector<double> wrench_row;
  Data wrench_data(model);
  Eigen::VectorXd wrench_term(model.nv);
  if (!opt.wrenches.empty()) {
    wrench_table = std::make_unique<TimeTable>(opt.wrenches);
    wrench_table->note_range(t0, t_end, "wrenches", notes);
    wrenches =
        std::make_unique<ExternalWrenches>(model, wrench_table->header(), opt.wrenches, opt.forces);
    if (wrenches->empty()) {
      throw InputError(opt.wrenches, 1, 0, "no wrench.<frame>.fx .. .mz columns");
    }
    wrench_row.resize(wrench_table->header().size());
    std::vector<int> all(wrench_row.size());
    for (size_t c = 0; c < all.size(); ++c) all[c] = static_cast<int>(c);
    sim.external = [&, all](double t, ConstVec q, VecRef tau) {
      wrench_table->sample(t, linear, all,
                           Eigen::Map<Eigen::VectorXd>(wrench_row.data(), wrench_row.size()));
      wrenches->term(model, wrench_data, q, wrench_row, wrench_term);
      tau = -wrench_term;  // term is -J^T F, what the joints need less
    };
  }

  // the output table
  Header header;
  header.names.push_back("t");
  auto append = [&](const std::vector<std::string>& names) {
    header.names.insert(header.names.end(), names.begin(), names.end());
  };
  append(coordinate_columns(model, "q", Space::q));
  append(coordinate_columns(model, "v", Space::v));
  if (opt.accelerations) append(coordinate_columns(model, "a", Space::v));
  if (opt.torques_out) append(coordinate_columns(model, "tau", Space::tau));
  if (opt.energy) append({"energy.kinetic", "energy.potential", "energy.total"});
  const std::vector<double> times = output_times(opt, t0);
  if (sim.integrator != Integrator::rk45 && opt.output_dt > 0) {
    const double ratio = opt.output_dt / opt.dt;
    if (std::abs(ratio - std::round(ratio)) > 1e-9 * ratio) {
      notes.warning("--output-dt " + number_text(opt.output_dt) + " is not a multiple of --dt " +
                    number_text(opt.dt) + ": steps are shortened to land on every output time");
    }
  }
  OutputOptions output = opt.output;
  const std::string final_path = opt.output.path;
  if (opt.keep_truncated) output.path = truncated_path(final_path);
  auto writer = open_output(output, header);

  std::vector<double> row(header.size());
  Data energy_data(model);
  Progress progress("sim", !opt.quiet, 1, t_end - t0);
  EnergyRecord energy;
  const bool track_energy = opt.energy || !opt.summary.empty();
  auto write = [&](double t, ConstVec q, ConstVec v, ConstVec tau, ConstVec qdd) {
    double* out = row.data();
    *out++ = t;
    for (int i = 0; i < model.nq; ++i) *out++ = q[i];
    for (int i = 0; i < model.nv; ++i) *out++ = v[i];
    if (opt.accelerations) {
      for (int i = 0; i < model.nv; ++i) *out++ = qdd[i];
    }
    if (opt.torques_out) {
      for (int i = 0; i < model.nv; ++i) *out++ = tau[i];
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
    writer->write_row(row.data());
    progress.done_to(t - t0);
    progress.add_rows(1);
  };

  Simulator simulator(model);
  try {
    simulator.run(*control, q0, v0, t0, t_end, sim, times, write);
  } catch (const NumericalError& e) {
    if (opt.keep_truncated) {
      writer->commit();
      throw NumericalError(std::string(e.what()) + "; the rows so far are in " + output.path);
    }
    throw;
  }
  writer->commit();
  if (opt.keep_truncated) std::filesystem::rename(output.path, final_path);

  // the summary
  const SimulationStats& stats = simulator.stats();
  if (!opt.quiet) {
    std::ostringstream s;
    s << opt.integrator << ": " << stats.steps << " steps";
    if (sim.integrator == Integrator::rk45) s << " accepted, " << stats.rejected << " rejected";
    s << ", " << stats.evaluations << " evaluations, " << times.size()
      << " rows to t = " << number_text(t_end) << " s";
    io.err << "eom sim: " << s.str() << '\n';
  }
  if (opt.saturate && stats.saturated_steps > 0) {
    std::ostringstream s;
    s << "torques clipped at the effort limits in " << stats.saturated_steps << " of "
      << stats.steps << " steps:";
    for (int k = 0; k < model.nv; ++k) {
      if (stats.saturated_per_joint[k] > 0) {
        s << ' ' << model.tau_names[k] << " (" << stats.saturated_per_joint[k] << ")";
      }
    }
    notes.warning(s.str());
  }
  constexpr size_t kShown = 10;
  const auto& events = stats.limit_events;
  for (size_t e = 0; e < std::min(events.size(), kShown); ++e) {
    const LimitEvent& ev = events[e];
    const JointInfo& info = model.info[ev.joint];
    notes.warning("joint '" + model.joint_names[ev.joint] + "' " +
                  (ev.leaving ? "left" : "came back within") + " its " +
                  (ev.upper ? "upper" : "lower") + " limit (" +
                  number_text(ev.upper ? info.upper : info.lower) +
                  ") at t = " + number_text(ev.t) + " s");
  }
  if (events.size() > kShown) {
    notes.warning("and " + std::to_string(events.size() - kShown) + " more limit events");
  }
  if (!opt.summary.empty()) {
    nlohmann::json summary =
        summary_object("sim", opt.initial.empty() ? nlohmann::json() : nlohmann::json(opt.initial),
                       final_path, true, static_cast<long>(times.size()), kExitOk, log);
    summary["integrator"] = opt.integrator;
    summary["controller"] = controller;
    summary["t_start"] = t0;
    summary["t_end"] = t_end;
    summary["dt"] = opt.dt;
    summary["steps"] = stats.steps;
    summary["rejected"] = stats.rejected;
    summary["evaluations"] = stats.evaluations;
    nlohmann::json per_joint = nlohmann::json::array();
    for (int k = 0; k < model.nv; ++k) {
      if (stats.saturated_per_joint[k] > 0) {
        per_joint.push_back({{"column", column_name("tau", model.tau_names[k])},
                             {"steps", stats.saturated_per_joint[k]}});
      }
    }
    summary["saturation"] = {
        {"enabled", opt.saturate}, {"steps", stats.saturated_steps}, {"joints", per_joint}};
    nlohmann::json limit_events = nlohmann::json::array();
    for (const LimitEvent& ev : events) {
      const JointInfo& info = model.info[ev.joint];
      limit_events.push_back({{"joint", model.joint_names[ev.joint]},
                              {"limit", ev.upper ? "upper" : "lower"},
                              {"value", ev.upper ? info.upper : info.lower},
                              {"t", ev.t},
                              {"leaving", ev.leaving}});
    }
    summary["limit_events"] = limit_events;
    summary["energy"] = energy.to_json();
    write_summary(opt.summary, nlohmann::json::array({summary}));
  }
  return kExitOk;
}

}  // namespace

void register_sim(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<SimOptions>();
  CLI::App* cmd = add_command(
      app, "sim",
      "Forward simulation: integrates M(q) a + C(q, v) v + g(q) = tau (+ friction, + J^T F of\n"
      "external wrenches) from an initial state with torques from a controller or a table, and\n"
      "writes t, q.*, v.* (and a.*, tau.*, energy.*) every --output-dt.",
      {"eom sim robots/ur5.urdf --q0 shoulder_lift_joint=-1 --duration 2 --integrator rk45 "
       "--rtol 1e-10 --energy -o ur5_fall.csv",
       "eom sim robots/iiwa14.urdf --initial trajectories/iiwa_wave.csv --controller "
       "computed-torque --reference trajectories/iiwa_wave.csv --duration 5 -o tracked.csv",
       "eom sim robots/ur5.urdf --torques ur5_tau.csv --interpolation linear --duration 5 "
       "--dt 5e-4 --output-dt 0.01 -o ur5_sim.csv"});
  add_robot_options(*cmd, opt->robot);
  cmd->add_option("--initial", opt->initial,
                  "Table whose first row is the initial state: q.* (v.* optional, zero when "
                  "absent; t the start time, 0 when absent)")
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
                  "fixed-step schemes shorten steps to land on each output time");
  cmd->add_option("--integrator", opt->integrator,
                  "euler, semi-implicit (symplectic Euler), rk4, or rk45 (adaptive Dormand-Prince "
                  "with dense output)")
      ->capture_default_str()
      ->check(CLI::IsMember({"euler", "semi-implicit", "rk4", "rk45"}));
  cmd->add_option("--rtol", opt->rtol, "rk45: relative error bound per step")
      ->capture_default_str();
  cmd->add_option("--atol", opt->atol, "rk45: absolute error bound per step")
      ->capture_default_str();
  cmd->add_option("--controller", opt->controller,
                  "zero, constant (--torque), table (--torques), gravity (compensation), pd, "
                  "pd-gravity (PD plus g(q)), computed-torque (M (a_ref + Kd e' + Kp e) + C v + "
                  "g); default: table with --torques, constant with --torque, else zero")
      ->check(CLI::IsMember(kControllers));
  cmd->add_option("--torque", opt->torque, "Constant torques: name=value,... (others 0)")
      ->delimiter(',');
  cmd->add_option("--torques", opt->torques,
                  "Torque table: t and tau.<joint> for every joint, between rows by "
                  "--interpolation")
      ->check(CLI::ExistingPath);
  cmd->add_option("--interpolation", opt->interpolation,
                  "Between the rows of --torques, --reference and --wrenches: hold (zero-order "
                  "hold) or linear")
      ->capture_default_str()
      ->check(CLI::IsMember({"hold", "linear"}));
  cmd->add_option("--reference", opt->reference,
                  "Reference trajectory of pd, pd-gravity and computed-torque: t, q.* (v.*, a.* "
                  "optional: three-point differences of q when absent)")
      ->check(CLI::ExistingPath);
  cmd->add_option("--setpoint", opt->setpoint,
                  "Set-point of pd, pd-gravity and computed-torque: name=value,... (others: the "
                  "initial q; default: hold the initial q)")
      ->delimiter(',');
  cmd->add_option("--kp", opt->kp, "Position gains: one value or one per velocity coordinate")
      ->capture_default_str()
      ->delimiter(',');
  cmd->add_option("--kd", opt->kd, "Velocity gains: one value or one per velocity coordinate")
      ->capture_default_str()
      ->delimiter(',');
  cmd->add_option("--wrenches", opt->wrenches,
                  "External wrenches over time: t and wrench.<frame>.fx .. .mz (as eom id reads "
                  "them)")
      ->check(CLI::ExistingPath);
  add_force_options(*cmd, opt->forces);
  cmd->add_flag("--saturate", opt->saturate,
                "Clip commanded torques at the URDF effort limits and say how often");
  cmd->add_flag("--energy", opt->energy,
                "Also write energy.kinetic, energy.potential, energy.total (J)");
  cmd->add_flag("--write-accelerations", opt->accelerations, "Also write a.<coordinate>");
  cmd->add_flag("--write-torques", opt->torques_out,
                "Also write the applied tau.<joint> (after saturation; friction and wrenches not "
                "included)");
  cmd->add_flag("--keep-truncated", opt->keep_truncated,
                "On a blow-up, keep the rows so far in OUT.truncated.<ext> (exit code still 2)");
  add_output_options(*cmd, opt->output);
  add_summary_option(*cmd, opt->summary);
  cmd->add_flag("-q,--quiet", opt->quiet, "Print errors only");
  dispatch.on(cmd, [opt](Streams& io) { return run_sim(*opt, io); });
}

}  // namespace eom::cli
