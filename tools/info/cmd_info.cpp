// eom info: a summary of a robot model, as text or JSON.

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <eom/core/number_text.hpp>
#include <eom/io/model_dot.hpp>

#include <nlohmann/json.hpp>

#include <eom/io/column_names.hpp>
#include <eom/multibody/model.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct InfoOptions {
  RobotOptions robot;
  std::string format = "text";
  std::string output;  // empty or "-": stdout
  bool quiet = false;
};

// JSON has no infinity: an absent limit is null
nlohmann::ordered_json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

std::string cell_text(double x) {
  if (!std::isfinite(x)) return "-";
  return number_text(x);
}

std::string axis_text(const Joint& j) {
  if (has_quaternion(j)) return "-";  // free and ball joints turn about every axis
  std::string s = number_text(j.axis.x(), 4) + ' ' + number_text(j.axis.y(), 4) + ' ' +
                  number_text(j.axis.z(), 4);
  // a JSON model's scaled screw axis: the motion per unit of q
  if (j.scale != 1) s += " x" + number_text(j.scale);
  return s;
}

double moving_mass(const Model& model) {
  double m = 0;
  for (int i = 1; i < model.njoints; ++i) m += model.inertia[i].m;
  return m;
}

nlohmann::ordered_json info_json(const Model& model, const std::string& file) {
  nlohmann::ordered_json j;
  j["name"] = model.name;
  j["file"] = file;
  j["root_link"] = model.root_link;
  j["floating_base"] = model.floating_base;
  j["nq"] = model.nq;
  j["nv"] = model.nv;
  j["gravity"] = {model.gravity.x(), model.gravity.y(), model.gravity.z()};
  j["total_mass"] = model.total_mass;
  j["moving_mass"] = moving_mass(model);
  j["locked"] = nlohmann::ordered_json::array();
  for (const LockedJoint& locked : model.locked) {
    const std::vector<double> q(locked.q.data(), locked.q.data() + locked.q.size());
    j["locked"].push_back({{"name", locked.name}, {"q", q}});
  }
  j["joints"] = nlohmann::ordered_json::array();
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jt = model.joints[i];
    const JointInfo& info = model.info[i];
    nlohmann::ordered_json e;
    e["name"] = model.joint_names[i];
    e["type"] = model.joint_type_name(i);
    if (!has_quaternion(jt)) e["axis"] = {jt.axis.x(), jt.axis.y(), jt.axis.z()};
    if (jt.scale != 1) e["scale"] = jt.scale;
    // null: the world frame (for a joint) or fixed to it (for a frame), never a joint's name
    e["parent_link"] = info.parent_link.empty() ? nlohmann::ordered_json(nullptr)
                                                : nlohmann::ordered_json(info.parent_link);
    e["child_link"] = info.child_link;
    e["parent_joint"] = model.parent[i] == 0
                            ? nlohmann::ordered_json(nullptr)
                            : nlohmann::ordered_json(model.joint_names[model.parent[i]]);
    e["idx_q"] = jt.idx_q;
    e["nq"] = jt.nq;
    e["idx_v"] = jt.idx_v;
    e["nv"] = jt.nv;
    e["q_columns"] = nlohmann::ordered_json::array();
    for (int k = 0; k < jt.nq; ++k) {
      e["q_columns"].push_back(column_name("q", model.q_names[jt.idx_q + k]));
    }
    e["lower"] = finite_or_null(info.lower);
    e["upper"] = finite_or_null(info.upper);
    e["effort"] = finite_or_null(info.effort);
    e["velocity"] = finite_or_null(info.velocity);
    e["damping"] = info.damping;
    e["friction"] = info.friction;
    e["armature"] = info.armature;
    if (info.mimic_joint) {
      e["mimic"] = {{"joint", *info.mimic_joint},
                    {"multiplier", info.mimic_multiplier},
                    {"offset", info.mimic_offset}};
    }
    e["body_mass"] = model.inertia[i].m;
    j["joints"].push_back(e);
  }
  j["frames"] = nlohmann::ordered_json::array();
  for (const Frame& f : model.frames) {
    j["frames"].push_back(
        {{"name", f.name},
         {"joint", f.parent == 0 ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(model.joint_names[f.parent])}});
  }
  return j;
}

// What carries a frame or a joint: the world frame itself (joint 0, fixed), or a moving joint.
// Named in words so that the world frame is never confused with a URDF link called "world".
std::string carrier(const Model& model, int joint) {
  return joint == 0 ? "fixed to the world frame" : "on " + model.joint_names[joint];
}

// The root link, and what "world" means when a URDF link carries that name.
std::string root_text(const Model& model) {
  if (!model.floating_base) return model.root_link + " (fixed to the world frame)";
  std::string s =
      model.root_link + " (moved by the free-flyer joint '" + model.joint_names[1] + "')";
  if (model.root_link == "world") {
    s += "; the URDF link named 'world' is the floating body, and world.* (eom fk) its pose, "
         "not the fixed world frame";
  }
  return s;
}

// Rows of cells printed in columns two spaces apart, each as wide as its longest cell.
void print_columns(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line = " ";
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += " " + row[c];
      if (c + 1 < row.size()) line.append(width[c] - row[c].size() + 1, ' ');
    }
    out << line << "\n";
  }
}

void info_text(const Model& model, const std::string& file, std::ostream& out) {
  out << "robot: " << model.name << "\n";
  out << "file: " << file << "\n";
  out << "root link: " << root_text(model) << "\n";
  out << "nq: " << model.nq << "  nv: " << model.nv << "  moving joints: " << model.njoints - 1
      << "  frames: " << model.frames.size() << "\n";
  out << "mass: " << cell_text(model.total_mass) << " kg in all, " << cell_text(moving_mass(model))
      << " kg moving\n";
  out << "gravity: " << number_text(model.gravity.x()) << " " << number_text(model.gravity.y())
      << " " << number_text(model.gravity.z()) << "\n";
  if (!model.locked.empty()) {
    out << "locked (--lock):";
    for (const LockedJoint& locked : model.locked) {
      out << (&locked == &model.locked.front() ? " " : ", ") << locked.name << " =";
      for (const double x : locked.q) out << " " << cell_text(x);
    }
    out << "\n";
  }
  out << "joints:\n";
  std::vector<std::vector<std::string>> rows{{"name", "type", "axis", "q", "v", "lower", "upper",
                                              "effort", "velocity", "damping", "friction",
                                              "body kg", "parent -> child"}};
  // the armature column only for models that have one (most URDF files have none)
  const bool armature = !model.armature.isZero();
  if (armature) rows[0].insert(rows[0].begin() + 11, "armature");
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    const JointInfo& info = model.info[i];
    // the free-flyer's parent is the world frame, not a link
    std::string links =
        (info.parent_link.empty() ? "(world frame)" : info.parent_link) + " -> " + info.child_link;
    if (info.mimic_joint) links += "  (mimics " + *info.mimic_joint + ")";
    rows.push_back({model.joint_names[i], model.joint_type_name(i), axis_text(j),
                    std::to_string(j.idx_q), std::to_string(j.idx_v), cell_text(info.lower),
                    cell_text(info.upper), cell_text(info.effort), cell_text(info.velocity),
                    cell_text(info.damping), cell_text(info.friction),
                    cell_text(model.inertia[i].m), links});
    if (armature) rows.back().insert(rows.back().begin() + 11, cell_text(info.armature));
  }
  print_columns(out, rows);
  out << "frames:\n";
  rows.clear();
  for (const Frame& f : model.frames) rows.push_back({f.name, carrier(model, f.parent)});
  print_columns(out, rows);
}

int run_info(const InfoOptions& opt, Streams& io) {
  const bool to_stdout = opt.output.empty() || opt.output == "-";
  check_destinations(io.inputs, {to_stdout ? "-" : opt.output}, "");
  const Model model = load_robot(opt.robot, io, "info", opt.quiet);
  std::ostringstream text;
  if (opt.format == "json") {
    text << info_json(model, opt.robot.path).dump(2) << "\n";
  } else if (opt.format == "dot") {
    write_dot(model, text);
  } else {
    info_text(model, opt.robot.path, text);
  }
  write_document(opt.output, text.str(), io.out);
  return kExitOk;
}

}  // namespace

void register_info(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<InfoOptions>(
      app, dispatch, "info",
      "Model summary: nq, nv, joints (type, axis, limits, q/v offsets), frames, masses",
      {"eom info robots/panda.urdf", "eom info robots/ur5.urdf --format dot -o ur5.dot",
       "eom info robots/solo12.urdf --floating-base --format json | jq '.joints[].q_columns'"},
      run_info);
  add_robot_options(*cmd, opt->robot);
  cmd->add_option("--format", opt->format,
                  "text (default), json, or dot (the kinematic tree for Graphviz: links, joints "
                  "with type and axis, masses)")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  cmd->add_option("-o,--output", opt->output,
                  "Write the summary to FILE (default stdout; all or nothing, never over ROBOT)");
  cmd->add_flag("-q,--quiet", opt->quiet, "Errors only: no warnings about links eom works around");
}

}  // namespace eom::cli
