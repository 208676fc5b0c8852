#include "eom/algorithm/contact_inverse_dynamics.hpp"

#include <algorithm>
#include <cmath>

#include "linalg/pseudo_inverse.hpp"
#include "core/tolerances.hpp"

namespace eom {

struct ContactInverseDynamics::Solvers {
  Solvers(int unactuated, int nv, int size)
      : base(std::max(unactuated, 1), size),
        contact_qr(nv, size),
        torque_qr(nv, std::max(nv - unactuated, 1)) {}

  linalg::PseudoInverseSolver base;  // of J_u^T W^1/2 (min-norm)
  linalg::QrPseudoInverseSolver contact_qr,
      torque_qr;  // of J_c^T (nv x size), of Q^T S^T (nv x na)
};

ContactInverseDynamics::ContactInverseDynamics(const Model& model, const ContactSet& contacts,
                                               ContactForceRule rule)
    : model_(model),
      rule_(rule),
      unactuated_(model.floating_base ? 6 : 0),
      jacobian_(model, contacts),
      solvers_(std::make_unique<Solvers>(unactuated_, model.nv, contacts.size())),
      Ju_t_(unactuated_, contacts.size()),
      Jc_t_(model.nv, contacts.size()),
      Qt_St_(model.nv, model.nv - unactuated_),
      Pu_(model.nv, 6),
      f_(Eigen::VectorXd::Zero(contacts.size())),
      tau_(Eigen::VectorXd::Zero(model.nv)),
      weights_sqrt_(contacts.size()),
      b_u_(unactuated_),
      y_(contacts.size()),
      Qt_b_(model.nv),
      tau_a_(model.nv - unactuated_),
      rhs_(model.nv),
      Pb_(model.nv) {
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    const Contact& contact = contacts.contacts[k];
    weights_sqrt_.segment(contacts.offset(static_cast<int>(k)), constraint_count(contact.kind))
        .setConstant(std::sqrt(contact.weight));
  }
}

ContactInverseDynamics::ContactInverseDynamics(ContactInverseDynamics&&) noexcept = default;
ContactInverseDynamics::~ContactInverseDynamics() = default;

void ContactInverseDynamics::solve(ConstVec q, ConstVec b) {
  jacobian_.compute(q);
  distribute(b);
  finish(b);
}

void ContactInverseDynamics::solve(const Data& placed, ConstVec b) {
  jacobian_.compute(placed);
  distribute(b);
  finish(b);
}

void ContactInverseDynamics::distribute(ConstVec b) {
  if (rule_ == ContactForceRule::min_torque) {
    project(b);
    return;
  }
  // min sum_k |f_k|^2 / w_k subject to J_u^T f = b_u (in least squares): f = W^1/2 g with g the
  // least-norm solution for J_u^T W^1/2
  f_.setZero();
  base_rank_ = 0;
  if (unactuated_ == 0) return;
  b_u_ = b.head(unactuated_);
  Ju_t_.noalias() =
      jacobian_.jacobian().leftCols(unactuated_).transpose() * weights_sqrt_.asDiagonal();
  base_rank_ = solvers_->base.solve(Ju_t_, b_u_, y_);
  f_ = weights_sqrt_.cwiseProduct(y_);
}

void ContactInverseDynamics::project(ConstVec b) {
  // ETH notes eq. 3.100, projected inverse dynamics (M. Mistry and L. Righetti, "Operational
  // space control of constrained and underactuated systems", RSS 2011; F. Aghili, "A unified
  // approach for inverse and direct dynamics of constrained multibody systems", 2005): with
  // J_c^T Pi = Q [R; 0] (Pi the column permutation) and Q = [Q_c Q_u], the rows Q_u^T of
  // b = S^T tau + J_c^T f carry no contact force: Q_u^T S^T tau = Q_u^T b. The torques of least
  // norm that satisfy them (in least squares when the contacts cannot hold the base) are the
  // least torques any contact forces allow.
  const int na = model_.nv - unactuated_;
  Jc_t_ = jacobian_.jacobian().transpose();
  const int rank = solvers_->contact_qr.compute(Jc_t_);
  tau_a_.setZero();
  // no actuated joint (a floating body alone): J_u^T is J_c^T
  base_rank_ = na == 0 ? rank : 0;
  if (na > 0 && !project_regular(b)) {
    Qt_b_ = b;
    solvers_->contact_qr.apply_qt(Qt_b_);
    Qt_St_.topRows(unactuated_).setZero();
    Qt_St_.bottomRows(na).setIdentity();
    solvers_->contact_qr.apply_qt(Qt_St_);
    // keep the rows Q_u^T: the first rank rows (Q_c^T) set to zero leave the least-norm solution
    // of the others, at a size that does not change with the rank
    Qt_b_.head(rank).setZero();
    Qt_St_.topRows(rank).setZero();
    const int projected_rank = solvers_->torque_qr.compute(Qt_St_);
    solvers_->torque_qr.solve(Qt_b_, tau_a_);
    // rank [S^T J_c^T] = na + rank J_u^T = rank J_c + rank Q_u^T S^T (Q^T [S^T J_c^T] is block
    // triangular with R of full row rank)
    base_rank_ = rank + projected_rank - na;
  }
  // the contact forces of least norm that supply the rest, f = (J_c^T)^+ (b - S^T tau)
  rhs_ = b;
  rhs_.tail(na) -= tau_a_;
  solvers_->contact_qr.solve(rhs_, f_);
}

bool ContactInverseDynamics::project_regular(ConstVec b) {
  // with N = Q_u = [N_b; N_a] (base rows, actuated rows) and P = N N^T the projector onto the
  // motions the contacts allow: tau = N_a (N_a^T N_a)^-1 N^T b, and since N_a^T N_a = I - N_b^T N_b
  // (orthonormal columns), by the Woodbury identity
  //   tau = (P b)_a + P_ab (I - P_bb)^-1 (P b)_b,
  // where I - P_bb (6 x 6, eigenvalues in [0, 1]) is regular unless a motion of the base alone
  // keeps the contacts (rank J_u^T < 6): then the least-squares path of project() decides
  Pb_ = b;
  solvers_->contact_qr.project_out(Pb_);
  const int na = model_.nv - unactuated_;
  if (unactuated_ == 0) {
    // every coordinate actuated: tau = P b
    tau_a_ = Pb_;
    return true;
  }
  Pu_.setZero();
  for (int j = 0; j < 6; ++j) {
    Pu_(j, j) = 1;
    solvers_->contact_qr.project_out(Pu_.col(j));
  }
  const Mat6 K = Mat6::Identity() - Pu_.topRows<6>();
  base_ldlt_.compute(K);
  const auto pivots = base_ldlt_.vectorD();
  // as the normal equations of PseudoInverseSolver
  if (!(base_ldlt_.info() == Eigen::Success &&
        pivots.minCoeff() > detail::kGramPivotTolerance * pivots.maxCoeff())) {
    return false;
  }
  const Vec6 y = base_ldlt_.solve(Vec6(Pb_.head<6>()));
  tau_a_ = Pb_.tail(na);
  tau_a_.noalias() += Pu_.bottomRows(na) * y;
  base_rank_ = 6;
  return true;
}

void ContactInverseDynamics::solve_measured(ConstVec q, ConstVec b, ConstVec forces) {
  jacobian_.compute(q);
  take(forces);
  finish(b);
}

void ContactInverseDynamics::solve_measured(const Data& placed, ConstVec b, ConstVec forces) {
  jacobian_.compute(placed);
  take(forces);
  finish(b);
}

void ContactInverseDynamics::take(ConstVec forces) {
  const ContactSet& set = jacobian_.contacts();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int row = set.offset(static_cast<int>(k));
    const int rows = constraint_count(set.contacts[k].kind);
    if (jacobian_.active(static_cast<int>(k))) {
      f_.segment(row, rows) = forces.segment(row, rows);
    } else {
      f_.segment(row, rows).setZero();
    }
  }
  base_rank_ = 0;
  if (unactuated_ > 0) {
    Ju_t_ = jacobian_.jacobian().leftCols(unactuated_).transpose();
    base_rank_ = solvers_->base.rank(Ju_t_);
  }
}

void ContactInverseDynamics::finish(ConstVec b) {
  const Eigen::MatrixXd& J = jacobian_.jacobian();
  tau_ = b;
  tau_.noalias() -= J.transpose() * f_;
  residual_world_.setZero();
  if (unactuated_ == 0) return;
  // the free-flyer's rows of b - J^T f: the base wrench left over, in the base's axes (its
  // velocity is the body twist); shown in world axes like the contact forces
  const Mat3& R = jacobian_.base_rotation();
  residual_world_.head<3>().noalias() = R * tau_.head<3>();
  residual_world_.tail<3>().noalias() = R * tau_.segment<3>(3);
  tau_.head(unactuated_).setZero();
}

}  // namespace eom
