// check_urdf: every structural and physical problem of a URDF description, found before (and
// independently of) building a Model, so eom check can report them all at once.

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include "eom/core/errors.hpp"
#include "eom/multibody/component_names.hpp"
#include "eom/parsers/urdf.hpp"
#include "core/pivot.hpp"
#include "parsers/fixed_joints.hpp"

namespace eom {
namespace {

using Severity = Diagnostic::Severity;

constexpr std::array<const char*, 6> kJointTypes = {"revolute", "continuous", "prismatic",
                                                    "fixed",    "floating",   "planar"};

// numbers from the file, in shortest round-trip form so the message shows what was written
std::string exact(double x) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, result.ptr);
}
std::string exact(const Vec3& v) { return exact(v.x()) + " " + exact(v.y()) + " " + exact(v.z()); }

// computed numbers (eigenvalues, masses): round-off digits would only hide the point
std::string approx(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

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

bool is_moving(const std::string& type) { return type != "fixed"; }
bool has_axis(const std::string& type) {
  return type == "revolute" || type == "continuous" || type == "prismatic" || type == "planar";
}
bool uses_limits(const std::string& type) {
  return type == "revolute" || type == "continuous" || type == "prismatic";
}

// a moving joint for the mass-matrix analysis: a URDF joint, or the free-flyer of a floating base
struct Mover {
  std::string name;
  std::string type;
  int line = 0;
  int child = 0;  // link index
  Vec3 axis = Vec3::UnitX();
  bool free_flyer = false;
};

// links merged by fixed joints into one rigid body, as the dynamics see them
struct Body {
  int mover = -1;          // the joint that moves it; -1: the root body (world or free-flyer)
  std::vector<int> links;  // the first is the link the body starts at
  Inertia inertia;         // combined, in the frame of that link
  bool misplaced = false;  // a link's placement overflowed (reported): so does the sum
};

// relative round-off of principal moments (URDF numbers carry 6 to 9 significant digits)
constexpr double kMomentRoundOff = 1e-9;

// a link on the current path of the depth-first search for cycles
struct PathStep {
  int link;
  int via;               // joint that entered the link, -1 at a start
  std::size_t next = 0;  // next child joint to follow
};

class Checker {
 public:
  Checker(const UrdfDescription& urdf, const UrdfOptions& options)
      : urdf_(urdf), options_(options) {}

  std::vector<Diagnostic> run() {
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

 private:
  void error(int line, std::string message) {
    found_.push_back({Severity::error, line, std::move(message)});
    ++errors_;
  }
  void warning(int line, std::string message, bool on_load = false) {
    found_.push_back({Severity::warning, line, std::move(message), on_load});
  }
  void note(int line, std::string message, bool on_load = false) {
    found_.push_back({Severity::note, line, std::move(message), on_load});
  }

  // first definition of each name wins; later ones are reported
  void index_names() {
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

  // the link's own numbers; true when they are all finite
  bool check_link(const UrdfLink& link) {
    if (!link.has_inertial) return true;
    const std::string who = "link " + quote_input(link.name) + ": ";
    const int line = link.inertial_line;
    bool finite = true;
    if (!link.inertial_origin.p.allFinite()) {
      error(line, who + "inertial origin xyz " + exact(link.inertial_origin.p) + " must be finite");
      finite = false;
    }
    if (!link.inertial_origin.R.allFinite()) {
      error(line, who + "inertial origin rpy must be finite");
      finite = false;
    }
    if (!std::isfinite(link.mass)) {
      error(line, who + "mass " + exact(link.mass) + " must be finite");
      finite = false;
    } else if (link.mass < 0) {
      error(line, who + "mass " + exact(link.mass) + " must be non-negative");
    }
    const Mat3& I = link.inertia;
    if (!I.allFinite()) {
      error(line, who + "inertia " + inertia_entries(I, [](double x) {
                    return !std::isfinite(x);
                  }) + " must be finite");
      finite = false;
    } else if (!std::isfinite(I.cwiseAbs().sum())) {
      // finite entries whose sums are not: the dynamics add them up (I w, the trace)
      const double largest = I.cwiseAbs().maxCoeff();
      error(line, who + "inertia " + inertia_entries(I, [&](double x) {
                    return std::abs(x) >= largest / 16;
                  }) + " overflows: the sums of its entries are beyond a double (1.8e308)");
      finite = false;
    }
    return finite;
  }

  // "ixx 1e+308, iyy 1e+308": the entries of an inertia tensor that `shown` picks
  template <typename Pick>
  static std::string inertia_entries(const Mat3& I, Pick shown) {
    const std::array<std::pair<const char*, double>, 6> entries = {{{"ixx", I(0, 0)},
                                                                    {"ixy", I(0, 1)},
                                                                    {"ixz", I(0, 2)},
                                                                    {"iyy", I(1, 1)},
                                                                    {"iyz", I(1, 2)},
                                                                    {"izz", I(2, 2)}}};
    std::vector<std::string> picked;
    for (const auto& [name, value] : entries) {
      if (shown(value)) picked.push_back(std::string(name) + " " + exact(value));
    }
    return listing(picked);
  }

  // A link's inertia tensor: positive semi-definite, then the triangle inequality of its
  // principal moments, both within round-off of the body's scale (numerically zero tensors such
  // as -2.4e-35, 0, 2.4e-35 are fine). What a defect means depends on the body the dynamics use
  // (`body`, null when the tree is unsound and the link is judged alone): none if the link is
  // welded to the world; none if it is merged by fixed joints into a moving body whose combined
  // inertia is positive semi-definite; wrong results if that body is not.
  void check_inertia(int index, const Body* body) {
    const UrdfLink& link = urdf_.links[index];
    const Vec3 lambda = principal_moments(link.inertia);
    if (!lambda.allFinite()) return;
    const double tolerance = kMomentRoundOff * body_scale(lambda, body);
    const bool definite = lambda[0] >= -tolerance;
    // sorted, so a + b >= c is the only inequality that can fail
    const bool triangle = lambda[0] + lambda[1] >= lambda[2] - tolerance;
    if (definite && triangle) return;
    const std::string who = "link " + quote_input(link.name) + ": ";
    const std::string defect = definite ? "principal inertias " + moments(lambda, tolerance) +
                                              " violate the triangle inequality (a + b < c)"
                                        : "inertia is not positive semi-definite (eigenvalues " +
                                              moments(lambda, tolerance) + ")";
    const int line = link.inertial_line;
    if (body && body->mover < 0 && !options_.floating_base) {
      note(line, who + defect + "; welded to the world: not used", !definite);
      return;
    }
    if (definite) {
      warning(line, who + defect + ": not a physical rigid body");
      return;
    }
    if (!body || body->links.size() == 1) {
      error(line, who + defect);
      return;
    }
    // an indefinite link merged into a moving body: the body is what the dynamics use
    const Vec3 combined = principal_moments(body->inertia.I_c);
    const double body_tolerance = kMomentRoundOff * body_scale(combined, body);
    if (combined[0] < -body_tolerance) {
      error(line, who + defect + ", and so is the body it is merged by fixed joints into (" +
                      body_name(*body) + "; eigenvalues " + moments(combined, body_tolerance) +
                      ")");
    } else {
      warning(line,
              who + defect + "; harmless: merged by fixed joints into " + body_name(*body) +
                  ", whose combined inertia is positive semi-definite (principal inertias " +
                  moments(combined, body_tolerance) + ")",
              true);
    }
  }

  static Vec3 principal_moments(const Mat3& inertia) {
    const Eigen::SelfAdjointEigenSolver<Mat3> solver(inertia, Eigen::EigenvaluesOnly);
    if (solver.info() != Eigen::Success) return Vec3::Constant(NAN);
    return solver.eigenvalues();  // ascending
  }

  // The scale against which round-off is judged: the largest principal moment of the link and
  // of its body, and the body's mass spread over a millimetre (so that a point mass's
  // numerically zero tensor stays zero); 1e-12 kg m^2 at least.
  static double body_scale(const Vec3& lambda, const Body* body) {
    double scale = std::max(1e-12, lambda.cwiseAbs().maxCoeff());
    if (body) {
      scale = std::max(scale, principal_moments(body->inertia.I_c).cwiseAbs().maxCoeff());
      scale = std::max(scale, body->inertia.m * 1e-6);
    }
    return scale;
  }

  // computed numbers within round-off of zero are shown as 0: the solver's noise would distract
  static std::string moments(const Vec3& lambda, double tolerance) {
    const auto shown = [&](double x) { return approx(std::abs(x) <= tolerance ? 0.0 : x); };
    return shown(lambda[0]) + ", " + shown(lambda[1]) + ", " + shown(lambda[2]);
  }

  std::string body_name(const Body& body) const {
    const std::string root = quote_input(urdf_.links[body.links.front()].name);
    if (body.mover >= 0) {
      return "link " + root + ", the body moved by joint " +
             quote_input(urdf_.joints[body.mover].name);
    }
    return "the floating base (root link " + root + ", moved by the free-flyer 'root')";
  }

  // The bodies the dynamics use: links merged by fixed joints into the body of the joint that
  // moves them (or of the root). Placing every link in the world (at the neutral configuration)
  // and merging must give finite numbers: two 1e308 kg links on a fixed joint, or an origin of
  // 1e200 under a massive link, do not. False (with errors) when they do not.
  bool merge_bodies() {
    const int errors_before = errors_;
    body_of_.assign(urdf_.links.size(), -1);
    bodies_.clear();
    bodies_.push_back({-1, {}, Inertia::Zero(), false});
    merge_tree();
    for (const Body& body : bodies_) {
      const Inertia& in = body.inertia;
      if (body.misplaced || (std::isfinite(in.m) && in.c.allFinite() && in.I_c.allFinite())) {
        continue;
      }
      std::vector<std::string> names;
      int line = 0;
      for (int link : body.links) {
        if (urdf_.links[link].mass == 0) continue;
        names.push_back(quote_input(urdf_.links[link].name));
        line = std::max(line, urdf_.links[link].inertial_line);
      }
      error(line, "links " + listing(names) +
                      ", merged by fixed joints into one body, overflow when combined (mass " +
                      approx(in.m) + " kg): the numbers are beyond a double");
    }
    return errors_ == errors_before;
  }

  // a joint's child link, for detail::walk_links (over child_joints_: document order)
  auto child_link() const {
    return [this](int joint) { return link_index(urdf_.joints[joint].child); };
  }

  // A link's placement in its body's frame and in the world, moved along joints together.
  struct BodyAndWorld {
    SE3 in_body, in_world;
    friend BodyAndWorld operator*(const BodyAndWorld& at, const SE3& origin) {
      return {at.in_body * origin, at.in_world * origin};
    }
  };

  // the links from the root link down, each into its body: the root's, or the one a moving joint
  // above it opens
  void merge_tree() {
    detail::walk_links(
        urdf_, child_joints_, child_link(), root_, 0,
        BodyAndWorld{SE3::Identity(), SE3::Identity()},
        [&](int link, int body, const BodyAndWorld& at) {
          merge_link(link, body, at.in_body, at.in_world);
        },
        [&](int joint, int, int, const BodyAndWorld& at) {
          bodies_.push_back({joint, {}, Inertia::Zero(), false});
          return std::optional<std::pair<int, BodyAndWorld>>{
              {static_cast<int>(bodies_.size()) - 1, BodyAndWorld{SE3::Identity(), at.in_world}}};
        });
  }

  // link `link` joins body `body`, at `in_body` in the body's frame and `in_world` in the world
  void merge_link(int link, int body, const SE3& in_body, const SE3& in_world) {
    body_of_[link] = body;
    bodies_[body].links.push_back(link);
    const UrdfLink& l = urdf_.links[link];
    if (!in_world.p.allFinite() || !in_world.R.allFinite()) {
      error(l.line, "link " + quote_input(l.name) +
                        ": its placement overflows (the joint origins from the root link add "
                        "up to more than a double holds)");
      bodies_[body].misplaced = true;
    } else if (l.has_inertial) {
      const Inertia own = detail::link_inertia(l);
      const Inertia placed = own.transformed(in_world);
      if (!placed.about_origin().allFinite()) {
        error(l.inertial_line, "link " + quote_input(l.name) + ": mass " + approx(l.mass) +
                                   " kg placed " + approx(placed.c.cwiseAbs().maxCoeff()) +
                                   " m from the root: its inertia about the root overflows");
        bodies_[body].misplaced = true;
      }
      bodies_[body].inertia += own.transformed(in_body);
    }
  }

  void check_joint(const UrdfJoint& joint) {
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

  void check_limits(const UrdfJoint& joint) {
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
    if (bounded && joint.lower == 0 && joint.upper == 0 && joint.effort == 0 &&
        joint.velocity == 0) {
      warning(line, who +
                        "limit lower = upper = effort = velocity = 0 (the defaults of an empty "
                        "<limit>): the joint cannot move and any actuation exceeds it");
      return;
    }
    if (bounded && joint.lower > joint.upper) {
      error(line, who + "limit lower " + exact(joint.lower) + " > upper " + exact(joint.upper));
    } else if (bounded && joint.lower == joint.upper) {
      warning(line, who + "limit lower = upper = " + exact(joint.lower) +
                        ": the joint cannot move" +
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

  void check_mimic(const UrdfJoint& joint) {
    if (!joint.mimic_joint) return;
    const std::string& target = *joint.mimic_joint;
    if (target == joint.name) {
      error(joint.line, "joint " + quote_input(joint.name) + " mimics itself");
    } else if (joint_index_.count(target) == 0) {
      error(joint.line, "joint " + quote_input(joint.name) + " mimics joint " +
                            quote_input(target) + ", which does not exist");
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
  void find_mimic_cycles() {
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

  int link_index(const std::string& name) const {
    const auto it = link_index_.find(name);
    return it == link_index_.end() ? -1 : it->second;
  }

  // dangling names, several parents, the number of roots, cycles
  void check_structure() {
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
  void find_cycles() {
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

  void report_cycle(const std::vector<PathStep>& path, int entry, int closing_joint) {
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

  // which subtrees have neither mass nor inertia: each link's own, then folded into its parent's
  // backwards over a breadth-first order (children after their parents); no recursion
  void find_empty_subtrees() {
    std::vector<int> order{root_}, parent_link(urdf_.links.size(), -1);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const int link = order[k];
      const UrdfLink& l = urdf_.links[link];
      subtree_empty_[link] = l.mass == 0 && l.inertia.isZero(0);
      for (int j : child_joints_[link]) {
        const int child = link_index(urdf_.joints[j].child);
        parent_link[child] = link;
        order.push_back(child);
      }
    }
    for (std::size_t k = order.size(); k-- > 1;) {
      const int link = order[k];
      subtree_empty_[parent_link[link]] = subtree_empty_[parent_link[link]] && subtree_empty_[link];
    }
  }

  // Warnings about what the dynamics will see: moving bodies without mass make the joint-space
  // inertia matrix M singular. Runs only on an error-free description (a tree, finite numbers).
  void check_motion() {
    const int nlinks = static_cast<int>(urdf_.links.size());
    subtree_empty_.assign(nlinks, true);
    find_empty_subtrees();

    std::vector<Mover> movers;
    if (options_.floating_base) {
      movers.push_back(
          {kFreeFlyerJoint, "floating", urdf_.links[root_].line, root_, Vec3::UnitX(), true});
    }
    for (const UrdfJoint& joint : urdf_.joints) {
      if (is_moving(joint.type)) {
        movers.push_back(
            {joint.name, joint.type, joint.line, link_index(joint.child), joint.axis, false});
      }
    }
    for (const Mover& mover : movers) check_mover(mover);
  }

  void check_mover(const Mover& mover) {
    const UrdfLink& child = urdf_.links[mover.child];
    const std::string who =
        (mover.free_flyer ? "the floating base joint " : "joint ") + quote_input(mover.name);
    if (subtree_empty_[mover.child]) {
      warning(mover.line, who +
                              " moves only massless links: the mass matrix is singular "
                              "(forward dynamics impossible)");
      return;
    }
    // the links of the moved body, in its frame, and whether a moving joint leaves it
    std::vector<std::pair<int, SE3>> body;
    bool moving_below = false;
    detail::walk_links(
        urdf_, child_joints_, child_link(), mover.child, 0, SE3::Identity(),
        [&](int link, int, const SE3& placement) { body.emplace_back(link, placement); },
        [&](int, int, int, const SE3&) {
          moving_below = true;
          return std::optional<std::pair<int, SE3>>{};
        });

    // mass, centre of mass and rotational inertia of the body in the joint (= child link) frame
    double m = 0;
    Vec3 first_moment = Vec3::Zero();
    Mat3 I_o = Mat3::Zero();  // about the frame origin
    for (const auto& [link, placement] : body) {
      const Inertia here = detail::link_inertia(urdf_.links[link]).transformed(placement);
      m += here.m;
      first_moment += here.m * here.c;
      I_o += here.about_origin();
    }
    const std::string body_name =
        quote_input(child.name) + (body.size() > 1 ? " (with the links fixed to it)" : "");

    // a leaf's diagonal block of M is configuration-independent: singular -> M singular
    if (!moving_below) {
      const Vec3 c = m > 0 ? Vec3(first_moment / m) : Vec3::Zero();
      // parallel axis: I_o = I_c + m [c]x^T [c]x
      const Mat3 I_c = I_o - Inertia{m, c, Mat3::Zero()}.about_origin();
      const Pivot pivot = leaf_pivot(mover, m, I_o, I_c);
      if (!detail::pivot_positive(pivot.value, pivot.scale)) {
        // a pivot lost in the round-off of a much larger moment (izz="1e308" beside 0.01) is
        // not the absence of inertia: say which it is
        const std::string inertia =
            pivot.value > 0 ? " whose inertia about the joint's motion, " + approx(pivot.value) +
                                  " kg m^2, is lost in the round-off of its inertia (trace " +
                                  approx(pivot.scale) + " kg m^2)"
                            : " without inertia about the joint's motion";
        warning(mover.line,
                who + " moves leaf body " + body_name +
                    (m == 0 ? " of zero mass" : " (mass " + approx(m) + " kg)" + inertia) +
                    ": the mass matrix is singular (forward dynamics impossible)");
        return;
      }
      if (m == 0) {
        warning(mover.line, who + " moves leaf body " + body_name +
                                " of zero mass (rotational inertia only): not a physical rigid "
                                "body");
        return;
      }
    }
    if (mover.free_flyer && m == 0) {
      warning(child.line, "root link " + quote_input(child.name) +
                              " has zero mass: with a floating base it moves and needs mass");
      return;
    }
    // a link without <inertial> whose body gets mass from links fixed to it (a base_footprint, a
    // mounting frame) is ordinary: only a body left without any mass is worth a word
    if (!child.has_inertial && m == 0) {
      warning(child.line, "link " + quote_input(child.name) + " (moved by joint " +
                              quote_input(mover.name) + ") has no <inertial>: treated as massless");
    }
  }

  // The pivot S^T I S of a leaf body of mass m (rotational inertia I_o about the joint frame
  // origin, I_c about its centre of mass) and the scale of its round-off: the body has kinetic
  // energy for every motion of its joint when detail::pivot_positive(value, scale). Each compares
  // quantities of one unit, with the round-off of aba's pivot rule allowed relative to the body
  // alone (no floor: a tiny body is not a massless one).
  struct Pivot {
    double value = 0, scale = 0;
  };
  static Pivot leaf_pivot(const Mover& mover, double m, const Mat3& I_o, const Mat3& I_c) {
    const Vec3 a = mover.axis.stableNormalized();
    if (mover.type == "prismatic") return {m, 0};
    if (mover.type == "planar") {
      // det S^T I S = m^2 a^T I_c a: in-plane translations, then rotation about the centre of mass
      return m > 0 ? Pivot{a.dot(I_c * a), I_c.trace()} : Pivot{};
    }
    if (mover.type == "floating") {
      const Eigen::SelfAdjointEigenSolver<Mat3> solver(I_c, Eigen::EigenvaluesOnly);
      return m > 0 ? Pivot{solver.eigenvalues()[0], I_c.trace()} : Pivot{};
    }
    return {a.dot(I_o * a), I_o.trace()};  // revolute, continuous
  }

  const UrdfDescription& urdf_;
  const UrdfOptions& options_;
  std::vector<Diagnostic> found_;
  int errors_ = 0;
  std::map<std::string, int> link_index_, joint_index_;
  std::vector<std::vector<int>> parent_joints_, child_joints_;  // per link (nlinks)
  int root_ = -1;
  std::vector<bool> subtree_empty_;  // zero mass and zero inertia all the way down (nlinks)
  std::vector<bool> finite_;         // the link's own numbers are finite (nlinks)
  std::vector<Body> bodies_;         // bodies_[0]: the root body
  std::vector<int> body_of_;         // per link (nlinks)
};

}  // namespace

std::vector<Diagnostic> check_urdf(const UrdfDescription& urdf, const UrdfOptions& options) {
  return Checker(urdf, options).run();
}

}  // namespace eom
