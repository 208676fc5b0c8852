// check_urdf: every structural and physical problem of a URDF description, found before (and
// independently of) building a Model, so eom check can report them all at once. This file runs
// the passes and holds those over names, joints and the tree's structure; the passes over masses
// and inertias are in urdf_check_inertia.cpp.

#include "parsers/urdf_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/multibody/component_names.hpp"

namespace eom {
namespace detail {
namespace {

using Severity = Diagnostic::Severity;

constexpr std::array<const char*, 6> kJointTypes = {"revolute", "continuous", "prismatic",
                                                    "fixed",    "floating",   "planar"};

bool has_axis(const std::string& type) {
  return type == "revolute" || type == "continuous" || type == "prismatic" || type == "planar";
}
bool uses_limits(const std::string& type) {
  return type == "revolute" || type == "continuous" || type == "prismatic";
}

}  // namespace

using namespace check_text;

namespace check_text {

// numbers from the file, in shortest round-trip form so the message shows what was written
std::string exact(double x) { return shortest_text(x); }
std::string exact(const Vec3& v) { return exact(v.x()) + " " + exact(v.y()) + " " + exact(v.z()); }

// computed numbers (eigenvalues, masses): round-off digits would only hide the point
std::string approx(double x) { return number_text(x); }

std::string named_at(const std::string& name, int line) {
  return quote_input(name) + " (line " + std::to_string(line) + ")";
}

// "a", "a and b", "a, b and c"
std::string listing(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

}  // namespace check_text

UrdfChecker::UrdfChecker(const UrdfDescription& urdf, const LoadOptions& options)
    : urdf_(urdf), options_(options) {}

std::vector<Diagnostic> UrdfChecker::run() {
  index_names();
  finite_.assign(urdf_.links.size(), false);
  for (std::size_t i = 0; i < urdf_.links.size(); ++i) finite_[i] = check_link(urdf_.links[i]);
  for (const UrdfJoint& joint : urdf_.joints) check_joint(joint);
  find_mimic_cycles();
  check_structure();
  // the bodies the dynamics use need a sound tree with finite numbers; without one, each link
  // is judged alone
  const bool merged = errors_ == 0 && merge_bodies();
  for (std::size_t i = 0; i < urdf_.links.size(); ++i) {
    if (urdf_.links[i].has_inertial && finite_[i]) {
      check_inertia(static_cast<int>(i), merged ? &bodies_[body_of_[i]] : nullptr);
    }
  }
  // the tree-wide analysis needs a sound tree with finite, physical numbers
  if (errors_ == 0) check_motion();
  std::stable_sort(found_.begin(), found_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.severity != b.severity) return a.severity < b.severity;  // errors, warnings, notes
    return a.line < b.line;
  });
  return found_;
}

void UrdfChecker::error(int line, std::string message) {
  found_.push_back({Severity::error, line, std::move(message)});
  ++errors_;
}

void UrdfChecker::warning(int line, std::string message, bool on_load) {
  found_.push_back({Severity::warning, line, std::move(message), on_load});
}

void UrdfChecker::note(int line, std::string message, bool on_load) {
  found_.push_back({Severity::note, line, std::move(message), on_load});
}

// first definition of each name wins; later ones are reported
void UrdfChecker::index_names() {
  for (int i = 0; i < static_cast<int>(urdf_.links.size()); ++i) {
    const UrdfLink& link = urdf_.links[i];
    const auto [it, inserted] = link_index_.emplace(link.name, i);
    if (!inserted) {
      const int first = urdf_.links[it->second].line;
      error(link.line, "link " + quote_input(link.name) + " is defined twice (lines " +
                           std::to_string(first) + " and " + std::to_string(link.line) + ")");
    }
  }
  for (int i = 0; i < static_cast<int>(urdf_.joints.size()); ++i) {
    const UrdfJoint& joint = urdf_.joints[i];
    const auto [it, inserted] = joint_index_.emplace(joint.name, i);
    if (!inserted) {
      const int first = urdf_.joints[it->second].line;
      error(joint.line, "joint " + quote_input(joint.name) + " is defined twice (lines " +
                            std::to_string(first) + " and " + std::to_string(joint.line) + ")");
    }
  }
}

void UrdfChecker::check_joint(const UrdfJoint& joint) {
  const std::string who = "joint " + quote_input(joint.name) + ": ";
  const int line = joint.line;
  if (std::find(kJointTypes.begin(), kJointTypes.end(), joint.type) == kJointTypes.end()) {
    error(line, who + "unknown type " + quote_input(joint.type) +
                    " (expected revolute, continuous, prismatic, fixed, floating or planar)");
  }
  if (!joint.origin.p.allFinite()) {
    error(line, who + "origin xyz " + exact(joint.origin.p) + " must be finite");
  }
  if (!joint.origin.R.allFinite()) error(line, who + "origin rpy must be finite");
  if (!joint.axis.allFinite()) {
    error(line, who + "axis " + exact(joint.axis) + " must be finite");
  } else if (has_axis(joint.type) && joint.axis.cwiseAbs().maxCoeff() == 0) {
    error(line, who + "axis " + exact(joint.axis) + " must be non-zero");
  }
  const std::array<std::pair<const char*, double>, 9> numbers = {
      {{"limit lower", joint.lower},
       {"limit upper", joint.upper},
       {"limit effort", joint.effort},
       {"limit velocity", joint.velocity},
       {"dynamics damping", joint.damping},
       {"dynamics friction", joint.friction},
       {"dynamics armature", joint.armature},
       {"mimic multiplier", joint.mimic_multiplier},
       {"mimic offset", joint.mimic_offset}}};
  bool finite = true;
  for (const auto& [name, value] : numbers) {
    if (!std::isfinite(value)) {
      error(line, who + name + " " + exact(value) + " must be finite");
      finite = false;
    }
  }
  if (finite && uses_limits(joint.type)) check_limits(joint);
  // a negative armature can make the mass matrix indefinite
  if (joint.armature < 0) {
    error(line, who + "dynamics armature " + exact(joint.armature) + " must be non-negative");
  }
  check_mimic(joint);
  // the Model and its table columns (q.root.x, ...) name the free-flyer "root"
  if (options_.floating_base && joint.name == kFreeFlyerJoint) {
    error(line, who + "the name is reserved for the free-flyer joint of a floating base");
  }
}

void UrdfChecker::check_limits(const UrdfJoint& joint) {
  const std::string who = "joint " + quote_input(joint.name) + ": ";
  const int line = joint.line;
  const bool bounded = joint.type != "continuous";
  if (!joint.has_limit) {
    // the URDF spec requires <limit> on revolute and prismatic joints
    if (bounded) {
      error(line,
            who + "a " + joint.type + " joint needs a <limit> (lower, upper, effort, velocity)");
    }
    return;
  }
  // one finding for a <limit> left at its defaults (the double pendulum of the shared set)
  if (bounded && joint.lower == 0 && joint.upper == 0 && joint.effort == 0 && joint.velocity == 0) {
    warning(line, who +
                      "limit lower = upper = effort = velocity = 0 (the defaults of an empty "
                      "<limit>): the joint cannot move and any actuation exceeds it");
    return;
  }
  if (bounded && joint.lower > joint.upper) {
    error(line, who + "limit lower " + exact(joint.lower) + " > upper " + exact(joint.upper));
  } else if (bounded && joint.lower == joint.upper) {
    warning(line, who + "limit lower = upper = " + exact(joint.lower) + ": the joint cannot move" +
                      (joint.lower == 0 ? " (both default to 0 when absent)" : ""));
  } else if (!bounded && (joint.lower != 0 || joint.upper != 0)) {
    warning(line, who + "a continuous joint ignores limit lower " + exact(joint.lower) +
                      " and upper " + exact(joint.upper) + " (revolute is the bounded kind)");
  }
  if (joint.effort < 0) {
    error(line, who + "limit effort " + exact(joint.effort) + " must be non-negative");
  } else if (joint.effort == 0) {
    warning(line, who + "limit effort is 0: any actuation exceeds it");
  }
  if (joint.velocity < 0) {
    error(line, who + "limit velocity " + exact(joint.velocity) + " must be non-negative");
  } else if (joint.velocity == 0) {
    warning(line, who + "limit velocity is 0: any motion exceeds it");
  }
}

void UrdfChecker::check_mimic(const UrdfJoint& joint) {
  if (!joint.mimic_joint) return;
  const std::string& target = *joint.mimic_joint;
  if (target == joint.name) {
    error(joint.line, "joint " + quote_input(joint.name) + " mimics itself");
  } else if (joint_index_.count(target) == 0) {
    error(joint.line, "joint " + quote_input(joint.name) + " mimics joint " + quote_input(target) +
                          ", which does not exist");
  } else if (joint.type == "fixed") {
    // a fixed joint does not move: nothing to mimic (Talos' gripper has such tags)
    note(joint.line, "joint " + quote_input(joint.name) + " is fixed: its mimic tag is ignored");
  } else {
    warning(joint.line, "joint " + quote_input(joint.name) + " mimics " + quote_input(target) +
                            ": eom's dynamics treat mimic joints as independent joints");
  }
}

// a joint that mimics itself through others (a follows b follows a) has no value to take:
// each chain of leaders is followed until it ends or comes back (a joint mimicking itself
// directly is check_mimic's); each cycle is reported once, at its first joint in the document
void UrdfChecker::find_mimic_cycles() {
  const int njoints = static_cast<int>(urdf_.joints.size());
  const auto leader = [&](int j) {
    const auto& name = urdf_.joints[j].mimic_joint;
    if (!name || *name == urdf_.joints[j].name) return -1;
    const auto it = joint_index_.find(*name);
    return it == joint_index_.end() ? -1 : it->second;
  };
  std::vector<bool> reported(njoints, false);
  for (int start = 0; start < njoints; ++start) {
    std::vector<int> chain{start};
    for (int next = leader(start); next >= 0 && chain.size() <= std::size_t(njoints);
         next = leader(next)) {
      if (next == start) {
        if (reported[start]) break;
        std::vector<std::string> names;
        for (int j : chain) {
          reported[j] = true;
          names.push_back(quote_input(urdf_.joints[j].name));
        }
        error(urdf_.joints[start].line, "mimic cycle: joints " + listing(names) +
                                            " each follow the next and the last the first: "
                                            "none has a value of its own");
        break;
      }
      chain.push_back(next);
    }
  }
}

int UrdfChecker::link_index(const std::string& name) const {
  const auto it = link_index_.find(name);
  return it == link_index_.end() ? -1 : it->second;
}

// dangling names, several parents, the number of roots, cycles
void UrdfChecker::check_structure() {
  const int nlinks = static_cast<int>(urdf_.links.size());
  parent_joints_.assign(nlinks, {});
  child_joints_.assign(nlinks, {});
  for (int j = 0; j < static_cast<int>(urdf_.joints.size()); ++j) {
    const UrdfJoint& joint = urdf_.joints[j];
    const int parent = link_index(joint.parent);
    const int child = link_index(joint.child);
    const std::string who = "joint " + quote_input(joint.name) + ": ";
    if (parent < 0) {
      error(joint.line, who + "parent link " + quote_input(joint.parent) + " does not exist");
    }
    if (child < 0) {
      error(joint.line, who + "child link " + quote_input(joint.child) + " does not exist");
    }
    if (parent < 0 || child < 0) continue;
    child_joints_[parent].push_back(j);
    parent_joints_[child].push_back(j);
  }

  std::vector<int> roots;
  for (int i = 0; i < nlinks; ++i) {
    if (link_index(urdf_.links[i].name) != i) continue;  // a duplicate, already reported
    const std::vector<int>& parents = parent_joints_[i];
    if (parents.empty()) roots.push_back(i);
    if (parents.size() < 2) continue;
    std::vector<std::string> names;
    for (int j : parents) names.push_back(named_at(urdf_.joints[j].name, urdf_.joints[j].line));
    error(urdf_.joints[parents[1]].line,
          "link " + quote_input(urdf_.links[i].name) +
              " is the child of more than one joint: " + listing(names));
  }
  if (roots.empty()) {
    error(0, "no root link: every link is the child of a joint");
  } else if (roots.size() > 1) {
    std::vector<std::string> names;
    for (int i : roots) names.push_back(named_at(urdf_.links[i].name, urdf_.links[i].line));
    error(urdf_.links[roots[1]].line,
          std::to_string(roots.size()) + " root links " + listing(names) +
              ": a robot has exactly one (a link that is no joint's child)");
  } else {
    root_ = roots[0];
  }
  find_cycles();
}

// depth-first search over parent -> child edges; each edge back into the current path closes a
// cycle, reported with its links and joints
void UrdfChecker::find_cycles() {
  const int nlinks = static_cast<int>(urdf_.links.size());
  enum class Mark { unseen, on_path, done };
  std::vector<Mark> mark(nlinks, Mark::unseen);
  for (int start = 0; start < nlinks; ++start) {
    if (mark[start] != Mark::unseen) continue;
    std::vector<PathStep> path{{start, -1}};
    mark[start] = Mark::on_path;
    while (!path.empty()) {
      PathStep& top = path.back();
      if (top.next == child_joints_[top.link].size()) {
        mark[top.link] = Mark::done;
        path.pop_back();
        continue;
      }
      const int j = child_joints_[top.link][top.next++];
      const int child = link_index(urdf_.joints[j].child);
      if (mark[child] == Mark::unseen) {
        mark[child] = Mark::on_path;
        path.push_back({child, j});
      } else if (mark[child] == Mark::on_path) {
        report_cycle(path, child, j);
      }
    }
  }
}

void UrdfChecker::report_cycle(const std::vector<PathStep>& path, int entry, int closing_joint) {
  std::size_t k = 0;
  while (path[k].link != entry) ++k;
  std::string links;
  std::vector<std::string> joints;
  int line = urdf_.joints[closing_joint].line;
  for (std::size_t i = k; i < path.size(); ++i) {
    links += urdf_.links[path[i].link].name + " -> ";
    if (i > k) {
      joints.push_back(quote_input(urdf_.joints[path[i].via].name));
      line = std::min(line, urdf_.joints[path[i].via].line);
    }
  }
  joints.push_back(quote_input(urdf_.joints[closing_joint].name));
  links += urdf_.links[entry].name;
  error(line, "kinematic cycle " + links + " through joint" + (joints.size() > 1 ? "s " : " ") +
                  listing(joints));
}

}  // namespace detail

std::vector<Diagnostic> check_urdf(const UrdfDescription& urdf, const LoadOptions& options) {
  return detail::UrdfChecker(urdf, options).run();
}

}  // namespace eom
