#include "eom/algorithm/constrained_dynamics.hpp"

#include "eom/algorithm/dynamics.hpp"
#include "eom/core/errors.hpp"
#include "algorithm/newton_euler.hpp"
#include "linalg/ltdl.hpp"
#include "linalg/pseudo_inverse.hpp"

namespace eom {

struct ContactSpaceInertia::Solver {
  explicit Solver(int size) : pseudo_inverse(size) {}

  linalg::SymmetricPseudoInverseSolver pseudo_inverse;
};

ContactSpaceInertia::ContactSpaceInertia(const Model& model, const ContactSet& contacts)
    : model_(model),
      data_(model),
      jacobian_(model, contacts),
      factor_(model.nv, model.nv),
      solver_(std::make_unique<Solver>(contacts.size())),
      Lt_inv_Jt_(model.nv, contacts.size()),
      D_inv_Lt_inv_Jt_(model.nv, contacts.size()),
      contact_inertia_inv_(contacts.size(), contacts.size()),
      scratch_(model.nv) {}

ContactSpaceInertia::ContactSpaceInertia(ContactSpaceInertia&&) noexcept = default;
ContactSpaceInertia::~ContactSpaceInertia() = default;

int ContactSpaceInertia::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  return solver_->pseudo_inverse.solve(contact_inertia_inv_, b, x);
}

void ContactSpaceInertia::compute(ConstVec q, ConstVec v) {
  // M and h in one pass (h into data_.tau)
  detail::crba_nonlinear_effects(model_, data_, q, v);
  factor();
  jacobian_.compute_in_base_frame(data_, v);
  project();
}

void ContactSpaceInertia::compute(ConstVec q) {
  crba(model_, data_, q);
  factor();
  jacobian_.compute(data_);
  project();
}

void ContactSpaceInertia::factor() {
  // a copy: M itself stays whole for the callers (the impact's energy)
  factor_ = data_.M;
  if (linalg::ltdl(data_.dof_parent, factor_) >= 0) {
    throw NumericalError("the mass matrix is not positive definite at this configuration");
  }
}

void ContactSpaceInertia::solve_mass(Eigen::VectorXd& x) const {
  linalg::solve_ltdl(data_.dof_parent, factor_, x);
}

void ContactSpaceInertia::add_inverse_mass_jacobian(ConstVec f, VecRef x) {
  scratch_.noalias() = D_inv_Lt_inv_Jt_ * f;
  linalg::solve_l(data_.dof_parent, factor_, scratch_);
  x += scratch_;
}

void ContactSpaceInertia::project() {
  const Eigen::Index m = Lt_inv_Jt_.cols();
  // Y^T = L^-T J_c^T, each column along its contact's branch only (the row of J_c is zero off it)
  Lt_inv_Jt_ = jacobian_.jacobian().transpose();
  for (Eigen::Index c = 0; c < m; ++c) {
    linalg::solve_lt(data_.dof_parent, factor_, Lt_inv_Jt_.col(c));
  }
  // A = J_c L^-1 D^-1 L^-T J_c^T = Y D^-1 Y^T, symmetric by construction
  D_inv_Lt_inv_Jt_ = Lt_inv_Jt_;
  for (Eigen::Index c = 0; c < m; ++c) linalg::solve_d(factor_, D_inv_Lt_inv_Jt_.col(c));
  for (Eigen::Index c = 0; c < m; ++c) {
    for (Eigen::Index r = 0; r <= c; ++r) {
      contact_inertia_inv_(r, c) = contact_inertia_inv_(c, r) =
          Lt_inv_Jt_.col(r).dot(D_inv_Lt_inv_Jt_.col(c));
    }
  }
}

ContactForwardDynamics::ContactForwardDynamics(const Model& model, const ContactSet& contacts)
    : model_(model),
      inertia_(model, contacts),
      a_(model.nv),
      f_(contacts.size()),
      rhs_(contacts.size()),
      anchors_(contacts.contacts.size()),
      anchored_(contacts.contacts.size(), 0) {}

void ContactForwardDynamics::solve(ConstVec q, ConstVec v, ConstVec tau) {
  ContactJacobian& jacobian = inertia_.jacobian();
  // M and h in one pass, then J_c and its drift from its placements, twists and accelerations
  inertia_.compute(q, v);
  // a_0 = M^-1 (tau - h), the motion without contacts
  a_ = tau;
  a_ -= inertia_.data().tau;
  inertia_.solve_mass(a_);
  // the contacts' acceleration J a + drift must vanish
  rhs_ = -jacobian.drift();
  rhs_.noalias() -= jacobian.jacobian() * a_;
  // Baumgarte: the contacts' acceleration is -kd J v - kp e instead
  if (kd_ != 0) rhs_.noalias() -= kd_ * (jacobian.jacobian() * v);
  subtract_position_error();
  rank_ = inertia_.solve(rhs_, f_);
  f_.array() += 0.0;  // (+ 0: a zero force prints as 0, not -0)
  inertia_.add_inverse_mass_jacobian(f_, a_);
}

void ContactForwardDynamics::subtract_position_error() {
  ContactJacobian& jacobian = inertia_.jacobian();
  const ContactSet& set = jacobian.contacts();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int contact = static_cast<int>(k);
    if (!jacobian.active(contact)) {
      anchored_[k] = 0;
      continue;
    }
    const SE3& placement = jacobian.placement(contact);
    if (!anchored_[k]) {
      anchors_[k] = placement;
      anchored_[k] = 1;
    }
    if (kp_ == 0) continue;
    const SE3& anchor = anchors_[k];
    const Contact& c = set.contacts[k];
    const int row = set.offset(contact);
    const Vec3 moved = placement.p - anchor.p;
    if (c.kind == ContactKind::normal) {
      rhs_[row] -= kp_ * c.normal.dot(moved);
      continue;
    }
    rhs_.segment<3>(row) -= kp_ * moved;
    // the rotation from the anchor, in world axes (the rows of J_c are world angular velocity)
    if (c.kind == ContactKind::frame) {
      rhs_.segment<3>(row + 3) -= kp_ * (anchor.R * log3(anchor.R.transpose() * placement.R));
    }
  }
}

ContactRankAnalysis::ContactRankAnalysis(const Model& model, const ContactSet& contacts,
                                         RankTolerance tolerance)
    : floating_(model.floating_base),
      tolerance_(tolerance),
      jacobian_(model, contacts),
      svd_(contacts.size(), model.nv),
      base_svd_(contacts.size(), floating_ ? 6 : 0),
      base_(contacts.size(), floating_ ? 6 : 0) {}

int ContactRankAnalysis::rank_of(const Eigen::JacobiSVD<Eigen::MatrixXd>& svd) const {
  const auto& sigma = svd.singularValues();
  if (sigma.size() == 0) return 0;
  const double threshold = tolerance_.threshold(sigma[0]);
  int rank = 0;
  for (Eigen::Index i = 0; i < sigma.size(); ++i) rank += sigma[i] > threshold ? 1 : 0;
  return rank;
}

void ContactRankAnalysis::compute(ConstVec q) {
  jacobian_.compute(q);
  const Eigen::MatrixXd& J = jacobian_.jacobian();
  svd_.compute(J);
  rank_ = rank_of(svd_);
  base_rank_ = 0;
  if (floating_) {
    base_ = J.leftCols(6);
    base_svd_.compute(base_);
    base_rank_ = rank_of(base_svd_);
  }
}

ContactImpact::ContactImpact(const Model& model, const ContactSet& contacts)
    : inertia_(model, contacts),
      v_after_(model.nv),
      p_(contacts.size()),
      approach_(contacts.size()),
      lambda_approach_(contacts.size()),
      change_(model.nv),
      momentum_(model.nv) {}

void ContactImpact::solve(ConstVec q, ConstVec v, double restitution) {
  ContactJacobian& jacobian = inertia_.jacobian();
  inertia_.compute(q);
  // the contacts' velocity just before, J_c v-, and Lambda J_c v- (least norm when redundant)
  approach_.noalias() = jacobian.jacobian() * v;
  rank_ = inertia_.solve(approach_, lambda_approach_);
  // (+ 0: an inactive contact's impulse, -(1 + e) 0, prints as 0, not -0)
  p_ = -(1 + restitution) * lambda_approach_;
  p_.array() += 0.0;
  v_after_ = v;
  inertia_.add_inverse_mass_jacobian(p_, v_after_);
  energy_loss_contact_ = 0.5 * (1 - restitution * restitution) * approach_.dot(lambda_approach_);
  // ETH eq. 3.71, 1/2 du^T M du for e = 0; with restitution the loss is (1 - e) / (1 + e) times
  // it (du = (1 + e) times the inelastic change). crba fills M whole.
  change_ = v_after_ - v;
  momentum_.noalias() = inertia_.mass_matrix() * change_;
  energy_loss_generalized_ = 0.5 * (1 - restitution) / (1 + restitution) * change_.dot(momentum_);
}

}  // namespace eom
