// Shared glue of the eom subcommands: exit codes, common options, dispatch, robot loading.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include <eom/multibody/model.hpp>
#include <eom/io/table.hpp>

namespace eom::cli {

constexpr int kExitOk = 0;       // success
constexpr int kExitFailure = 1;  // the work ran and found what the user asked to know about
constexpr int kExitUsage = 2;    // usage or input error

/// Where a subcommand writes data and diagnostics (std::cout / std::cerr in the binary).
struct Streams {
  std::ostream& out;
  std::ostream& err;
};

/// ROBOT and the options that shape the Model.
struct RobotOptions {
  std::string path;
  bool floating_base = false;
  std::vector<double> gravity{0, 0, -9.81};
  std::vector<std::string> lock;  // --lock items: JOINT, JOINT=VALUE, a glob (* and ?), GLOB=VALUE
};
/// ROBOT, --floating-base, --lock and (for commands whose results depend on it) --gravity.
void add_robot_options(CLI::App& cmd, RobotOptions& opt, bool uses_gravity = true);
/// Load and build the model, with the joints of --lock fixed (build_reduced_model);
/// ModelError/InputError propagate to main (exit 2). The defects eom works around (a harmless
/// non-physical link), a joint locked outside its limits and the mimic followers locked with their
/// leader are warnings on io.err unless `quiet`.
Model load_robot(const RobotOptions& opt, Streams& io, const std::string& command,
                 bool quiet = false);

/// The frame an option names: InputError starting with the option ("--frames: unknown frame ...").
int require_frame_option(const Model& model, const std::string& option, const std::string& name);

/// Forward dynamics is undefined when a joint moves no mass or inertia (M singular): throws
/// InputError naming those joints, before any row is computed. The message starts with
/// `context` and says what is undefined (`needs`).
void refuse_singular_mass_matrix(const Model& model, const std::string& context = "",
                                 const std::string& needs = "forward dynamics");

/// A number for messages: the shortest of 6 significant digits ("0.001", "1e+200").
std::string number_text(double x);

/// Sets out[k] for each NAME=VALUE item, k the index of NAME in names (coordinate names such as
/// model.q_names); the other entries are untouched. Throws InputError naming the option and the
/// item for an item that is not NAME=VALUE, an unknown name (with the close ones; a coordinate of
/// a joint `model` has locked is said to be locked) or a value that is not a finite number.
void assign_coordinates(const std::string& option, const std::vector<std::string>& items,
                        const Model& model, const std::vector<std::string>& names,
                        Eigen::Ref<Eigen::VectorXd> out);

/// TABLE and --from (the input format when the extension does not tell, e.g. stdin).
struct InputOptions {
  std::string path;
  std::string from;       // empty: from the extension, CSV for stdin
  std::string separator;  // --separator: empty detects it
};
/// TABLE, --from and --separator.
void add_input_options(CLI::App& cmd, InputOptions& opt);
/// --separator SEP (comma, semicolon, tab or the character) into `separator`.
void add_separator_option(CLI::App& cmd, std::string& separator);
/// Opens the input table; `warn` is told the separator of a CSV table when it is not a comma.
std::unique_ptr<TableReader> open_input(const InputOptions& opt,
                                        const std::function<void(const std::string&)>& warn);

/// Shell-style match of a whole name: '*' any run of characters, '?' any one character.
bool glob_match(std::string_view pattern, std::string_view name);
/// Whether a pattern holds '*' or '?'.
bool is_glob(const std::string& pattern);

/// Print "eom <cmd>: warning: <message>" on err.
void warn(Streams& io, const std::string& command, const std::string& message);

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
