// The immutable robot model: moving joints in topological order, their bodies, and named frames.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

/// A named frame rigidly attached to the body of a joint: one per link of the robot file (an MJCF
/// body or site).
struct Frame {
  std::string name;
  int parent = 0;  // joint whose body carries the frame (0 = world)
  SE3 placement;   // jMf: the frame in that joint's frame
  // the link (MJCF body) the frame is welded to in the robot file: a fixed joint's parent link, a
  // site's body; empty for the world and for a link a moving joint moves (or the root link)
  std::string attached_to;
};

/// What the robot file said about a moving joint, kept for reports (eom info) and friction/limits.
/// The joint's type is not stored: joint_type_name derives it from the Joint.
struct JointInfo {
  std::string parent_link, child_link;
  double lower = -INFINITY, upper = INFINITY;  // position limits (1-DoF joints), +-inf when absent
  double effort = INFINITY, velocity = INFINITY;
  double damping = 0, friction = 0;
  double armature = 0;  // reflected rotor inertia, on each of the joint's velocity coordinates
  bool has_limit = false;
  std::optional<std::string> mimic_joint;  // mimic tag: q = multiplier * q_mimic + offset
  double mimic_multiplier = 1, mimic_offset = 0;
  int line = 0;  // line of the <joint> element, 0 for root
};

/// A joint made fixed by build_reduced_model, at its configuration.
struct LockedJoint {
  std::string name;
  Eigen::VectorXd q;  // the joint's block of q (its nq entries)
};

/// The robot model. Built once by the parser of its file (load_model) and never changed afterwards.
///
/// Joint 0 is the world; joints are in depth-first order with parent[i] < i, so ascending loops
/// are forward passes and descending loops backward passes. At a link with several child joints
/// the children are visited in byte-wise order of the joint names in a URDF (as the reference
/// URDF parser stores them) and in document order in MJCF (as MuJoCo numbers bodies); nothing in
/// eom depends on that order beyond the layout of q and v, and tables always name their columns.
struct Model {
  std::string name;
  std::string root_link;       // the link at the root of the tree
  bool floating_base = false;  // joint 1 is the free-flyer "root"
  int nq = 0;                  // configuration size
  int nv = 0;                  // velocity / tangent size (nv != nq with a floating base)
  int njoints = 0;             // moving joints + 1 (world)

  // joints, topological order: parent[i] < i                                          (njoints)
  std::vector<Joint> joints;     // joints[0] unused (world)
  std::vector<int> parent;       // parent[0] = -1
  std::vector<SE3> placement;    // liMi at q = neutral: the joint origin (fixed joints folded in)
  std::vector<Inertia> inertia;  // body of joint i in its frame, fixed children merged;
                                 // inertia[0] collects what is welded to the world
  std::vector<std::string> joint_names;  // joint_names[0] = "world"; the free-flyer is "root"
  std::vector<JointInfo> info;           // the file's details per joint (info[0] unused)
  std::vector<int> nv_subtree;  // dofs of joint i and its descendants, which follow it in v

  // per velocity index                                                                  (nv)
  Eigen::VectorXd damping, friction, effort_limit, velocity_limit;
  // armature: the reflected inertia of each coordinate's motor, added to M's diagonal by every
  // algorithm (MuJoCo's dof_armature, Pinocchio's model.armature); zeros unless the file gives it
  Eigen::VectorXd armature;
  // per configuration index                                                             (nq)
  Eigen::VectorXd lower_limit, upper_limit;
  // coordinate names: "shoulder_pan_joint", "root.x", ...; columns are "<prefix>.<name>"
  std::vector<std::string> q_names;    // (nq)
  std::vector<std::string> v_names;    // (nv)
  std::vector<std::string> tau_names;  // (nv)

  std::vector<Frame> frames;  // every link (MJCF: body and site), plus "world"
  Vec3 gravity{0, 0, -9.81};
  double total_mass = 0;            // all links, including those welded to the world
  std::vector<LockedJoint> locked;  // fixed by build_reduced_model, in the full model's order

  /// Index of a moving joint by name; -1 if none.
  int joint_index(std::string_view name) const;
  /// Index of a frame by name; -1 if none.
  int frame_index(std::string_view name) const;
  /// Index of a frame by name; throws InputError naming close matches if there is none.
  int require_frame(std::string_view name) const;
  /// Whether a coordinate name ("finger", "arm.x") is one of a locked joint's: its columns in
  /// input tables are ignored.
  bool is_locked_coordinate(std::string_view coordinate) const;
  /// The type of moving joint i as reports name it: joint_type_name(joints[i]) (joint.hpp), and
  /// "free-flyer" for the joint a floating base adds above the root.
  const char* joint_type_name(int i) const;
  /// Names of the joints that carry a mimic tag (treated as independent joints by the dynamics).
  std::vector<std::string> mimic_joints() const;
};

/// " (did you mean 'a', 'b'?)": the names within a small edit distance of `name`, closest first, at
/// most five; "" when none is close. For messages about misspelt names.
std::string did_you_mean(const std::vector<std::string>& names, std::string_view name);

}  // namespace eom
