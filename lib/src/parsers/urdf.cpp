// URDF parsing (tinyxml2) and Model construction.

#include "eom/parsers/urdf.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include <tinyxml2.h>

#include "core/whole_file.hpp"
#include "eom/core/errors.hpp"
#include "parsers/fixed_joints.hpp"
#include "parsers/index_coordinates.hpp"
#include "parsers/physical_bounds.hpp"
#include "parsers/xml_error.hpp"
#include "eom/multibody/component_names.hpp"

namespace eom {
namespace {

using tinyxml2::XMLElement;

class Parser {
 public:
  explicit Parser(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const XMLElement* e, const std::string& message) const {
    throw InputError(file_, e ? e->GetLineNum() : 0, 0, message);
  }

  const char* required(const XMLElement* e, const char* attribute) const {
    const char* value = e->Attribute(attribute);
    if (!value) fail(e, std::string("<") + e->Name() + "> needs a '" + attribute + "' attribute");
    return value;
  }

  // `count` whitespace-separated numbers from an attribute; URDF allows NaN-free decimal only
  template <int N>
  Eigen::Matrix<double, N, 1> numbers(const XMLElement* e, const char* attribute,
                                      const char* text) const {
    Eigen::Matrix<double, N, 1> out;
    const char* p = text;
    const char* end = text + std::char_traits<char>::length(text);
    const auto expected = [&](const char* found) {
      fail(e, where(e, attribute, text) + ": expected " + std::to_string(N) +
                  (N == 1 ? " number" : " numbers") + found);
    };
    for (int i = 0; i < N; ++i) {
      while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
      const char* start = p;
      while (p < end && !std::isspace(static_cast<unsigned char>(*p))) ++p;
      double x = 0;
      if (start == p) expected("");
      if (*start == '+') ++start;  // from_chars does not take a leading '+'
      const auto [ptr, ec] = std::from_chars(start, p, x);
      const std::string_view token(start, p - start);
      if (ec == std::errc::result_out_of_range && ptr == p) {
        fail(e, where(e, attribute, text) + ": " + out_of_range_message(token));
      }
      if (ec != std::errc() || ptr != p) {
        fail(e, where(e, attribute, text) + ": " + quote_input(token) + " is not a number");
      }
      out[i] = x;
    }
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p != end) expected(", found more");
    return out;
  }

  // <element attribute="text"> for messages, the text shortened
  static std::string where(const XMLElement* e, const char* attribute, const char* text) {
    return std::string("<") + e->Name() + " " + attribute + "=\"" + shown_input(text) + "\">";
  }

  double number(const XMLElement* e, const char* attribute, double fallback) const {
    const char* text = e->Attribute(attribute);
    return text ? numbers<1>(e, attribute, text)[0] : fallback;
  }

  // <origin xyz rpy> of an element; identity if absent
  SE3 origin(const XMLElement* parent) const {
    SE3 M;
    const XMLElement* o = parent->FirstChildElement("origin");
    if (!o) return M;
    if (const char* xyz = o->Attribute("xyz")) M.p = numbers<3>(o, "xyz", xyz);
    if (const char* rpy = o->Attribute("rpy")) M.R = rpy_to_matrix(numbers<3>(o, "rpy", rpy));
    return M;
  }

  UrdfLink link(const XMLElement* e) const {
    UrdfLink link;
    link.name = required(e, "name");
    link.line = e->GetLineNum();
    const XMLElement* inertial = e->FirstChildElement("inertial");
    if (!inertial) return link;
    link.has_inertial = true;
    link.inertial_line = inertial->GetLineNum();
    link.inertial_origin = origin(inertial);
    const XMLElement* mass = inertial->FirstChildElement("mass");
    if (!mass) fail(inertial, "<inertial> of link " + quote_input(link.name) + " needs a <mass>");
    link.mass = numbers<1>(mass, "value", required(mass, "value"))[0];
    const XMLElement* I = inertial->FirstChildElement("inertia");
    if (!I) fail(inertial, "<inertial> of link " + quote_input(link.name) + " needs an <inertia>");
    const double ixx = numbers<1>(I, "ixx", required(I, "ixx"))[0];
    const double ixy = numbers<1>(I, "ixy", required(I, "ixy"))[0];
    const double ixz = numbers<1>(I, "ixz", required(I, "ixz"))[0];
    const double iyy = numbers<1>(I, "iyy", required(I, "iyy"))[0];
    const double iyz = numbers<1>(I, "iyz", required(I, "iyz"))[0];
    const double izz = numbers<1>(I, "izz", required(I, "izz"))[0];
    link.inertia << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    return link;
  }

  UrdfJoint joint(const XMLElement* e) const {
    UrdfJoint j;
    j.name = required(e, "name");
    j.type = required(e, "type");
    j.line = e->GetLineNum();
    const XMLElement* parent = e->FirstChildElement("parent");
    if (!parent) fail(e, "joint " + quote_input(j.name) + " needs a <parent link=...>");
    j.parent = required(parent, "link");
    const XMLElement* child = e->FirstChildElement("child");
    if (!child) fail(e, "joint " + quote_input(j.name) + " needs a <child link=...>");
    j.child = required(child, "link");
    j.origin = origin(e);
    if (const XMLElement* axis = e->FirstChildElement("axis")) {
      j.axis = numbers<3>(axis, "xyz", required(axis, "xyz"));
    }
    if (const XMLElement* limit = e->FirstChildElement("limit")) {
      j.has_limit = true;
      j.lower = number(limit, "lower", 0);
      j.upper = number(limit, "upper", 0);
      j.effort = number(limit, "effort", 0);
      j.velocity = number(limit, "velocity", 0);
    }
    if (const XMLElement* dynamics = e->FirstChildElement("dynamics")) {
      j.damping = number(dynamics, "damping", 0);
      j.friction = number(dynamics, "friction", 0);
      j.armature = number(dynamics, "armature", 0);
    }
    if (const XMLElement* mimic = e->FirstChildElement("mimic")) {
      j.mimic_joint = required(mimic, "joint");
      j.mimic_multiplier = number(mimic, "multiplier", 1);
      j.mimic_offset = number(mimic, "offset", 0);
    }
    return j;
  }

 private:
  std::string file_;
};

// The first sign that a document is an unprocessed xacro file (or uses <include>, which only
// xacro resolves): a <xacro:...> element, ${...} or $(...) in an attribute. (The xmlns:xacro
// declaration alone is no sign: xacro keeps it in its output.) Returns the element it was found
// on and what was found, or null.
const XMLElement* xacro_evidence(const XMLElement* root, std::string& what) {
  // document order, iteratively: no recursion depth to exhaust on deep documents
  for (const XMLElement* e = root; e;) {
    const std::string name = e->Name();
    if (name.rfind("xacro:", 0) == 0) {
      what = "it has a <" + name + "> element";
      return e;
    }
    if (name == "include") {
      what = "it has an <include> element";
      return e;
    }
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      const std::string value = a->Value();
      if (value.find("${") != std::string::npos || value.find("$(") != std::string::npos) {
        what = std::string("it has ") + a->Name() + "=\"" + shown_input(value) + "\" in <" + name +
               ">";
        return e;
      }
    }
    if (const XMLElement* child = e->FirstChildElement()) {
      e = child;
      continue;
    }
    while (e && e != root && !e->NextSiblingElement()) e = e->Parent()->ToElement();
    e = e && e != root ? e->NextSiblingElement() : nullptr;
  }
  return nullptr;
}

}  // namespace

UrdfDescription parse_urdf(const std::string& text, const std::string& file) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    throw InputError(file, doc.ErrorLineNum(), 0, detail::xml_error(doc));
  }
  const XMLElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Name()) != "robot") {
    throw InputError(file, robot ? robot->GetLineNum() : 1, 0, "expected a <robot> root element");
  }
  std::string what;
  if (const XMLElement* e = xacro_evidence(robot, what)) {
    const std::string in = file == "<stdin>" || file == "<string>" ? "in.urdf.xacro" : file;
    throw InputError(file, e->GetLineNum(), 0,
                     "an unprocessed xacro file (" + what + "): run `xacro " + in +
                         " > out.urdf` and give eom out.urdf");
  }
  Parser parser(file);
  UrdfDescription urdf;
  urdf.file = file;
  urdf.name = robot->Attribute("name") ? robot->Attribute("name") : "";
  // only direct children: <transmission> and <gazebo> blocks also hold <joint> elements
  for (const XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "link") urdf.links.push_back(parser.link(e));
    if (tag == "joint") urdf.joints.push_back(parser.joint(e));
  }
  if (urdf.links.empty()) throw InputError(file, robot->GetLineNum(), 0, "the robot has no <link>");
  return urdf;
}

std::string read_robot_file(const std::string& path) {
  return detail::read_whole_file(path, detail::kMaxModelFileBytes, "a robot file");
}

UrdfDescription parse_urdf_file(const std::string& path) {
  return parse_urdf(read_robot_file(path), path == "-" ? "<stdin>" : path);
}

Model load_urdf(const std::string& path, const LoadOptions& options,
                std::vector<Diagnostic>* warnings) {
  return build_model(parse_urdf_file(path), options, warnings);
}

}  // namespace eom

namespace eom {
namespace {

// URDF has no spelling for "no limit" where it demands a number (urdfdom refuses a <limit>
// without effort and velocity, and a prismatic joint has no unbounded kind): eom export writes the
// largest double there, and reads it back as no limit (+-infinity), not as a limit.
double limit_or_none(double x) {
  return std::abs(x) == std::numeric_limits<double>::max() ? std::copysign(INFINITY, x) : x;
}

JointKind kind_of(const std::string& type) {
  if (type == "prismatic") return JointKind::prismatic;
  if (type == "planar") return JointKind::planar;
  if (type == "floating") return JointKind::floating;
  return JointKind::revolute;  // revolute, continuous (check_urdf rejected anything else)
}

// depth-first construction: fixed joints fold into the current body, moving joints open a new one
class Builder {
 public:
  Builder(const UrdfDescription& urdf, Model& model) : urdf_(urdf), model_(model) {
    for (size_t i = 0; i < urdf.links.size(); ++i) link_index_[urdf.links[i].name] = int(i);
    children_.resize(urdf.links.size());
    for (size_t j = 0; j < urdf.joints.size(); ++j) {
      children_[link_index_.at(urdf.joints[j].parent)].push_back(int(j));
      if (urdf.joints[j].type == "fixed")
        fixed_parent_[urdf.joints[j].child] = urdf.joints[j].parent;
    }
    // siblings in byte-wise order of joint names, as the common URDF parser stores them
    for (auto& list : children_) {
      std::sort(list.begin(), list.end(),
                [&urdf](int a, int b) { return urdf.joints[a].name < urdf.joints[b].name; });
    }
  }

  int add_joint(const std::string& name, const Joint& joint, int parent, const SE3& placement,
                JointInfo info) {
    return detail::append_joint(model_, name, joint, parent, placement, Inertia::Zero(),
                                std::move(info));
  }

  // the links from `link` down, carried by joint `body` at placement jMl in that joint's frame:
  // each link and the links fixed to it join their body (a frame each, and their inertia); a
  // moving joint opens the next body, depth-first
  void visit(const std::string& link_name, int body, const SE3& jMl) {
    const auto child_link = [this](int joint) { return link_index_.at(urdf_.joints[joint].child); };
    const auto on_link = [this](int index, int carrier, const SE3& placement) {
      const UrdfLink& link = urdf_.links[index];
      const auto into = fixed_parent_.find(link.name);
      model_.frames.push_back(
          {link.name, carrier, placement, into == fixed_parent_.end() ? "" : into->second});
      model_.total_mass += link.mass;
      if (link.has_inertial) {
        model_.inertia[carrier] += detail::link_inertia(link).transformed(placement);
      }
    };
    const auto on_moving = [this](int joint, int, int carrier, const SE3& placement) {
      const UrdfJoint* j = &urdf_.joints[joint];
      JointInfo info;
      info.parent_link = j->parent;
      info.child_link = j->child;
      info.has_limit = j->has_limit && j->type != "continuous";
      if (info.has_limit) {
        info.lower = limit_or_none(j->lower);
        info.upper = limit_or_none(j->upper);
        info.has_limit = std::isfinite(info.lower) || std::isfinite(info.upper);
      }
      if (j->has_limit) {
        info.effort = limit_or_none(j->effort);
        info.velocity = limit_or_none(j->velocity);
      }
      info.damping = j->damping;
      info.friction = j->friction;
      info.armature = j->armature;
      info.mimic_joint = j->mimic_joint;
      info.mimic_multiplier = j->mimic_multiplier;
      info.mimic_offset = j->mimic_offset;
      info.line = j->line;
      const bool bounded = j->type == "revolute" || j->type == "prismatic";
      const Joint moving = Joint::make(kind_of(j->type), j->axis, model_.nq, model_.nv, bounded);
      const int index = add_joint(j->name, moving, carrier, placement, std::move(info));
      return std::optional<std::pair<int, SE3>>{{index, SE3::Identity()}};
    };
    detail::walk_links(urdf_, children_, child_link, link_index_.at(link_name), body, jMl, on_link,
                       on_moving);
  }

  std::string root() const {
    std::vector<bool> is_child(urdf_.links.size(), false);
    for (const UrdfJoint& j : urdf_.joints) is_child[link_index_.at(j.child)] = true;
    for (size_t i = 0; i < urdf_.links.size(); ++i) {
      if (!is_child[i]) return urdf_.links[i].name;
    }
    return urdf_.links.front().name;  // unreachable after check_urdf
  }

 private:
  const UrdfDescription& urdf_;
  Model& model_;
  std::map<std::string, int> link_index_;
  std::vector<std::vector<int>> children_;           // per link, joint indices
  std::map<std::string, std::string> fixed_parent_;  // child link of a fixed joint -> parent link
};

}  // namespace

Model build_model(const UrdfDescription& urdf, const LoadOptions& options,
                  std::vector<Diagnostic>* warnings) {
  const std::vector<Diagnostic> found = check_urdf(urdf, options);
  for (const Diagnostic& d : found) {
    if (d.severity == Diagnostic::Severity::error)
      throw ModelError(urdf.file, d.line, 0, d.message);
  }
  if (warnings) {
    for (const Diagnostic& d : found) {
      if (d.on_load) warnings->push_back(d);
    }
  }

  Model model;
  model.name = urdf.name;
  model.gravity = options.gravity;
  model.floating_base = options.floating_base;
  Builder builder(urdf, model);
  builder.add_joint("world", Joint{}, -1, SE3::Identity(), JointInfo{});

  model.root_link = builder.root();
  int root_body = 0;
  if (options.floating_base) {
    JointInfo info;
    info.child_link = model.root_link;
    root_body = builder.add_joint(kFreeFlyerJoint,
                                  Joint::make(JointKind::floating, Vec3::UnitZ(), 0, 0, false), 0,
                                  SE3::Identity(), std::move(info));
  }
  builder.visit(model.root_link, root_body, SE3::Identity());
  if (model.frame_index("world") < 0)
    model.frames.insert(model.frames.begin(), Frame{"world", 0, {}, ""});

  detail::index_coordinates(model);
  detail::require_physical_bounds(model, urdf.file);
  return model;
}

}  // namespace eom

namespace eom::detail {

int append_joint(Model& model, const std::string& name, const Joint& joint, int parent,
                 const SE3& placement, const Inertia& inertia, JointInfo info) {
  model.joints.push_back(joint);
  model.parent.push_back(parent);
  model.placement.push_back(placement);
  model.inertia.push_back(inertia);
  model.joint_names.push_back(name);
  model.info.push_back(std::move(info));
  model.nq += joint.nq;
  model.nv += joint.nv;
  return model.njoints++;
}

void index_coordinates(Model& model) {
  model.nv_subtree.assign(model.njoints, 0);
  model.q_names.clear();
  model.v_names.clear();
  model.tau_names.clear();
  // children come after their parent: accumulate subtree sizes backwards
  for (int i = model.njoints - 1; i > 0; --i) {
    model.nv_subtree[i] += model.joints[i].nv;
    if (model.parent[i] > 0) model.nv_subtree[model.parent[i]] += model.nv_subtree[i];
  }

  // per-coordinate views of the joint data
  model.damping.setZero(model.nv);
  model.friction.setZero(model.nv);
  model.armature.setZero(model.nv);
  model.effort_limit.setConstant(model.nv, INFINITY);
  model.velocity_limit.setConstant(model.nv, INFINITY);
  model.lower_limit.setConstant(model.nq, -INFINITY);
  model.upper_limit.setConstant(model.nq, INFINITY);
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    const JointInfo& info = model.info[i];
    model.armature.segment(j.idx_v, j.nv).setConstant(info.armature);
    if (j.nv == 1) {
      model.damping[j.idx_v] = info.damping;
      model.friction[j.idx_v] = info.friction;
      model.effort_limit[j.idx_v] = info.effort;
      model.velocity_limit[j.idx_v] = info.velocity;
      model.lower_limit[j.idx_q] = info.lower;
      model.upper_limit[j.idx_q] = info.upper;
    } else if (is_spherical(j)) {
      // MJCF damping and frictionloss act on each of the three dofs (MuJoCo's dof_damping)
      model.damping.segment(j.idx_v, j.nv).setConstant(info.damping);
      model.friction.segment(j.idx_v, j.nv).setConstant(info.friction);
    }
    auto names = [&](Space space, std::vector<std::string>& out) {
      const auto suffixes = joint_suffixes(j.kind, space);
      if (suffixes.empty()) out.push_back(model.joint_names[i]);
      for (const auto& s : suffixes) out.push_back(model.joint_names[i] + "." + s);
    };
    names(Space::q, model.q_names);
    names(Space::v, model.v_names);
    names(Space::tau, model.tau_names);
  }
}

}  // namespace eom::detail
