#include "cli.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "options.hpp"

namespace eom::cli {

namespace {

// the value of a number option's text, or nothing when it is no number (CLI11 says so then)
std::optional<double> number_in(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  return x;
}

// eom's message of each combination needs() and excludes() declared, by CLI11's text of its
// refusal ("A requires B", "A excludes B"): the same pair of options reads the same in every
// subcommand
std::map<std::string, std::string>& combination_messages() {
  static std::map<std::string, std::string> messages;
  return messages;
}

}  // namespace

CLI::Option* needs(CLI::Option* option, CLI::Option* other, const std::string& why) {
  const std::string &name = option->get_name(), &needed = other->get_name();
  combination_messages()[CLI::RequiresError(name, needed).what()] = name + " needs " + needed + why;
  return option->needs(other);
}

CLI::Option* excludes(CLI::Option* option, CLI::Option* other, const std::string& message) {
  const std::string &a = option->get_name(), &b = other->get_name();
  combination_messages()[CLI::ExcludesError(a, b).what()] = message;
  combination_messages()[CLI::ExcludesError(b, a).what()] = message;
  return option->excludes(other);
}

std::string usage_message(const CLI::ParseError& error, const std::string& command) {
  const auto found = combination_messages().find(error.what());
  if (found != combination_messages().end()) return found->second + "\n";
  return std::string(error.what()) + "\nRun 'eom" + command + " --help' for the options.\n";
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
const CLI::Validator kUnitInterval(
    [](std::string& text) {
      const std::optional<double> x = number_in(text);
      return x && !(*x >= 0 && *x <= 1) ? text + " is not between 0 and 1" : std::string();
    },
    "0..1");

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
  register_impact(app, dispatch);
  register_export(app, dispatch);
  register_plot(app, dispatch);
  register_identify(app, dispatch);
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
      io.inputs = given_inputs();
      return action(io);
    }
  }
  return kExitUsage;
}

}  // namespace eom::cli
