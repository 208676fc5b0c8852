#include "eom/algorithm/contacts.hpp"

#include <cmath>
#include <sstream>

#include "eom/algorithm/dynamics.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/core/errors.hpp"
#include "core/sizes.hpp"

namespace eom {
namespace {

// Singular values (and pivots of column-pivoted QR) below 1e-9 of the largest are round-off of a
// rank-deficient matrix (dependent contact constraints leave about 1e-16 of the largest): counting
// them would produce forces of the order of 1 / round-off.
constexpr double kRankTolerance = 1e-9;

}  // namespace

int constraint_count(ContactKind kind) {
  switch (kind) {
    case ContactKind::normal:
      return 1;
    case ContactKind::point:
      return 3;
    case ContactKind::frame:
      break;
  }
  return 6;
}

int ContactSet::size() const { return offset(static_cast<int>(contacts.size())); }

int ContactSet::offset(int contact) const {
  int rows = 0;
  for (int k = 0; k < contact; ++k) rows += constraint_count(contacts[k].kind);
  return rows;
}

int ContactSet::find(int frame) const {
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (contacts[k].frame == frame) return static_cast<int>(k);
  }
  return -1;
}

Vec3 unit_contact_normal(const Vec3& normal) {
  const double norm = normal.norm();
  if (!(std::abs(norm - 1) <= 1e-6)) {
    std::ostringstream message;
    message << "expected a unit vector (its norm is " << norm << ")";
    throw InputError(message.str());
  }
  return normal / norm;
}

Contact parse_contact(const Model& model, std::string_view text, const Vec3& normal) {
  const std::size_t colon = text.rfind(':');
  const std::string_view frame_name = text.substr(0, colon);
  Contact contact;
  contact.frame = model.require_frame(frame_name);
  if (colon != std::string_view::npos) {
    const std::string_view kind = text.substr(colon + 1);
    if (kind == "1d") {
      contact.kind = ContactKind::normal;
    } else if (kind == "6d") {
      contact.kind = ContactKind::frame;
    } else if (kind != "3d") {
      throw InputError(quote_input(text) + ": unknown contact kind " + quote_input(kind) +
                       " (expected FRAME, FRAME:1d, FRAME:3d or FRAME:6d)");
    }
  }
  if (model.frames[contact.frame].parent == 0) {
    throw InputError(quote_input(text) + ": no joint moves frame " + quote_input(frame_name) +
                     " (it is welded to the fixed base), so a contact on it constrains nothing");
  }
  if (contact.kind == ContactKind::normal) {
    try {
      contact.normal = unit_contact_normal(normal);
    } catch (const InputError& e) {
      throw InputError(quote_input(text) + ": its normal: " + e.message());
    }
  }
  return contact;
}

ContactSet parse_contacts(const Model& model, const std::vector<std::string>& texts,
                          const Vec3& normal) {
  ContactSet set;
  for (const auto& text : texts) {
    const Contact contact = parse_contact(model, text, normal);
    if (set.find(contact.frame) >= 0) {
      throw InputError(quote_input(text) + ": frame " +
                       quote_input(model.frames[contact.frame].name) + " is given twice");
    }
    set.contacts.push_back(contact);
  }
  return set;
}

void parse_contact_weight(const Model& model, std::string_view text, ContactSet& contacts) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    throw InputError(quote_input(text) + ": expected FRAME=WEIGHT");
  }
  const int frame = model.require_frame(text.substr(0, equals));
  const int k = contacts.find(frame);
  if (k < 0) {
    throw InputError(quote_input(text) + ": " + quote_input(text.substr(0, equals)) +
                     " is not one of the --contacts");
  }
  const std::string number(text.substr(equals + 1));
  char* end = nullptr;
  const double weight = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(weight) || weight <= 0) {
    throw InputError(quote_input(text) + ": expected a finite weight > 0");
  }
  contacts.contacts[k].weight = weight;
}

std::optional<Eigen::Vector2d> center_of_pressure(const SE3& oMf, const Vec6& wrench) {
  const Vec3 force = oMf.R.transpose() * wrench.head<3>();
  const Vec3 moment = oMf.R.transpose() * wrench.tail<3>();
  if (!(force.z() > 0)) return std::nullopt;
  return Eigen::Vector2d(-moment.y() / force.z(), moment.x() / force.z());
}

std::vector<std::string> contact_force_components(ContactKind kind) {
  switch (kind) {
    case ContactKind::normal:
      return {"fn"};
    case ContactKind::point:
      return {"fx", "fy", "fz"};
    case ContactKind::frame:
      break;
  }
  return {"fx", "fy", "fz", "mx", "my", "mz"};
}

ContactJacobian::ContactJacobian(const Model& model, const ContactSet& contacts)
    : model_(model),
      contacts_(contacts),
      data_(model),
      active_(contacts.contacts.size(), 1),
      J_(Eigen::MatrixXd::Zero(contacts.size(), model.nv)),
      drift_(Eigen::VectorXd::Zero(contacts.size())) {
  // the floating base always: its rotation turns the residual of the inverse dynamics
  std::vector<char> supports(model.njoints, 0);
  if (model.floating_base) supports[1] = 1;
  for (const Contact& contact : contacts.contacts) {
    for (int i = model.frames[contact.frame].parent; i > 0; i = model.parent[i]) supports[i] = 1;
  }
  for (int i = 1; i < model.njoints; ++i) {
    if (supports[i]) supports_.push_back(i);
  }
}

int ContactJacobian::active_size() const {
  int rows = 0;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    if (active_[k]) rows += constraint_count(contacts_.contacts[k].kind);
  }
  return rows;
}

void ContactJacobian::place(ConstVec q) {
  detail::check_size(q.size(), model_.nq, "q");
  for (const int i : supports_) {
    data_.liMi[i] = joint_placement(model_.joints[i], model_.placement[i], q);
  }
}

void ContactJacobian::compute(ConstVec q) {
  place(q);
  compute(data_);
}

void ContactJacobian::compute(const Data& placed) {
  compose(placed.liMi);
  stack_composed(nullptr);
}

void ContactJacobian::compute(ConstVec q, ConstVec v) {
  place(q);
  compute(data_, v);
}

void ContactJacobian::compute(const Data& placed, ConstVec v) {
  detail::check_size(v.size(), model_.nv, "v");
  compose(placed.liMi);
  stack_composed(&v);
}

void ContactJacobian::compose(const std::vector<SE3>& liMi) {
  data_.oMi[0] = SE3::Identity();
  base_.setZero();
  for (const int i : supports_) {
    data_.oMi[i] = data_.oMi[model_.parent[i]] * liMi[i];
    // the rows are at the frame origins and do not depend on where the base stands: without its
    // translation the placements carry only the robot's own dimensions, and the rows are the
    // same bits 1000 km from the world origin (frame_jacobian's base centring)
    if (i == 1 && model_.floating_base) {
      base_ = data_.oMi[1].p;
      data_.oMi[1].p.setZero();
    }
  }
}

void ContactJacobian::stack_composed(const Eigen::Ref<const Eigen::VectorXd>* v) {
  int row = 0;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const Contact& contact = contacts_.contacts[k];
    const int rows = constraint_count(contact.kind);
    if (!active_[k]) {
      J_.middleRows(row, rows).setZero();
      drift_.segment(row, rows).setZero();
      row += rows;
      continue;
    }
    // world axes at the frame origin
    if (v) {
      frame_jacobian_time_variation(model_, data_, *v, contact.frame,
                                    ReferenceFrame::local_world_aligned);
    } else {
      frame_jacobian(model_, data_, contact.frame, ReferenceFrame::local_world_aligned);
    }
    if (contact.kind == ContactKind::normal) {
      J_.row(row).noalias() = contact.normal.transpose() * data_.J.topRows<3>();
      drift_[row] = v ? contact.normal.dot(data_.dJ.topRows<3>() * *v) : 0.0;
    } else {
      J_.middleRows(row, rows) = data_.J.topRows(rows);
      if (v) {
        drift_.segment(row, rows).noalias() = data_.dJ.topRows(rows) * *v;
      } else {
        drift_.segment(row, rows).setZero();
      }
    }
    data_.oMf[contact.frame].p += base_;
    row += rows;
  }
  for (const int i : supports_) data_.oMi[i].p += base_;
}

Force total_contact_wrench(const ContactJacobian& jacobian, ConstVec f) {
  const ContactSet& set = jacobian.contacts();
  Force total = Force::Zero();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int contact = static_cast<int>(k);
    if (!jacobian.active(contact)) continue;
    const Contact& c = set.contacts[k];
    const int row = set.offset(contact);
    Force wrench;  // at the frame origin
    if (c.kind == ContactKind::normal) {
      wrench.lin = f[row] * c.normal;
    } else {
      wrench.lin = f.segment<3>(row);
      if (c.kind == ContactKind::frame) wrench.ang = f.segment<3>(row + 3);
    }
    // carried to the world origin: n_o = n + p x f
    total.lin += wrench.lin;
    total.ang += wrench.ang + jacobian.placement(contact).p.cross(wrench.lin);
  }
  return total;
}

PseudoInverseSolver::PseudoInverseSolver(int rows, int cols)
    : svd_(rows, cols, Eigen::ComputeThinU | Eigen::ComputeThinV),
      gram_(rows),
      gram_matrix_(rows, rows),
      projected_(std::min(rows, cols)),
      gram_rhs_(rows) {
  // singular values below kRankTolerance of the largest are round-off of a rank-deficient matrix
  svd_.setThreshold(kRankTolerance);
}

int PseudoInverseSolver::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                               Eigen::VectorXd& x) {
  if (A.rows() <= A.cols() && A.rows() > 0) {
    // the normal equations square the condition number: only for A well away from singular
    // (pivots of A A^T above 1e-8 of the largest), where they lose no more than 1e-8 relative
    gram_matrix_.noalias() = A * A.transpose();
    gram_.compute(gram_matrix_);
    const auto pivots = gram_.vectorD();
    if (gram_.info() == Eigen::Success && pivots.minCoeff() > 1e-8 * pivots.maxCoeff()) {
      gram_rhs_.noalias() = gram_.solve(b);
      x.noalias() = A.transpose() * gram_rhs_;
      rank_ = static_cast<int>(A.rows());
      return rank_;
    }
  }
  svd_.compute(A);
  rank_ = static_cast<int>(svd_.rank());
  projected_.noalias() = svd_.matrixU().transpose() * b;
  for (Eigen::Index i = 0; i < projected_.size(); ++i) {
    projected_[i] = i < rank_ ? projected_[i] / svd_.singularValues()[i] : 0.0;
  }
  x.noalias() = svd_.matrixV() * projected_;
  return rank_;
}

int PseudoInverseSolver::rank(const Eigen::MatrixXd& A) {
  svd_.compute(A);
  return static_cast<int>(svd_.rank());
}

QrPseudoInverseSolver::QrPseudoInverseSolver(int rows, int cols)
    : cod_(rows, cols), c_(rows), y_(cols) {
  cod_.setThreshold(kRankTolerance);
}

int QrPseudoInverseSolver::compute(const Eigen::MatrixXd& A) {
  cod_.compute(A);
  rank_ = static_cast<int>(cod_.rank());
  return rank_;
}

// Eigen's Householder products evaluate tau v into a temporary (an allocation each); the
// reflections here are written out: H = I - tau [1; e] [1; e]^T, x <- x - (tau (x_0 + e.x_1)) [1; e]

void QrPseudoInverseSolver::reflect_by(Eigen::Index k, Eigen::Ref<Eigen::VectorXd> x) const {
  // H_k acts on rows k and below, e below the diagonal of column k
  const Eigen::MatrixXd& QR = cod_.matrixQTZ();
  const Eigen::Index below = QR.rows() - k - 1;
  const auto e = QR.col(k).tail(below);
  const double w = cod_.hCoeffs()[k] * (x[k] + e.dot(x.tail(below)));
  x[k] -= w;
  x.tail(below) -= w * e;
}

void QrPseudoInverseSolver::reflect(Eigen::Ref<Eigen::VectorXd> x) const {
  // Q^T = H_n-1 ... H_1 H_0
  for (Eigen::Index k = 0; k < cod_.hCoeffs().size(); ++k) reflect_by(k, x);
}

void QrPseudoInverseSolver::reflect_back(Eigen::Ref<Eigen::VectorXd> x) const {
  // Q = H_0 H_1 ... H_n-1
  for (Eigen::Index k = cod_.hCoeffs().size() - 1; k >= 0; --k) reflect_by(k, x);
}

void QrPseudoInverseSolver::apply_qt(Eigen::MatrixXd& M) const {
  for (Eigen::Index j = 0; j < M.cols(); ++j) reflect(M.col(j));
}

void QrPseudoInverseSolver::apply_qt(Eigen::VectorXd& b) const { reflect(b); }

void QrPseudoInverseSolver::project_out(Eigen::Ref<Eigen::VectorXd> x) const {
  // (I - Q_r Q_r^T) x = Q [0; (Q^T x)_tail]
  reflect(x);
  x.head(rank_).setZero();
  reflect_back(x);
}

void QrPseudoInverseSolver::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  if (rank_ == 0) {
    x.setZero();
    return;
  }
  // A P = Q [T 0; 0 0] Z: x = P Z^T [T^-1 (Q^T b)_head; 0] (Eigen's solve, allocation-free)
  c_ = b;
  reflect(c_);
  const Eigen::MatrixXd& QTZ = cod_.matrixQTZ();
  const int r = rank_;
  const int n = static_cast<int>(QTZ.cols()) - r;
  y_.head(r) = c_.head(r);
  QTZ.topLeftCorner(r, r).triangularView<Eigen::Upper>().solveInPlace(y_.head(r));
  y_.tail(n).setZero();
  // Z^T: the reflections that folded R's rows k onto row r - 1 and columns r.. (k = 0, 1, ...)
  for (int k = 0; k < r && n > 0; ++k) {
    std::swap(y_[k], y_[r - 1]);
    const auto e = QTZ.row(k).tail(n).transpose();
    const double w = cod_.zCoeffs()[k] * (y_[r - 1] + e.dot(y_.tail(n)));
    y_[r - 1] -= w;
    y_.tail(n) -= w * e;
    std::swap(y_[k], y_[r - 1]);
  }
  x.noalias() = cod_.colsPermutation() * y_;
}

SymmetricPseudoInverseSolver::SymmetricPseudoInverseSolver(int size)
    : ldlt_(size), svd_(size, size) {}

int SymmetricPseudoInverseSolver::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                        Eigen::VectorXd& x) {
  ldlt_.compute(A);
  const auto pivots = ldlt_.vectorD();
  const Eigen::Index n = pivots.size();
  if (n > 0 && ldlt_.info() == Eigen::Success && pivots.minCoeff() > 1e-9 * pivots.maxCoeff()) {
    x.noalias() = ldlt_.solve(b);
    return static_cast<int>(n);
  }
  return svd_.solve(A, b, x);
}

ContactInverseDynamics::ContactInverseDynamics(const Model& model, const ContactSet& contacts,
                                               ContactForceRule rule)
    : model_(model),
      rule_(rule),
      unactuated_(model.floating_base ? 6 : 0),
      jacobian_(model, contacts),
      base_solver_(std::max(unactuated_, 1), contacts.size()),
      contact_qr_(model.nv, contacts.size()),
      torque_qr_(model.nv, std::max(model.nv - unactuated_, 1)),
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
  base_rank_ = base_solver_.solve(Ju_t_, b_u_, y_);
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
  const int rank = contact_qr_.compute(Jc_t_);
  tau_a_.setZero();
  // no actuated joint (a floating body alone): J_u^T is J_c^T
  base_rank_ = na == 0 ? rank : 0;
  if (na > 0 && !project_regular(b)) {
    Qt_b_ = b;
    contact_qr_.apply_qt(Qt_b_);
    Qt_St_.topRows(unactuated_).setZero();
    Qt_St_.bottomRows(na).setIdentity();
    contact_qr_.apply_qt(Qt_St_);
    // keep the rows Q_u^T: the first rank rows (Q_c^T) set to zero leave the least-norm solution
    // of the others, at a size that does not change with the rank
    Qt_b_.head(rank).setZero();
    Qt_St_.topRows(rank).setZero();
    const int projected_rank = torque_qr_.compute(Qt_St_);
    torque_qr_.solve(Qt_b_, tau_a_);
    // rank [S^T J_c^T] = na + rank J_u^T = rank J_c + rank Q_u^T S^T (Q^T [S^T J_c^T] is block
    // triangular with R of full row rank)
    base_rank_ = rank + projected_rank - na;
  }
  // the contact forces of least norm that supply the rest, f = (J_c^T)^+ (b - S^T tau)
  rhs_ = b;
  rhs_.tail(na) -= tau_a_;
  contact_qr_.solve(rhs_, f_);
}

bool ContactInverseDynamics::project_regular(ConstVec b) {
  // with N = Q_u = [N_b; N_a] (base rows, actuated rows) and P = N N^T the projector onto the
  // motions the contacts allow: tau = N_a (N_a^T N_a)^-1 N^T b, and since N_a^T N_a = I - N_b^T N_b
  // (orthonormal columns), by the Woodbury identity
  //   tau = (P b)_a + P_ab (I - P_bb)^-1 (P b)_b,
  // where I - P_bb (6 x 6, eigenvalues in [0, 1]) is regular unless a motion of the base alone
  // keeps the contacts (rank J_u^T < 6): then the least-squares path of project() decides
  Pb_ = b;
  contact_qr_.project_out(Pb_);
  const int na = model_.nv - unactuated_;
  if (unactuated_ == 0) {
    // every coordinate actuated: tau = P b
    tau_a_ = Pb_;
    return true;
  }
  Pu_.setZero();
  for (int j = 0; j < 6; ++j) {
    Pu_(j, j) = 1;
    contact_qr_.project_out(Pu_.col(j));
  }
  const Mat6 K = Mat6::Identity() - Pu_.topRows<6>();
  base_ldlt_.compute(K);
  const auto pivots = base_ldlt_.vectorD();
  // as the normal equations of PseudoInverseSolver: pivots above 1e-8 of the largest
  if (!(base_ldlt_.info() == Eigen::Success && pivots.minCoeff() > 1e-8 * pivots.maxCoeff())) {
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
    base_rank_ = base_solver_.rank(Ju_t_);
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

ContactSpaceInertia::ContactSpaceInertia(const Model& model, const ContactSet& contacts)
    : model_(model),
      data_(model),
      jacobian_(model, contacts),
      llt_(model.nv),
      solver_(contacts.size()),
      Minv_Jt_(model.nv, contacts.size()),
      contact_inertia_inv_(contacts.size(), contacts.size()) {}

void ContactSpaceInertia::compute(ConstVec q, ConstVec v) {
  factor(q);
  jacobian_.compute(data_, v);
  project();
}

void ContactSpaceInertia::compute(ConstVec q) {
  factor(q);
  jacobian_.compute(data_);
  project();
}

void ContactSpaceInertia::factor(ConstVec q) {
  llt_.compute(crba(model_, data_, q));
  if (llt_.info() != Eigen::Success) {
    throw NumericalError("the mass matrix is not positive definite at this configuration");
  }
}

void ContactSpaceInertia::project() {
  Minv_Jt_ = jacobian_.jacobian().transpose();
  llt_.solveInPlace(Minv_Jt_);
  contact_inertia_inv_.noalias() = jacobian_.jacobian() * Minv_Jt_;
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
  // M, then J_c and its drift from the placements crba made
  inertia_.compute(q, v);
  // a_0 = M^-1 (tau - h), the motion without contacts
  a_ = tau;
  a_ -= nonlinear_effects(model_, inertia_.data(), q, v);
  inertia_.mass_factor().solveInPlace(a_);
  // the contacts' acceleration J a + drift must vanish
  rhs_ = -jacobian.drift();
  rhs_.noalias() -= jacobian.jacobian() * a_;
  // Baumgarte: the contacts' acceleration is -kd J v - kp e instead
  if (kd_ != 0) rhs_.noalias() -= kd_ * (jacobian.jacobian() * v);
  subtract_position_error();
  rank_ = inertia_.solve(rhs_, f_);
  a_.noalias() += inertia_.inverse_mass_jacobian() * f_;
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
  v_after_.noalias() += inertia_.inverse_mass_jacobian() * p_;
  energy_loss_contact_ = 0.5 * (1 - restitution * restitution) * approach_.dot(lambda_approach_);
  // ETH eq. 3.71, 1/2 du^T M du for e = 0; with restitution the loss is (1 - e) / (1 + e) times
  // it (du = (1 + e) times the inelastic change). crba fills M whole.
  change_ = v_after_ - v;
  momentum_.noalias() = inertia_.mass_matrix() * change_;
  energy_loss_generalized_ = 0.5 * (1 - restitution) / (1 + restitution) * change_.dot(momentum_);
}

}  // namespace eom
