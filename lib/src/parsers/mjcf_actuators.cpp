// MJCF actuator force limits, read as MuJoCo 2.2's xml_native_reader (OneActuator) and compiler
// (mjCActuator::Compile, checklimited) read them.

#include "parsers/mjcf_actuators.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <Eigen/Core>

#include "eom/core/errors.hpp"

namespace eom::detail {

using tinyxml2::XMLElement;

namespace {

// The actuators whose force on a joint MuJoCo bounds by forcerange. A <muscle>'s force comes from
// its own length-tension model and an <adhesion> acts on a body: neither is a joint's effort.
bool bounds_joint_force(std::string_view tag) {
  return tag == "general" || tag == "motor" || tag == "position" || tag == "velocity" ||
         tag == "intvelocity" || tag == "damper" || tag == "cylinder";
}

// The bound a force range puts on a force, as MuJoCo's checklimited reads `limited` and `range`:
// "true", or "auto" with the range given (which needs autolimits); infinite when unbounded;
// asymmetric when the range is
struct ForceLimit {
  double limit = INFINITY;
  bool asymmetric = false;
};

ForceLimit range_bound(const MjcfAttributes& a, const XMLElement* e, const std::string& cls,
                       bool autolimits, const char* limited_name, const char* range_name) {
  const std::string tag = e->Name();
  const std::string limited = a.text(e, limited_name, cls, "auto");
  if (limited != "true" && limited != "false" && limited != "auto") {
    a.fail(e, "<" + tag + " " + limited_name + "=\"" + shown_input(limited) +
                  "\">: expected true, false or auto");
  }
  const bool has_range = a.get(e, range_name, cls) != nullptr;
  if (limited == "auto" && has_range && !autolimits) {
    a.fail(e, "<" + tag + " " + range_name + "> without " + limited_name +
                  "=\"true\": set <compiler autolimits=\"true\"> or " + limited_name +
                  " (as MuJoCo requires)");
  }
  if (!(limited == "true" || (limited == "auto" && has_range))) return {};
  const Eigen::Vector2d range = a.fixed<2>(e, range_name, cls, Eigen::Vector2d::Zero());
  if (!(range[0] < range[1])) {
    a.fail(e, "<" + tag + " " + range_name + ">: the lower limit must be below the upper");
  }
  return {std::max(std::abs(range[0]), std::abs(range[1])), range[0] != -range[1]};
}

// The force an actuator can apply to its joint: gear[0] times its own
ForceLimit force_limit(const MjcfAttributes& a, const XMLElement* e, const std::string& cls,
                       bool autolimits) {
  ForceLimit force = range_bound(a, e, cls, autolimits, "forcelimited", "forcerange");
  if (!std::isfinite(force.limit)) return force;
  if (const char* text = a.get(e, "gear", cls)) {
    const std::vector<double> g = a.list(e, "gear", text);
    if (g.empty() || g.size() > 6) {
      a.fail(e, std::string("<") + e->Name() + " gear>: expected 1 to 6 numbers");
    }
    force.limit *= std::abs(g[0]);  // a joint transmission uses the first
  }
  return force;
}

}  // namespace

std::set<std::string> read_actuator_force_limits(const MjcfAttributes& attributes,
                                                 const std::vector<const XMLElement*>& actuators,
                                                 bool autolimits, Model& model) {
  std::set<std::string> unused;
  std::vector<double> limit(model.njoints, 0);
  std::vector<bool> driven(model.njoints, false);
  std::string asymmetric;
  for (const XMLElement* e : actuators) {
    const std::string tag = e->Name();
    if (!bounds_joint_force(tag)) {
      unused.insert("<" + tag + ">");
      continue;
    }
    const char* given = e->Attribute("class");
    const std::string cls = given ? given : "main";
    if (cls != "main" && !attributes.has_class(cls)) {
      attributes.fail(e, "<" + tag + "> uses the undefined <default> class " + quote_input(cls));
    }
    const char* joint = e->Attribute("joint");
    if (!joint) joint = e->Attribute("jointinparent");
    if (!joint) {
      unused.insert("actuators on tendons, sites and bodies");
      continue;
    }
    const int j = model.joint_index(joint);
    if (j <= 0) {
      attributes.fail(e, "<" + tag + " joint=\"" + shown_input(joint) + "\">: no joint " +
                             quote_input(joint) + " in the model");
    }
    if (model.joints[j].nv != 1) {
      unused.insert("actuators on ball and free joints");
      continue;
    }
    unused.insert("<actuator> gains, control ranges and dynamics");
    driven[j] = true;
    const ForceLimit force = force_limit(attributes, e, cls, autolimits);
    limit[j] += force.limit;
    if (force.asymmetric) asymmetric += (asymmetric.empty() ? "" : ", ") + attributes.place(e);
  }
  for (int j = 1; j < model.njoints; ++j) {
    if (driven[j]) model.info[j].effort = std::min(model.info[j].effort, limit[j]);
  }
  if (!asymmetric.empty()) {
    attributes.warn("asymmetric <actuator forcerange> (" + asymmetric +
                    "): eom's effort limits are symmetric, the larger bound is used");
  }
  return unused;
}

double joint_actuator_force_bound(const MjcfAttributes& attributes, const XMLElement* joint,
                                  const std::string& cls, bool autolimits) {
  const ForceLimit bound =
      range_bound(attributes, joint, cls, autolimits, "actuatorfrclimited", "actuatorfrcrange");
  if (bound.asymmetric) {
    attributes.warn("asymmetric <joint actuatorfrcrange> (" + attributes.place(joint) +
                    "): eom's effort limits are symmetric, the larger bound is used");
  }
  return bound.limit;
}

}  // namespace eom::detail
