#include "cli.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include <eom/core/errors.hpp>
#include <eom/multibody/model.hpp>

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

namespace {

// The subcommand named on the command line, or nullptr.
const CLI::App* selected_command(const CLI::App& app) {
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->parsed()) return command;
  }
  return nullptr;
}

// Every spelling of the options of `command` (or of eom itself), for suggestions.
std::vector<std::string> option_spellings(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

// The words CLI11 could not place, each said with a suggestion when one is close.
std::string unexpected_words(const CLI::App& app, const CLI::App& command) {
  const std::vector<std::string> names = option_spellings(command);
  std::string text;
  for (const std::string& word : app.remaining(true)) {
    if (!text.empty()) text += "; ";
    const bool option = word.size() > 1 && word[0] == '-';
    // --name=value: the name is what is misspelt
    const std::string name = option ? word.substr(0, word.find('=')) : word;
    text += (option ? "unknown option " : "unexpected argument ") + quote_input(name) +
            (option ? did_you_mean(names, name) : "");
  }
  return text;
}

// "a, b, c" of CLI11's "{a,b,c}"
std::vector<std::string> listed_choices(const std::string& set) {
  std::vector<std::string> choices;
  std::stringstream in(set);
  for (std::string choice; std::getline(in, choice, ',');) choices.push_back(choice);
  return choices;
}

// CLI11's messages about values, in eom's words: what the option takes, then what it was given.
std::string value_message(const std::string& text) {
  static const std::regex range("^(\\S+): Value (.*) not in range (\\S+) to (\\S+)$");
  static const std::regex member("^(\\S+): (.*) not in \\{(.*)\\}$");
  static const std::regex conversion("^Could not convert: (\\S+) = (.*)$");
  static const std::regex at_most("^(\\S+): At Most (\\d+) required but received (\\d+)$");
  static const std::regex at_least("^(\\S+): At least (\\d+) required but received (\\d+)$");
  static const std::regex exactly(
      "^Expected (exactly|at least) (\\d+) arguments to (\\S+), got (\\d+)$");
  std::smatch m;
  if (std::regex_match(text, m, range)) {
    return m.str(1) + " takes a whole number from " + m.str(3) + " to " + m.str(4) + ", not " +
           quote_input(m.str(2));
  }
  if (std::regex_match(text, m, member)) {
    const std::vector<std::string> choices = listed_choices(m.str(3));
    return m.str(1) + " takes one of " + std::regex_replace(m.str(3), std::regex(","), ", ") +
           ", not " + quote_input(m.str(2)) + did_you_mean(choices, m.str(2));
  }
  if (std::regex_match(text, m, conversion)) {
    return m.str(1) + " takes a number, not " + quote_input(m.str(2));
  }
  if (std::regex_match(text, m, at_most)) {
    return m.str(1) + " takes at most " + m.str(2) + " values, not " + m.str(3);
  }
  if (std::regex_match(text, m, at_least)) {
    return m.str(1) + " takes at least " + m.str(2) + " values, not " + m.str(3);
  }
  if (std::regex_match(text, m, exactly)) {
    return m.str(3) + " takes " + (m.str(1) == "exactly" ? "" : "at least ") + m.str(2) +
           " values, not " + m.str(4);
  }
  return text;
}

}  // namespace

std::string usage_message(const CLI::ParseError& error, const CLI::App& app) {
  const auto found = combination_messages().find(error.what());
  if (found != combination_messages().end()) return found->second + "\n";
  const CLI::App* command = selected_command(app);
  const std::string name = command ? " " + command->get_name() : "";
  // words CLI11 could not place come first: a misspelt --duraton is why --duration is missing
  const std::string text = app.remaining(true).empty()
                               ? value_message(error.what())
                               : unexpected_words(app, command ? *command : app);
  return text + "\nRun 'eom" + name + " --help' for the options.\n";
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

// a NaN is not a finite number, as the options' own conversion says, rather than "not positive"
const CLI::Validator kPositive(
    [](std::string& text) {
      const std::optional<double> x = number_in(text);
      if (x && std::isnan(*x)) return "not a finite number: " + text;
      return x && !(*x > 0) ? text + " must be positive" : std::string();
    },
    "POSITIVE");
const CLI::Validator kNonNegative(
    [](std::string& text) {
      const std::optional<double> x = number_in(text);
      if (x && std::isnan(*x)) return "not a finite number: " + text;
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
  app.set_version_flag("--version", "eom 0.1.0");
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
  register_excite(app, dispatch);
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
