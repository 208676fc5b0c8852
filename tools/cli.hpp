// The eom application: its subcommands registered with CLI11 and dispatched, and the checks of
// number options. What a run does once its options are parsed is the library's (eom/rows/).
#pragma once

#include <functional>
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

// one register function per tools/cmd_<name>.cpp
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

}  // namespace eom::cli
