// Velocity-level (differential) inverse kinematics: several task velocities realised by one joint
// velocity, stacked or by strict priority (Hutter et al., Robot Dynamics Lecture Notes, §2.9.2,
// eqs. 2.214-2.220). The position-level solver is ik.cpp.
#include "eom/solvers/ik.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/SVD>

#include "eom/core/errors.hpp"
#include "core/sizes.hpp"
#include "core/tolerances.hpp"

namespace eom {

namespace {
// The rows a frame velocity task selects; throws InputError for an invalid frame or mask
int frame_task_rows(const Model& model, int frame, const Vec6& mask) {
  if (frame < 0 || frame >= static_cast<int>(model.frames.size()))
    throw InputError("frame velocity task: frame index " + std::to_string(frame) +
                     " is out of range");
  if (!mask.allFinite() || (mask.array() < 0).any())
    throw InputError("frame velocity task: mask weights must be finite and non-negative");
  const int rows = static_cast<int>((mask.array() > 0).count());
  if (rows == 0) throw InputError("frame velocity task: the mask selects nothing");
  return rows;
}

void check_joint_indices(int nv, const std::vector<int>& indices) {
  if (indices.empty()) throw InputError("joint velocity task: no joint selected");
  for (int index : indices) {
    if (index < 0 || index >= nv)
      throw InputError("joint velocity task: velocity index " + std::to_string(index) +
                       " is out of range");
  }
}
}  // namespace

VelocityTask frame_velocity_task(const Model& model, Data& data, ConstVec q, int frame,
                                 ReferenceFrame reference, const Vec6& velocity, const Vec6& mask) {
  const int rows = frame_task_rows(model, frame, mask);
  const auto& J = frame_jacobian(model, data, q, frame, reference);
  VelocityTask task{Eigen::MatrixXd(rows, model.nv), Eigen::VectorXd(rows), Eigen::VectorXd(rows)};
  int r = 0;
  for (int k = 0; k < 6; ++k) {
    if (!(mask[k] > 0)) continue;
    task.J.row(r) = J.row(k);
    task.w[r] = velocity[k];
    task.weights[r] = mask[k];
    ++r;
  }
  return task;
}

VelocityTask joint_velocity_task(const Model& model, const std::vector<int>& indices,
                                 ConstVec velocities) {
  detail::check_size(velocities.size(), static_cast<int>(indices.size()), "joint task velocities");
  check_joint_indices(model.nv, indices);
  const int rows = static_cast<int>(indices.size());
  VelocityTask task{Eigen::MatrixXd::Zero(rows, model.nv), velocities, Eigen::VectorXd()};
  for (int r = 0; r < rows; ++r) task.J(r, indices[r]) = 1;
  return task;
}

// The damped pseudo-inverse of matrices of one size, by an SVD allocated once: singular values s
// become s / (s^2 + lambda^2), or with lambda = 0, 1 / s above kTaskRankTolerance s_max and 0
// below.
class DifferentialIk::PseudoInverse {
 public:
  PseudoInverse(int rows, int cols)
      : input_(rows, cols),
        svd_(rows, cols, Eigen::ComputeThinU | Eigen::ComputeThinV),
        inverse_(std::min(rows, cols)),
        projected_(std::min(rows, cols)),
        scaled_v_(cols, std::min(rows, cols)),
        matrix_(cols, rows) {}

  // the matrix J to invert: write it here, then compute
  Eigen::MatrixXd& input() { return input_; }

  void compute(double damping) {
    svd_.compute(input_);
    const Eigen::VectorXd& s = svd_.singularValues();
    const double cutoff = detail::kTaskRankTolerance * (s.size() ? s[0] : 0.0);
    for (int k = 0; k < s.size(); ++k) {
      inverse_[k] =
          damping > 0 ? s[k] / (s[k] * s[k] + damping * damping) : (s[k] > cutoff ? 1 / s[k] : 0.0);
    }
  }
  // x = J^+ b, from the last compute
  void apply(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
    projected_.noalias() = svd_.matrixU().transpose() * b;
    projected_.array() *= inverse_.array();
    x.noalias() = svd_.matrixV() * projected_;
  }
  // J^+ itself, from the last compute
  const Eigen::MatrixXd& matrix() {
    scaled_v_ = svd_.matrixV() * inverse_.asDiagonal();
    matrix_.noalias() = scaled_v_ * svd_.matrixU().transpose();
    return matrix_;
  }

 private:
  Eigen::MatrixXd input_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
  Eigen::VectorXd inverse_, projected_;
  Eigen::MatrixXd scaled_v_, matrix_;
};

Eigen::MatrixXd damped_pseudo_inverse(const Eigen::MatrixXd& J, double damping) {
  if (J.size() == 0) return Eigen::MatrixXd::Zero(J.cols(), J.rows());
  DifferentialIk::PseudoInverse inverse(static_cast<int>(J.rows()), static_cast<int>(J.cols()));
  inverse.input() = J;
  inverse.compute(damping);
  return inverse.matrix();
}

namespace {
void check_task(const VelocityTask& t, int nv) {
  if (t.J.cols() != nv || t.J.rows() != t.w.size() ||
      (t.weights.size() != 0 && t.weights.size() != t.w.size()))
    throw InputError("velocity task: J must be rows x nv with one target (and weight) per row");
}

// A workspace holding `tasks` as caller-filled row tasks
DifferentialIk load_tasks(const std::vector<VelocityTask>& tasks, int nv) {
  std::vector<VelocityTaskSpec> specs;
  for (const auto& t : tasks) {
    check_task(t, nv);
    VelocityTaskSpec spec;
    spec.rows = static_cast<int>(t.w.size());
    spec.weights = t.weights;
    specs.push_back(std::move(spec));
  }
  return DifferentialIk(nv, std::move(specs));
}

void fill_tasks(DifferentialIk& ik, const std::vector<VelocityTask>& tasks) {
  for (int i = 0; i < ik.task_count(); ++i) {
    ik.jacobian(i) = tasks[i].J;
    ik.target(i) = tasks[i].w;
  }
}
}  // namespace

Eigen::VectorXd differential_ik_stacked(const std::vector<VelocityTask>& tasks, int nv,
                                        double damping) {
  if (tasks.empty()) return Eigen::VectorXd::Zero(nv);
  DifferentialIk ik = load_tasks(tasks, nv);
  fill_tasks(ik, tasks);
  return ik.solve_stacked(damping);
}

Eigen::VectorXd differential_ik_prioritized(const std::vector<VelocityTask>& tasks, int nv,
                                            double damping) {
  if (tasks.empty()) return Eigen::VectorXd::Zero(nv);
  DifferentialIk ik = load_tasks(tasks, nv);
  fill_tasks(ik, tasks);
  return ik.solve_prioritized(damping);
}

VelocityTaskSpec VelocityTaskSpec::frame_velocity(int frame, ReferenceFrame reference,
                                                  const Vec6& mask) {
  VelocityTaskSpec spec;
  spec.kind = Kind::frame;
  spec.frame = frame;
  spec.reference = reference;
  spec.mask = mask;
  return spec;
}

VelocityTaskSpec VelocityTaskSpec::joint_velocity(std::vector<int> indices) {
  VelocityTaskSpec spec;
  spec.kind = Kind::joints;
  spec.joints = std::move(indices);
  return spec;
}

DifferentialIk::DifferentialIk(const Model& model, std::vector<VelocityTaskSpec> tasks)
    : model_(&model),
      data_(std::make_unique<Data>(model)),
      specs_(std::move(tasks)),
      nv_(model.nv) {
  build();
}

DifferentialIk::DifferentialIk(int nv, std::vector<VelocityTaskSpec> tasks)
    : specs_(std::move(tasks)), nv_(nv) {
  build();
}

DifferentialIk::~DifferentialIk() = default;

void DifferentialIk::build() {
  if (nv_ <= 0) throw InputError("differential IK: the model has no velocity coordinate");
  int total = 0;
  for (const auto& t : specs_) {
    int rows = 0;
    switch (t.kind) {
      case VelocityTaskSpec::Kind::frame:
        if (!model_) throw InputError("differential IK: a frame velocity task needs a model");
        rows = frame_task_rows(*model_, t.frame, t.mask);
        break;
      case VelocityTaskSpec::Kind::joints:
        check_joint_indices(nv_, t.joints);
        rows = static_cast<int>(t.joints.size());
        break;
      case VelocityTaskSpec::Kind::rows:
        rows = t.rows;
        if (rows <= 0) throw InputError("velocity task: a task needs at least one row");
        break;
    }
    if (t.kind != VelocityTaskSpec::Kind::frame && t.weights.size() != 0 &&
        t.weights.size() != rows)
      throw InputError("velocity task: one weight per row expected");
    if (t.weights.size() && (!t.weights.allFinite() || (t.weights.array() < 0).any()))
      throw InputError("velocity task: weights must be finite and non-negative");
    offset_.push_back(total);
    count_.push_back(rows);
    total += rows;
  }
  J_ = Jw_ = Eigen::MatrixXd::Zero(total, nv_);
  w_ = ww_ = achieved_ = Eigen::VectorXd::Zero(total);
  weights_ = Eigen::VectorXd::Ones(total);
  qdot_ = Eigen::VectorXd::Zero(nv_);
  N_ = Eigen::MatrixXd::Identity(nv_, nv_);
  for (int i = 0; i < task_count(); ++i) {
    const auto& t = specs_[i];
    auto weights = this->weights(i);
    if (t.kind == VelocityTaskSpec::Kind::frame) {
      int r = 0;
      for (int k = 0; k < 6; ++k) {
        if (t.mask[k] > 0) weights[r++] = t.mask[k];
      }
    } else if (t.weights.size()) {
      weights = t.weights;
    }
    if (t.kind == VelocityTaskSpec::Kind::joints) {
      for (int r = 0; r < count_[i]; ++r) J_(offset_[i] + r, t.joints[r]) = 1;
    }
    task_inverse_.push_back(std::make_unique<PseudoInverse>(count_[i], nv_));
  }
  if (total > 0) stacked_inverse_ = std::make_unique<PseudoInverse>(total, nv_);
}

void DifferentialIk::update(ConstVec q) {
  if (!model_) return;
  bool placed = false;
  for (int i = 0; i < task_count(); ++i) {
    const auto& t = specs_[i];
    if (t.kind != VelocityTaskSpec::Kind::frame) continue;
    if (!placed) forward_kinematics(*model_, *data_, q), placed = true;
    const auto& J = frame_jacobian(*model_, *data_, t.frame, t.reference);
    int r = offset_[i];
    for (int k = 0; k < 6; ++k) {
      if (t.mask[k] > 0) J_.row(r++) = J.row(k);
    }
  }
}

namespace {
// W^1/2 J and W^1/2 w (eq. 2.215 as a least-squares problem)
void scale_rows(const Eigen::MatrixXd& J, const Eigen::VectorXd& w, const Eigen::VectorXd& weights,
                Eigen::MatrixXd& Jw, Eigen::VectorXd& ww) {
  for (int r = 0; r < J.rows(); ++r) {
    const double s = std::sqrt(weights[r]);
    Jw.row(r) = s * J.row(r);
    ww[r] = s * w[r];
  }
}
}  // namespace

const Eigen::VectorXd& DifferentialIk::solve_stacked(double damping) {
  if (!stacked_inverse_) return qdot_.setZero(), achieved_.setZero(), qdot_;
  scale_rows(J_, w_, weights_, Jw_, ww_);
  stacked_inverse_->input() = Jw_;
  stacked_inverse_->compute(damping);
  stacked_inverse_->apply(ww_, qdot_);
  achieved_.noalias() = J_ * qdot_;
  return qdot_;
}

const Eigen::VectorXd& DifferentialIk::solve_prioritized(double damping) {
  scale_rows(J_, w_, weights_, Jw_, ww_);
  qdot_.setZero();
  N_.setIdentity();
  for (int i = 0; i < task_count(); ++i) {
    const auto Ji = Jw_.middleRows(offset_[i], count_[i]);
    // the remaining error of task i (achieved_ is a workspace here)
    auto error = achieved_.segment(offset_[i], count_[i]);
    error = ww_.segment(offset_[i], count_[i]);
    error.noalias() -= Ji * qdot_;
    PseudoInverse& inverse = *task_inverse_[i];
    inverse.input().noalias() = Ji * N_;
    inverse.compute(damping);
    const Eigen::MatrixXd& JNp = inverse.matrix();
    qdot_.noalias() += JNp * error;
    N_.noalias() -= JNp * inverse.input();
  }
  achieved_.noalias() = J_ * qdot_;
  return qdot_;
}

double DifferentialIk::residual(int task) const {
  return (achieved_.segment(offset_[task], count_[task]) - w_.segment(offset_[task], count_[task]))
      .norm();
}

}  // namespace eom
