#include "eom/algorithm/singular.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "eom/multibody/component_names.hpp"
#include "eom/multibody/configuration.hpp"
#include "eom/multibody/data.hpp"
#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "core/sizes.hpp"
#include "linalg/symmetric_eigenvalues.hpp"
#include "core/tolerances.hpp"

namespace eom {

namespace {

TaskRows rows_from(int first, int count) {
  TaskRows t;
  for (int k = 0; k < count; ++k) t.rows[k] = first + k;
  t.size = count;
  return t;
}

// The dominant world or frame axis of a nonzero vector x given in world axes.
AxisDescription describe_axis(const Vec3& x, const Mat3& R) {
  AxisDescription out;
  const double n = x.norm();
  if (!(n > 0)) return out;
  const Vec3 world = x / n;
  const Vec3 frame = R.transpose() * world;
  Eigen::Index kw, kf;
  const double aw = world.cwiseAbs().maxCoeff(&kw);
  const double af = frame.cwiseAbs().maxCoeff(&kf);
  // the world on ties: a frame axis must be clearly closer
  const bool use_frame = af > aw + detail::kAxisTie;
  out.basis = use_frame ? AxisBasis::frame : AxisBasis::world;
  out.axis = static_cast<int>(use_frame ? kf : kw);
  out.alignment = use_frame ? af : aw;
  out.direction = use_frame ? frame : world;
  // a direction and its opposite are the same lost direction: point along the axis
  if (out.direction[out.axis] < 0) out.direction = -out.direction;
  return out;
}

std::string axis_text(const AxisDescription& a, std::string_view frame_name, bool rotation) {
  const std::string prep = rotation ? "about" : "along";
  const std::string frame(frame_name);
  if (a.alignment >= 0.99) {
    const char axis = "xyz"[a.axis];
    return a.basis == AxisBasis::world ? prep + " world " + axis
                                       : prep + " the " + frame + " " + axis + " axis";
  }
  // three significant digits, a component below round-off of the third shown as 0
  auto shown = [](double x) { return number_text(std::abs(x) < 5e-4 ? 0.0 : x, 3); };
  const Vec3& d = a.direction;
  const std::string direction =
      "(" + shown(d.x()) + ", " + shown(d.y()) + ", " + shown(d.z()) + ")";
  return a.basis == AxisBasis::world ? prep + " world " + direction
                                     : prep + " " + direction + " in " + frame + " axes";
}

}  // namespace

TaskRows TaskRows::full() { return rows_from(0, 6); }
TaskRows TaskRows::position() { return rows_from(0, 3); }
TaskRows TaskRows::orientation() { return rows_from(3, 3); }

TaskRows TaskRows::named(const std::vector<std::string>& names) {
  if (names.empty()) throw InputError("the task selects no rows (choose from vx vy vz wx wy wz)");
  std::array<bool, 6> used{};
  for (const std::string& name : names) {
    const auto* it = std::find(kTwistComponents.begin(), kTwistComponents.end(), name);
    if (it == kTwistComponents.end()) {
      throw InputError("unknown task row '" + name + "' (choose from vx vy vz wx wy wz)");
    }
    const int row = static_cast<int>(it - kTwistComponents.begin());
    if (used[row]) throw InputError("task row '" + name + "' is given twice");
    used[row] = true;
  }
  TaskRows t;
  for (int r = 0; r < 6; ++r) {
    if (used[r]) t.rows[t.size++] = r;
  }
  return t;
}

const char* task_row_name(int row) { return kTwistComponents[row]; }

DirectionDescription describe_direction(const TaskRows& task,
                                        const Eigen::Ref<const Eigen::VectorXd>& u,
                                        ReferenceFrame reference, const SE3& oMf) {
  detail::check_size(u.size(), task.size, "the task direction");
  Vec6 six = Vec6::Zero();
  for (int k = 0; k < task.size; ++k) six[task.rows[k]] = u[k];
  const double n = six.norm();
  if (n > 0) six /= n;
  Vec3 lin = six.head<3>(), ang = six.tail<3>();
  if (reference == ReferenceFrame::local) {
    lin = oMf.R * lin;
    ang = oMf.R * ang;
  }
  DirectionDescription d;
  d.world << lin, ang;
  d.linear_fraction = lin.squaredNorm();
  d.kind = d.linear_fraction >= 0.9   ? MotionKind::linear
           : d.linear_fraction <= 0.1 ? MotionKind::rotation
                                      : MotionKind::mixed;
  d.linear = describe_axis(lin, oMf.R);
  d.angular = describe_axis(ang, oMf.R);
  return d;
}

std::string to_string(const DirectionDescription& d, std::string_view frame_name) {
  switch (d.kind) {
    case MotionKind::linear:
      return "linear motion " + axis_text(d.linear, frame_name, false);
    case MotionKind::rotation:
      return "rotation " + axis_text(d.angular, frame_name, true);
    case MotionKind::mixed: {
      return "mixed: linear motion " + axis_text(d.linear, frame_name, false) + " (" +
             fixed_text(100 * d.linear_fraction, 0) + "%) with rotation " +
             axis_text(d.angular, frame_name, true);
    }
  }
  return {};
}

SingularityAnalysis::SingularityAnalysis(int nv, TaskRows task, RankTolerance tolerance)
    : task_(task),
      tolerance_(tolerance),
      nv_(nv),
      J_(Eigen::MatrixXd::Zero(task.size, nv)),
      svd_(task.size, std::max(nv, 1), Eigen::ComputeFullU | Eigen::ComputeFullV),
      gram_(Eigen::Matrix<double, 6, 6>::Zero()),
      sigma_(Eigen::VectorXd::Zero(std::min(task.size, nv))),
      U_(Eigen::MatrixXd::Zero(task.size, task.size)),
      V_(Eigen::MatrixXd::Zero(nv, nv)),
      lost_(Eigen::MatrixXd::Zero(task.size, task.size)) {
  if (task.size < 1 || task.size > 6) throw InputError("a task has 1 to 6 rows");
}

void SingularityAnalysis::take_task_rows(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J) {
  detail::check_size(J.cols(), nv_, "the Jacobian's columns");
  for (int k = 0; k < task_.size; ++k) J_.row(k) = J.row(task_.rows[k]);
}

void SingularityAnalysis::svd_values() {
  if (nv_ > 0) {
    svd_.compute(J_);
    sigma_ = svd_.singularValues();
    U_ = svd_.matrixU();
    V_ = svd_.matrixV();
  } else {
    U_.setIdentity();  // nothing moves: every direction is lost
  }
}

void SingularityAnalysis::figures() {
  const int m = task_.size;
  const int p = static_cast<int>(sigma_.size());
  const double sigma_max = p > 0 ? sigma_[0] : 0;
  threshold_ = tolerance_.threshold(sigma_max);
  rank_ = 0;
  margin_ = std::numeric_limits<double>::infinity();
  manipulability_ = m <= nv_ ? 1 : 0;
  for (int i = 0; i < p; ++i) {
    if (sigma_[i] > threshold_) ++rank_;
    // the threshold itself moves by relative * |d sigma_1| under a perturbation
    margin_ = std::min(margin_, std::abs(sigma_[i] - threshold_) / (1 + tolerance_.relative));
    if (m <= nv_) manipulability_ *= sigma_[i];
  }
  condition_ = p > 0 && sigma_[p - 1] > 0 ? sigma_max / sigma_[p - 1]
                                          : std::numeric_limits<double>::infinity();
}

void SingularityAnalysis::compute_values(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J) {
  take_task_rows(J);
  const int p = static_cast<int>(sigma_.size());
  if (p > 0) {
    if (task_.size <= nv_) {
      gram_.topLeftCorner(p, p).noalias() = J_ * J_.transpose();
    } else {
      gram_.topLeftCorner(p, p).noalias() = J_.transpose() * J_;
    }
    double lambda[6];  // ascending
    const double limit = kGramConditionLimit * kGramConditionLimit;
    if (linalg::symmetric_eigenvalues(gram_, p, lambda) && lambda[0] * limit > lambda[p - 1]) {
      for (int i = 0; i < p; ++i) sigma_[i] = std::sqrt(lambda[p - 1 - i]);
      figures();
      return;
    }
  }
  svd_values();
  figures();
}

void SingularityAnalysis::compute(const Eigen::Matrix<double, 6, Eigen::Dynamic>& J,
                                  ReferenceFrame reference, const SE3& oMf) {
  take_task_rows(J);
  svd_values();
  figures();
  const int m = task_.size;
  align_lost_directions(reference, oMf);
  for (int k = 0; k < lost_count(); ++k) {
    descriptions_[k] = describe_direction(task_, lost_.col(k), reference, oMf);
  }
  weakest_ = describe_direction(task_, U_.col(m - 1), reference, oMf);
}

void SingularityAnalysis::align_lost_directions(ReferenceFrame reference, const SE3& oMf) {
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
  using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
  const int m = task_.size, lost = m - rank_;
  if (lost == 0) return;
  // candidates: unit linear and angular motions along the world and the frame axes, in the
  // Jacobian's axes (the frame's for local, else the world's), restricted to the task rows
  const Mat3 to_ref =
      reference == ReferenceFrame::local ? Mat3(oMf.R.transpose()) : Mat3::Identity();
  const Mat3 frame_axes = to_ref * oMf.R;
  Eigen::Matrix<double, 6, 12> candidates = Eigen::Matrix<double, 6, 12>::Zero();
  for (int k = 0; k < 3; ++k) {
    candidates.block<3, 1>(0, k) = to_ref.col(k);
    candidates.block<3, 1>(3, 3 + k) = to_ref.col(k);
    candidates.block<3, 1>(0, 6 + k) = frame_axes.col(k);
    candidates.block<3, 1>(3, 9 + k) = frame_axes.col(k);
  }
  Eigen::Matrix<double, Eigen::Dynamic, 12, 0, 6, 12> task_candidates(m, 12);
  for (int k = 0; k < m; ++k) task_candidates.row(k) = candidates.row(task_.rows[k]);

  // B: orthonormal basis of the lost directions not yet chosen (the columns of U past the rank)
  Small B = U_.rightCols(lost);
  for (int s = 0; s < lost; ++s) {
    const int r = lost - s;
    // the candidate with the largest projection on span(B), world axes first on ties
    int best = 0;
    double best_norm = -1;
    for (int c = 0; c < 12; ++c) {
      const double n = (B.leftCols(r).transpose() * task_candidates.col(c)).norm();
      if (n > best_norm + detail::kCandidateTie) {
        best_norm = n;
        best = c;
      }
    }
    SmallVec y = B.leftCols(r).transpose() * task_candidates.col(best);
    y /= y.norm();
    SmallVec d = B.leftCols(r) * y;
    d /= d.norm();
    Eigen::Index k;
    d.cwiseAbs().maxCoeff(&k);
    if (d[k] < 0) d = -d;
    lost_.col(s) = d;
    // deflate: a Householder reflection H with H y = e1 makes B H = [d, rest]; keep the rest
    SmallVec w = y;
    w[0] -= 1;
    const double wn = w.norm();
    Small BH = B.leftCols(r);
    if (wn > detail::kReflectionNegligible) {
      w /= wn;
      const SmallVec Bw = BH * w;
      BH.noalias() -= 2 * Bw * w.transpose();
    }
    if (r > 1) B.leftCols(r - 1) = BH.rightCols(r - 1);
  }
}

Eigen::Block<const Eigen::MatrixXd> SingularityAnalysis::null_space() const {
  return V_.block(0, rank_, nv_, nv_ - rank_);
}

Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1, true> SingularityAnalysis::lost_direction(
    int k) const {
  return lost_.col(k);
}

Eigen::Block<const Eigen::MatrixXd, Eigen::Dynamic, 1, true>
SingularityAnalysis::weakest_direction() const {
  return U_.col(task_.size - 1);
}

namespace {
// Hyndman-Fan type 7 quantile of sorted values
double quantile(const std::vector<double>& sorted, double prob) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double h = (static_cast<double>(sorted.size()) - 1) * prob;
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = h - static_cast<double>(lo);
  if (frac == 0 || sorted[lo] == sorted[hi]) return sorted[lo];
  if (std::isinf(sorted[hi])) return sorted[hi];
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}
}  // namespace

WorkspaceSampleResult sample_workspace(const Model& model, int frame,
                                       const WorkspaceSampleOptions& options) {
  if (options.samples < 1) throw InputError("workspace sampling needs at least one sample");
  if (frame < 0 || frame >= static_cast<int>(model.frames.size())) {
    throw InputError("frame index " + std::to_string(frame) + " is out of range");
  }
  Data data(model);
  SingularityAnalysis analysis(model.nv, options.task, options.tolerance);
  Rng rng(options.seed);
  const int full_rank = std::min(options.task.size, model.nv);
  WorkspaceSampleResult out;
  out.probabilities = {0, 0.05, 0.25, 0.5, 0.75, 0.95, 1};
  std::vector<double> manipulability, condition;
  manipulability.reserve(options.samples);
  condition.reserve(options.samples);
  // worse: lower manipulability, then higher condition, then the earlier sample (so that earlier
  // samples win ties). The K worst so far are a heap whose top is the best of them: each sample
  // costs log K, where keeping them sorted cost K (2e5 samples, 2e5 worst: 53 s).
  using Ranked = std::pair<int, WorkspaceSamplePoint>;  // sample index, point
  auto worse = [](const Ranked& a, const Ranked& b) {
    if (a.second.manipulability != b.second.manipulability) {
      return a.second.manipulability < b.second.manipulability;
    }
    if (a.second.condition != b.second.condition) return a.second.condition > b.second.condition;
    return a.first < b.first;
  };
  std::vector<Ranked> worst;
  worst.reserve(static_cast<size_t>(std::max(0, std::min(options.worst, options.samples))));
  for (int s = 0; s < options.samples; ++s) {
    Ranked ranked{s, {}};
    WorkspaceSamplePoint& point = ranked.second;
    point.q = random_configuration(model, rng);
    frame_jacobian(model, data, point.q, frame, options.reference);
    analysis.compute(data.J, options.reference, data.oMf[frame]);
    point.manipulability = analysis.manipulability();
    point.condition = analysis.condition();
    point.rank = analysis.rank();
    manipulability.push_back(point.manipulability);
    condition.push_back(point.condition);
    if (point.rank < full_rank) ++out.rank_deficient;
    if (options.worst <= 0) continue;
    if (static_cast<int>(worst.size()) < options.worst) {
      worst.push_back(std::move(ranked));
      std::push_heap(worst.begin(), worst.end(), worse);
    } else if (worse(ranked, worst.front())) {
      std::pop_heap(worst.begin(), worst.end(), worse);
      worst.back() = std::move(ranked);
      std::push_heap(worst.begin(), worst.end(), worse);
    }
  }
  std::sort_heap(worst.begin(), worst.end(), worse);  // the worst first
  for (Ranked& ranked : worst) out.worst.push_back(std::move(ranked.second));
  std::sort(manipulability.begin(), manipulability.end());
  std::sort(condition.begin(), condition.end());
  for (double prob : out.probabilities) {
    out.manipulability.push_back(quantile(manipulability, prob));
    out.condition.push_back(quantile(condition, prob));
  }
  return out;
}

}  // namespace eom
