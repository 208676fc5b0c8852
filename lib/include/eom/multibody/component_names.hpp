// The names of the components of poses, twists and wrenches, and of the free-flyer joint: the
// lowest part of the column naming contract (eom/io/column_names.hpp, which tools and tests
// include), kept in this layer because a Model names its coordinates with them (joint_suffixes).
#pragma once

#include <array>

namespace eom {

/// The free-flyer joint of a floating base: its columns are q.root.x, v.root.vx, tau.root.fx, ...
inline constexpr char kFreeFlyerJoint[] = "root";

/// A position and a unit quaternion (x, y, z, w); together a pose: a frame's pose columns, a
/// free-flyer's q.
inline constexpr std::array<const char*, 3> kPositionComponents = {"x", "y", "z"};
inline constexpr std::array<const char*, 4> kQuaternionComponents = {"qx", "qy", "qz", "qw"};
inline constexpr std::array<const char*, 7> kPoseComponents = {
    kPositionComponents[0],   kPositionComponents[1],   kPositionComponents[2],
    kQuaternionComponents[0], kQuaternionComponents[1], kQuaternionComponents[2],
    kQuaternionComponents[3]};
/// A twist, linear then angular (spatial.hpp's order): a free-flyer's v, a Jacobian's rows.
inline constexpr std::array<const char*, 6> kTwistComponents = {"vx", "vy", "vz", "wx", "wy", "wz"};
/// A wrench, force then moment: a free-flyer's tau, a frame's wrench.
inline constexpr std::array<const char*, 6> kWrenchComponents = {"fx", "fy", "fz",
                                                                 "mx", "my", "mz"};

/// A planar joint's configuration, velocity and generalized force.
inline constexpr std::array<const char*, 3> kPlanarConfiguration = {"x", "y", "theta"};
inline constexpr std::array<const char*, 3> kPlanarVelocity = {"vx", "vy", "w"};
inline constexpr std::array<const char*, 3> kPlanarForce = {"fx", "fy", "m"};

}  // namespace eom
