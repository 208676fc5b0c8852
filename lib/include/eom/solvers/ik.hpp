// Numerical inverse kinematics: a frame's placement -> a joint configuration (IkSolver), and
// multi-task inverse differential kinematics at the velocity level.
//
// The position-level solver is Algorithm 1 of Hutter et al., Robot Dynamics Lecture Notes (ETH
// Zurich), section 2.9.3, with the rotation-vector orientation error of eq. (2.251) (never Euler
// angle differences), a damped least-squares (Levenberg-Marquardt) step whose damping follows the
// error as in Sugihara, "Solvability-unconcerned inverse kinematics by the Levenberg-Marquardt
// method", IEEE T-RO 27(5), 2011 (lambda = E + w_bar), accepted only when the error decreases, and
// joint limits enforced by projection after every step. Restarts draw random configurations within
// the limits. The velocity level is section 2.9.2 of the same notes (eqs. 2.214, 2.215, 2.220).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/configuration.hpp"
#include "eom/multibody/data.hpp"
#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

// ---------------------------------------------------------------------------------------------
// Targets

/// Largest | |q| - 1 | accepted for a target quaternion; beyond it a target is refused.
constexpr double kQuaternionTolerance = 1e-3;
/// Largest | R^T R - I | (max entry) and | det R - 1 | accepted for a target rotation matrix.
constexpr double kRotationMatrixTolerance = 1e-3;

/// The rotation of quaternion (qx, qy, qz, qw), normalised. Throws InputError when it is not
/// finite or its norm is further than `tolerance` from 1. `renormalised` is set when the norm
/// differs from 1 by more than 1e-9, so a caller can warn that it normalised.
Mat3 checked_quaternion(double qx, double qy, double qz, double qw, bool& renormalised,
                        double tolerance = kQuaternionTolerance);
/// The nearest rotation to R (polar projection by SVD). Throws InputError when R is not finite
/// or is not a rotation within `tolerance`; `renormalised` as above.
Mat3 checked_rotation_matrix(const Mat3& R, bool& renormalised,
                             double tolerance = kRotationMatrixTolerance);

/// Per-component weights of the pose error from a mask: a comma-separated list of components
/// among x, y, z (position), rx, ry, rz (rotation vector), or the groups `position`,
/// `orientation`, `all` (empty = all). Selected position components get `position_weight`,
/// orientation components `orientation_weight`, the rest 0. Throws InputError on an unknown name
/// or when nothing is selected.
Vec6 ik_mask_weights(std::string_view mask, double position_weight = 1,
                     double orientation_weight = 1);

// ---------------------------------------------------------------------------------------------
// Position-level IK

/// One target: place `frame` at `target` relative to frame `reference` (-1: the world).
///
/// The error is [p_d - p_f; log3(R_d R_f^T)] (lecture notes eq. 2.251) expressed in the axes of
/// the reference frame, so masks and weights name the reference frame's axes (the world's by
/// default). Both frames may move with q (a target relative to another link of the robot).
struct IkProblem {
  int frame = -1;               // model.frames index of the frame to place
  int reference = -1;           // model.frames index the target is given in; -1 = world
  SE3 target;                   // desired placement of `frame` in `reference`
  Vec6 weights = Vec6::Ones();  // per error component, linear first; 0 masks it out
};

/// Throws InputError when the problem cannot be solved whatever q: a frame index out of range,
/// weights that are negative, not finite or all zero ("the mask selects nothing"), or no moving
/// joint between the frame and the reference ("frame 'x' has no moving joint above it").
void validate(const Model& model, const IkProblem& problem);

/// A secondary objective for redundant arms: once the pose has converged, steps in the null space
/// of the pose task (I - J^+ J) z, z = gain (q_preferred (-) q), each followed by a few pose
/// iterations back to the tolerance, move q along the solution set towards the preferred
/// configuration; the pose stays converged (a step that cannot return is halved, then dropped).
enum class NullSpaceObjective {
  none,     // pure least squares
  seed,     // stay near the seed
  centre,   // centre the joints within their limits
  posture,  // a user posture (IkOptions::posture)
};

/// Solver settings. The deciding budget is deterministic (iterations and restarts), so the same
/// problem, seed configuration and `random_seed` give the same q bit for bit; `timeout` is only an
/// outer safety cap on wall-clock time, and IkResult::timed_out says when it fired (the result
/// then depends on the machine).
struct IkOptions {
  double position_tolerance = 1e-6;     // m, norm of the selected position error components
  double orientation_tolerance = 1e-6;  // rad, norm of the selected rotation-vector components
  int max_iterations = 50;              // per attempt (the seed, then each restart)
  int max_total_iterations = 5000;      // over all attempts: the deterministic budget
  int max_restarts = 200;               // random restarts within the limits after the seed
  double timeout = 0.02;                // s, wall-clock safety cap; <= 0 disables it
  std::uint64_t random_seed = 0;        // restarts; the generator is reset for every solve
  int solutions = 1;      // converged solutions to collect; the one closest to the seed wins
  double max_step = 0.5;  // largest |dq| entry per iteration (rad or m)
  double damping = 1e-4;  // w_bar: damping bias added to the error energy E
  NullSpaceObjective null_space = NullSpaceObjective::none;
  double null_space_gain = 0.5;  // fraction of the distance to the preferred q per step
  Eigen::VectorXd posture;       // (nq) for NullSpaceObjective::posture
};

enum class IkStatus { converged, failed };

struct IkResult {
  IkStatus status = IkStatus::failed;
  Eigen::VectorXd q;             // (nq) the solution, or the best residual found; within limits
  double position_error = 0;     // m, as IkOptions::position_tolerance measures it
  double orientation_error = 0;  // rad
  int iterations = 0;            // over all attempts
  int restarts = 0;              // attempts after the first
  double time_us = 0;            // wall clock of the solve (not deterministic)
  bool timed_out = false;        // the wall-clock cap ended the search
  double jump = 0;  // largest |q (-) seed| entry: a trajectory jump when the seed is the last row
  bool converged() const { return status == IkStatus::converged; }
};

/// Per-thread IK workspace for one model: everything is allocated at construction, so solve()
/// allocates nothing (unless options.posture has the wrong size, which throws).
class IkSolver {
 public:
  explicit IkSolver(const Model& model);

  /// Solve `problem` starting from `q_seed` (nq; continuous joints are wrapped to the turn
  /// nearest the seed, bounded ones clamped into their limits; a revolute joint whose range spans
  /// more than a turn, as the UR5e's +-2 pi, is unwound by a turn where a step passes a limit:
  /// the same pose, not a stop). Joints that do not move the
  /// frame relative to the reference keep their seed value. Throws InputError for invalid
  /// problems (see validate) or sizes.
  const IkResult& solve(const IkProblem& problem, ConstVec q_seed, const IkOptions& options = {});

  const IkResult& result() const { return result_; }
  const Model& model() const { return model_; }

 private:
  void prepare(const IkProblem& problem);
  // Levenberg-Marquardt from q_ until converged (true), stalled or out of budget; E: final energy
  bool descend(const IkProblem& problem, const IkOptions& options, int max_iterations,
               std::chrono::steady_clock::time_point start, double& E);
  // the null-space objective on the solution set, from a converged q_
  void polish(const IkProblem& problem, const IkOptions& options,
              std::chrono::steady_clock::time_point start);
  double evaluate(const IkProblem& problem, ConstVec q);  // error energy, fills e_
  void jacobian(const IkProblem& problem);                // fills Jc_ at the last evaluate
  void build_normal_equations(double lambda);             // A_, dq_ (right-hand side) from Jc_, e_
  void errors(double& position, double& orientation) const;
  void project(VecRef q) const;  // limits and wrapping towards seed_
  double seed_distance(ConstVec q);

  const Model& model_;
  Data data_;
  IkResult result_;
  // the problem's support: joints moving the frame or the reference, ascending
  std::vector<int> chain_;           // joints placed by the forward pass (both paths to the root)
  std::vector<int> support_;         // joint indices
  std::vector<char> in_frame_;       // per joint: supports the frame
  std::vector<char> in_ref_;         // per joint: supports the reference
  std::vector<int> columns_;         // velocity indices of the support, in order
  std::vector<int> column_joint_q_;  // per column: q index of a 1-DoF joint, else -1
  std::vector<char> locked_;         // per column: held at its limit this step
  std::vector<char> unwinds_;        // per column: a range over a turn, unwound past its limits
  int m_ = 0;                        // columns_.size()
  // per evaluation
  Vec6 e_ = Vec6::Zero();  // error, reference axes
  Vec6 w_ = Vec6::Ones();  // weights
  SE3 oMf_, oMd_, oMr_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> Jc_;  // d(current - desired)/dq on the support
  Eigen::MatrixXd A_;  // J^T W J + lambda I, then its Cholesky factor (top-left m x m)
  Eigen::VectorXd g_, dq_, z_, vfull_;
  Eigen::VectorXd q_, q_try_, q_prev_, q_best_, q_conv_, seed_, preferred_;
  Rng rng_{0};
};

// ---------------------------------------------------------------------------------------------
// Velocity-level (differential) IK with several tasks

/// A task {J_i, w_i*} of the lecture notes eq. (2.213): rows of J qdot should equal w. `weights`
/// (one per row, empty = all 1) weight the rows in the stacked solution (eq. 2.215), and within
/// the task in the prioritized one (where they matter only when the task cannot be met).
struct VelocityTask {
  Eigen::MatrixXd J;        // (rows x nv)
  Eigen::VectorXd w;        // (rows)
  Eigen::VectorXd weights;  // (rows) or empty
};

/// A frame velocity task: the frame's velocity in `reference` (twist linear first) should be
/// `velocity`, on the components where `mask` is nonzero (rows with mask 0 are dropped; the
/// mask's nonzero entries become the row weights). Calls frame_jacobian at q.
VelocityTask frame_velocity_task(const Model& model, Data& data, ConstVec q, int frame,
                                 ReferenceFrame reference, const Vec6& velocity,
                                 const Vec6& mask = Vec6::Ones());
/// A joint velocity task: v[indices[k]] should be velocities[k] (velocity coordinates).
VelocityTask joint_velocity_task(const Model& model, const std::vector<int>& indices,
                                 ConstVec velocities);

/// Damped pseudo-inverse J^T (J J^T + lambda^2 I)^-1 by SVD: singular values s become
/// s / (s^2 + lambda^2); with lambda = 0, those below 1e-10 s_max are treated as zero (the
/// Moore-Penrose inverse).
Eigen::MatrixXd damped_pseudo_inverse(const Eigen::MatrixXd& J, double damping = 0);

/// Equal priority: qdot = Jbar^+W wbar over the stacked tasks (eqs. 2.214, 2.215).
Eigen::VectorXd differential_ik_stacked(const std::vector<VelocityTask>& tasks, int nv,
                                        double damping = 0);
/// Strict priority, tasks[0] first: recursive null-space projection (eq. 2.220).
/// Both run through DifferentialIk.
Eigen::VectorXd differential_ik_prioritized(const std::vector<VelocityTask>& tasks, int nv,
                                            double damping = 0);

/// One task of a DifferentialIk workspace, fixed at construction (its targets change per solve).
struct VelocityTaskSpec {
  enum class Kind {
    frame,   // a frame's velocity: Jacobian rows selected by `mask`, filled by update(q)
    joints,  // velocity coordinates `joints`: rows of the identity
    rows,    // `rows` rows whose Jacobian the caller writes (DifferentialIk::jacobian)
  };
  Kind kind = Kind::rows;
  int frame = -1;  // model.frames index
  ReferenceFrame reference = ReferenceFrame::local_world_aligned;
  Vec6 mask = Vec6::Ones();  // frame: per twist component (linear first) its weight; 0 drops it
  std::vector<int> joints;   // joints: velocity indices
  int rows = 0;              // rows
  Eigen::VectorXd weights;   // joints, rows: one per row, or empty for all 1

  static VelocityTaskSpec frame_velocity(int frame, ReferenceFrame reference,
                                         const Vec6& mask = Vec6::Ones());
  static VelocityTaskSpec joint_velocity(std::vector<int> indices);
};

/// Multi-task differential IK workspace (lecture notes section 2.9.2): everything is sized at
/// construction from the model and the tasks, so update(), the solves and residual() allocate
/// nothing. Per solve: set each task's target (and the Jacobian of `rows` tasks), call update(q)
/// when there are frame tasks, then solve_stacked or solve_prioritized. Row weights W enter both
/// solves as W^1/2 J qdot = W^1/2 w (eq. 2.215), within a task for the prioritized one.
class DifferentialIk {
 public:
  /// Throws InputError for a frame index out of range, a mask or weights negative or not finite,
  /// a task that selects no row, or a joint index out of range.
  DifferentialIk(const Model& model, std::vector<VelocityTaskSpec> tasks);
  /// Only `rows` tasks, over nv velocity coordinates (no model).
  DifferentialIk(int nv, std::vector<VelocityTaskSpec> tasks);
  ~DifferentialIk();
  DifferentialIk(const DifferentialIk&) = delete;
  DifferentialIk& operator=(const DifferentialIk&) = delete;

  int task_count() const { return static_cast<int>(specs_.size()); }
  int nv() const { return nv_; }
  /// Rows of a task: the selected twist components of a frame task (in twist order), the joints
  /// of a joint task (in the given order).
  int rows(int task) const { return count_[task]; }
  const VelocityTaskSpec& spec(int task) const { return specs_[task]; }

  /// The task's target velocity w_i (rows(task)); zero until set.
  Eigen::VectorBlock<Eigen::VectorXd> target(int task) {
    return w_.segment(offset_[task], count_[task]);
  }
  /// The task's Jacobian J_i (rows(task) x nv): written by the caller for `rows` tasks, by
  /// update() for frame tasks.
  Eigen::Block<Eigen::MatrixXd> jacobian(int task) {
    return J_.middleRows(offset_[task], count_[task]);
  }
  /// The task's row weights (rows(task)); from the spec, changeable per solve.
  Eigen::VectorBlock<Eigen::VectorXd> weights(int task) {
    return weights_.segment(offset_[task], count_[task]);
  }

  /// The Jacobians of the frame tasks at q (one forward pass).
  void update(ConstVec q);
  /// Equal priority: qdot = (W^1/2 Jbar)^+ W^1/2 wbar over all tasks (eqs. 2.214, 2.215), with
  /// the damped pseudo-inverse.
  const Eigen::VectorXd& solve_stacked(double damping = 0);
  /// Strict priority in task order: qdot_i = qdot_{i-1} + (J_i N_{i-1})^+ (w_i - J_i qdot_{i-1}),
  /// N_i = N_{i-1} - (J_i N_{i-1})^+ J_i N_{i-1}, N_0 = I (eq. 2.220).
  const Eigen::VectorXd& solve_prioritized(double damping = 0);

  /// The last solution (nv).
  const Eigen::VectorXd& velocity() const { return qdot_; }
  /// | J_i qdot - w_i | of the last solution, unweighted (m/s, rad/s or a mix for a frame task).
  double residual(int task) const;

  class PseudoInverse;  // the SVD workspace of one matrix size (in ik.cpp)

 private:
  void build();

  const Model* model_ = nullptr;
  std::unique_ptr<Data> data_;
  std::vector<VelocityTaskSpec> specs_;
  int nv_ = 0;
  std::vector<int> offset_, count_;
  Eigen::MatrixXd J_, Jw_;  // stacked Jacobian, and with rows scaled by sqrt(weight)
  Eigen::VectorXd w_, ww_, weights_, achieved_;
  Eigen::VectorXd qdot_;
  Eigen::MatrixXd N_;  // null-space projector of the tasks above
  std::vector<std::unique_ptr<PseudoInverse>> task_inverse_;  // per task: rows_i x nv
  std::unique_ptr<PseudoInverse> stacked_inverse_;            // total rows x nv
};

}  // namespace eom
