// Forward kinematics: placements of joints and frames, frame Jacobians.
#pragma once

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

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
/// chosen reference frame. Costs O(depth of the frame): places only the joints that support the
/// frame (data.liMi, data.oMi on that path, data.oMf[frame]; the other joints' entries are left
/// as they were). Fills and returns data.J. For a floating base in the local and
/// local-world-aligned references, the same bits wherever the base stands (its position is left
/// out of the computation, then added to the placements).
const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               ConstVec q, int frame,
                                                               ReferenceFrame reference);
/// The same from the placements in data.oMi (call forward_kinematics first), so that several
/// frames share one forward pass.
const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               int frame, ReferenceFrame reference);

/// The time derivative dJ/dt of the frame Jacobian along the motion with velocity v (nv) at q, in
/// the same reference frame, so that the frame's acceleration is J a + dJ v. O(depth of the frame),
/// like frame_jacobian, and like it independent of the floating base's position in the local and
/// local-world-aligned references. Fills data.J (the Jacobian) and returns data.dJ (6 x nv).
///
/// With world-axis columns S_i at the world origin, dS_i/dt = v_i x S_i where v_i is the spatial
/// velocity of the body of joint i (Featherstone 2008, eq. 2.38, S constant in the body); the
/// other references follow by differentiating their shift and rotation of those columns.
const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian_time_variation(
    const Model& model, Data& data, ConstVec q, ConstVec v, int frame, ReferenceFrame reference);
/// The same from the placements in data.oMi of the joints that support the frame (placed by the
/// caller, e.g. from the liMi of a pass over every joint), so that the joints need not be placed
/// again. Fills data.ov on the frame's path, data.oMf[frame], data.J; returns data.dJ.
const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian_time_variation(
    const Model& model, Data& data, ConstVec v, int frame, ReferenceFrame reference);

/// dJ v of the frame in the local-world-aligned reference, the velocity-product term of its
/// classical acceleration, without forming dJ: O(depth of the frame), no O(nv) work. From the
/// placements in data.oMi of the joints that support the frame (as the overload above); fills
/// data.ov on the frame's path and data.oMf[frame]. With a = 0 the spatial acceleration of body i
/// (world axes at the world origin) is a_i = a_p + v_i x S_i qd_i = a_p + v_p x v_i (Featherstone
/// 2008, eq. 5.7, with v_i = v_p + S_i qd_i); the frame origin's classical acceleration is then
/// a.lin + a.ang x p + w x p_dot.
Vec6 frame_velocity_product(const Model& model, Data& data, ConstVec v, int frame);

/// The classical acceleration of a frame, [p_ddot; omega_dot] in world axes (the derivative of
/// the local-world-aligned velocity [p_dot; omega]): J a + dJ v with reference
/// local_world_aligned. a = 0 gives dJ v, the velocity-product term. Fills data.J and data.dJ.
Vec6 frame_classical_acceleration(const Model& model, Data& data, ConstVec q, ConstVec v,
                                  ConstVec a, int frame);

/// How an analytical Jacobian parametrises orientation (ETH Zurich, "Robot Dynamics" lecture
/// notes, 2.4.5 and 2.5.1).
enum class OrientationParametrization {
  euler_zyx,        // (z, y, x): R = Rz(z) Ry(y) Rx(x) (yaw, pitch, roll); singular at y = +-pi/2
  euler_xyz,        // (x, y, z): R = Rx(x) Ry(y) Rz(z) (Cardan angles); singular at y = +-pi/2
  quaternion,       // (qx, qy, qz, qw), eom's table order, qw >= 0; never singular
  rotation_vector,  // phi = theta n, |phi| in [0, pi]: R = exp(phi); singular at |phi| = pi
};

/// Number of orientation parameters: 3, or 4 for the quaternion.
int orientation_parameter_count(OrientationParametrization parametrization);
/// The parameters of R (first orientation_parameter_count entries; the rest zero). Euler angles
/// as the lecture notes' (2.42) and (2.45); the middle angle in [-pi/2, pi/2].
Eigen::Vector4d orientation_parameters(OrientationParametrization parametrization, const Mat3& R);
/// The map from world angular velocity to the parameters' rate, chi_dot = E_R^-1(chi) omega
/// (the lecture notes write omega = E_R chi_dot, eq. 2.82); rows beyond the parameter count are
/// zero. Throws NumericalError at a singularity of the parametrisation (|cos y| < 1e-9 for Euler
/// angles, |phi| > pi - 1e-6 for the rotation vector).
Eigen::Matrix<double, 4, 3> orientation_rate_map(OrientationParametrization parametrization,
                                                 const Mat3& R);

/// The analytical Jacobian of a frame at q: d/dt [p; chi] = J_A v, with p the frame origin in
/// world coordinates and chi its orientation parameters (lecture notes 2.8.4, J_A = [J_P;
/// E_R^-1 J_R] from the local-world-aligned geometric Jacobian). out must be (3 + parameter
/// count) x nv. Fills data.J (local world aligned) and data.oMf[frame].
void analytical_jacobian(const Model& model, Data& data, ConstVec q, int frame,
                         OrientationParametrization parametrization,
                         Eigen::Ref<Eigen::MatrixXd> out);

}  // namespace eom
