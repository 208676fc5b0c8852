#include "eom/algorithm/contact_inverse_dynamics.hpp"

#include <algorithm>
#include <cmath>

#include "eom/algorithm/kinematics.hpp"
#include "linalg/pseudo_inverse.hpp"
#include "core/tolerances.hpp"

namespace eom {

struct ContactInverseDynamics::Solvers {
  Solvers(int unactuated, int nv, int size)
      : base(std::max(unactuated, 1), size),
        force(3, size),
        moment(3, size),
        contact_qr(nv, size),
        torque_qr(nv, std::max(nv - unactuated, 1)) {}

  linalg::PseudoInverseSolver base;  // of J_u^T W^1/2 (min-norm)
  // of its force rows at the centre of mass, and of its moment rows on their null space
  linalg::PseudoInverseSolver force, moment;
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
      Pb_(model.nv),
      Ac_(6, contacts.size()),
      AF_(3, contacts.size()),
      AM_(3, contacts.size()),
      AF_pinv_(contacts.size(), 3),
      B_(3, contacts.size()),
      unit3_(3),
      column_(contacts.size()),
      force3_(3),
      moment3_(3),
      h_(contacts.size()),
      oMi_(model.njoints),
      fk_(model) {
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    const Contact& contact = contacts.contacts[k];
    weights_sqrt_.segment(contacts.offset(static_cast<int>(k)), constraint_count(contact.kind))
        .setConstant(std::sqrt(contact.weight));
  }
}

ContactInverseDynamics::ContactInverseDynamics(ContactInverseDynamics&&) noexcept = default;
ContactInverseDynamics::~ContactInverseDynamics() = default;

void ContactInverseDynamics::solve(ConstVec q, ConstVec b) {
  forward_kinematics(model_, fk_, q);
  solve(fk_, b);
}

void ContactInverseDynamics::solve(const Data& placed, ConstVec b) {
  jacobian_.compute(placed);
  if (unactuated_ > 0) place_centre_of_mass(placed.liMi);
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
  if (base_rank_ < 6) {
    // the contacts cannot hold the base: which wrench is left is not a least-squares choice in
    // the base's frame (moments about its origin) but the frame-independent one
    supply_least_residual();
  }
  f_ = weights_sqrt_.cwiseProduct(y_);
}

void ContactInverseDynamics::place_centre_of_mass(const std::vector<SE3>& liMi) {
  // the placements without the base's translation, as ContactJacobian composes them: the arm of
  // the residual's moment carries the robot's own dimensions only, the same bits far from the
  // world origin
  Vec3 moment = Vec3::Zero();
  double mass = 0;
  oMi_[0] = SE3::Identity();
  for (int i = 1; i < model_.njoints; ++i) {
    oMi_[i] = oMi_[model_.parent[i]] * liMi[i];
    if (i == 1) oMi_[1].p.setZero();
    const Inertia& I = model_.inertia[i];
    moment += I.m * oMi_[i].act(I.c);
    mass += I.m;
  }
  com_ = mass > 0 ? Vec3(moment / mass) : Vec3::Zero();
}

Vec6 ContactInverseDynamics::at_centre_of_mass(const Vec6& base_wrench) const {
  // the free-flyer's rows are a wrench in the base's axes about its origin (its velocity is the
  // body twist): in world axes, f = R f_b and the moment about the centre of mass c (from the
  // base origin) is R n_b - c x f
  const Mat3& R = jacobian_.base_rotation();
  Vec6 out;
  out.head<3>() = R * base_wrench.head<3>();
  out.tail<3>() = R * base_wrench.tail<3>() - com_.cross(Vec3(out.head<3>()));
  return out;
}

void ContactInverseDynamics::supply_least_residual() {
  // the force rows first: g_F = A_F^+ b_F leaves the least force b_F - A_F g_F. Then, on the
  // null space of A_F (the contact forces of zero net force, P_N = I - A_F^+ A_F), the least
  // moment: h = (A_M P_N)^+ (b_M - A_M g_F), which lies in that null space, so g = g_F + h keeps
  // the force and is of least norm (the constrained least squares of Golub & Van Loan, Matrix
  // Computations, 4th ed., 6.2.1, by the null-space method). Each column of J_u^T W^1/2 is a
  // base wrench too.
  wrench_com_ = at_centre_of_mass(b_u_);
  for (Eigen::Index k = 0; k < Ju_t_.cols(); ++k) Ac_.col(k) = at_centre_of_mass(Ju_t_.col(k));
  AF_ = Ac_.topRows<3>();
  AM_ = Ac_.bottomRows<3>();
  force3_ = wrench_com_.head<3>();
  const int force_rank = solvers_->force.solve(AF_, force3_, y_);
  for (int k = 0; k < 3; ++k) {
    unit3_ = Eigen::Vector3d::Unit(k);
    solvers_->force.solve(AF_, unit3_, column_);
    AF_pinv_.col(k) = column_;
  }
  const Mat3 moment_of_pinv = AM_ * AF_pinv_;
  B_ = AM_;
  B_.noalias() -= moment_of_pinv * AF_;
  moment3_ = wrench_com_.tail<3>();
  moment3_.noalias() -= AM_ * y_;
  int moment_rank = 0;
  // a null space of round-off (every contact force changes the net force): no moment to add
  if (B_.norm() > detail::kRankTolerance * AM_.norm()) {
    moment_rank = solvers_->moment.solve(B_, moment3_, h_);
    y_ += h_;
  }
  base_rank_ = force_rank + moment_rank;
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
  forward_kinematics(model_, fk_, q);
  solve_measured(fk_, b, forces);
}

void ContactInverseDynamics::solve_measured(const Data& placed, ConstVec b, ConstVec forces) {
  jacobian_.compute(placed);
  if (unactuated_ > 0) place_centre_of_mass(placed.liMi);
  take(forces);
  finish(b);
}

void ContactInverseDynamics::take(ConstVec forces) {
  f_ = forces;  // an inactive contact's set to zero by finish()
  base_rank_ = 0;
  if (unactuated_ > 0) {
    Ju_t_ = jacobian_.jacobian().leftCols(unactuated_).transpose();
    base_rank_ = solvers_->base.rank(Ju_t_);
  }
}

void ContactInverseDynamics::finish(ConstVec b) {
  // an inactive contact carries no force, exactly: the solves leave round-off there (1e-15 N,
  // which a plot draws as a closed contact) and measured columns may hold anything
  const ContactSet& set = jacobian_.contacts();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    if (jacobian_.active(static_cast<int>(k))) continue;
    f_.segment(set.offset(static_cast<int>(k)), constraint_count(set.contacts[k].kind)).setZero();
  }
  const Eigen::MatrixXd& J = jacobian_.jacobian();
  tau_ = b;
  tau_.noalias() -= J.transpose() * f_;
  residual_com_.setZero();
  if (unactuated_ == 0) return;
  if (rule_ == ContactForceRule::min_torque && base_rank_ < 6) {
    // the projected inverse dynamics left a base wrench of its own choice: the forces that
    // change it into the least one (least force, then least moment about the centre of mass)
    // are added, least in the weighted norm as min-norm's
    b_u_ = tau_.head(unactuated_);
    Ju_t_.noalias() = J.leftCols(unactuated_).transpose() * weights_sqrt_.asDiagonal();
    supply_least_residual();
    f_.noalias() += weights_sqrt_.cwiseProduct(y_);
    tau_ = b;
    tau_.noalias() -= J.transpose() * f_;
  }
  // the free-flyer's rows of b - J^T f: the base wrench left over, in the base's axes about its
  // origin (its velocity is the body twist); reported at the centre of mass in world axes
  b_u_ = tau_.head(unactuated_);
  residual_com_ = at_centre_of_mass(b_u_);
  tau_.head(unactuated_).setZero();
}

}  // namespace eom
