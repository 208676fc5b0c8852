// eom fk: world placements of frames for every row of a table of configurations.

#include <eom/columns.hpp>
#include <eom/configuration.hpp>
#include <eom/data.hpp>
#include <eom/errors.hpp>
#include <eom/kinematics.hpp>

#include "cli.hpp"

namespace eom::cli {
namespace {

struct FkOptions {
  RobotOptions robot;
  InputOptions input;
  OutputOptions output;
  std::vector<std::string> frames;  // empty: every frame
};

const char* const kPoseSuffixes[] = {"x", "y", "z", "qx", "qy", "qz", "qw"};

int run_fk(const FkOptions& opt, Streams& io) {
  const Model model = load_robot(opt.robot);
  for (const auto& name : model.mimic_joints()) {
    warn(io, "fk", "joint '" + name + "' has a mimic tag; its column is used as given");
  }
  auto in = open_input(opt.input);
  check_coordinate_columns(in->header(), model, in->name());
  const std::vector<int> q_columns =
      bind_columns(in->header(), coordinate_columns(model, "q", Space::q), in->name());
  const int t_column = in->header().index("t");

  std::vector<int> frames;
  if (opt.frames.empty()) {
    for (size_t k = 0; k < model.frames.size(); ++k) frames.push_back(static_cast<int>(k));
  } else {
    for (const auto& name : opt.frames) frames.push_back(model.require_frame(name));
  }
  Header header;
  if (t_column >= 0) header.names.push_back("t");
  for (int f : frames) {
    for (const char* s : kPoseSuffixes) header.names.push_back(model.frames[f].name + "." + s);
  }
  auto out = open_output(opt.output, header);

  // one workspace for the whole table: no allocation per row
  Data data(model);
  Eigen::VectorXd q(model.nq);
  std::vector<double> row, result(header.names.size());
  while (in->next(row)) {
    gather(row, q_columns, q);
    try {
      normalize(model, q);
    } catch (const InputError& e) {
      throw InputError(in->name(), in->line(), 0, e.message());
    }
    forward_kinematics(model, data, q);
    size_t k = 0;
    if (t_column >= 0) result[k++] = row[t_column];
    for (int f : frames) {
      const PoseVector pose =
          pose_vector(data.oMi[model.frames[f].parent] * model.frames[f].placement);
      for (int c = 0; c < 7; ++c) result[k++] = pose[c];
    }
    out->write_row(result.data());
  }
  out->commit();
  return kExitOk;
}

}  // namespace

void register_fk(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<FkOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fk",
      "Forward kinematics: world pose of frames for every row of q columns.\n"
      "Reads q.<joint> columns (and t if present); writes t and <frame>.x .y .z .qx .qy .qz .qw");
  add_robot_options(*cmd, opt->robot);
  add_input_options(*cmd, opt->input);
  add_output_options(*cmd, opt->output);
  cmd->add_option("--frames", opt->frames, "Frames to report, comma separated (default: all links)")
      ->delimiter(',');
  dispatch.on(cmd, [opt](Streams& io) { return run_fk(*opt, io); });
}

}  // namespace eom::cli
