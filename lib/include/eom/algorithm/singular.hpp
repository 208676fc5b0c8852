// Singular value analysis of frame Jacobians: rank, conditioning, manipulability, null space and
// the task-space directions a configuration loses at (or near) a singularity, with a plain-words
// description of each; and workspace sampling of those figures.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "eom/algorithm/kinematics.hpp"
#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

/// The rows of a 6-row Jacobian [vx vy vz wx wy wz] that a task uses, ascending.
struct TaskRows {
  std::array<int, 6> rows{};
  int size = 0;

  static TaskRows full();         // vx vy vz wx wy wz
  static TaskRows position();     // vx vy vz
  static TaskRows orientation();  // wx wy wz
  /// Rows by name (vx vy vz wx wy wz, any order, each at most once); throws InputError on an
  /// unknown or repeated name or an empty list.
  static TaskRows named(const std::vector<std::string>& names);
};
/// "vx", "vy", "vz", "wx", "wy", "wz" for rows 0..5.
const char* task_row_name(int row);

/// The rank rule: sigma_i counts toward the rank iff sigma_i > threshold, with
/// threshold = max(absolute, relative * sigma_1). The default, relative 1e-6, is ten orders of
/// magnitude above the round-off of a Jacobian (1e-16 relative), so exactly singular
/// configurations are always found, and calls singular only those whose weakest direction
/// responds a million times less than the strongest (for the UR5's elbow, within ~5e-5 rad of
/// stretched).
///
/// Stability: singular values move by at most ||dJ||_2 under a perturbation dJ (Weyl), so the
/// rank cannot change while ||dJ||_2 < SingularityAnalysis::rank_margin(); a decision closer than
/// that to the threshold is reported as such (margin near 0), not hidden.
struct RankTolerance {
  double absolute = 0;
  double relative = 1e-6;
  double threshold(double sigma_max) const {
    return absolute > relative * sigma_max ? absolute : relative * sigma_max;
  }
};

/// How a task-space direction moves the frame.
enum class MotionKind {
  linear,    // at least 90% of its squared norm is linear velocity
  rotation,  // at least 90% is angular velocity
  mixed,     // both
};
/// The axes a direction is described in.
enum class AxisBasis { world, frame };

/// The dominant axis of the linear or angular part of a direction.
struct AxisDescription {
  AxisBasis basis = AxisBasis::world;
  int axis = 0;                   // 0, 1, 2: x, y, z of that basis
  double alignment = 0;           // |cos| of the angle between the part and that axis, in [0, 1]
  Vec3 direction = Vec3::Zero();  // the part as a unit vector in that basis' axes
};

/// A task-space unit direction in plain terms. Its 6-D form [v; w] is in world axes (the
/// linear part is the velocity of the frame origin, or of the point at the world origin for
/// ReferenceFrame::world). The axis of each part is the world axis or the frame axis closest to
/// it, the world on ties.
struct DirectionDescription {
  MotionKind kind = MotionKind::linear;
  double linear_fraction = 1;  // |v|^2 / (|v|^2 + |w|^2)
  AxisDescription linear, angular;
  Vec6 world = Vec6::Zero();  // [v; w] in world axes, unit
};

/// Describes a unit task-space vector u (TaskRows::size entries, in the axes of `reference`)
/// for a frame placed at oMf.
DirectionDescription describe_direction(const TaskRows& task,
                                        const Eigen::Ref<const Eigen::VectorXd>& u,
                                        ReferenceFrame reference, const SE3& oMf);
/// In words: "linear motion along world x", "rotation about the tool0 z axis", "mixed: linear
/// motion along world x (80%) with rotation about world z". An axis less than 0.99 aligned is
/// given as a vector: "linear motion along world (0.707, 0.707, 0)".
std::string to_string(const DirectionDescription& d, std::string_view frame_name);

/// The singular value decomposition J_task = U S V^T of the task rows of a frame Jacobian and
/// what follows from it. Sized at construction (nv and the task); compute() allocates nothing.
class SingularityAnalysis {
 public:
  SingularityAnalysis(int nv, TaskRows task = TaskRows::full(), RankTolerance tolerance = {});

  /// Analyses J (6 x nv, rows vx vy vz wx wy wz, in `reference` axes) of a frame placed at oMf.
  void compute(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J, ReferenceFrame reference,
               const SE3& oMf);
  /// Only the singular values and what follows from them (threshold, rank, rank_margin,
  /// condition, manipulability, nullity), about four times faster than compute() when J is not
  /// ill conditioned: sigma_i = sqrt(lambda_i) of the Gram matrix G = J J^T (J^T J when the task
  /// has more rows than nv). Forming G and its eigen-solver err by O(eps ||G||) (Weyl), so
  /// |d sigma_i| <~ 60 eps sigma_1^2 / sigma_i <= 60 eps kappa sigma_1: with the condition number
  /// kappa at most kGramConditionLimit, within 1.3e-11 sigma_1, ten times inside 1e-10 (an SVD
  /// guarantees about eps sigma_1; the relative error of the smallest value is 60 eps kappa^2,
  /// at most 1.3e-8). Past the limit the values come from the SVD, as in compute(). The singular
  /// vectors, lost directions and null space are left as the last compute() made them.
  void compute_values(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J);
  static constexpr double kGramConditionLimit = 1000;

  const TaskRows& task() const { return task_; }
  int task_size() const { return task_.size; }
  int nv() const { return nv_; }
  /// The task rows of J (task_size x nv).
  const Eigen::MatrixXd& task_jacobian() const { return J_; }

  /// sigma_1 >= ... >= sigma_p, p = min(task_size, nv).
  const Eigen::VectorXd& singular_values() const { return sigma_; }
  /// The threshold of the rank rule for this J.
  double threshold() const { return threshold_; }
  int rank() const { return rank_; }
  /// min_i |sigma_i - threshold| / (1 + relative): perturbations of J smaller than this (2-norm)
  /// cannot change the rank.
  double rank_margin() const { return margin_; }
  /// sigma_1 / sigma_p; infinity when sigma_p = 0.
  double condition() const { return condition_; }
  /// Yoshikawa's measure sqrt(det(J J^T)) = sigma_1 ... sigma_p when task_size <= nv, else 0.
  double manipulability() const { return manipulability_; }
  /// nv - rank: the dimension of the joint velocities that do not move the task.
  int nullity() const { return nv_ - rank_; }
  /// An orthonormal basis of the null space, nv x nullity (the last columns of V).
  Eigen::Block<const Eigen::MatrixXd> null_space() const;
  /// task_size - rank: the dimension of the task-space directions the configuration cannot move.
  int lost_count() const { return task_.size - rank_; }
  /// Lost direction k (task_size entries, unit): an orthonormal basis of the left null space
  /// (the columns of U past the rank), turned so that each is as close as possible to a world or
  /// frame axis (greedily, world first), which names them well when several are lost at once.
  Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1, true> lost_direction(int k) const;
  const DirectionDescription& lost_description(int k) const { return descriptions_[k]; }
  /// The direction of the smallest singular value (the one closest to being lost) and its
  /// description, whatever the rank.
  Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1, true> weakest_direction() const;
  const DirectionDescription& weakest_description() const { return weakest_; }

 private:
  void take_task_rows(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J);
  void svd_values();  // sigma_ (and U_, V_) by the SVD of J_
  void figures();     // threshold, rank, margin, condition, manipulability from sigma_
  void align_lost_directions(ReferenceFrame reference, const SE3& oMf);

  TaskRows task_;
  RankTolerance tolerance_;
  int nv_;
  Eigen::MatrixXd J_;  // (m x nv)
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
  Eigen::Matrix<double, 6, 6> gram_;  // top-left p x p
  Eigen::VectorXd sigma_;             // (p)
  Eigen::MatrixXd U_;                 // (m x m) left singular vectors
  Eigen::MatrixXd V_;                 // (nv x nv) right singular vectors
  Eigen::MatrixXd lost_;  // (m x m) first lost_count() columns: the aligned lost directions
  std::array<DirectionDescription, 6> descriptions_;
  DirectionDescription weakest_;
  double threshold_ = 0, margin_ = 0, condition_ = 0, manipulability_ = 0;
  int rank_ = 0;
};

/// The most samples sample_workspace draws: its quantiles are exact, so it keeps two doubles per
/// sample (160 MB at the most), and ten million samples take minutes.
constexpr int kMaxWorkspaceSamples = 10'000'000;

/// Workspace sampling of a frame's manipulability and conditioning.
struct WorkspaceSampleOptions {
  int samples = 1000;
  std::uint64_t seed = 1;
  int worst = 5;  // how many worst configurations to keep
  ReferenceFrame reference = ReferenceFrame::local_world_aligned;
  TaskRows task = TaskRows::full();
  RankTolerance tolerance;
};

/// One sampled configuration and its figures.
struct WorkspaceSamplePoint {
  Eigen::VectorXd q;
  double manipulability = 0, condition = 0;
  int rank = 0;
};

/// Quantiles (linear interpolation between order statistics, Hyndman-Fan type 7) at the
/// probabilities of `probabilities`.
struct WorkspaceSampleResult {
  std::vector<double> probabilities;              // 0, 0.05, 0.25, 0.5, 0.75, 0.95, 1
  std::vector<double> manipulability, condition;  // their quantiles
  int rank_deficient = 0;                         // samples below full task rank
  std::vector<WorkspaceSamplePoint> worst;        // lowest manipulability first (ties: higher
                                                  // condition, then sample order)
};

/// Draws options.samples configurations (1 to kMaxWorkspaceSamples, else InputError) with
/// random_configuration (bounded joints within their
/// limits) from Rng(options.seed) and reports the quantiles of manipulability and condition of
/// the frame's Jacobian and the worst configurations found. Deterministic for a seed.
WorkspaceSampleResult sample_workspace(const Model& model, int frame,
                                       const WorkspaceSampleOptions& options);

}  // namespace eom
