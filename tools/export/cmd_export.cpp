// eom export: a loaded model written as URDF (write_urdf), with its locked joints fixed: what
// eom and other URDF tools read back to the same dynamics.

#include <sstream>
#include <string>

#include <eom/parsers/urdf_writer.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct ExportOptions {
  RobotOptions robot;
  std::string output = "-";
  bool quiet = false;
};

int run_export(const ExportOptions& opt, Streams& io) {
  const bool to_stdout = opt.output.empty() || opt.output == "-";
  check_destinations(io.inputs, {to_stdout ? "-" : opt.output}, "");
  const Model model = load_robot(opt.robot, io, "export", opt.quiet);
  std::ostringstream urdf;
  for (const std::string& what : write_urdf(model, urdf)) {
    if (!opt.quiet) warn(io, "export", "not written: " + what);
  }
  write_document(opt.output, urdf.str(), io.out);
  return kExitOk;
}

}  // namespace

void register_export(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<ExportOptions>(
      app, dispatch, "export",
      "Write the model as URDF: one link per rigid body (fixed links merged, as eom loads\n"
      "them), the moving joints, every other frame as a massless link on a fixed joint;\n"
      "with --lock, the locked joints fixed. eom reads it back to the same dynamics.",
      {"eom export robots/ur5.urdf -o ur5_export.urdf",
       "eom export tests/data/urdf/massless_gripper.urdf --lock 'finger_joint_*' -o arm.urdf"},
      run_export);
  add_robot_options(*cmd, opt->robot, false);
  cmd->add_option("-o,--output", opt->output,
                  "Write the URDF to FILE (default stdout; all or nothing, never over ROBOT)");
  cmd->add_flag("-q,--quiet", opt->quiet, "Errors only");
}

}  // namespace eom::cli
