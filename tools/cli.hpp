// Shared glue of the eom subcommands: exit codes, common options, dispatch, robot loading.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

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
};
/// ROBOT, --floating-base and (for commands whose results depend on it) --gravity.
void add_robot_options(CLI::App& cmd, RobotOptions& opt, bool uses_gravity = true);
/// Load and build the model; ModelError/InputError propagate to main (exit 2). The defects eom
/// works around (a harmless non-physical link) are warnings on io.err unless `quiet`.
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
/// item for an item that is not NAME=VALUE, an unknown name (with the close ones) or a value that
/// is not a finite number.
void assign_coordinates(const std::string& option, const std::vector<std::string>& items,
                        const std::vector<std::string>& names, Eigen::Ref<Eigen::VectorXd> out);

/// -o/--output and --format.
struct OutputOptions {
  std::string path = "-";
  std::string format;  // empty: from the extension, CSV for stdout
};
void add_output_options(CLI::App& cmd, OutputOptions& opt);
/// The format named by --format, if any.
std::optional<Format> forced_format(const OutputOptions& opt);

/// TABLE and --from (the input format when the extension does not tell, e.g. stdin).
struct InputOptions {
  std::string path;
  std::string from;  // empty: from the extension, CSV for stdin
};
void add_input_options(CLI::App& cmd, InputOptions& opt);
std::unique_ptr<TableReader> open_input(const InputOptions& opt);

/// Open the output table (temporary file renamed on commit, or stdout).
std::unique_ptr<TableWriter> open_output(const OutputOptions& opt, Header header);

/// No output may replace an input: throws InputError naming both when an output (that exists) is
/// the same file as a table or the robot, compared by device and inode, so ./a.csv, a.csv and a
/// link to it all count. "-" and non-regular files are never inputs to protect.
void refuse_to_replace_inputs(const std::vector<std::string>& tables, const std::string& robot,
                              const std::vector<std::string>& outputs);

/// Progress on stderr when it is a terminal and the work takes longer than a second: rows done,
/// rate, and the time left (from the files done in batch mode, or from how much of a known total
/// of one run's work, such as bytes read or seconds simulated, is done). Nothing otherwise.
/// Thread-safe.
class Progress {
 public:
  /// total: the amount of one run's work (0 when unknown).
  Progress(const std::string& command, bool enabled, size_t files, double total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add_rows(long n);
  void file_done();
  /// The work of the (single) run done so far, in the units of total.
  void done_to(double units);

 private:
  void tick();

  struct State;
  std::unique_ptr<State> state_;
};

/// The warnings and errors of one table (or one run), kept for --summary-json whatever -q says.
struct MessageLog {
  std::vector<std::string> warnings, errors;
};

/// Messages of one table, on stderr or (batch) collected and printed in input order; also kept
/// in `log` when there is one (one thread at a time).
struct Notes {
  std::ostream& out;
  std::string command;
  bool quiet = false;
  MessageLog* log = nullptr;

  void warning(const std::string& message) const {
    if (log) log->warnings.push_back(message);
    if (!quiet) out << "eom " << command << ": warning: " << message << '\n';
  }
  void error(const std::string& message) const {
    if (log) log->errors.push_back(message);
    out << "eom " << command << ": error: " << message << '\n';
  }
};

/// --summary-json FILE: the run's summary as JSON, one object per table (README "JSON
/// summaries"); "-" writes stdout when the table does not go there.
void add_summary_option(CLI::App& cmd, std::string& path);
/// Throws InputError when the summary would go where a table goes (stdout, or the same file).
void check_summary_destination(const std::string& summary, const std::vector<std::string>& outputs);
/// The keys every object of a summary has (`file`: the input, null when there is none); the
/// command adds its own.
nlohmann::json summary_object(const std::string& command, const nlohmann::json& file,
                              const std::string& output, bool written, long rows, int exit_code,
                              const MessageLog& log);
/// Writes the array of table objects to path, all or nothing (as tables are written).
void write_summary(const std::string& path, const nlohmann::json& tables);

/// Print "eom <cmd>: warning: <message>" on err.
void warn(Streams& io, const std::string& command, const std::string& message);

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

}  // namespace eom::cli
