// Inverse dynamics with contacts: the contact forces and joint torques of a motion (Pinocchio's
// contact-inverse-dynamics.hpp).
#pragma once

#include <memory>
#include <vector>

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
/// residual r = b_u - J_u^T f. When the contacts cannot hold the base (rank J_u^T < 6) the
/// wrenches they leave differ by what they can supply; the one reported, whatever the rule, is
/// frame-independent: the least force, then, among the wrenches with that force, the least
/// moment about the centre of mass (two point feet leave a pure moment about the line through
/// them, never a force). min_norm solves the base's six equations (a pseudo-inverse of J_u^T);
/// min_torque is the projected inverse dynamics of the QR of J_c^T (a complete orthogonal
/// decomposition: the rows of b that carry no contact force fix the torques, then
/// f = (J_c^T)^+ (b - S^T tau)). Sized at construction; solve() allocates nothing.
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
  /// The base wrench the contacts do not supply: force and moment about the centre of mass of
  /// the moving bodies, world axes (of least force, then least moment, when several are left);
  /// zero for a fixed base.
  const Vec6& residual() const { return residual_com_; }
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
  // the centre of mass from the base origin, world axes, from the joints' placements liMi
  void place_centre_of_mass(const std::vector<SE3>& liMi);
  // a base wrench (base axes, about the base origin) in world axes about the centre of mass
  Vec6 at_centre_of_mass(const Vec6& base_wrench) const;
  // the g (y_) whose wrench J_u^T W^1/2 g (Ju_t_) leaves of b_u_ the least force, then the least
  // moment about the centre of mass; the rank of J_u^T into base_rank_
  void supply_least_residual();

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
  // the least residual: J_u^T W^1/2 at the centre of mass in world axes (6 x size), its force
  // and moment rows, the pseudo-inverse of the force rows, the moment rows on their null space
  Eigen::MatrixXd Ac_, AF_, AM_, AF_pinv_, B_;
  Eigen::VectorXd unit3_, column_, force3_, moment3_, h_;
  std::vector<SE3> oMi_;            // placements from the base origin, world axes
  Data fk_;                         // the joints' placements for solve(q, ...)
  Vec3 com_ = Vec3::Zero();         // centre of mass from the base origin, world axes
  Vec6 wrench_com_ = Vec6::Zero();  // b_u_ at the centre of mass
  Vec6 residual_com_ = Vec6::Zero();
  int base_rank_ = 0;
};

}  // namespace eom
