#include "cli.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <sstream>

#include <optional>
#include <ostream>

#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include <nlohmann/json.hpp>

namespace eom::cli {

void add_robot_options(CLI::App& cmd, RobotOptions& opt, bool uses_gravity) {
  cmd.add_option("ROBOT", opt.path, "Robot model file (URDF); - reads stdin")->required();
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

void add_output_options(CLI::App& cmd, OutputOptions& opt) {
  cmd.add_option("-o,--output", opt.path, "Output file; - writes stdout")->default_str("-");
  cmd.add_option("--format", opt.format, "Output format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
}

std::optional<Format> forced_format(const OutputOptions& opt) {
  if (opt.format.empty()) return std::nullopt;
  return parse_format(opt.format);
}

void add_input_options(CLI::App& cmd, InputOptions& opt) {
  cmd.add_option("TABLE", opt.path, "Input table (CSV, JSON or NDJSON); - reads stdin")->required();
  cmd.add_option("--from", opt.from, "Input format (default: from the extension, else csv)")
      ->check(CLI::IsMember({"csv", "json", "ndjson"}));
}

std::unique_ptr<TableReader> open_input(const InputOptions& opt) {
  const std::optional<Format> forced =
      opt.from.empty() ? std::nullopt : std::optional<Format>(parse_format(opt.from));
  return TableReader::open(opt.path, format_for(opt.path, forced));
}

std::unique_ptr<TableWriter> open_output(const OutputOptions& opt, Header header) {
  return TableWriter::open(opt.path, format_for(opt.path, forced_format(opt)), std::move(header));
}

namespace {

struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
};

std::optional<FileId> file_id(const std::string& path) {
  struct stat s;
  if (path == "-" || ::stat(path.c_str(), &s) != 0 || !S_ISREG(s.st_mode)) return std::nullopt;
  return FileId{s.st_dev, s.st_ino};
}

}  // namespace

void refuse_to_replace_inputs(const std::vector<std::string>& tables, const std::string& robot,
                              const std::vector<std::string>& outputs) {
  std::vector<std::pair<FileId, std::string>> inputs;
  for (const auto& path : tables) {
    if (auto id = file_id(path)) inputs.emplace_back(*id, path);
  }
  if (auto id = file_id(robot)) inputs.emplace_back(*id, robot);
  for (const auto& out : outputs) {
    const auto id = file_id(out);
    if (!id) continue;
    for (const auto& [input, path] : inputs) {
      if (input.device == id->device && input.inode == id->inode) {
        throw InputError("the output " + out + " is the input " + path +
                         ": refusing to replace an input (choose another output)");
      }
    }
  }
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
                   " no mass or inertia along its motion: the mass matrix is singular and " +
                   needs + " undefined (give the links they move mass and inertia)");
}

struct Progress::State {
  using Clock = std::chrono::steady_clock;
  State(const std::string& command, bool enabled, size_t files, double total)
      : command(command), enabled(enabled), files(files), total(total) {}
  std::string command;
  bool enabled;
  size_t files;
  double total;
  Clock::time_point start = Clock::now();
  std::atomic<Clock::time_point> next{start + std::chrono::seconds(1)};
  std::atomic<long> rows{0};
  std::atomic<size_t> files_done{0};
  std::atomic<double> done{0};
  std::mutex mutex;
  bool shown = false;
};

Progress::Progress(const std::string& command, bool enabled, size_t files, double total)
    : state_(std::make_unique<State>(command, enabled && ::isatty(2), files, total)) {}

Progress::~Progress() {
  if (state_->shown) std::fprintf(stderr, "\r\033[K");
}

void Progress::add_rows(long n) {
  state_->rows += n;
  tick();
}

void Progress::file_done() {
  ++state_->files_done;
  tick();
}

void Progress::done_to(double units) { state_->done = units; }

void Progress::tick() {
  State& s = *state_;
  if (!s.enabled) return;
  const auto now = State::Clock::now();
  if (now < s.next.load()) return;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.next = now + std::chrono::milliseconds(250);
  const double seconds = std::chrono::duration<double>(now - s.start).count();
  std::fprintf(stderr, "\r\033[Keom %s: %ld rows, %.0f rows/s", s.command.c_str(), s.rows.load(),
               s.rows / seconds);
  if (s.files > 1) {
    const size_t done = s.files_done;
    std::fprintf(stderr, ", %zu/%zu files", done, s.files);
    if (done > 0) std::fprintf(stderr, ", %.0f s left", seconds / done * (s.files - done));
  } else if (s.total > 0 && s.done > 0) {
    const double done = s.done;
    std::fprintf(stderr, ", %.0f%%, %.0f s left", 100 * done / s.total,
                 seconds * (s.total - done) / done);
  }
  std::fflush(stderr);
  s.shown = true;
}

void add_summary_option(CLI::App& cmd, std::string& path) {
  cmd.add_option("--summary-json", path,
                 "Write the run's summary as JSON to FILE: an array with one object per table "
                 "(rows, exit code, warnings and the command's figures); - writes stdout when "
                 "the table goes to a file");
}

void check_summary_destination(const std::string& summary,
                               const std::vector<std::string>& outputs) {
  if (summary.empty()) return;
  const std::filesystem::path directory = std::filesystem::path(summary).parent_path();
  std::error_code error;
  if (summary != "-" && !directory.empty() && !std::filesystem::is_directory(directory, error)) {
    throw InputError("--summary-json " + summary + ": no directory " + directory.string());
  }
  if (summary != "-" && std::filesystem::is_directory(summary, error)) {
    throw InputError("--summary-json " + summary + ": is a directory");
  }
  for (const auto& output : outputs) {
    if (summary == "-" && output == "-") {
      throw InputError(
          "--summary-json -: the table goes to stdout; give -o FILE or write the "
          "summary to a file");
    }
    if (summary != "-" && std::filesystem::path(summary).lexically_normal() ==
                              std::filesystem::path(output).lexically_normal()) {
      throw InputError("--summary-json " + summary + ": the table is written there too");
    }
  }
}

nlohmann::json summary_object(const std::string& command, const nlohmann::json& file,
                              const std::string& output, bool written, long rows, int exit_code,
                              const MessageLog& log) {
  return {{"command", command},       {"file", file},        {"output", output},
          {"written", written},       {"rows", rows},        {"exit_code", exit_code},
          {"warnings", log.warnings}, {"errors", log.errors}};
}

void write_summary(const std::string& path, const nlohmann::json& tables) {
  write_file(path, tables.dump(2) + "\n");
}

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
  std::string commands;
  for (const CLI::App* command : app.get_subcommands({})) {
    commands += (commands.empty() ? "" : ", ") + command->get_name();
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
