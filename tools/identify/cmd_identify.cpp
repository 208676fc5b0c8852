// eom identify: inertial, friction and drive parameters from logs of measured joint torques, by
// weighted least squares on the base parameters of the joint torque regressor.

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <eom/algorithm/regressor.hpp>
#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/parsers/urdf_writer.hpp>
#include <eom/rows/row_input.hpp>
#include <eom/trajectory/consistent_parameters.hpp>
#include <eom/trajectory/identification.hpp>
#include <eom/trajectory/partial_fit.hpp>

#include "cli.hpp"
#include "contact_options.hpp"
#include "identify/identify_report.hpp"
#include "identify/measured_forces.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct IdentifyOptions {
  RowOptions rows;                                          // ROBOT, the logs, time and derivation
  std::vector<std::string> friction{"viscous", "coulomb"};  // or "none"
  bool armature = false;
  double friction_smoothing = 0;
  std::string base_out;  // --base-parameters FILE
  std::string urdf_out;
  double max_condition = 1e8;
  std::string method = "consistent";  // or "least-squares"
  double prior_weight = 1e-3;
  std::string partial_out;            // --partial FILE: the logs' factors, the fit left unfinished
  std::vector<std::string> merge;     // --merge FILE...: partial fits finished as one run
  std::vector<std::string> only;      // --only LINK,...: those bodies alone, the others the file's
  std::vector<std::string> validate;  // --validate LOG...: held-out logs for the report
  ContactOptions contacts;            // --contacts: their measured forces enter the equations
  int parameter_count = 0;            // the standard parameters (for the report)
};

DriveParameters drive_of(const IdentifyOptions& opt) {
  DriveParameters drive;
  for (const std::string& kind : opt.friction) {
    drive.viscous = drive.viscous || kind == "viscous";
    drive.coulomb = drive.coulomb || kind == "coulomb";
    drive.offset = drive.offset || kind == "offset";
  }
  drive.armature = opt.armature;
  drive.smoothing = opt.friction_smoothing;
  return drive;
}

// The file's model's residuals on the fit's logs, tallied by the fit's pass from the regressor
// it forms anyway (Y prior against the measured side, as ParameterResiduals computes them over
// the equations the log gives): the report needs no second pass for them.
struct PriorResiduals {
  const Eigen::VectorXd& prior;
  TorqueResidualScan& scan;
};

// One log's rows into the least squares: per row the base columns of the regressor and the
// measured side of the equations, S^T tau + J_c^T f (MeasuredForces), less the torques of the
// known parameters (Y known, known being the prior's values of the parameters not identified and
// zeros); the equations the log gives only (a floating base's six when it has no tau.<joint>).
// And, for the report, the file's model's residual on those equations when `prior` is given.
class IdentifyTask final : public RowTask {
 public:
  IdentifyTask(const Model& model, const DriveParameters& drive, const BaseParameters& base,
               const Eigen::VectorXd& known, StreamingLeastSquares& fit,
               std::unique_ptr<MeasuredForces> measured, std::optional<PriorResiduals> prior)
      : model_(model),
        drive_(drive),
        base_(base),
        known_(known),
        fit_(fit),
        measured_(std::move(measured)),
        equations_(measured_->equations()),
        prior_(prior),
        data_(model),
        Y_(model.nv, regressor_columns(model, drive)),
        base_Y_(equations_, static_cast<Eigen::Index>(base.independent.size())),
        tau_(model.nv),
        model_tau_(equations_),
        residual_(equations_) {
    inputs = measured_->inputs();
  }
  void compute(const Sample& s, double*) override {
    joint_torque_regressor(model_, data_, s.q, s.dq.col(0), s.dq.col(1), Y_, drive_);
    for (size_t k = 0; k < base_.independent.size(); ++k) {
      base_Y_.col(static_cast<Eigen::Index>(k)) = Y_.col(base_.independent[k]).head(equations_);
    }
    measured_->compute(s, &data_, tau_);
    if (prior_) {
      model_tau_.noalias() = Y_.topRows(equations_) * prior_->prior;
      prior_->scan.observe(tau_.head(equations_), model_tau_, s.t, s.line, residual_);
    }
    tau_.noalias() -= Y_ * known_;
    fit_.add(base_Y_, tau_.head(equations_));
  }

 private:
  const Model& model_;
  const DriveParameters& drive_;
  const BaseParameters& base_;
  const Eigen::VectorXd& known_;
  StreamingLeastSquares& fit_;
  std::unique_ptr<MeasuredForces> measured_;
  const int equations_;
  std::optional<PriorResiduals> prior_;
  Data data_;
  Eigen::MatrixXd Y_, base_Y_;
  Eigen::VectorXd tau_, model_tau_, residual_;
};

// A parameter table: its text columns (names, expressions), then its numbers (NaN written empty),
// finished for the run to commit with its other outputs.
void write_parameter_table(const OutputOptions& output, const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& texts,
                           const std::vector<Eigen::VectorXd>& numbers,
                           std::vector<std::unique_ptr<TableWriter>>& finished) {
  auto out = open_output(output, Header{header});
  std::vector<double> values(header.size());
  std::vector<Field> fields(header.size());
  for (size_t r = 0; r < texts.front().size(); ++r) {
    for (size_t c = 0; c < texts.size(); ++c) fields[c] = Field{FieldKind::text, texts[c][r]};
    for (size_t c = 0; c < numbers.size(); ++c) {
      const double x = numbers[c][static_cast<Eigen::Index>(r)];
      values[texts.size() + c] = x;
      fields[texts.size() + c] = std::isfinite(x) ? Field{} : Field{FieldKind::empty, ""};
    }
    out->write_row(values.data(), fields.data());
  }
  out->finish();
  finished.push_back(std::move(out));
}

// The base parameters' weighted least-squares estimate; empty (the report so far, the base
// parameters the logs do not determine and the error on stderr: exit 1) when the logs do not
// excite them all.
StreamingLeastSquares::Solution estimate_base(const StreamingLeastSquares& fit,
                                              const BaseParameters& base,
                                              const std::vector<std::string>& names,
                                              const IdentifyOptions& opt,
                                              const nlohmann::json& dropped, const Notes& notes,
                                              std::ostringstream& report, Streams& io) {
  StreamingLeastSquares::Solution solution = fit.solve_two_step(opt.max_condition);
  const long filtered = dropped["filter_edges"], decimated = dropped["decimation"];
  report << "eom identify: " << fit.rows() << " rows";
  if (filtered + decimated > 0) {
    report << " (" << filtered + decimated << " dropped: " << filtered
           << " at the ends of segments by the filter, " << decimated << " by the decimation)";
  }
  report << ", " << fit.unknowns() << " base parameters of " << opt.parameter_count
         << "; condition number " << solution.condition << "\n";
  if (solution.x.size() == 0 && fit.unknowns() > 0) {
    const std::vector<int> left = undetermined(fit, solution, opt.max_condition);
    report << "  not determined by the logs: " << left.size() << " of " << fit.unknowns()
           << " base parameters (the logs tell them only in combination with the others)\n";
    for (const int k : left) {
      report << "  b" << k + 1 << " = " << base_parameter_expression(base, k, names) << "\n";
    }
    io.err << report.str();
    notes.error("the logs do not excite every base parameter (condition number above " +
                number(opt.max_condition) + "): the " + std::to_string(left.size()) +
                " above are not determined; nothing written");
  }
  return solution;
}

// The standard parameters: the set nearest the prior with the estimated base parameters (least
// squares), or the physically consistent fit to the same weighted factor.
Eigen::VectorXd standard_parameters(const IdentifyOptions& opt, const Model& model,
                                    const DriveParameters& drive, const BaseParameters& base,
                                    const StreamingLeastSquares& fit,
                                    const StreamingLeastSquares::Solution& solution,
                                    const Eigen::VectorXd& prior, const std::vector<int>& unknowns,
                                    std::ostringstream& report) {
  if (opt.method == "least-squares") return standard_from_base(base, solution.x, prior);
  const int r = fit.unknowns();
  const Eigen::MatrixXd T = fit.combined(solution.weights);
  ConsistentFitSettings settings;
  settings.bodies = model.njoints - 1;
  settings.drive = drive;
  settings.prior_weight = opt.prior_weight;
  const ConsistentFit consistent = consistent_parameters(
      T.topLeftCorner(r, r) * base.combination, T.col(r).head(r), prior, settings, unknowns);
  // the weighted residuals of the two, over every row: ||R b - z||^2 + rho^2
  const Eigen::VectorXd lsq_residual = T.topLeftCorner(r, r) * solution.x - T.col(r).head(r);
  const double rho2 = T(r, r) * T(r, r);
  report << "  consistent fit (prior weight " << opt.prior_weight << ", " << consistent.iterations
         << " steps): weighted residual "
         << std::sqrt(
                (T.topLeftCorner(r, r) * (base.combination * consistent.pi) - T.col(r).head(r))
                    .squaredNorm() +
                rho2)
         << ", least squares " << std::sqrt(lsq_residual.squaredNorm() + rho2) << "\n";
  return consistent.pi;
}

// The identified robot as URDF text; a body eom would not load (least squares keeps none
// physical) is an error naming it, and nothing is written.
std::string identified_urdf(const IdentifyOptions& opt, const Model& model,
                            const DriveParameters& drive, const Eigen::VectorXd& value,
                            const Notes& notes, Streams& io) {
  std::ostringstream text;
  for (const std::string& what : write_urdf(model_with_parameters(model, drive, value), text)) {
    notes.warning("not written: " + what);
  }
  try {
    build_model(parse_urdf(text.str(), opt.urdf_out));
  } catch (const InputError& e) {
    throw InputError("the identified parameters are not a physical robot, " + opt.urdf_out +
                     " not written: " + e.text(io.names));
  }
  return text.str();
}

// The fit over every log: each log's rows accumulated on their own, the logs' fits combined in
// the order given (combine_fit), as merge_partial_fits combines partial fits, so that one partial
// fit per log merged in the logs' order gives this run's factors bit for bit.
// The rows the filter and the decimation dropped are tallied into `dropped`, and the residuals of
// the file's model (`prior`) into `tally` when one is given (for the report).
StreamingLeastSquares fit_logs(const IdentifyOptions& opt, const Model& model,
                               const DriveParameters& drive, const ContactSet& contacts,
                               FitBase& base, const Eigen::VectorXd& known,
                               const Eigen::VectorXd& prior, const Notes& notes,
                               nlohmann::json& dropped, ResidualTally* tally) {
  std::optional<StreamingLeastSquares> total;
  for (const std::string& log : opt.rows.tables) {
    if (looks_like_partial_fit(log)) {
      throw InputError(log, 0, 0,
                       "a partial fit of eom identify, not a log: partial fits are finished "
                       "with --merge FILE...");
    }
    // sized by the equations the log's header gives
    std::optional<StreamingLeastSquares> part;
    std::optional<TorqueResidualScan> scan;
    const RowCommand command{
        "identify", 2, {}, [&](const Header& header, const std::string& file, const Notes&) {
          auto measured = std::make_unique<MeasuredForces>(model, contacts, header, file);
          const int equations = measured->equations();
          const BaseParameters& b = base.over(equations, file);
          part.emplace(equations, static_cast<int>(b.independent.size()));
          const std::optional<PriorResiduals> residuals =
              tally ? std::optional<PriorResiduals>(PriorResiduals{prior, scan.emplace(equations)})
                    : std::nullopt;
          return std::make_unique<IdentifyTask>(model, drive, b, known, *part, std::move(measured),
                                                residuals);
        }};
    nlohmann::json table;
    scan_table(opt.rows, model, command, log, notes, &table);
    for (const auto& [key, rows] : table.items()) {
      dropped[key] = dropped[key].get<long>() + rows.get<long>();
    }
    part->flush();
    if (tally) tally->add(0, *scan, part->groups(), log);
    combine_fit(total, std::move(*part));
  }
  return std::move(*total);
}

// The partial fits combined in the order given, each checked against this run's robot and
// settings first; one at a time, so the memory is that of two fits whatever their number. Their
// logs are added to `logs`. The equations are the first partial fit's when this run's logs could
// give them (a floating base's six, with contacts), every coordinate's otherwise: the base
// parameters are found over them, and every other partial fit must have the same.
StreamingLeastSquares merge_partial_fits(const std::vector<std::string>& files, const Model& model,
                                         const DriveParameters& drive, const ContactSet& contacts,
                                         FitBase& base, std::vector<std::string>& logs) {
  std::optional<StreamingLeastSquares> total;
  std::optional<PartialFitKey> key;
  for (const std::string& file : files) {
    PartialFit partial = read_partial_fit(file);
    if (!key) {
      const bool base_rows = model.floating_base && !contacts.contacts.empty() &&
                             partial.key.joints.size() == static_cast<size_t>(kBaseEquations);
      const int equations = base_rows ? kBaseEquations : model.nv;
      key = partial_fit_key(model, drive, base.over(equations, file), contacts, equations);
    }
    check_partial_fit_key(*key, partial.key, file);
    logs.insert(logs.end(), partial.logs.begin(), partial.logs.end());
    combine_fit(total, std::move(partial.fit));
  }
  return std::move(*total);
}

// --partial: the fit left unfinished, written for a later --merge
int write_partial_fit(const IdentifyOptions& opt, const PartialFitKey& key,
                      const std::vector<std::string>& logs, const StreamingLeastSquares& fit,
                      Streams& io) {
  write_document(opt.partial_out, partial_fit_text(key, logs, fit), io.out);
  if (!opt.rows.quiet) {
    io.err << "eom identify: " << fit.rows() << " rows, " << fit.unknowns()
           << " base parameters of " << opt.parameter_count << ": partial fit written to "
           << opt.partial_out << "\n";
  }
  return kExitOk;
}

// The estimate into the summary, and the worst-determined base parameters (at most three) into
// the report and the summary.
void report_estimate(const BaseParameters& base, const StreamingLeastSquares::Solution& solution,
                     const std::vector<std::string>& names, int parameters, std::ostream& out,
                     nlohmann::json& summary) {
  summary["base_parameters"] = solution.x.size();
  summary["parameters"] = parameters;
  summary["condition"] = solution.condition;
  summary["worst_determined"] = nlohmann::json::array();
  out << "  worst-determined base parameters: value, std (% of |value|)\n";
  for (const int k : worst_determined(solution, 3)) {
    const std::string expression = base_parameter_expression(base, k, names);
    const double relative = 100 * solution.std[k] / std::abs(solution.x[k]);
    out << "  b" << k + 1 << " = " << expression << ": " << solution.x[k] << ", " << solution.std[k]
        << " (" << relative << "%)\n";
    summary["worst_determined"].push_back({{"base", "b" + std::to_string(k + 1)},
                                           {"expression", expression},
                                           {"value", solution.x[k]},
                                           {"std", solution.std[k]},
                                           {"relative_std", relative}});
  }
}

// The residuals of the file's model and of the identified one on the fit's logs and on the
// held-out ones, into the report and the summary. On the fit's logs the RMS come from the factor,
// the file's model's largest residuals from the fit's pass (`tallied`); the identified model's
// largest need the fitted values, so the logs are read a second time for them, only for the
// summary (--summary-json) and when none is stdin.
void report_residuals_of(const IdentifyOptions& opt, const Model& model,
                         const DriveParameters& drive, const ContactSet& contacts,
                         const BaseParameters& base, const StreamingLeastSquares& fit,
                         const Eigen::VectorXd& prior, const Eigen::VectorXd& value,
                         ResidualTally tallied, const Notes& notes, std::ostringstream& report,
                         nlohmann::json& summary) {
  // the logs of merged partial fits are not read again: they may be on other machines
  const bool stdin_read =
      std::find(opt.rows.tables.begin(), opt.rows.tables.end(), "-") != opt.rows.tables.end();
  if (opt.merge.empty() && !stdin_read && !opt.rows.summary.empty()) {
    // the fit's logs again: their warnings were said
    const Notes again{notes.out, notes.command, true, nullptr, notes.names};
    scan_residuals(opt.rows, opt.rows.tables, model, drive, contacts, {value}, 1, again, tallied);
  }
  const ResidualSummary on_fit =
      fit_residuals(fit, base.combination * prior, base.combination * value, tallied.summary());
  report_residuals("on the fit's logs", on_fit, model.tau_names, report);
  summary["fit"] = residuals_json(on_fit, model.tau_names);
  if (opt.validate.empty()) return;
  ResidualTally held_out;
  scan_residuals(opt.rows, opt.validate, model, drive, contacts, {prior, value}, 0, notes,
                 held_out);
  report_residuals("on the held-out logs", held_out.summary(), model.tau_names, report);
  summary["validation"] = residuals_json(held_out.summary(), model.tau_names);
  summary["validation"]["files"] = opt.validate;
}

// --base-parameters: one row per base parameter, its combination in words, value and std
void write_base_table(const IdentifyOptions& opt, const BaseParameters& base,
                      const std::vector<std::string>& names,
                      const StreamingLeastSquares::Solution& solution,
                      std::vector<std::unique_ptr<TableWriter>>& finished) {
  std::vector<std::string> labels, expressions;
  for (Eigen::Index k = 0; k < solution.x.size(); ++k) {
    labels.push_back("b" + std::to_string(k + 1));
    expressions.push_back(base_parameter_expression(base, static_cast<int>(k), names));
  }
  const Eigen::VectorXd relative = 100 * solution.std.cwiseQuotient(solution.x.cwiseAbs());
  write_parameter_table(OutputOptions{opt.base_out, opt.rows.output.format},
                        {"base", "expression", "value", "std", "relative_std"},
                        {labels, expressions}, {solution.x, solution.std, relative}, finished);
}

int run_identify(IdentifyOptions opt, Streams& io) {
  if (opt.rows.tables.empty() && opt.merge.empty()) {
    throw InputError(
        "no logs: give the logs to identify from (LOG...), or the partial fits to "
        "finish (--merge FILE...)");
  }
  check_destinations(io.inputs, {opt.partial_out.empty() ? opt.rows.output.path : opt.partial_out},
                     opt.rows.summary, {opt.base_out, opt.urdf_out});
  const Model model = load_robot(opt.rows, io, "identify");
  const ContactSet contacts = load_contacts(model, opt.contacts);
  if (model.floating_base && contacts.contacts.empty()) {
    throw InputError(
        "a floating base's equations of motion hold the contact forces (M a + h = S^T tau + "
        "J_c^T f; its own six hold no joint torque): name the contacts with " +
        Phrase(Setting::contacts) +
        " and give their measured f.<frame>.* columns (or fix the base)");
  }
  MessageLog log;
  const Notes notes{io.err, "identify", opt.rows.quiet, opt.rows.summary.empty() ? nullptr : &log,
                    io.names};
  const DriveParameters drive = drive_of(opt);
  const std::vector<std::string> names = regressor_parameter_names(model, drive);
  const std::vector<int> unknowns = [&] {
    try {
      return identified_columns(model, drive, opt.only);
    } catch (const InputError& e) {
      throw InputError("--only: " + e.text(io.names));
    }
  }();
  opt.parameter_count = static_cast<int>(unknowns.size());
  const Eigen::VectorXd prior = regressor_parameters(model, drive);
  Eigen::VectorXd known = prior;
  for (const int c : unknowns) known[c] = 0;
  // a fixed base's logs give every equation; a floating base's say which when read
  FitBase fit_base(model, drive, unknowns, names, notes);
  if (!model.floating_base) fit_base.over(model.nv, "");
  std::vector<std::string> logs = opt.rows.tables;
  nlohmann::json dropped = {{"filter_edges", 0}, {"decimation", 0}};
  // the report's residuals, unless nothing shows them (-q without --summary-json, or --partial)
  const bool reported = opt.partial_out.empty() && (!opt.rows.quiet || !opt.rows.summary.empty());
  ResidualTally tallied;
  StreamingLeastSquares fit =
      opt.merge.empty() ? fit_logs(opt, model, drive, contacts, fit_base, known, prior, notes,
                                   dropped, reported ? &tallied : nullptr)
                        : merge_partial_fits(opt.merge, model, drive, contacts, fit_base, logs);
  const BaseParameters& base = fit_base.get();
  const int r = static_cast<int>(base.independent.size());
  if (!opt.partial_out.empty()) {
    return write_partial_fit(opt, partial_fit_key(model, drive, base, contacts, fit.groups()), logs,
                             fit, io);
  }

  std::ostringstream report;
  const StreamingLeastSquares::Solution solution =
      estimate_base(fit, base, names, opt, dropped, notes, report, io);
  if (solution.x.size() == 0 && r > 0) return kExitFailure;
  const Eigen::VectorXd value =
      standard_parameters(opt, model, drive, base, fit, solution, prior, unknowns, report);
  nlohmann::json summary =
      summary_object("identify", logs, opt.rows.output.path, true, fit.rows(), kExitOk, log);
  summary["dropped"] = dropped;
  if (reported) {
    report_residuals_of(opt, model, drive, contacts, base, fit, prior, value, std::move(tallied),
                        notes, report, summary);
  }
  report_estimate(base, solution, names, opt.parameter_count, report, summary);
  if (!opt.rows.quiet) io.err << report.str();
  Eigen::VectorXd std = Eigen::VectorXd::Constant(prior.size(), NAN);
  for (int k = 0; k < r; ++k) {
    if (alone(base, k)) std[base.independent[k]] = solution.std[k];
  }
  const std::string urdf =
      opt.urdf_out.empty() ? "" : identified_urdf(opt, model, drive, value, notes, io);
  std::vector<std::unique_ptr<TableWriter>> finished;
  write_parameter_table(opt.rows.output, {"parameter", "prior", "value", "std"}, {names},
                        {prior, value, std}, finished);
  if (!opt.base_out.empty()) write_base_table(opt, base, names, solution, finished);
  if (!urdf.empty()) write_document(opt.urdf_out, urdf, io.out);
  std::vector<TableWriter*> tables;
  for (const auto& table : finished) tables.push_back(table.get());
  commit_results(tables, opt.rows.summary, nlohmann::json::array({summary}));
  return kExitOk;
}

}  // namespace

void register_identify(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<IdentifyOptions>(
      app, dispatch, "identify",
      "Identify the inertial, friction and drive parameters of a robot from logs of its\n"
      "measured joint torques: reads t, q.<joint> (v and a derived when absent, as eom id\n"
      "derives them) and tau.<joint>; weighted least squares on the base parameters of the\n"
      "joint torque regressor; writes one row per parameter: parameter, prior, value, std.\n"
      "--partial writes what the logs contribute instead (a partial fit), and --merge finishes\n"
      "the fit from partial fits, as one run over their logs. A floating base needs --contacts\n"
      "and the measured contact forces f.<frame>.* (as eom id --contacts writes them): the\n"
      "equations are M a + h = S^T tau + J_c^T f, the base's six included (alone, when the logs\n"
      "have no tau.<joint>); a partial fit records the contacts and merges only with the same.",
      {"eom identify robots/ur5.urdf tests/data/identify/ur5_log.csv -o params.csv "
       "--base-parameters base.csv",
       "eom identify tests/data/identify/ur5_no_friction.urdf tests/data/identify/ur5_log.csv "
       "--urdf-out ur5_identified.urdf -o params.csv",
       "eom identify robots/ur5.urdf examples/logs/ur5_1.csv --partial ur5_1.json",
       "eom identify robots/ur5.urdf examples/logs/ur5_2.csv --partial ur5_2.json",
       "eom identify robots/ur5.urdf -o params.csv --merge ur5_1.json ur5_2.json"},
      run_identify);
  add_robot_options(*cmd, opt->rows.robot);
  CLI::Option* logs =
      reads_files(cmd->add_option("LOG", opt->rows.tables, "Logs of the robot (- for stdin)"));
  add_output_options(*cmd, opt->rows.output);
  add_time_options(*cmd, opt->rows.time);
  cmd->add_option("--friction", opt->friction,
                  "Friction and drive columns per joint: viscous, coulomb, offset (a list), or "
                  "none (default viscous,coulomb)")
      ->delimiter(',')
      ->check(CLI::IsMember({"viscous", "coulomb", "offset", "none"}));
  cmd->add_flag("--armature", opt->armature, "Identify each joint's armature (rotor inertia) too");
  cmd->add_option("--friction-smoothing", opt->friction_smoothing,
                  "Replace sgn(v) by tanh(v / EPS) in the Coulomb columns (as eom id)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--base-parameters", opt->base_out,
                  "Write the base parameters to FILE: base, expression, value, std, relative_std");
  cmd->add_option("--urdf-out", opt->urdf_out,
                  "Write the robot with the identified parameters as URDF to FILE");
  cmd->add_option("--max-condition", opt->max_condition,
                  "Refuse (exit 1) when the weighted base regressor's condition number exceeds "
                  "this (default 1e8)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--method", opt->method,
                  "consistent (default): every body physical, friction and armature >= 0; "
                  "least-squares: the weighted least-squares estimate's standard set nearest the "
                  "file's")
      ->check(CLI::IsMember({"consistent", "least-squares"}));
  cmd->add_option("--prior-weight", opt->prior_weight,
                  "Pull of the consistent fit toward the file's parameters, relative to the data "
                  "(default 1e-3; 0: a pure fit)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--only", opt->only,
                  "Identify the bodies of these links alone (a payload's, say), with the friction "
                  "and drive columns; every other body keeps the file's values")
      ->delimiter(',');
  reads_files(cmd->add_option("--validate", opt->validate,
                              "Held-out logs: the residuals of the file's model and of the "
                              "identified one on them, in the report"));
  cmd->add_option("--filter", opt->rows.low_pass,
                  "Low-pass q (before the derivation), the derivatives given and tau alike at HZ: "
                  "a zero-phase windowed-sinc FIR (Gautier's parallel filtering)")
      ->type_name("HZ")
      ->check(kPositive);
  cmd->add_option("--decimate", opt->rows.decimate,
                  "Keep every N-th row, after the filter and the derivation")
      ->type_name("N")
      ->check(CLI::Range(1, 1000000000));
  add_summary_option(*cmd, opt->rows.summary);
  add_contact_options(*cmd, opt->contacts, false);
  CLI::Option* partial = cmd->add_option(
      "--partial", opt->partial_out,
      "Write what the logs contribute (the accumulated factors, JSON) to FILE instead of "
      "finishing the fit; --merge finishes it");
  CLI::Option* merge =
      reads_files(cmd->add_option("--merge", opt->merge,
                                  "Finish the fit from partial fits (--partial's files) instead "
                                  "of logs, in the order given: as one run over their logs"));
  // CLI11 takes the word after --merge whatever it is: an option there is a forgotten file
  merge->check(CLI::Validator(
      [](std::string& file) {
        return file.size() > 1 && file[0] == '-'
                   ? file + " is an option, not a partial fit: give the files right after --merge"
                   : std::string();
      },
      "FILE"));
  excludes(merge, logs, "--merge reads partial fits, not logs: give the logs to --partial runs");
  for (const char* name : {"--filter", "--decimate"}) {
    excludes(merge, cmd->get_option(name),
             std::string("--merge reads no log: ") + name +
                 " belongs to the runs that read them (--partial)");
  }
  for (const char* name :
       {"--output", "--format", "--base-parameters", "--urdf-out", "--max-condition", "--method",
        "--prior-weight", "--validate", "--summary-json"}) {
    excludes(partial, cmd->get_option(name),
             std::string("--partial leaves the fit unfinished: ") + name +
                 " belongs to the run that finishes it (--merge)");
  }
  cmd->add_flag("-q,--quiet", opt->rows.quiet, "Errors only");
}

}  // namespace eom::cli
