// What every run of an eom subcommand shares, whatever parses its command line: the exit codes,
// the streams and the files the run reads, the robot it loads (with joints locked), the input
// table it opens, and the checks of options that name coordinates and frames.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include <eom/core/errors.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/model.hpp>

namespace eom::rows {

constexpr int kExitOk = 0;       // success
constexpr int kExitFailure = 1;  // the work ran and found what the user asked to know about
constexpr int kExitUsage = 2;    // usage or input error

/// Where a run writes data and diagnostics (std::cout / std::cerr in the binary), and the files
/// it reads: every value of an option that names an input (ROBOT, TABLE, --friction-file,
/// --initial, ...; `-` is stdin), which no output of the run may replace (check_destinations).
struct Streams {
  std::ostream& out;
  std::ostream& err;
  std::vector<std::string> inputs = {};
  SettingNames names = setting_name;  // how messages name settings (eom: by its options)
};

/// ROBOT and the options that shape the Model.
struct RobotOptions {
  std::string path;
  bool floating_base = false;
  std::vector<double> gravity{0, 0, -9.81};
  std::vector<std::string> lock;  // --lock items: JOINT, JOINT=VALUE, a glob (* and ?), GLOB=VALUE
};
/// Load and build the model, with the joints of opt.lock fixed (build_reduced_model);
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
/// Opens the input table; `warn` is told the separator of a CSV table when it is not a comma (the
/// setting that chooses it named by `names`).
std::unique_ptr<TableReader> open_input(const InputOptions& opt,
                                        const std::function<void(const std::string&)>& warn,
                                        SettingNames names = setting_name);

/// Shell-style match of a whole name: '*' any run of characters, '?' any one character.
bool glob_match(std::string_view pattern, std::string_view name);
/// Whether a pattern holds '*' or '?'.
bool is_glob(const std::string& pattern);

/// Print "eom <cmd>: warning: <message>" on err, its settings named by io.names.
void warn(Streams& io, const std::string& command, const Phrase& message);

}  // namespace eom::rows
