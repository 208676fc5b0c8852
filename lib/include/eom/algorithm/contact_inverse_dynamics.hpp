// Inverse dynamics with contacts: the contact forces and joint torques of a motion (Pinocchio's
// contact-inverse-dynamics.hpp).
#pragma once

#include <memory>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "eom/algorithm/contact_jacobian.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// How eom id --contacts distributes the base's load over the contacts.
enum class ContactForceRule {
  min_norm,    // the forces of least weighted norm that supply the unactuated (base) equations
  min_torque,  // the torques of least norm consistent with the contacts (ETH notes eq. 3.100)
  measured,    // the forces are given; only the torques are solved
};

/// Inverse dynamics with contacts: given the generalized force b = M a + h the motion needs (rnea,
/// plus joint friction and minus external wrenches as the caller wants), the contact forces f and
/// actuated torques tau with b = S^T tau + J_c^T f. With a floating base the free-flyer's six
/// rows are unactuated: b_u = J_u^T f must hold, and what no contact force can supply is the
/// residual r = b_u - J_u^T f (least squares: the smallest residual first). min_norm solves the
/// base's six equations (a pseudo-inverse of J_u^T); min_torque is the projected inverse dynamics
/// of the QR of J_c^T (a complete orthogonal decomposition: the rows of b that carry no contact force fix the
/// torques, then f = (J_c^T)^+ (b - S^T tau)). Sized at construction; solve() allocates nothing.
class ContactInverseDynamics {
 public:
  ContactInverseDynamics(const Model& model, const ContactSet& contacts, ContactForceRule rule);
  ContactInverseDynamics(ContactInverseDynamics&&) noexcept;
  ~ContactInverseDynamics();

  ContactJacobian& jacobian() { return jacobian_; }
  const ContactJacobian& jacobian() const { return jacobian_; }
  const ContactSet& contacts() const { return jacobian_.contacts(); }

  /// The forces by the rule (min_norm or min_torque) and the torques, at q for b (nv).
  void solve(ConstVec q, ConstVec b);
  /// The same at the q whose joint placements `placed` holds: b's rnea (or any pass over every
  /// joint at q, ContactJacobian::compute(const Data&)) has placed the joints already.
  void solve(const Data& placed, ConstVec b);
  /// The torques for the given forces (size()), at q for b (nv).
  void solve_measured(ConstVec q, ConstVec b, ConstVec forces);
  /// The same at the q whose joint placements `placed` holds.
  void solve_measured(const Data& placed, ConstVec b, ConstVec forces);

  /// f (stacked as ContactSet::offset; zero for inactive contacts).
  const Eigen::VectorXd& forces() const { return f_; }
  /// tau (nv): the actuated joints' torques, zero on the free-flyer's rows.
  const Eigen::VectorXd& torques() const { return tau_; }
  /// The base wrench the contacts do not supply: force and moment about the base origin, world
  /// axes; zero for a fixed base.
  const Vec6& residual() const { return residual_world_; }
  /// Rank of J_u^T over the active contacts: how many of the base's six equations the contacts
  /// can supply (6 when any wrench of the base can be balanced); 0 for a fixed base.
  int base_rank() const { return base_rank_; }

 private:
  // the forces by the rule, for the J_c just computed
  void distribute(ConstVec b);
  // the given forces of the active contacts
  void take(ConstVec forces);
  // tau and the residual from f
  void finish(ConstVec b);

  // min-torque: ETH notes eq. 3.100 by the QR of J_c^T
  void project(ConstVec b);
  // its torques in closed form when the contacts hold the base (rank J_u^T = 6); false otherwise
  bool project_regular(ConstVec b);

  const Model& model_;
  const ContactForceRule rule_;
  const int unactuated_;  // 6 with a floating base, else 0
  ContactJacobian jacobian_;
  // the pseudo-inverses of J_u^T, J_c^T and Q^T S^T (lib/src/linalg, private to libeom)
  struct Solvers;
  std::unique_ptr<Solvers> solvers_;
  Eigen::MatrixXd Ju_t_, Jc_t_, Qt_St_, Pu_;  // Pu_: P's columns of the base (nv x 6)
  Eigen::VectorXd f_, tau_, weights_sqrt_, b_u_, y_, Qt_b_, tau_a_, rhs_, Pb_;
  Eigen::LDLT<Mat6> base_ldlt_;  // of I - P_bb
  Vec6 residual_world_ = Vec6::Zero();
  int base_rank_ = 0;
};

}  // namespace eom
