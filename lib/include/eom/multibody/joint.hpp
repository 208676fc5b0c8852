// Joint kinds and the only place that switches on them: joint transforms, motion subspaces and
// the per-joint configuration-space operations (integrate, difference, neutral).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "eom/multibody/spatial.hpp"

namespace eom {

using ConstVec = const Eigen::Ref<const Eigen::VectorXd>&;
using VecRef = Eigen::Ref<Eigen::VectorXd>;

/// Motion subspace: up to 6 columns, stored inline (no heap).
using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

/// The kinds a moving joint can be. URDF fixed joints are merged away at load; URDF continuous is
/// a revolute joint without bounds.
enum class JointKind {
  revolute,   // rotation scale * q about a unit axis; nq = nv = 1
  prismatic,  // translation scale * q along a unit axis; nq = nv = 1
  planar,  // motion in the plane normal to the axis; q = (x, y, theta), v = (vx, vy, w): see below
  floating,  // free 6-DoF; q = (x, y, z, qx, qy, qz, qw), v = body twist (linear, angular)
  ball,      // spherical, 3 rotational DoF; q = (qx, qy, qz, qw), v = child-frame angular velocity
};

/// A moving joint: its kind, axis and where its coordinates sit in q and v.
///
/// Velocities are expressed in the child (joint) frame, so every kind has a constant motion
/// subspace S and zero bias cJ = dS/dt v. For the planar joint with axis n and in-plane basis
/// (e1, e2): q = (x, y, theta) places the child at x e1 + y e2 rotated by theta about n, and
/// v = (vx, vy, w) is the child-frame velocity vx e1 + vy e2 and rate w about n.
struct Joint {
  JointKind kind = JointKind::revolute;
  int idx_q = 0, nq = 0;      // block of q
  int idx_v = 0, nv = 0;      // block of v
  Vec3 axis = Vec3::UnitX();  // unit, in the joint frame
  Vec3 e1 = Vec3::UnitY();    // planar only: in-plane basis, e1 x e2 = axis
  Vec3 e2 = Vec3::UnitZ();
  bool bounded = true;   // false for continuous, floating and ball rotation
  int axis_index = -1;   // revolute/prismatic along +-x, +-y, +-z: 0, 1, 2 (else -1)
  double axis_sign = 1;  // ... and the sign of that coordinate axis
  Motion s;              // 1-DoF kinds: the single column of S, as a motion
  MotionSubspace S;      // 6 x nv, constant in the joint frame
  /// 1-DoF kinds: the motion per unit of q, 1 except for a product-of-exponentials model's scaled
  /// screw axis (Lynch & Park, Modern Robotics, eq. 9.36: e^[S]theta with |omega| != 1 turns
  /// |omega| theta), so that s = scale * (axis, 0) or (0, axis) is exactly the file's twist.
  double scale = 1;

  /// A joint of the given kind and axis with its blocks starting at idx_q / idx_v; `scale` is the
  /// motion per unit of q of a 1-DoF kind (see Joint::scale).
  static Joint make(JointKind kind, const Vec3& axis, int idx_q, int idx_v, bool bounded,
                    double scale = 1);
};

/// The joint's type in URDF's words where URDF has one: "revolute" (bounded) or "continuous",
/// "prismatic", "planar", "floating", and "ball" (MJCF's). Reports name a floating base's
/// free-flyer "free-flyer" (joint_type_name of a Model, model.hpp).
const char* joint_type_name(const Joint& joint);

/// What a joint is, asked by its properties rather than by its kind (only joint.hpp and joint.cpp
/// name the kinds). One coordinate in q and in v, the position along the motion (revolute,
/// prismatic): limits, clamping and sampling act on it directly.
inline bool is_one_dof(const Joint& joint) {
  return joint.kind == JointKind::revolute || joint.kind == JointKind::prismatic;
}
/// One coordinate that turns the body about the axis (revolute, continuous); q and q + 2 pi are
/// one pose when its scale is 1 (coordinate_is_angle).
inline bool is_revolute(const Joint& joint) { return joint.kind == JointKind::revolute; }
/// A free 6-DoF joint: S = 1, so it passes any wrench and moves its body anywhere.
inline bool is_floating(const Joint& joint) { return joint.kind == JointKind::floating; }
/// A ball (spherical) joint: turns its body about every axis through the joint origin, without
/// limits; q a unit quaternion, v the child-frame angular velocity, one damping per coordinate.
inline bool is_spherical(const Joint& joint) { return joint.kind == JointKind::ball; }
/// Where the joint's unit quaternion (x y z w) starts in its q block: 3 for a floating joint (after
/// the position), 0 for a ball joint, -1 for the kinds without one.
inline int quaternion_offset(const Joint& joint) {
  if (joint.kind == JointKind::floating) return 3;
  if (joint.kind == JointKind::ball) return 0;
  return -1;
}
/// q holds a unit quaternion, at q[idx_q + quaternion_offset(joint) ...] as x y z w.
inline bool has_quaternion(const Joint& joint) { return quaternion_offset(joint) >= 0; }
/// Whether coordinate k of the joint's q block is an angle, q and q + 2 pi one pose (sampled over a
/// turn when it has no limits): an unscaled revolute joint's q, a planar joint's theta.
bool coordinate_is_angle(const Joint& joint, int k);
/// | |quaternion| - 1 | of the joint's q block, 0 for a joint without one: how far from unit norm.
double quaternion_deviation(const Joint& joint, ConstVec q);

/// Joint transform jMc(q): placement of the child frame in the joint frame at the joint's q block.
SE3 joint_transform(const Joint& joint, ConstVec q);
/// placement * jMc(q): the child frame in the frame the joint is placed in (liMi for the
/// model's placement). About a coordinate axis only two columns of the rotation turn.
SE3 joint_placement(const Joint& joint, const SE3& placement, ConstVec q);

/// Column k of the motion subspace S, as a motion in the child frame.
inline Motion joint_column(const Joint& joint, int k) {
  return joint.nv == 1 ? joint.s : Motion::from(joint.S.col(k));
}
/// Column k of S in the axes of another frame where the child frame sits at aMc, i.e.
/// aMc.act(joint_column(joint, k)), into out; a coordinate axis is read off aMc.R. (An output
/// argument: copying a returned motion that was just written stalls the store forwarding.)
void joint_column(const Joint& joint, int k, const SE3& aMc, Motion& out);
/// Joint velocity vJ = S v_j, in the child frame (v is a full tangent vector: nv entries).
inline Motion joint_motion(const Joint& joint, ConstVec v) {
  // one column: a scaled motion rather than a matrix product
  if (joint.nv == 1) return joint.s * v[joint.idx_v];
  return Motion::from(joint.S * v.segment(joint.idx_v, joint.nv));
}
/// S^T f, the generalized force of a body force f (child frame) on the joint, in the first nv
/// entries (the rest are zero).
Vec6 joint_force(const Joint& joint, const Force& f);
/// tau_j = S^T f into the joint's block of tau (nv entries).
inline void joint_project(const Joint& joint, const Force& f, VecRef tau) {
  // one column: a dot product
  if (joint.nv == 1) {
    tau[joint.idx_v] = f.dot(joint.s);
  } else {
    tau.segment(joint.idx_v, joint.nv) = joint_force(joint, f).head(joint.nv);
  }
}

/// q_out = q (+) v for this joint's blocks: move along the constant child-frame velocity v for unit
/// time.
void joint_integrate(const Joint& joint, ConstVec q, ConstVec v, VecRef q_out);
/// v_out = q1 (-) q0 for this joint's blocks: the velocity that joint_integrate takes from q0 to
/// q1.
void joint_difference(const Joint& joint, ConstVec q0, ConstVec q1, VecRef v_out);
/// The neutral (zero) configuration of this joint's block.
void joint_neutral(const Joint& joint, VecRef q_out);
/// Make the block valid: renormalise a floating or ball joint's quaternion. False if it cannot be (a zero
/// or non-finite quaternion).
bool joint_normalize(const Joint& joint, VecRef q);

/// Which vector a coordinate name is for.
enum class Space { q, v, tau };
/// Names of a joint kind's coordinates in q, v or tau: empty for the 1-DoF kinds (whose columns
/// are just q.<joint>), x y z qx qy qz qw / vx vy vz wx wy wz / fx fy fz mx my mz for floating,
/// x y theta / vx vy w / fx fy m for planar, qx qy qz qw / wx wy wz / mx my mz for ball.
std::vector<std::string> joint_suffixes(JointKind kind, Space space);

}  // namespace eom
