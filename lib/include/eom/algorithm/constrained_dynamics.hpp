// Dynamics with contacts held: constrained forward dynamics, impacts and the ranks of the contact
// constraints (Pinocchio's contact-dynamics.hxx and impulse-dynamics.hxx).
#pragma once

#include <memory>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SVD>

#include "eom/algorithm/contact_jacobian.hpp"
#include "eom/algorithm/singular.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The contact-space inverse inertia A = J_c M^-1 J_c^T of the active contacts at one
/// configuration, and the solves with it that ContactForwardDynamics and ContactImpact share:
/// M by crba and its tree-sparse factor M = L^T D L (Featherstone's LTDL factorisation, whose cost
/// follows the branches: O(n d^2), and O(n d) per solve), M^-1 J_c^T, A = (J_c L^-1) D^-1
/// (J_c L^-1)^T, and A^+ b by a pseudo-inverse of the symmetric A (its LDLT when regular, else its
/// SVD; singular values of A below 1e-9 of the largest count as zero: redundant contacts). Sized at
/// construction; compute() and solve() allocate nothing.
class ContactSpaceInertia {
 public:
  ContactSpaceInertia(const Model& model, const ContactSet& contacts);
  ContactSpaceInertia(ContactSpaceInertia&&) noexcept;
  ~ContactSpaceInertia();

  ContactJacobian& jacobian() { return jacobian_; }
  Data& data() { return data_; }

  /// M (crba) and its factor at q, the nonlinear effects h(q, v) = C v + g into data().tau (in the
  /// same pass over the joints as M: Newton-Euler in crba's base frame), J_c from crba's joint
  /// placements (and its drift along v: ContactJacobian::compute(placed, v)) and A. Throws
  /// NumericalError when M is not positive definite.
  void compute(ConstVec q, ConstVec v);
  /// The same without h and the drift.
  void compute(ConstVec q);

  const Eigen::MatrixXd& mass_matrix() const { return data_.M; }
  /// x := M^-1 x with the factor of compute().
  void solve_mass(Eigen::VectorXd& x) const;
  /// x += M^-1 J_c^T f (f stacked as ContactSet::offset), as L^-1 (D^-1 L^-T J_c^T f): one
  /// solve with L, not one per contact row.
  void add_inverse_mass_jacobian(ConstVec f, VecRef x);
  /// A = J_c M^-1 J_c^T (the Delassus operator of the contacts).
  const Eigen::MatrixXd& inverse_inertia() const { return contact_inertia_inv_; }
  /// x = A^+ b; returns the rank of A, that of J_c.
  int solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);

 private:
  void factor();   // the LTDL factor of data_.M
  void project();  // D^-1 L^-T J_c^T and A

  const Model& model_;
  Data data_;
  ContactJacobian jacobian_;
  Eigen::MatrixXd factor_;  // M = L^T D L in place (lib/src/linalg/ltdl.hpp)
  // the pseudo-inverse of A (lib/src/linalg, private to libeom)
  struct Solver;
  std::unique_ptr<Solver> solver_;
  Eigen::MatrixXd Lt_inv_Jt_, D_inv_Lt_inv_Jt_, contact_inertia_inv_;  // Y^T, D^-1 Y^T, A
  Eigen::VectorXd scratch_;                                            // nv
};

/// Forward dynamics with contacts held (ETH notes eq. 3.62-3.65): the accelerations a and contact
/// forces f of M a + h = tau + J_c^T f with J_c a + drift = 0, in the operational-space form
///   f = (J_c M^-1 J_c^T)^+ (-drift - J_c a_0),   a = a_0 + M^-1 J_c^T f,   a_0 = M^-1 (tau - h).
/// Why this form and not the KKT system [M J_c^T; J_c 0]: after one factor of M (crba)
/// it leaves a contact-space system of the contacts' size, symmetric positive semi-definite, whose
/// pseudo-inverse treats redundant contacts exactly: the contact-space inverse inertia
/// J_c M^-1 J_c^T has the rank of J_c, singular values below 1e-9 of the largest count as zero
/// (ContactSpaceInertia), and the forces are then the least-norm ones among those that hold the
/// contacts, which all give the same accelerations. The KKT matrix is indefinite and singular with
/// redundant contacts, and needs a regularisation that perturbs the accelerations. Sized at
/// construction; solve() allocates nothing.
class ContactForwardDynamics {
 public:
  ContactForwardDynamics(const Model& model, const ContactSet& contacts);

  ContactJacobian& jacobian() { return inertia_.jacobian(); }

  /// a and f at (q, v) for the generalized force tau (nv: what drives the coordinates, zero on the
  /// free-flyer's rows for an unactuated base). Throws NumericalError when M is not positive
  /// definite.
  void solve(ConstVec q, ConstVec v, ConstVec tau);

  /// Baumgarte stabilisation (J. Baumgarte, "Stabilization of constraints and integrals of
  /// motion in dynamical systems", 1972): hold J_c a + drift = -kd J_c v - kp e instead of 0,
  /// so that a drifted contact returns to where it was. e is each active contact's position
  /// error from its anchor, the placement of its frame on the first solve() of the run of calls
  /// in which it is active (set then, forgotten when it is inactive): p - p0 for a point, its
  /// component along the normal for 1d, and with R0 log3(R0^T R) for a 6d contact. kp = kd = 0
  /// (the default) holds the contacts' accelerations at zero.
  void set_baumgarte(double kp, double kd) {
    kp_ = kp;
    kd_ = kd;
  }

  const Eigen::VectorXd& accelerations() const { return a_; }  // nv
  const Eigen::VectorXd& forces() const { return f_; }         // stacked as ContactSet::offset
  /// The number of independent constraints of the active contacts (the rank of J_c).
  int rank() const { return rank_; }

 private:
  // rhs_ -= kp e, anchoring the contacts that have just become active
  void subtract_position_error();

  const Model& model_;
  ContactSpaceInertia inertia_;
  Eigen::VectorXd a_, f_, rhs_;
  int rank_ = 0;
  double kp_ = 0, kd_ = 0;
  std::vector<SE3> anchors_;  // per contact, while anchored
  std::vector<char> anchored_;
};

/// What the active contacts constrain (ETH notes section 2.10.4): rank J_c, the independent
/// constraints; rank J_c,b of its columns of the free-flyer, the constraints on the base; their
/// difference, the internal constraints (the feet cannot move one relative to another); and
/// whether the base is fully constrained, rank J_c,b = 6 (its motion can be controlled from the
/// joints). A quadruped on two point feet: 6, 5, 1, no (it can turn about the line of support);
/// on three: 9, 6, 3, yes; two points of one rigid foot: 5, 5, 0; three: 6, 6, 0. Ranks by the
/// rank rule of the Jacobian analysis (RankTolerance: singular values above max(absolute,
/// relative sigma_1), relative 1e-6 by default), each matrix by its own largest singular value.
/// Sized at construction; compute() allocates nothing.
class ContactRankAnalysis {
 public:
  ContactRankAnalysis(const Model& model, const ContactSet& contacts, RankTolerance tolerance = {});

  ContactJacobian& jacobian() { return jacobian_; }

  /// The ranks at q (of the active contacts).
  void compute(ConstVec q);

  int rank() const { return rank_; }
  /// 0 for a fixed base (it has no free-flyer).
  int base_rank() const { return base_rank_; }
  int internal() const { return rank_ - base_rank_; }
  /// rank J_c,b = 6; true for a fixed base, which the world holds whole.
  bool fully_constrained() const { return !floating_ || base_rank_ == 6; }

 private:
  int rank_of(const Eigen::JacobiSVD<Eigen::MatrixXd>& svd) const;

  const bool floating_;
  const RankTolerance tolerance_;
  ContactJacobian jacobian_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_, base_svd_;
  Eigen::MatrixXd base_;  // J_c,b
  int rank_ = 0, base_rank_ = 0;
};

/// An impact: the contacts close in an instant, and the impulses p they exert (N s, on the robot,
/// world axes, stacked as ContactSet::offset like the forces) change the velocity from v- to
/// v+ = v- + M^-1 J_c^T p with J_c v+ = -e J_c v- (ETH notes eq. 3.66-3.72: e = 0, perfectly
/// inelastic; e = 1, elastic; the same coefficient of restitution for every constraint). Finite
/// forces (gravity, torques) do nothing in an instant. In the operational-space form of
/// ContactForwardDynamics, with the contact-space inverse inertia A = J_c M^-1 J_c^T:
///   A p = -(1 + e) J_c v-,   p = -(1 + e) A^+ J_c v-,
/// and the same rule for redundant contacts: singular values of A below 1e-9 of the largest count
/// as zero and p is the least-norm impulse (every impulse that holds the contacts gives the same
/// v+). The kinetic energy lost, in generalized coordinates (ETH eq. 3.71, for e = 0; with
/// restitution the change of velocity du = v+ - v- is 1 + e times the inelastic one),
///   E = 1/2 (1 - e) / (1 + e) du^T M du,
/// and through the contact-space inertia Lambda = A^+ (eq. 3.72, with restitution),
///   E = 1/2 (1 - e^2) (J_c v-)^T Lambda (J_c v-),
/// are equal, and equal to 1/2 v-^T M v- - 1/2 v+^T M v+ (expand v+ = v- + du, with
/// du^T M v- = p^T J_c v-); neither takes the difference of two large energies, and both are
/// exactly 0 for e = 1. Sized at construction; solve() allocates nothing.
class ContactImpact {
 public:
  ContactImpact(const Model& model, const ContactSet& contacts);

  ContactJacobian& jacobian() { return inertia_.jacobian(); }

  /// The impact at q of velocity v (nv, just before) with restitution e in [0, 1]. Throws
  /// NumericalError when M is not positive definite.
  void solve(ConstVec q, ConstVec v, double restitution = 0);

  const Eigen::VectorXd& velocities() const { return v_after_; }  // v+ (nv)
  const Eigen::VectorXd& impulses() const { return p_; }          // stacked as ContactSet::offset
  /// The kinetic energy lost (J), through the contact-space inertia.
  double energy_loss() const { return energy_loss_contact_; }
  /// The same in generalized coordinates: 1/2 (1 - e) / (1 + e) du^T M du.
  double energy_loss_generalized() const { return energy_loss_generalized_; }
  /// The number of independent constraints of the active contacts (the rank of J_c).
  int rank() const { return rank_; }

 private:
  ContactSpaceInertia inertia_;
  Eigen::VectorXd v_after_, p_, approach_, lambda_approach_, change_, momentum_;
  double energy_loss_contact_ = 0, energy_loss_generalized_ = 0;
  int rank_ = 0;
};

}  // namespace eom
