#include "cli.hpp"
#include "row_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <sstream>

#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

namespace eom::cli {

void add_robot_options(CLI::App& cmd, RobotOptions& opt, bool uses_gravity) {
  reads_files(cmd.add_option("ROBOT", opt.path, "Robot model file (URDF); - reads stdin"))
      ->required();
  cmd.add_flag("--floating-base", opt.floating_base,
               "Add a free-flyer root joint 'root' above the URDF root link");
  if (!uses_gravity) return;
  cmd.add_option("--gravity", opt.gravity, "Gravity in the world frame, gx,gy,gz (m/s^2)")
      ->delimiter(',')
      ->expected(3)
      ->default_str("0,0,-9.81");
}

Model load_robot(const RobotOptions& opt, Streams& io, const std::string& command, bool quiet) {
  UrdfOptions options;
  options.floating_base = opt.floating_base;
  options.gravity = Vec3(opt.gravity[0], opt.gravity[1], opt.gravity[2]);
  if (!options.gravity.allFinite())
    throw InputError("--gravity: components must be finite numbers");
  std::vector<Diagnostic> warnings;
  Model model = load_urdf(opt.path, options, &warnings);
  if (!quiet) {
    const std::string file = opt.path == "-" ? "<stdin>" : opt.path;
    for (const Diagnostic& d : warnings) {
      warn(io, command, file + (d.line > 0 ? ":" + std::to_string(d.line) : "") + ": " + d.message);
    }
  }
  return model;
}

void add_input_options(CLI::App& cmd, InputOptions& opt) {
  reads_files(cmd.add_option("TABLE", opt.path, "Input table (CSV, JSON or NDJSON); - reads stdin"))
      ->required();
  cmd.add_option("--from", opt.from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
  add_separator_option(cmd, opt.separator);
}

void add_separator_option(CLI::App& cmd, std::string& separator) {
  cmd.add_option("--separator", separator,
                 "CSV field separator: comma, semicolon or tab (default: detected from the "
                 "header row)")
      ->check(CLI::IsMember({"comma", "semicolon", "tab", ",", ";", "\t"}));
}

namespace {

// the value of a number option's text, or nothing when it is no number (CLI11 says so then)
std::optional<double> number_in(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  return x;
}

char separator_char(const std::string& name) {
  if (name == "comma" || name == ",") return ',';
  if (name == "semicolon" || name == ";") return ';';
  if (name == "tab" || name == "\t") return '\t';
  return 0;
}

}  // namespace

std::unique_ptr<TableReader> open_input(const InputOptions& opt,
                                        const std::function<void(const std::string&)>& warn) {
  const std::optional<Format> forced =
      opt.from.empty() ? std::nullopt : std::optional<Format>(parse_format(opt.from));
  const Format format = format_for(opt.path, forced);
  auto reader = TableReader::open(opt.path, format, ReadOptions{separator_char(opt.separator)});
  if (format == Format::csv && reader->separator() != ',' && opt.separator.empty() && warn) {
    warn(reader->name() + ": fields separated by " +
         (reader->separator() == ';' ? "semicolons" : "tabs") +
         " (detected from the header row; --separator sets it)");
  }
  return reader;
}

CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description,
                      const std::vector<std::string>& examples) {
  CLI::App* cmd = app.add_subcommand(name, description);
  if (examples.empty()) return cmd;
  std::string footer = "Examples:";
  for (const auto& example : examples) footer += "\n  " + example;
  cmd->footer(footer);
  return cmd;
}

void assign_coordinates(const std::string& option, const std::vector<std::string>& items,
                        const std::vector<std::string>& names, Eigen::Ref<Eigen::VectorXd> out) {
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    const auto value = eq == std::string::npos ? std::nullopt : parse_number(item.substr(eq + 1));
    if (!value || !std::isfinite(*value)) {
      throw InputError(option + " " + item + ": expected NAME=VALUE with a finite number");
    }
    const std::string name = item.substr(0, eq);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      throw InputError(option + " " + item + ": the model has no coordinate '" + name + "'" +
                       did_you_mean(names, name) + " (`eom info` lists them)");
    }
    out[it - names.begin()] = *value;
  }
}

std::string number_text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

int require_frame_option(const Model& model, const std::string& option, const std::string& name) {
  try {
    return model.require_frame(name);
  } catch (const InputError& e) {
    throw InputError(option + ": " + e.message());
  }
}

void refuse_singular_mass_matrix(const Model& model, const std::string& context,
                                 const std::string& needs) {
  const std::vector<int> joints = joints_without_inertia(model);
  if (joints.empty()) return;
  std::string names;
  for (int j : joints) names += (names.empty() ? "'" : ", '") + model.joint_names[j] + "'";
  throw InputError(context + (joints.size() == 1 ? "joint " : "joints ") + names +
                   (joints.size() == 1 ? " moves" : " move") +
                   " no mass or inertia along its motion: the mass matrix is singular at every "
                   "configuration (a model defect) and " +
                   needs + " undefined (give the links they move mass and inertia)");
}

const CLI::Validator kPositive(
    [](std::string& text) {
      const std::optional<double> x = number_in(text);
      return x && !(*x > 0) ? text + " must be positive" : std::string();
    },
    "POSITIVE");
const CLI::Validator kNonNegative(
    [](std::string& text) {
      const std::optional<double> x = number_in(text);
      return x && *x < 0 ? text + " must not be negative" : std::string();
    },
    "NONNEGATIVE");

void warn(Streams& io, const std::string& command, const std::string& message) {
  io.err << "eom " << command << ": warning: " << message << '\n';
}

void register_commands(CLI::App& app, Dispatch& dispatch) {
  app.require_subcommand(1);
  app.set_version_flag("--version", "eom 0.1.0\n");
  register_info(app, dispatch);
  register_check(app, dispatch);
  register_fk(app, dispatch);
  register_convert(app, dispatch);
  register_id(app, dispatch);
  register_fd(app, dispatch);
  register_sim(app, dispatch);
  register_ik(app, dispatch);
  register_deriv(app, dispatch);
  register_jac(app, dispatch);
  // NaN and infinities parse as doubles but mean nothing as a step, a gain, a tolerance or a
  // duration: every number option refuses them when the command line is parsed (1e400 too,
  // which overflows to infinity)
  const CLI::Validator finite(
      [](std::string& text) {
        const std::optional<double> x = number_in(text);
        return x && !std::isfinite(*x) ? "not a finite number: " + text : std::string();
      },
      "");
  std::string commands;
  for (CLI::App* command : app.get_subcommands({})) {
    commands += (commands.empty() ? "" : ", ") + command->get_name();
    for (CLI::Option* option : command->get_options()) {
      if (option->get_type_name().rfind("FLOAT", 0) == 0) option->check(finite);
    }
  }
  app.footer("Subcommands: " + commands +
             ". 'eom help <subcommand>' or 'eom <subcommand> --help' describes each.\n");
}

int Dispatch::run_selected(Streams& io, std::string& name) const {
  for (const auto& [command, action] : actions_) {
    if (command->parsed()) {
      name = command->get_name();
      return action(io);
    }
  }
  return kExitUsage;
}

}  // namespace eom::cli
