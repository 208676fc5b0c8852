// eom info: a summary of a robot model, as text or JSON.

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <eom/model.hpp>

#include "cli.hpp"

namespace eom::cli {
namespace {

struct InfoOptions {
  RobotOptions robot;
  std::string format = "text";
};

// JSON has no infinity: an absent limit is null
nlohmann::ordered_json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

std::string number_text(double x) {
  if (!std::isfinite(x)) return "-";
  std::ostringstream s;
  s << std::setprecision(6) << x;
  return s.str();
}

std::string axis_text(const Joint& j) {
  if (j.kind == JointKind::floating) return "-";
  std::ostringstream s;
  s << std::setprecision(4) << j.axis.x() << ' ' << j.axis.y() << ' ' << j.axis.z();
  return s.str();
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
  j["joints"] = nlohmann::ordered_json::array();
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& jt = model.joints[i];
    const JointInfo& info = model.info[i];
    nlohmann::ordered_json e;
    e["name"] = model.joint_names[i];
    e["type"] = info.urdf_type;
    if (jt.kind != JointKind::floating) e["axis"] = {jt.axis.x(), jt.axis.y(), jt.axis.z()};
    e["parent_link"] = info.parent_link;
    e["child_link"] = info.child_link;
    e["parent_joint"] = model.joint_names[model.parent[i]];
    e["idx_q"] = jt.idx_q;
    e["nq"] = jt.nq;
    e["idx_v"] = jt.idx_v;
    e["nv"] = jt.nv;
    e["q_columns"] = nlohmann::ordered_json::array();
    for (int k = 0; k < jt.nq; ++k) e["q_columns"].push_back("q." + model.q_names[jt.idx_q + k]);
    e["lower"] = finite_or_null(info.lower);
    e["upper"] = finite_or_null(info.upper);
    e["effort"] = finite_or_null(info.effort);
    e["velocity"] = finite_or_null(info.velocity);
    e["damping"] = info.damping;
    e["friction"] = info.friction;
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
    j["frames"].push_back({{"name", f.name}, {"joint", model.joint_names[f.parent]}});
  }
  return j;
}

void info_text(const Model& model, const std::string& file, std::ostream& out) {
  out << "robot: " << model.name << "\n";
  out << "file: " << file << "\n";
  out << "root link: " << model.root_link
      << (model.floating_base ? " (free-flyer joint 'root')" : " (fixed to the world)") << "\n";
  out << "nq: " << model.nq << "  nv: " << model.nv << "  moving joints: " << model.njoints - 1
      << "  frames: " << model.frames.size() << "\n";
  out << "mass: " << number_text(model.total_mass) << " kg in all, "
      << number_text(moving_mass(model)) << " kg moving\n";
  out << "gravity: " << model.gravity.x() << " " << model.gravity.y() << " " << model.gravity.z()
      << "\n";
  out << "joints:\n";
  out << "  " << std::left << std::setw(24) << "name" << std::setw(11) << "type" << std::setw(22)
      << "axis" << std::setw(4) << "q" << std::setw(4) << "v" << std::setw(11) << "lower"
      << std::setw(11) << "upper" << std::setw(9) << "effort" << std::setw(9) << "velocity"
      << std::setw(9) << "damping" << std::setw(9) << "friction" << std::setw(10) << "body kg"
      << "parent -> child\n";
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    const JointInfo& info = model.info[i];
    out << "  " << std::setw(24) << model.joint_names[i] << std::setw(11) << info.urdf_type
        << std::setw(22) << axis_text(j) << std::setw(4) << j.idx_q << std::setw(4) << j.idx_v
        << std::setw(11) << number_text(info.lower) << std::setw(11) << number_text(info.upper)
        << std::setw(9) << number_text(info.effort) << std::setw(9) << number_text(info.velocity)
        << std::setw(9) << number_text(info.damping) << std::setw(9) << number_text(info.friction)
        << std::setw(10) << number_text(model.inertia[i].m)
        << (info.parent_link.empty() ? "world" : info.parent_link) << " -> " << info.child_link;
    if (info.mimic_joint) out << "  (mimics " << *info.mimic_joint << ")";
    out << "\n";
  }
  out << "frames:\n";
  for (const Frame& f : model.frames) {
    out << "  " << std::setw(32) << f.name << "on " << model.joint_names[f.parent] << "\n";
  }
}

int run_info(const InfoOptions& opt, Streams& io) {
  const Model model = load_robot(opt.robot);
  if (opt.format == "json") {
    io.out << info_json(model, opt.robot.path).dump(2) << "\n";
  } else {
    info_text(model, opt.robot.path, io.out);
  }
  return kExitOk;
}

}  // namespace

void register_info(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<InfoOptions>();
  CLI::App* cmd = add_command(
      app, "info", "Model summary: nq, nv, joints (type, axis, limits, q/v offsets), frames, masses",
      {"eom info robots/panda.urdf",
       "eom info robots/solo12.urdf --floating-base --format json | jq '.joints[].q_columns'"});
  add_robot_options(*cmd, opt->robot);
  cmd->add_option("--format", opt->format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  dispatch.on(cmd, [opt](Streams& io) { return run_info(*opt, io); });
}

}  // namespace eom::cli
