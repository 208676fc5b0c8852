// The joint torque regressor: the equations of motion written as linear in the inertial (and,
// optionally, friction and drive) parameters, tau = Y(q, v, a) pi, the basis of dynamic parameter
// identification (Atkeson, An and Hollerbach 1986; Khalil and Dombre 2002, ch. 12).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The ten inertial parameters of one rigid body, the ones the dynamics is linear in: mass m, first
/// moments (mx, my, mz) = m c, and the rotational inertia about the body frame's origin in body
/// axes, (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) of I_o = I_c + m [c]x^T [c]x (not URDF's inertia about the
/// centre of mass: inertia_from_parameters converts back).
using InertialParameters = Eigen::Matrix<double, 10, 1>;
inline constexpr int kInertialParameterCount = 10;
/// Their names, in that order, as they follow "<link>." in a parameter name.
inline constexpr const char* kInertialParameterNames[kInertialParameterCount] = {
    "m", "mx", "my", "mz", "Ixx", "Ixy", "Ixz", "Iyy", "Iyz", "Izz"};

/// The parameters of an inertia: m, m c, I_o.
InertialParameters inertial_parameters(const Inertia& inertia);
/// The inertia of parameters: c = (mx, my, mz) / m and I_c = I_o - m [c]x^T [c]x, the centre of
/// mass and the inertia about it that URDF's <inertial> holds. m must not be zero.
Inertia inertia_from_parameters(const InertialParameters& pi);

/// Which friction and drive parameters the regressor has columns for, on each velocity coordinate
/// of every joint but a free-flyer (a floating base's, an MJCF free joint's: no motor drives it). The model's torque
/// gains, per coordinate: fv v + fc sgn(v) + fo + ia a, with sgn as friction_torque takes it.
struct DriveParameters {
  bool viscous = false;   // fv: viscous friction (URDF damping)
  bool coulomb = false;   // fc: Coulomb friction (URDF friction)
  bool offset = false;    // fo: a constant torque offset (sensor or motor bias)
  bool armature = false;  // ia: reflected rotor inertia (armature), on the diagonal of M
  double smoothing = 0;   // sgn(v) becomes tanh(v / smoothing) when positive (Friction::smoothing)

  /// How many of the four are on.
  int count() const { return int(viscous) + int(coulomb) + int(offset) + int(armature); }
};

/// Columns of the regressor: 10 per moving body (joints 1 .. njoints - 1, each joint's body with
/// the links fixed joints merge into it), then, per driven velocity coordinate in v's order, its
/// drive columns in the order fv, fc, fo, ia (those that are on).
int regressor_columns(const Model& model, const DriveParameters& drive = {});

/// The name of each column's parameter: "<link>.m", "<link>.mx", ..., "<link>.Izz" with <link>
/// the body's link (model.info[i].child_link, the joint's name for a model built without one),
/// then "<coordinate>.fv", ".fc", ".fo", ".ia" with the coordinate's name (model.v_names).
std::vector<std::string> regressor_parameter_names(const Model& model,
                                                   const DriveParameters& drive = {});

/// The model's own parameters in the regressor's column order: each body's inertial_parameters,
/// then its damping (fv), friction (fc), a zero offset (fo) and its armature (ia). With every
/// drive column on but fo, Y pi = rnea(q, v, a) + friction_torque(v); with none,
/// Y pi = rnea(q, v, a) - armature a.
Eigen::VectorXd regressor_parameters(const Model& model, const DriveParameters& drive = {});

/// `model` with the parameters pi (in the regressor's column order for `drive`) as its bodies'
/// inertias (inertia_from_parameters) and its joints' damping, friction and armature (the drive
/// columns that are on; a joint's first coordinate's in its JointInfo). Throws InputError naming
/// the link whose mass is not positive (no inertia has it).
Model model_with_parameters(const Model& model, const DriveParameters& drive,
                            const Eigen::VectorXd& pi);

/// The joint torque regressor Y (model.nv x regressor_columns) at (q, v, a), into Y: rnea's tau is
/// linear in the parameters, tau = Y pi. Rows are velocity coordinates. The body of joint k adds
/// to the rows of the joints that support it: row r of joint j gets S_r^T (jX_k^* F_k), with F_k
/// the 6 x 10 body regressor (f_k = I_k a_k + v_k x* I_k v_k = F_k pi_k; Atkeson, An and
/// Hollerbach 1986, eq. 10; Pinocchio's bodyRegressor), where S_r is carried down the subtree of j
/// by motion transforms rather than F_k up to j by force transforms (one transform per pair instead
/// of ten). O(nv d) per call, every quantity in the joints' own frames as rnea's (so the same
/// accuracy wherever a floating base stands); fills data.liMi, data.oMi, data.v, data.a, data.f
/// (rnea's forward pass), data.regressor_S and data.body_regressor; allocates nothing. Throws
/// InputError on wrong sizes.
void joint_torque_regressor(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a,
                            Eigen::Ref<Eigen::MatrixXd> Y, const DriveParameters& drive = {});

}  // namespace eom
