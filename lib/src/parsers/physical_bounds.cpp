// One checker for every model format: the loaders of URDF (after check_urdf), MJCF and the JSON
// models (product of exponentials, DH) each build a Model, and this holds it to the bounds of
// core/tolerances.hpp. The format checks before it (finite numbers, positive definite inertias)
// stay with each format, where they can name the attribute; these need the built bodies (links
// merged by fixed joints, DH parameters turned into placements) and name the joint.

#include "parsers/physical_bounds.hpp"

#include <cmath>
#include <string>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "core/tolerances.hpp"

namespace eom::detail {
namespace {

// "beyond the 1e+06 m a model may state": the bound and its unit
std::string beyond(double bound, const char* unit) {
  return ", beyond the " + number_text(bound) + " " + unit +
         " a model may state (a unit mistake, or a number that overflows every row)";
}

// the largest coordinate of a length: the norm of 1e308-sized coordinates would overflow
double largest(const Vec3& p) { return p.cwiseAbs().maxCoeff(); }

class BoundsCheck {
 public:
  BoundsCheck(const Model& model, const std::string& file) : model_(model), file_(file) {}

  void joint(int i) {
    const std::string who = "joint " + quote_input(model_.joint_names[i]);
    const Joint& j = model_.joints[i];
    if (!(largest(model_.placement[i].p) <= kLargestLength)) {
      fail(i, who + ": its frame is placed " + number_text(largest(model_.placement[i].p)) +
                  " m from its parent's" + beyond(kLargestLength, "m"));
    }
    const std::string& link = model_.info[i].child_link;
    body(i, link.empty() ? "the body moved by " + who
                         : "link " + quote_input(link) + " (the body moved by " + who + ")");
    if (is_one_dof(j) && !(j.scale <= kLargestJointScale && j.scale >= 1 / kLargestJointScale)) {
      fail(i, who + ": its motion per unit of q (the norm of its screw axis) is " +
                  number_text(j.scale) + ", outside " + number_text(1 / kLargestJointScale) +
                  " to " + number_text(kLargestJointScale) + " (a unit mistake, or a number " +
                  "that overflows or vanishes in every row)");
    }
    const JointInfo& info = model_.info[i];
    if (is_one_dof(j) && !is_revolute(j)) {
      for (const double limit : {info.lower, info.upper}) {
        if (std::isfinite(limit) && !(std::abs(limit) <= kLargestLength)) {
          fail(i, who + ": its travel limit " + number_text(limit) + " m" +
                      beyond(kLargestLength, "m"));
        }
      }
    }
  }

  // the body of joint i, or what is welded to the world (i = 0)
  void body(int i, const std::string& who) {
    const Inertia& in = model_.inertia[i];
    if (!(in.m <= kLargestMass)) {
      fail(i, who + " has mass " + number_text(in.m) + " kg" + beyond(kLargestMass, "kg"));
    }
    if (!(largest(in.c) <= kLargestLength)) {
      fail(i, who + " has its centre of mass " + number_text(largest(in.c)) +
                  " m from its joint's frame" + beyond(kLargestLength, "m"));
    }
    if (!(in.I_c.cwiseAbs().maxCoeff() <= kLargestInertia)) {
      fail(i, who + " has a rotational inertia of " + number_text(in.I_c.cwiseAbs().maxCoeff()) +
                  " kg m^2" + beyond(kLargestInertia, "kg m^2"));
    }
  }

  void frame(const Frame& f) {
    if (!(largest(f.placement.p) <= kLargestLength)) {
      fail(f.parent, "frame " + quote_input(f.name) + " is placed " +
                         number_text(largest(f.placement.p)) + " m from its joint's frame" +
                         beyond(kLargestLength, "m"));
    }
  }

 private:
  [[noreturn]] void fail(int joint, const std::string& message) const {
    const int line = joint < static_cast<int>(model_.info.size()) ? model_.info[joint].line : 0;
    throw ModelError(file_, line, 0, message);
  }

  const Model& model_;
  const std::string& file_;
};

}  // namespace

void require_physical_bounds(const Model& model, const std::string& file) {
  BoundsCheck check(model, file);
  check.body(0, "what is welded to the world");
  for (int i = 1; i < model.njoints; ++i) check.joint(i);
  for (const Frame& f : model.frames) check.frame(f);
}

}  // namespace eom::detail
