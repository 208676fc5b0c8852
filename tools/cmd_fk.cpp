// eom fk: world placements of frames for every row of a table of configurations.

#include <algorithm>

#include <eom/multibody/data.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/kinematics.hpp>

#include "cli.hpp"
#include "row_engine.hpp"

namespace eom::cli {
namespace {

struct FkOptions {
  RowOptions rows;
  std::vector<std::string> frames;  // empty: every frame
};

class FkTask final : public RowTask {
 public:
  FkTask(const Model& model, const std::vector<int>& frames)
      : model_(model), frames_(frames), data_(model) {
    for (int f : frames) {
      append(columns, pose_columns(model.frames[f].name));
    }
  }

  void compute(const Sample& s, double* out) override {
    forward_kinematics(model_, data_, s.q);
    for (int f : frames_) {
      const PoseVector pose =
          pose_vector(data_.oMi[model_.frames[f].parent] * model_.frames[f].placement);
      for (int c = 0; c < 7; ++c) *out++ = pose[c];
    }
  }

 private:
  const Model& model_;
  const std::vector<int>& frames_;
  Data data_;
};

int run_fk(const FkOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "fk");
  std::vector<int> frames;
  RowCommand command;
  command.name = "fk";
  command.make_task = [&](const Header&, const std::string&, const Notes&) {
    return std::make_unique<FkTask>(model, frames);
  };
  if (opt.frames.empty()) {
    for (size_t k = 0; k < model.frames.size(); ++k) frames.push_back(static_cast<int>(k));
    return run_rows(opt.rows, model, command, io);
  }
  // only the joints that move the chosen frames need columns
  command.joints.assign(model.njoints, false);
  for (const auto& name : opt.frames) {
    const int f = require_frame_option(model, "--frames", name);
    if (std::find(frames.begin(), frames.end(), f) != frames.end()) {
      throw InputError("--frames: " + name + " is named twice");
    }
    frames.push_back(f);
    for (int i = model.frames[f].parent; i > 0; i = model.parent[i]) command.joints[i] = true;
  }
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_fk(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<FkOptions>(
      app, dispatch, "fk",
      "Forward kinematics: world pose of frames for every row of q columns.\n"
      "Reads q.<joint> columns (and t if present); writes t and <frame>.x .y .z .qx .qy .qz .qw.\n"
      "Frames are the URDF links, plus 'world' (the fixed world frame) unless a link has that\n"
      "name: then world.* is that link's pose (with --floating-base and world the root link,\n"
      "the floating body's).",
      {"eom fk robots/ur5.urdf trajectories/ur5_wave.csv --frames tool0 -o tool.csv",
       "eom fk robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base --frames "
       "FL_FOOT,FR_FOOT --format ndjson"},
      run_fk);
  add_robot_options(*cmd, opt->rows.robot, false);
  add_row_options(*cmd, opt->rows, false);
  cmd->add_option("--frames", opt->frames,
                  "Frames to report, comma separated (default: all links); only the joints that "
                  "move them need q columns")
      ->delimiter(',');
}

}  // namespace eom::cli
