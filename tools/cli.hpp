// The eom application: its subcommands registered with CLI11 and dispatched, the checks of number
// options, options that choose an enum value, and the combinations of options CLI11 refuses in
// eom's words. Each subcommand's glue is in its folder (tools/<name>/cmd_<name>.cpp); the row
// pipeline it runs is the library's (eom/rows/).
#pragma once

#include <functional>
#include <stdexcept>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include <eom/rows/run.hpp>

namespace eom::cli {

using namespace eom::rows;

/// Checks of number options, by their value's sign, with messages that read (CLI11's own print
/// their range up to DBL_MAX in 309 digits). Every number option refuses NaN and infinities
/// besides (register_commands).
extern const CLI::Validator kPositive, kNonNegative, kUnitInterval;

/// The names of an enum's values, in the order --help lists them.
template <class Enum>
using NamedValues = std::vector<std::pair<std::string, Enum>>;

/// The name of `value` in `names`.
template <class Enum>
const std::string& name_of(const NamedValues<Enum>& names, Enum value) {
  for (const auto& [name, named] : names) {
    if (named == value) return name;
  }
  throw std::logic_error("an enum value without a name");
}

/// Turns one of `names` into the integer of its enum value, which CLI11 then converts (a
/// CLI::CheckedTransformer that neither accepts the integers nor lists them): --help shows
/// "TEXT:{a,b,c}" and another word is refused as CLI::IsMember refuses it ("x not in {a,b,c}").
template <class Enum>
CLI::Validator one_of(const NamedValues<Enum>& names) {
  std::string set;
  for (const auto& entry : names) set += (set.empty() ? "" : ",") + entry.first;
  set = "{" + set + "}";
  return CLI::Validator(
      [names, set](std::string& text) {
        for (const auto& [name, value] : names) {
          if (text != name) continue;
          text = std::to_string(static_cast<int>(value));
          return std::string();
        }
        return text + " not in " + set;
      },
      set);
}

/// An option choosing one of `names` into `value` (one_of); its default, `value`'s name, is
/// shown in --help when `show_default`.
template <class Enum>
CLI::Option* add_choice(CLI::App& cmd, const std::string& flag, Enum& value,
                        const NamedValues<Enum>& names, const std::string& description,
                        bool show_default = false) {
  CLI::Option* option =
      cmd.add_option(flag, value, description)->type_name("TEXT")->transform(one_of(names));
  if (show_default) option->default_str(name_of(names, value));
  return option;
}

/// `option` needs `other` on the command line: CLI11 refuses it alone when parsing, and --help
/// and the man page say so. The message reads "<option> needs <other><why>" (usage_message).
CLI::Option* needs(CLI::Option* option, CLI::Option* other, const std::string& why = "");
/// `option` and `other` are not given together: refused with `message`, whichever of the two
/// CLI11 finds first.
CLI::Option* excludes(CLI::Option* option, CLI::Option* other, const std::string& message);

/// What follows "eom <command>: error: " for an error of the command line `app` refused: a
/// combination refused by needs() or excludes() in its words, an unknown option with the
/// subcommand's options that are close to it, a value refused with what the option takes, in
/// eom's words rather than CLI11's; then where to read the options.
std::string usage_message(const CLI::ParseError& error, const CLI::App& app);

/// A subcommand with its description and copy-pasteable examples, which end its --help.
CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description,
                      const std::vector<std::string>& examples);

/// Runs the action of whichever subcommand was selected on the command line.
class Dispatch {
 public:
  using Action = std::function<int(Streams&)>;
  void on(CLI::App* command, Action action) { actions_.emplace_back(command, std::move(action)); }
  /// The selected subcommand's name and exit code.
  int run_selected(Streams& io, std::string& name) const;

 private:
  std::vector<std::pair<CLI::App*, Action>> actions_;
};

/// A subcommand as add_command, whose options fill an Options that lives as long as the parser
/// (which writes into it) and whose action is run(options, io).
template <class Options, class Run>
std::pair<std::shared_ptr<Options>, CLI::App*> add_command(CLI::App& app, Dispatch& dispatch,
                                                           const std::string& name,
                                                           const std::string& description,
                                                           const std::vector<std::string>& examples,
                                                           Run run) {
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = add_command(app, name, description, examples);
  dispatch.on(cmd, [opt, run](Streams& io) { return run(*opt, io); });
  return {opt, cmd};
}

/// The eom application: every subcommand registered, with the shared footer.
void register_commands(CLI::App& app, Dispatch& dispatch);

// one register function per tools/<name>/cmd_<name>.cpp
void register_info(CLI::App& app, Dispatch& dispatch);
void register_check(CLI::App& app, Dispatch& dispatch);
void register_fk(CLI::App& app, Dispatch& dispatch);
void register_convert(CLI::App& app, Dispatch& dispatch);
void register_id(CLI::App& app, Dispatch& dispatch);
void register_fd(CLI::App& app, Dispatch& dispatch);
void register_sim(CLI::App& app, Dispatch& dispatch);
void register_ik(CLI::App& app, Dispatch& dispatch);
void register_deriv(CLI::App& app, Dispatch& dispatch);
void register_jac(CLI::App& app, Dispatch& dispatch);
void register_impact(CLI::App& app, Dispatch& dispatch);
void register_export(CLI::App& app, Dispatch& dispatch);
void register_plot(CLI::App& app, Dispatch& dispatch);
void register_identify(CLI::App& app, Dispatch& dispatch);
void register_excite(CLI::App& app, Dispatch& dispatch);

}  // namespace eom::cli
