// eom fk: world placements of frames for every row of a table of configurations.

#include <algorithm>
#include <optional>

#include <eom/multibody/data.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/io/columns.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct FkOptions {
  RowOptions rows;
  std::vector<std::string> frames;  // empty: every frame
  CentroidalOptions centroidal;
};

// Whether a table gives velocities: any v.* column (then all must be there)
bool has_velocities(const Header& header) {
  return std::any_of(header.names.begin(), header.names.end(),
                     [](const std::string& name) { return name.rfind("v.", 0) == 0; });
}

class FkTask final : public RowTask {
 public:
  FkTask(const Model& model, const std::vector<int>& frames, bool centroidal, const Header& in,
         const std::string& file)
      : model_(model), frames_(frames), data_(model), v_(model.nv) {
    for (int f : frames) {
      append(columns, pose_columns(model.frames[f].name));
    }
    if (!centroidal) return;
    if (has_velocities(in)) {
      v_columns_ = bind_columns(in, coordinate_columns(model, "v", Space::v), file);
      inputs = v_columns_;
    }
    centroidal_.emplace(model, 0.0, !v_columns_.empty(), false, false);
    append(columns, centroidal_->columns());
  }

  void compute(const Sample& s, double* out) override {
    forward_kinematics(model_, data_, s.q);
    for (int f : frames_) {
      const PoseVector pose =
          pose_vector(data_.oMi[model_.frames[f].parent] * model_.frames[f].placement);
      for (int c = 0; c < 7; ++c) *out++ = pose[c];
    }
    if (!centroidal_) return;
    if (v_columns_.empty()) {
      centroidal_->position(s.q, out);
      return;
    }
    gather(s.row, v_columns_, v_);
    centroidal_->velocity(s.q, v_, out);
  }

 private:
  const Model& model_;
  const std::vector<int>& frames_;
  Data data_;
  std::vector<int> v_columns_;  // with --centroidal, when the table gives v
  Eigen::VectorXd v_;
  std::optional<CentroidalRows> centroidal_;
};

int run_fk(const FkOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "fk");
  std::vector<int> frames;
  RowCommand command;
  command.name = "fk";
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    return std::make_unique<FkTask>(model, frames, opt.centroidal.enabled, header, file);
  };
  if (opt.frames.empty()) {
    for (size_t k = 0; k < model.frames.size(); ++k) frames.push_back(static_cast<int>(k));
    return run_rows(opt.rows, model, command, io);
  }
  // only the joints that move the chosen frames need columns (every joint moves the centre of
  // mass)
  command.joints.assign(model.njoints, opt.centroidal.enabled);
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
      "Frames are the model's links (URDF links, MJCF bodies), plus 'world' (the fixed world "
      "frame) unless a link has that\n"
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
  add_centroidal_options(*cmd, opt->centroidal, false);
}

}  // namespace eom::cli
