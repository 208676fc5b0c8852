// The contact Jacobian J_c of a contact set (contact_set.hpp), its drift, and the wrenches of the
// contact forces (Pinocchio's contact-jacobian.hxx).
#pragma once

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/contact_set.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The centre of pressure of a 6d contact's wrench (force and moment about the frame origin, world
/// axes) on the xy plane of its frame oMf, in the frame's coordinates: the point of that plane
/// about which the wrench has no tangential moment (x = -m_y / f_z, y = m_x / f_z in the frame's
/// axes; Caron, "Equations of motion", surface contacts). Nullopt when the force along the frame's
/// z axis is not positive (no load presses the surfaces together).
std::optional<Eigen::Vector2d> center_of_pressure(const SE3& oMf, const Vec6& wrench);

/// The friction ratio a pulling contact is given: no friction coefficient holds a contact whose
/// normal force is not positive, and tables hold finite numbers only, so the ratio takes a value
/// that |f_t| / f_n never takes (doc/id.md, doc/sim.md).
inline constexpr double kPullingFrictionRatio = -1;

/// The friction ratio of a contact force along the unit normal n: |f_t| / f_n, the Coulomb
/// friction coefficient the contact needs to stick; 0 for a zero force, kPullingFrictionRatio
/// for a force whose normal component f_n = n . f is not positive.
double friction_ratio(const Vec3& force, const Vec3& normal);

/// The stacked contact Jacobian and its drift at one state. Sized at construction; compute()
/// allocates nothing.
class ContactJacobian {
 public:
  ContactJacobian(const Model& model, const ContactSet& contacts);

  /// Which contacts hold (all, at construction). An inactive contact's rows are zero.
  void set_active(int contact, bool active) { active_[contact] = active; }
  bool active(int contact) const { return active_[contact] != 0; }
  /// The constraints of the active contacts (the rows of J_c that are not zero by choice).
  int active_size() const;

  /// J_c (rows of the contacts, world axes at each frame origin: the rows of the
  /// local-world-aligned frame Jacobian, n^T times its linear rows for 1d) at q. Places the
  /// joints that support the contacts once for all of them.
  void compute(ConstVec q);
  /// The same J_c from the joint placements placed.liMi that a pass over every joint made at q
  /// (rnea, nonlinear_effects, gravity_torque, crba, forward_kinematics): the joints are not
  /// placed again (no joint transform, no sine or cosine), only their placements composed, with
  /// the floating base's translation left out as frame_jacobian does, so that the rows are the
  /// same bits as those of compute(q) wherever the base stands.
  void compute(const Data& placed);
  /// J_c at q and the drift dJ_c/dt v, so that the contacts' accelerations are J_c a + drift
  /// (the classical accelerations of the frames, not the spatial ones: for a point that is its
  /// second derivative, which a held contact keeps at zero; ETH notes eq. 3.61).
  void compute(ConstVec q, ConstVec v);
  /// The same from the joint placements placed.liMi of a pass over every joint at q, as
  /// compute(const Data&).
  void compute(const Data& placed, ConstVec v);
  /// The same J_c and drift from the base-frame pass of the contact dynamics (M and h in one pass:
  /// `based` holds crba's placements data.bMi and columns data.bS, in the base frame, and the
  /// twists data.ov and velocity-product accelerations data.oa of Newton-Euler in the same axes,
  /// about the base origin): nothing is placed, composed or walked again. Each contact's rows are
  /// S at its frame origin, v_S + w_S x p, turned into world axes by the base's rotation R_b, and
  /// its drift the classical acceleration there, R_b (a + a_w x p + w x (v + w x p)) of its body's
  /// (v, w) and (a, a_w); neither depends on where the base stands (p in base axes from the base
  /// origin). The same as compute(placed, v) to round-off.
  void compute_in_base_frame(const Data& based, ConstVec v);

  const Eigen::MatrixXd& jacobian() const { return J_; }  // size x nv
  /// The placement of an active contact's frame at the q of the last compute().
  const SE3& placement(int contact) const { return data_.oMf[contacts_.contacts[contact].frame]; }
  const Eigen::VectorXd& drift() const { return drift_; }  // size
  const ContactSet& contacts() const { return contacts_; }
  /// The rotation of the floating base (joint 1) at the q of the last compute(q) or
  /// compute(placed).
  const Mat3& base_rotation() const { return data_.oMi[1].R; }

 private:
  // data_.oMi of the supporting joints from their placements liMi (parents first), the floating
  // base's translation set aside in base_
  void compose(const std::vector<SE3>& liMi);
  // J_c (and with v its drift) from data_.oMi, then data_.oMi and data_.oMf back in world
  // coordinates
  void stack_composed(const Eigen::Ref<const Eigen::VectorXd>* v);
  // the supporting joints' liMi at q into data_
  void place(ConstVec q);

  const Model& model_;
  const ContactSet contacts_;
  Data data_;
  std::vector<char> active_;
  std::vector<int> supports_;  // the joints that support a contact, ascending (parents first)
  Vec3 base_ = Vec3::Zero();   // the floating base's translation while set aside
  Eigen::MatrixXd J_;
  Eigen::VectorXd drift_;
};

/// The total wrench of the contact forces f (stacked as ContactSet::offset) of the active contacts
/// of `jacobian`, at the placements of its last compute(): force, and moment about the world
/// origin, world axes.
Force total_contact_wrench(const ContactJacobian& jacobian, ConstVec f);

}  // namespace eom
