// Forward kinematics: placements of joints and frames, frame Jacobians.
#pragma once

#include <Eigen/Core>

#include "eom/data.hpp"
#include "eom/joint.hpp"
#include "eom/model.hpp"

namespace eom {

/// Which point and which axes a frame velocity or Jacobian is expressed in (Pinocchio's set).
enum class ReferenceFrame {
  world,                // spatial velocity at the world origin, world axes
  local,                // velocity of the frame origin, frame axes
  local_world_aligned,  // velocity of the frame origin, world axes: J v = [p_dot; omega]
};

/// One step of the forward pass: data.liMi[i] and data.oMi[i] of joint i at q, from its parent's
/// data.oMi (so parents first). Returns liMi, the building block of every recursive algorithm.
inline SE3 place_joint(const Model& model, Data& data, int i, ConstVec q) {
  const SE3 liMi = joint_placement(model.joints[i], model.placement[i], q);
  data.liMi[i] = liMi;
  data.oMi[i] = data.oMi[model.parent[i]] * liMi;
  return liMi;
}

/// Placements of every joint for configuration q (nq): fills data.liMi and data.oMi.
/// Throws InputError if q has the wrong size.
void forward_kinematics(const Model& model, Data& data, ConstVec q);
/// Placements of every frame from data.oMi (call forward_kinematics first): fills data.oMf.
void update_frame_placements(const Model& model, Data& data);
/// forward_kinematics + update_frame_placements.
void frame_placements(const Model& model, Data& data, ConstVec q);

/// The 6 x nv Jacobian of a frame at q, linear rows first: J v is the frame's velocity in the
/// chosen reference frame. Calls forward_kinematics; fills and returns data.J.
const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               ConstVec q, int frame,
                                                               ReferenceFrame reference);
/// The same from the placements in data.oMi (call forward_kinematics first), so that several
/// frames share one forward pass.
const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               int frame, ReferenceFrame reference);

}  // namespace eom
