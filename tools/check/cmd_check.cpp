// eom check: validate URDF files; every error and warning with its line, one summary per file.

#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/parsers/json_model.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/parsers/mjcf.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/rows/run.hpp>

#include "check/check_against.hpp"
#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> paths;
  bool strict = false;
  std::string format = "text";
  bool floating_base = false;
  bool quiet = false;
  AgainstOptions against;  // --against LOG...: the model's torques against measured ones
};

enum class Status { ok, failed, unreadable };

struct FileReport {
  std::string file;  // as given on the command line ("<stdin>" for -)
  Status status = Status::ok;
  std::vector<Diagnostic> errors, warnings, notes;
  int links = 0, joints = 0, moving_joints = 0;
  double total_mass = 0;
};

// What every format's model is held to once built, with the message fd would give: a mass matrix
// singular at every configuration (a joint that moves nothing, or whose inertia is lost in the
// round-off of the model's largest). A warning, as check_urdf's for a massless leaf (which says it
// already: not repeated); inverse dynamics still works.
void check_mass_matrix(const Model& model, FileReport& report) {
  for (const Diagnostic& d : report.warnings) {
    if (d.message.find("mass matrix is singular") != std::string::npos) return;
  }
  try {
    rows::refuse_singular_mass_matrix(model);
  } catch (const InputError& e) {
    report.warnings.push_back({Diagnostic::Severity::warning, 0, e.message()});
  }
}

void record(const Model& model, FileReport& report) {
  report.links = static_cast<int>(model.frames.size()) - 1;  // all but "world"
  report.joints = report.moving_joints = model.njoints - 1;
  report.total_mass = model.total_mass;
}

// an error found while building the model: malformed JSON (the only JSON error with a line) or
// XML makes the file unreadable; an error in a file the model includes (MJCF <include>) names it
void record(const InputError& e, const std::string& text, FileReport& report) {
  const bool malformed = is_json_model(text) ? e.line() > 0
                         : is_mjcf(text)     ? e.message().rfind("malformed XML", 0) == 0
                                             : false;
  report.status = malformed ? Status::unreadable : Status::failed;
  const bool elsewhere = !e.file().empty() && e.file() != report.file;
  report.errors.push_back(
      {Diagnostic::Severity::error, elsewhere ? 0 : e.line(),
       elsewhere ? e.file() + ":" + std::to_string(e.line()) + ": " + e.message() : e.message()});
}

// A JSON model (product of exponentials, DH) or an MJCF file is checked by building it: the first
// problem found is its error.
void check_built_model(const std::string& text, const LoadOptions& options, FileReport& report) {
  try {
    std::vector<Diagnostic> warnings;
    const Model model = is_mjcf(text) ? build_mjcf_model(text, report.file, options, &warnings)
                                      : build_json_model(text, report.file, options, &warnings);
    report.warnings = std::move(warnings);
    record(model, report);
    check_mass_matrix(model, report);
  } catch (const InputError& e) {
    record(e, text, report);
  }
}

// A URDF passed by check_urdf: the checks on the built model (the physical bounds every format
// is held to, the mass matrix).
void check_urdf_model(const UrdfDescription& urdf, const LoadOptions& options, FileReport& report) {
  try {
    const Model model = build_model(urdf, options);
    check_mass_matrix(model, report);
  } catch (const InputError& e) {
    report.errors.push_back({Diagnostic::Severity::error, e.line(), e.message()});
  }
}

FileReport check_file(const std::string& path, const CheckOptions& opt) {
  FileReport report;
  report.file = path == "-" ? "<stdin>" : path;
  LoadOptions options;
  options.floating_base = opt.floating_base;
  UrdfDescription urdf;
  try {
    const std::string text = read_robot_file(path);
    if (is_json_model(text) || is_mjcf(text)) {
      check_built_model(text, options, report);
      if (report.status == Status::ok && opt.strict && !report.warnings.empty()) {
        report.status = Status::failed;
      }
      return report;
    }
    urdf = parse_urdf(text, report.file);
  } catch (const InputError& e) {
    report.status = Status::unreadable;
    report.errors.push_back({Diagnostic::Severity::error, e.line(), e.message()});
    return report;
  }
  for (Diagnostic& d : check_urdf(urdf, options)) {
    (d.severity == Diagnostic::Severity::error     ? report.errors
     : d.severity == Diagnostic::Severity::warning ? report.warnings
                                                   : report.notes)
        .push_back(std::move(d));
  }
  if (report.errors.empty()) check_urdf_model(urdf, options, report);
  const bool fails = !report.errors.empty() || (opt.strict && !report.warnings.empty());
  report.status = fails ? Status::failed : Status::ok;
  report.links = static_cast<int>(urdf.links.size());
  report.joints = static_cast<int>(urdf.joints.size());
  report.moving_joints = opt.floating_base ? 1 : 0;
  for (const UrdfJoint& j : urdf.joints) report.moving_joints += j.type != "fixed";
  for (const UrdfLink& l : urdf.links) report.total_mass += l.mass;
  return report;
}

std::string counted(std::size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string summary(const FileReport& r) {
  if (r.status == Status::unreadable) return r.file + ": cannot be read";
  if (r.status == Status::failed) {
    if (r.errors.empty()) {
      return r.file + ": failed (--strict), " + counted(r.warnings.size(), "warning");
    }
    std::string s = r.file + ": " + counted(r.errors.size(), "error");
    if (!r.warnings.empty()) s += ", " + counted(r.warnings.size(), "warning");
    return s;
  }
  std::string s = r.file + ": ok";
  if (!r.warnings.empty()) s += ", " + counted(r.warnings.size(), "warning");
  if (!r.notes.empty()) s += ", " + counted(r.notes.size(), "note");
  return s + " (" + counted(r.moving_joints, "moving joint") + ", " + counted(r.links, "link") +
         ", total mass " + number_text(r.total_mass) + " kg)";
}

void print_diagnostic(std::ostream& out, const std::string& file, const Diagnostic& d) {
  out << file;
  if (d.line > 0) out << ':' << d.line;
  static const char* const kLabel[] = {": error: ", ": warning: ", ": note: "};
  out << kLabel[static_cast<int>(d.severity)] << d.message << '\n';
}

void print_text(std::ostream& out, const FileReport& r, const CheckOptions& opt) {
  // quiet: only what makes a file fail
  if (opt.quiet && r.status == Status::ok) return;
  for (const Diagnostic& d : r.errors) print_diagnostic(out, r.file, d);
  if (!opt.quiet || opt.strict) {
    for (const Diagnostic& d : r.warnings) print_diagnostic(out, r.file, d);
  }
  if (!opt.quiet) {
    for (const Diagnostic& d : r.notes) print_diagnostic(out, r.file, d);
  }
  out << summary(r) << '\n';
}

nlohmann::ordered_json diagnostics_json(const std::vector<Diagnostic>& list) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Diagnostic& d : list) out.push_back({{"line", d.line}, {"message", d.message}});
  return out;
}

nlohmann::ordered_json report_json(const FileReport& r) {
  static const char* const kStatus[] = {"ok", "failed", "unreadable"};
  nlohmann::ordered_json j;
  j["file"] = r.file;
  j["status"] = kStatus[static_cast<int>(r.status)];
  j["errors"] = diagnostics_json(r.errors);
  j["warnings"] = diagnostics_json(r.warnings);
  j["notes"] = diagnostics_json(r.notes);
  if (r.status == Status::unreadable) {
    for (const char* key : {"links", "joints", "moving_joints", "total_mass"}) j[key] = nullptr;
    return j;
  }
  j["links"] = r.links;
  j["joints"] = r.joints;
  j["moving_joints"] = r.moving_joints;
  // a non-finite mass is among the errors; JSON has no NaN
  j["total_mass"] = std::isfinite(r.total_mass) ? nlohmann::ordered_json(r.total_mass)
                                                : nlohmann::ordered_json(nullptr);
  return j;
}

int run_check(const CheckOptions& opt, Streams& io) {
  if (!opt.against.logs.empty() && opt.paths.size() != 1) {
    throw InputError("--against compares one ROBOT with its logs, not " +
                     std::to_string(opt.paths.size()));
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  bool failed = false, unreadable = false;
  for (const std::string& path : opt.paths) {
    const FileReport report = check_file(path, opt);
    failed = failed || report.status == Status::failed;
    unreadable = unreadable || report.status == Status::unreadable;
    nlohmann::ordered_json logs = nlohmann::ordered_json::array();
    if (opt.format != "json") print_text(io.out, report, opt);
    // the logs of a model that loads: its torques with the file's friction and armature
    if (!opt.against.logs.empty() && report.status != Status::unreadable) {
      LoadOptions options;
      options.floating_base = opt.floating_base;
      const Model model = load_model(path, options);
      const bool json = opt.format == "json";
      AgainstOptions against = opt.against;
      against.quiet = opt.quiet;
      failed = check_against(model, against, io, json ? &logs : nullptr) != kExitOk || failed;
    }
    if (opt.format == "json") {
      all.push_back(report_json(report));
      if (!opt.against.logs.empty()) all.back()["against"] = logs;
    }
  }
  if (opt.format == "json") io.out << all.dump(2) << '\n';
  if (unreadable) return kExitUsage;
  return failed ? kExitFailure : kExitOk;
}

}  // namespace

void register_check(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<CheckOptions>(
      app, dispatch, "check", "Validate robot model files (URDF, MJCF, JSON models)", {},
      run_check);
  cmd->add_option(
         "ROBOT", opt->paths,
         "Robot model files (URDF, MJCF, JSON product of exponentials or DH); - reads stdin")
      ->required();
  cmd->add_flag("--strict", opt->strict, "Fail on warnings too");
  cmd->add_option("--format", opt->format, "Report format")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  cmd->add_flag("--floating-base", opt->floating_base,
                "Check as eom would load it with a free-flyer root (the root body moves too)");
  CLI::Option* against =
      reads_files(cmd->add_option("--against", opt->against.logs,
                                  "Logs of the robot (t, q.<joint>, measured tau.<joint>; v and a "
                                  "derived when absent): report per joint the RMS and largest "
                                  "residual measured - model and its size relative to the measured "
                                  "RMS (one ROBOT)"));
  needs(cmd->add_option("--tolerance", opt->against.tolerance,
                        "With --against: exit 1 when a joint's RMS residual exceeds this fraction "
                        "of its measured RMS (e.g. 0.1)")
            ->check(CLI::PositiveNumber),
        against, " (the logs whose residuals it bounds)");
  cmd->add_flag("-q,--quiet", opt->quiet,
                "Print only what makes a file fail: its errors (and warnings under --strict) "
                "and its summary");
  cmd->footer(
      "The report goes to stdout; stderr stays empty. Per file, one line per finding, errors\n"
      "first, each group by line (no :LINE when a finding has none):\n"
      "  FILE:LINE: error: MESSAGE    eom refuses the model (structure, non-finite numbers,\n"
      "                               negative mass, indefinite inertia, missing limits, ...)\n"
      "  FILE:LINE: warning: MESSAGE  plausible but suspicious (inertia triangle inequality,\n"
      "                               massless moving bodies, odd limits, mimic joints, a\n"
      "                               non-physical link merged into a physical body)\n"
      "  FILE:LINE: note: MESSAGE     a defect that cannot affect the dynamics (a link welded\n"
      "                               to the world in a fixed-base model: not used)\n"
      "A file that cannot be read or parsed gets one error, where it was found. Then a summary:\n"
      "  FILE: ok (N moving joints, M links, total mass X kg)   FILE: ok, 1 warning (...)\n"
      "  FILE: ok, 2 notes (...)\n"
      "  FILE: 2 errors, 1 warning   FILE: failed (--strict), 1 warning   FILE: cannot be read\n"
      "--format json: one array, per file {file, status: ok|failed|unreadable, errors,\n"
      "warnings and notes: [{line, message}], links, joints, moving_joints, total_mass}.\n"
      "-q prints no notes; --strict does not fail on them.\n"
      "--against LOG...: per log, the measured tau.<joint> against the model's (rnea with the\n"
      "file's friction and armature, as eom id --friction): per joint the RMS residual, its\n"
      "percentage of the measured RMS and the largest residual; 'over the tolerance' and exit 1\n"
      "when the relative RMS exceeds --tolerance. JSON: 'against', per log {file, status, rows,\n"
      "residuals}.\n"
      "Exit: 0 every file passes; 1 a check failed (an error, or a warning under --strict);\n"
      "2 a file cannot be read or parsed (wins over 1), or a usage error.\n"
      "Examples:\n"
      "  eom check robots/*.urdf\n"
      "  eom check --strict --format json robots/iiwa14.urdf\n"
      "  eom check robots/planar_2r.urdf --against tests/data/id/planar_2r_measured.csv "
      "--tolerance 0.1");
}

}  // namespace eom::cli
