#include "cli.hpp"

#include <sys/stat.h>

#include <optional>
#include <ostream>

#include <eom/errors.hpp>
#include <eom/urdf.hpp>

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

Model load_robot(const RobotOptions& opt) {
  UrdfOptions options;
  options.floating_base = opt.floating_base;
  options.gravity = Vec3(opt.gravity[0], opt.gravity[1], opt.gravity[2]);
  if (!options.gravity.allFinite())
    throw InputError("--gravity: components must be finite numbers");
  return load_urdf(opt.path, options);
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
