// Contacts: what holds a robot (feet on the ground, a tool on a table) and the forces they carry.
//
// A contact is a frame of the model held by the environment. Its force is the force the
// environment exerts ON the robot, in world axes, applied at the frame's origin; a 6d contact adds
// the moment about that origin (S. Caron, "Equations of motion", point and surface contacts; the
// ETH Zurich "Robot Dynamics" notes, section 3.7, write the force the robot exerts on the
// environment, the opposite sign). With the stacked contact Jacobian J_c, world-aligned at each
// contact point, the equations of motion read M a + h = S^T tau + J_c^T f.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/QR>
#include <Eigen/SVD>

#include "eom/algorithm/singular.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// What a contact holds.
enum class ContactKind {
  normal,  // "1d": only the motion of the frame origin along the normal (one force component)
  point,   // "3d": the motion of the frame origin (a point contact: force, no moment)
  frame,   // "6d": the motion of the whole frame (a flat foot, a weld: force and moment)
};

/// 1, 3 or 6: the constraints (and force components) of a contact.
int constraint_count(ContactKind kind);

/// One contact: a frame, what it holds, the unit normal of a 1d contact (world axes) and its
/// weight in the least-norm force distribution (a heavier weight takes a larger share).
struct Contact {
  int frame = 0;
  ContactKind kind = ContactKind::point;
  Vec3 normal = Vec3::UnitZ();
  double weight = 1;
};

/// The contacts of a run, in the order they were given: contact k owns the rows
/// [offset(k), offset(k) + constraint_count(kind)) of J_c and of the stacked force f.
struct ContactSet {
  std::vector<Contact> contacts;
  /// Total number of constraints (rows of J_c).
  int size() const;
  int offset(int contact) const;
  /// The contact on that frame, -1 if none.
  int find(int frame) const;
};

/// The normal renormalised; throws InputError when its norm is not 1 within 1e-6 (zero included:
/// a normal is a direction, and a mistyped one is refused rather than silently rescaled).
Vec3 unit_contact_normal(const Vec3& normal);

/// One contact from its text, FRAME or FRAME:3d (a point contact), FRAME:6d or FRAME:1d (along
/// `normal`). Throws InputError for an unknown frame (naming close matches), an unknown kind, a
/// frame no joint moves (it constrains nothing: the world, or a link welded to a fixed base) and
/// for a 1d contact whose normal is not a unit vector (unit_contact_normal).
Contact parse_contact(const Model& model, std::string_view text, const Vec3& normal);
/// The contacts of several texts; throws InputError for a frame given twice.
ContactSet parse_contacts(const Model& model, const std::vector<std::string>& texts,
                          const Vec3& normal);
/// Sets the weight of the contact named by FRAME=w (w > 0, finite). Throws InputError otherwise,
/// or when FRAME is no contact of the set.
void parse_contact_weight(const Model& model, std::string_view text, ContactSet& contacts);

/// The centre of pressure of a 6d contact's wrench (force and moment about the frame origin, world
/// axes) on the xy plane of its frame oMf, in the frame's coordinates: the point of that plane
/// about which the wrench has no tangential moment (x = -m_y / f_z, y = m_x / f_z in the frame's
/// axes; Caron, "Equations of motion", surface contacts). Nullopt when the force along the frame's
/// z axis is not positive (no load presses the surfaces together).
std::optional<Eigen::Vector2d> center_of_pressure(const SE3& oMf, const Vec6& wrench);

/// The force component names of a contact: fn (1d), fx fy fz (3d), fx fy fz mx my mz (6d).
std::vector<std::string> contact_force_components(ContactKind kind);

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

/// How eom id --contacts distributes the base's load over the contacts.
enum class ContactForceRule {
  min_norm,    // the forces of least weighted norm that supply the unactuated (base) equations
  min_torque,  // the torques of least norm consistent with the contacts (ETH notes eq. 3.100)
  measured,    // the forces are given; only the torques are solved
};

/// x = A^+ b, the least-squares solution of least norm, with singular values below 1e-9 of the
/// largest counted as zero. A clearly of full row rank (every pivot of the LDLT factor of A A^T
/// above 1e-8 of the largest) takes the fast path x = A^T (A A^T)^-1 b; any other A its SVD, which
/// then decides the rank. Sized at construction for A of rows x cols; solve() allocates nothing.
class PseudoInverseSolver {
 public:
  PseudoInverseSolver(int rows, int cols);
  /// A^+ b into x (cols); returns the rank of A.
  int solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd& x);
  /// The rank of A, by the SVD's rule.
  int rank(const Eigen::MatrixXd& A);

 private:
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
  Eigen::LDLT<Eigen::MatrixXd> gram_;  // of A A^T (rows <= cols)
  Eigen::MatrixXd gram_matrix_;
  Eigen::VectorXd projected_, gram_rhs_;
  int rank_ = 0;
};

/// A^+ b by a complete orthogonal decomposition A P = Q [T 0; 0 0] Z of A (rows x cols): a
/// Householder QR with column pivoting, whose R is then folded onto its first rank rows (Golub &
/// Van Loan, Matrix Computations, 4th ed., 5.4.2, 5.5.2; Eigen's CompleteOrthogonalDecomposition),
/// for any rank. A pivot |R_ii| at most 1e-9 of the largest counts as zero, the rule the
/// pseudo-inverses above apply to singular values (the diagonal of a column-pivoted R tracks
/// them; dependent contact constraints leave pivots of the order of round-off, 1e-16 of the
/// largest). It also applies Q^T, an orthonormal basis [Q_r Q_n] of the column space of A and of
/// its orthogonal complement. Sized at construction; compute(), solve() and apply_qt() allocate
/// nothing.
class QrPseudoInverseSolver {
 public:
  QrPseudoInverseSolver(int rows, int cols);
  /// Factors A (rows x cols); returns its rank.
  int compute(const Eigen::MatrixXd& A);
  int rank() const { return rank_; }
  /// x = A^+ b (b: rows, x: cols), the least-squares solution of least norm.
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);
  /// M = Q^T M in place (M: rows of A x any).
  void apply_qt(Eigen::MatrixXd& M) const;
  /// b = Q^T b in place (b: rows).
  void apply_qt(Eigen::VectorXd& b) const;
  /// x = (I - Q_r Q_r^T) x in place: its component orthogonal to the column space of A.
  void project_out(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  void reflect_by(Eigen::Index k, Eigen::Ref<Eigen::VectorXd> x) const;  // x = H_k x
  void reflect(Eigen::Ref<Eigen::VectorXd> x) const;                     // x = Q^T x
  void reflect_back(Eigen::Ref<Eigen::VectorXd> x) const;                // x = Q x

  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  Eigen::VectorXd c_, y_;  // rows, cols
  int rank_ = 0;
};

/// The same for a symmetric positive semi-definite A, fast when A is regular: its Cholesky factor
/// with diagonal pivoting (LDLT) solves it when every pivot is above 1e-9 of the largest (A of
/// full rank); otherwise the SVD of PseudoInverseSolver decides the rank and gives the least-norm
/// solution.
class SymmetricPseudoInverseSolver {
 public:
  explicit SymmetricPseudoInverseSolver(int size);
  /// A^+ b into x (size); returns the rank of A.
  int solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd& x);

 private:
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
  PseudoInverseSolver svd_;
};

/// Inverse dynamics with contacts: given the generalized force b = M a + h the motion needs (rnea,
/// plus joint friction and minus external wrenches as the caller wants), the contact forces f and
/// actuated torques tau with b = S^T tau + J_c^T f. With a floating base the free-flyer's six
/// rows are unactuated: b_u = J_u^T f must hold, and what no contact force can supply is the
/// residual r = b_u - J_u^T f (least squares: the smallest residual first). min_norm solves the
/// base's six equations (PseudoInverseSolver); min_torque is the projected inverse dynamics of
/// the QR of J_c^T (QrPseudoInverseSolver: the rows of b that carry no contact force fix the
/// torques, then f = (J_c^T)^+ (b - S^T tau)). Sized at construction; solve() allocates nothing.
class ContactInverseDynamics {
 public:
  ContactInverseDynamics(const Model& model, const ContactSet& contacts, ContactForceRule rule);

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
  PseudoInverseSolver base_solver_;
  QrPseudoInverseSolver contact_qr_, torque_qr_;  // of J_c^T (nv x size), of Q^T S^T (nv x na)
  Eigen::MatrixXd Ju_t_, Jc_t_, Qt_St_, Pu_;      // Pu_: P's columns of the base (nv x 6)
  Eigen::VectorXd f_, tau_, weights_sqrt_, b_u_, y_, Qt_b_, tau_a_, rhs_, Pb_;
  Eigen::LDLT<Mat6> base_ldlt_;  // of I - P_bb
  Vec6 residual_world_ = Vec6::Zero();
  int base_rank_ = 0;
};

/// The contact-space inverse inertia A = J_c M^-1 J_c^T of the active contacts at one
/// configuration, and the solves with it that ContactForwardDynamics and ContactImpact share:
/// M by crba and its Cholesky factor, M^-1 J_c^T, and A^+ b by SymmetricPseudoInverseSolver
/// (singular values of A below 1e-9 of the largest count as zero: redundant contacts). Sized at
/// construction; compute() and solve() allocate nothing.
class ContactSpaceInertia {
 public:
  ContactSpaceInertia(const Model& model, const ContactSet& contacts);

  ContactJacobian& jacobian() { return jacobian_; }
  Data& data() { return data_; }

  /// M (crba) and its factor at q, J_c from crba's joint placements (and its drift along v:
  /// ContactJacobian::compute(placed, v)), M^-1 J_c^T and A. Throws NumericalError when M is not
  /// positive definite.
  void compute(ConstVec q, ConstVec v);
  /// The same without the drift.
  void compute(ConstVec q);

  const Eigen::MatrixXd& mass_matrix() const { return data_.M; }
  const Eigen::LLT<Eigen::MatrixXd>& mass_factor() const { return llt_; }
  const Eigen::MatrixXd& inverse_mass_jacobian() const { return Minv_Jt_; }  // M^-1 J_c^T
  /// x = A^+ b; returns the rank of A, that of J_c.
  int solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
    return solver_.solve(contact_inertia_inv_, b, x);
  }

 private:
  void factor(ConstVec q);  // M and its Cholesky factor
  void project();           // M^-1 J_c^T and A

  const Model& model_;
  Data data_;
  ContactJacobian jacobian_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  SymmetricPseudoInverseSolver solver_;
  Eigen::MatrixXd Minv_Jt_, contact_inertia_inv_;
};

/// Forward dynamics with contacts held (ETH notes eq. 3.62-3.65): the accelerations a and contact
/// forces f of M a + h = tau + J_c^T f with J_c a + drift = 0, in the operational-space form
///   f = (J_c M^-1 J_c^T)^+ (-drift - J_c a_0),   a = a_0 + M^-1 J_c^T f,   a_0 = M^-1 (tau - h).
/// Why this form and not the KKT system [M J_c^T; J_c 0]: after one Cholesky factor of M (crba)
/// it leaves a contact-space system of the contacts' size, symmetric positive semi-definite, whose
/// pseudo-inverse treats redundant contacts exactly: the contact-space inverse inertia
/// J_c M^-1 J_c^T has the rank of J_c, singular values below 1e-9 of the largest count as zero
/// (SymmetricPseudoInverseSolver), and the forces are then the least-norm ones among those that hold the
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
