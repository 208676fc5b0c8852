#include "eom/solvers/ik.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include <Eigen/SVD>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "core/constants.hpp"
#include "core/sizes.hpp"
#include "linalg/cholesky.hpp"
#include "core/tolerances.hpp"

namespace eom {

using detail::kPi;

// ---------------------------------------------------------------------------------------------
// Targets

Mat3 checked_quaternion(double qx, double qy, double qz, double qw, bool& renormalised,
                        double tolerance) {
  const double n = std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  if (!std::isfinite(n) || std::abs(n - 1) > tolerance) {
    throw InputError("the target quaternion (" + number_text(qx) + ", " + number_text(qy) + ", " +
                     number_text(qz) + ", " + number_text(qw) + ") has norm " + number_text(n) +
                     "; a unit quaternion is expected (within " + number_text(tolerance) + ")");
  }
  renormalised = std::abs(n - 1) > detail::kRenormalisedRoundOff;
  return Eigen::Quaterniond(qw / n, qx / n, qy / n, qz / n).toRotationMatrix();
}

Mat3 checked_rotation_matrix(const Mat3& R, bool& renormalised, double tolerance) {
  if (!R.allFinite()) throw InputError("the target rotation matrix is not finite");
  const double orthogonality = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
  const double det = R.determinant();
  if (orthogonality > tolerance || std::abs(det - 1) > tolerance) {
    throw InputError("the target rotation matrix is not a rotation (|R^T R - I| = " +
                     number_text(orthogonality) + ", det R = " + number_text(det) + "; tolerance " +
                     number_text(tolerance) + ")");
  }
  // the nearest rotation in the Frobenius norm: U V^T of R = U S V^T
  const Eigen::JacobiSVD<Mat3> svd(R, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Mat3 out = svd.matrixU() * svd.matrixV().transpose();
  renormalised = (out - R).cwiseAbs().maxCoeff() > detail::kRenormalisedRoundOff;
  return out;
}

Vec6 ik_mask_weights(std::string_view mask, double position_weight, double orientation_weight) {
  if (!(position_weight >= 0) || !(orientation_weight >= 0) || !std::isfinite(position_weight) ||
      !std::isfinite(orientation_weight)) {
    throw InputError("IK weights must be finite and non-negative");
  }
  Vec6 selected = Vec6::Zero();
  bool any_name = false;
  size_t start = 0;
  while (start <= mask.size()) {
    size_t end = mask.find(',', start);
    if (end == std::string_view::npos) end = mask.size();
    std::string_view name = mask.substr(start, end - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    start = end + 1;
    if (name.empty()) continue;
    any_name = true;
    static const char* const kNames[6] = {"x", "y", "z", "rx", "ry", "rz"};
    bool known = false;
    for (int k = 0; k < 6; ++k) {
      if (name == kNames[k]) selected[k] = 1, known = true;
    }
    if (name == "position" || name == "all") selected.head<3>().setOnes(), known = true;
    if (name == "orientation" || name == "all") selected.tail<3>().setOnes(), known = true;
    if (!known) {
      throw InputError("unknown IK mask component '" + std::string(name) +
                       "' (expected x, y, z, rx, ry, rz, position, orientation or all)");
    }
  }
  if (!any_name) selected.setOnes();
  Vec6 weights;
  weights << selected.head<3>() * position_weight, selected.tail<3>() * orientation_weight;
  if ((weights.array() == 0).all()) {
    throw InputError("the IK mask selects nothing (mask '" + std::string(mask) +
                     "' with position weight " + number_text(position_weight) +
                     " and orientation weight " + number_text(orientation_weight) + ")");
  }
  return weights;
}

// ---------------------------------------------------------------------------------------------
// Position-level IK

namespace {

// joints between the world and the body that carries frame `frame` (-1: none), marked in `mark`
void mark_path(const Model& model, int frame, std::vector<char>& mark) {
  std::fill(mark.begin(), mark.end(), 0);
  if (frame < 0) return;
  for (int i = model.frames[frame].parent; i > 0; i = model.parent[i]) mark[i] = 1;
}

bool revolute_unbounded(const Model& model, int i) {
  const Joint& j = model.joints[i];
  return coordinate_is_angle(j, 0) &&
         !(std::isfinite(model.lower_limit[j.idx_q]) && std::isfinite(model.upper_limit[j.idx_q]));
}

// The configuration the null-space objective pulls towards: the seed, the centre of the limits
// (the seed where a joint has none) or the posture asked for.
void preferred_configuration(const Model& model, const Eigen::VectorXd& seed,
                             const IkOptions& options, Eigen::VectorXd& preferred) {
  switch (options.null_space) {
    case NullSpaceObjective::none:
    case NullSpaceObjective::seed:
      preferred = seed;
      break;
    case NullSpaceObjective::centre:
      preferred = seed;
      for (int iq = 0; iq < model.nq; ++iq) {
        if (std::isfinite(model.lower_limit[iq]) && std::isfinite(model.upper_limit[iq]))
          preferred[iq] = 0.5 * (model.lower_limit[iq] + model.upper_limit[iq]);
      }
      break;
    case NullSpaceObjective::posture:
      detail::check_size(options.posture.size(), model.nq, "IK posture");
      preferred = options.posture;
      break;
  }
}

// A random start for a restart: uniform within the limits of the 1-DoF joints that matter (the
// support), within a turn (a metre) of the seed where a joint has no limits, a uniformly random
// orientation for a ball joint (unbounded); the rest (a free-flyer's, a planar joint's) keep the
// seed.
void random_restart(const Model& model, const std::vector<int>& support,
                    const Eigen::VectorXd& seed, Rng& rng, Eigen::VectorXd& q) {
  q = seed;
  for (int i : support) {
    const Joint& j = model.joints[i];
    if (is_spherical(j)) {
      q.segment<4>(j.idx_q + quaternion_offset(j)) = random_unit_quaternion(rng);
      continue;
    }
    if (!is_one_dof(j)) continue;
    const int iq = j.idx_q;
    const double lo = model.lower_limit[iq], hi = model.upper_limit[iq];
    if (std::isfinite(lo) && std::isfinite(hi)) {
      q[iq] = rng.uniform(lo, hi);
    } else {
      const double r = coordinate_is_angle(j, 0) ? kPi : 1.0;
      q[iq] = std::clamp(seed[iq] + rng.uniform(-r, r), lo, hi);
    }
  }
}

// The turn of each revolute joint of a solution nearest the seed: the same pose, the smallest
// jump.
void nearest_turns(const Model& model, const std::vector<int>& support, const Eigen::VectorXd& seed,
                   Eigen::VectorXd& q) {
  for (int i : support) {
    const Joint& j = model.joints[i];
    if (!coordinate_is_angle(j, 0)) continue;
    const int iq = j.idx_q;
    if (revolute_unbounded(model, i)) {
      q[iq] = seed[iq] + std::remainder(q[iq] - seed[iq], 2 * kPi);
    } else {
      // a bounded joint spanning more than a turn (UR5: +-2 pi): the nearest turn within
      while (q[iq] - seed[iq] > kPi && q[iq] - 2 * kPi >= model.lower_limit[iq]) q[iq] -= 2 * kPi;
      while (seed[iq] - q[iq] > kPi && q[iq] + 2 * kPi <= model.upper_limit[iq]) q[iq] += 2 * kPi;
    }
  }
}

using Clock = std::chrono::steady_clock;

}  // namespace

namespace {
// the checks of validate, with the path marks in caller-owned buffers (no allocation)
void check_problem(const Model& model, const IkProblem& problem, std::vector<char>& f,
                   std::vector<char>& r) {
  const int nframes = static_cast<int>(model.frames.size());
  if (problem.frame < 0 || problem.frame >= nframes)
    throw InputError("IK: frame index " + std::to_string(problem.frame) + " is out of range");
  if (problem.reference < -1 || problem.reference >= nframes)
    throw InputError("IK: reference frame index " + std::to_string(problem.reference) +
                     " is out of range");
  if (!problem.weights.allFinite() || (problem.weights.array() < 0).any())
    throw InputError("IK: weights must be finite and non-negative");
  if ((problem.weights.array() == 0).all()) throw InputError("IK: the mask selects nothing");
  if (!problem.target.R.allFinite() || !problem.target.p.allFinite())
    throw InputError("IK: the target is not finite");
  mark_path(model, problem.frame, f);
  mark_path(model, problem.reference, r);
  for (int i = 1; i < model.njoints; ++i) {
    if (f[i] != r[i]) return;
  }
  const std::string& name = model.frames[problem.frame].name;
  if (problem.reference < 0 || std::find(r.begin(), r.end(), 1) == r.end()) {
    throw InputError("IK: frame '" + name +
                     "' has no moving joint above it; its placement does not depend on q");
  }
  throw InputError("IK: frame '" + name + "' is rigidly attached to reference frame '" +
                   model.frames[problem.reference].name +
                   "'; no joint changes their relative placement");
}
}  // namespace

void validate(const Model& model, const IkProblem& problem) {
  std::vector<char> f(model.njoints), r(model.njoints);
  check_problem(model, problem, f, r);
}

IkSolver::IkSolver(const Model& model)
    : model_(model),
      data_(model),
      in_frame_(model.njoints),
      in_ref_(model.njoints),
      Jc_(6, model.nv),
      A_(model.nv, model.nv),
      g_(model.nv),
      dq_(model.nv),
      z_(model.nv),
      vfull_(model.nv),
      q_(model.nq),
      q_try_(model.nq),
      q_prev_(model.nq),
      q_best_(model.nq),
      q_conv_(model.nq),
      seed_(model.nq),
      preferred_(model.nq) {
  chain_.reserve(model.njoints);
  support_.reserve(model.njoints);
  columns_.reserve(model.nv);
  column_joint_q_.reserve(model.nv);
  unwinds_.reserve(model.nv);
  locked_.resize(model.nv);
  result_.q.resize(model.nq);
}

void IkSolver::prepare(const IkProblem& problem) {
  check_problem(model_, problem, in_frame_, in_ref_);  // marks both paths
  chain_.clear();
  support_.clear();
  columns_.clear();
  column_joint_q_.clear();
  unwinds_.clear();
  for (int i = 1; i < model_.njoints; ++i) {
    if (in_frame_[i] || in_ref_[i]) chain_.push_back(i);
    // joints above both frames move them rigidly together: no effect on the relative placement
    if (in_frame_[i] == in_ref_[i]) continue;
    support_.push_back(i);
    const Joint& j = model_.joints[i];
    for (int k = 0; k < j.nv; ++k) {
      columns_.push_back(j.idx_v + k);
      column_joint_q_.push_back(is_one_dof(j) ? j.idx_q : -1);
      // a revolute joint whose range spans more than a turn passes its limits a turn back
      const bool angle = is_one_dof(j) && coordinate_is_angle(j, 0);
      unwinds_.push_back(angle &&
                         model_.upper_limit[j.idx_q] - model_.lower_limit[j.idx_q] >= 2 * kPi);
    }
  }
  m_ = static_cast<int>(columns_.size());
  w_ = problem.weights;
}

double IkSolver::evaluate(const IkProblem& problem, ConstVec q) {
  data_.oMi[0] = SE3::Identity();
  for (int i : chain_) place_joint(model_, data_, i, q);
  const Frame& f = model_.frames[problem.frame];
  oMf_ = data_.oMi[f.parent] * f.placement;
  if (problem.reference < 0) {
    oMr_ = SE3::Identity();
  } else {
    const Frame& r = model_.frames[problem.reference];
    oMr_ = data_.oMi[r.parent] * r.placement;
  }
  oMd_ = oMr_ * problem.target;
  // notes eq. (2.251): the rotation vector of R_d R_f^T, in world axes; then reference axes
  const Vec3 dp = oMd_.p - oMf_.p;
  const Vec3 dw = log3(oMd_.R * oMf_.R.transpose());
  e_.head<3>().noalias() = oMr_.R.transpose() * dp;
  e_.tail<3>().noalias() = oMr_.R.transpose() * dw;
  return 0.5 * (w_.array() * e_.array().square()).sum();
}

void IkSolver::jacobian(const IkProblem&) {
  // column c: d(pose of the frame relative to the desired placement)/dq_c, reference axes; a
  // joint under the reference moves the desired placement (the point p_d rides on it)
  int c = 0;
  const Mat3 Rt = oMr_.R.transpose();
  for (int i : support_) {
    const Joint& j = model_.joints[i];
    const bool frame_side = in_frame_[i];
    const Vec3& p = frame_side ? oMf_.p : oMd_.p;
    for (int k = 0; k < j.nv; ++k, ++c) {
      Motion col;  // world axes at the world origin
      joint_column(j, k, data_.oMi[i], col);
      Vec3 lin = col.lin + col.ang.cross(p);
      Vec3 ang = col.ang;
      if (!frame_side) lin = -lin, ang = -ang;
      Jc_.col(c).head<3>().noalias() = Rt * lin;
      Jc_.col(c).tail<3>().noalias() = Rt * ang;
    }
  }
}

void IkSolver::build_normal_equations(double lambda) {
  const auto J = Jc_.leftCols(m_);
  for (int a = 0; a < m_; ++a) {
    if (locked_[a]) {
      A_.row(a).head(m_).setZero();
      A_.col(a).head(m_).setZero();
      A_(a, a) = 1;
      dq_[a] = 0;
      continue;
    }
    for (int b = 0; b <= a; ++b) {
      if (locked_[b]) continue;
      double s = 0;
      for (int r = 0; r < 6; ++r) s += J(r, a) * w_[r] * J(r, b);
      A_(a, b) = s;
    }
    A_(a, a) += lambda;
    double s = 0;
    for (int r = 0; r < 6; ++r) s += J(r, a) * w_[r] * e_[r];
    dq_[a] = s;
  }
}

void IkSolver::errors(double& position, double& orientation) const {
  double p = 0, o = 0;
  for (int k = 0; k < 3; ++k) {
    if (w_[k] > 0) p += e_[k] * e_[k];
    if (w_[k + 3] > 0) o += e_[k + 3] * e_[k + 3];
  }
  position = std::sqrt(p);
  orientation = std::sqrt(o);
}

void IkSolver::project(VecRef q) const {
  for (int i : support_) {
    const Joint& j = model_.joints[i];
    if (has_quaternion(j)) {
      joint_normalize(j, q);
      continue;
    }
    if (!is_one_dof(j)) continue;
    const int iq = j.idx_q;
    const double lo = model_.lower_limit[iq], hi = model_.upper_limit[iq];
    // a joint whose range holds more than a turn (UR5e: +-2 pi) unwinds past a limit: the same
    // pose a turn back, instead of a stop that stalls the descent into a restart elsewhere
    if (coordinate_is_angle(j, 0) && (q[iq] > hi || q[iq] < lo)) {
      // the fewest whole turns that bring it back within the nearer limit, if that is within both
      const double turns =
          q[iq] > hi ? -std::ceil((q[iq] - hi) / (2 * kPi)) : std::ceil((lo - q[iq]) / (2 * kPi));
      const double unwound = q[iq] + turns * 2 * kPi;
      if (unwound >= lo && unwound <= hi) q[iq] = unwound;
    }
    q[iq] = std::clamp(q[iq], lo, hi);
  }
}

double IkSolver::seed_distance(ConstVec q) {
  difference(model_, seed_, q, vfull_);
  return vfull_.squaredNorm();
}

bool IkSolver::descend(const IkProblem& problem, const IkOptions& options, int max_iterations,
                       std::chrono::steady_clock::time_point start, double& E) {
  const int max_total = std::max(1, options.max_total_iterations);
  E = evaluate(problem, q_);
  double mu = 1;  // scales Sugihara's damping up after a rejected step, down after a good one
  int slow = 0;
  bool converged = false;
  for (int it = 0;; ++it) {
    double pe, oe;
    errors(pe, oe);
    if (pe <= options.position_tolerance && oe <= options.orientation_tolerance) {
      converged = true;
      break;
    }
    if (it >= max_iterations || result_.iterations >= max_total) break;
    if (options.timeout > 0 && (result_.iterations & 7) == 7 &&
        std::chrono::duration<double>(Clock::now() - start).count() > options.timeout) {
      result_.timed_out = true;
      break;
    }
    ++result_.iterations;

    // damped least squares (J^T W J + lambda I) dq = J^T W e, lambda = mu (E + w_bar); a joint
    // resting on a limit that the step pushes further is locked and the step solved again, so
    // the other joints take over its share (an active set rather than a blocked step)
    jacobian(problem);
    const double lambda = mu * (E + options.damping);
    for (int c = 0; c < m_; ++c) locked_[c] = 0;
    bool solved = false;
    for (int pass = 0; pass < 3; ++pass) {
      build_normal_equations(lambda);
      if (!linalg::cholesky(A_, m_)) break;  // not finite: give up this attempt
      linalg::cholesky_solve(A_, m_, dq_);
      solved = true;
      bool changed = false;
      for (int c = 0; c < m_; ++c) {
        if (locked_[c] || column_joint_q_[c] < 0) continue;
        const int iq = column_joint_q_[c];
        if ((q_[iq] <= model_.lower_limit[iq] && dq_[c] < 0 && !unwinds_[c]) ||
            (q_[iq] >= model_.upper_limit[iq] && dq_[c] > 0 && !unwinds_[c])) {
          locked_[c] = 1;
          changed = true;
        }
      }
      if (!changed) break;
    }
    if (!solved) break;
    // step control: keep within the region where the linearisation holds
    double largest = 0;
    for (int c = 0; c < m_; ++c) largest = std::max(largest, std::abs(dq_[c]));
    const double scale = largest > options.max_step ? options.max_step / largest : 1.0;
    vfull_.setZero();
    for (int c = 0; c < m_; ++c) vfull_[columns_[c]] = scale * dq_[c];
    q_try_ = q_;
    for (int i : support_) joint_integrate(model_.joints[i], q_, vfull_, q_try_);
    project(q_try_);

    const double E_try = evaluate(problem, q_try_);
    if (E_try < E) {
      slow = E_try > 0.999 * E ? slow + 1 : 0;
      q_.swap(q_try_);
      E = E_try;
      mu = std::max(mu * 0.5, 1e-3);
    } else {
      evaluate(problem, q_);  // back to the accepted state
      mu *= 8;
      ++slow;
    }
    if (slow >= 8 || mu > 1e6) break;  // stalled (a limit or a local minimum): restart
  }

  return converged;
}

void IkSolver::polish(const IkProblem& problem, const IkOptions& options,
                      std::chrono::steady_clock::time_point start) {
  // the secondary objective after the pose converged: a step in the null space of the pose task,
  // eps (J^T W J + eps I)^-1 z = (I - J^+ J) z as eps -> 0, then a few primary iterations to
  // return to the tolerance; a step that cannot return is halved
  constexpr double eps = detail::kNullSpaceRegularisation;
  const int max_total = std::max(1, options.max_total_iterations);
  double gain = options.null_space_gain;
  for (int k = 0; k < options.max_iterations && gain >= 1e-3 * options.null_space_gain; ++k) {
    if (result_.iterations >= max_total || result_.timed_out) return;
    ++result_.iterations;
    jacobian(problem);
    for (int c = 0; c < m_; ++c) locked_[c] = 0;
    build_normal_equations(eps);
    if (!linalg::cholesky(A_, m_)) return;
    difference(model_, q_, preferred_, vfull_);
    double largest = 0;
    for (int c = 0; c < m_; ++c) z_[c] = gain * vfull_[columns_[c]];
    linalg::cholesky_solve(A_, m_, z_);
    for (int c = 0; c < m_; ++c) largest = std::max(largest, std::abs(eps * z_[c]));
    // at the objective's optimum on the solution set
    if (largest < detail::kNullStepNegligible) return;
    const double scale = eps * (largest > options.max_step ? options.max_step / largest : 1.0);
    vfull_.setZero();
    for (int c = 0; c < m_; ++c) vfull_[columns_[c]] = scale * z_[c];
    q_prev_ = q_;
    for (int i : support_) joint_integrate(model_.joints[i], q_prev_, vfull_, q_);
    project(q_);
    double E = 0;
    if (!descend(problem, options, 10, start, E)) {
      q_ = q_prev_;
      evaluate(problem, q_);
      gain *= 0.5;
    }
  }
}

const IkResult& IkSolver::solve(const IkProblem& problem, ConstVec q_seed,
                                const IkOptions& options) {
  const Clock::time_point start = Clock::now();
  detail::check_size(q_seed.size(), model_.nq, "q seed");
  if (!q_seed.allFinite()) throw InputError("IK: the seed configuration is not finite");
  prepare(problem);
  seed_ = q_seed;
  rng_ = Rng(options.random_seed);

  const bool secondary = options.null_space != NullSpaceObjective::none;
  preferred_configuration(model_, seed_, options, preferred_);

  IkResult& res = result_;
  res.status = IkStatus::failed;
  res.iterations = 0;
  res.restarts = 0;
  res.timed_out = false;
  bool have_converged = false;
  int found = 0;
  double best_energy = INFINITY, best_distance = INFINITY;
  const int max_total = std::max(1, options.max_total_iterations);

  for (int attempt = 0; attempt <= options.max_restarts; ++attempt) {
    if (attempt > 0) {
      if (res.iterations >= max_total || res.timed_out) break;
      ++res.restarts;
      random_restart(model_, support_, seed_, rng_, q_);
    } else {
      q_ = seed_;
    }
    project(q_);

    double E = 0;
    bool converged = descend(problem, options, options.max_iterations, start, E);
    if (converged && secondary) polish(problem, options, start);

    if (converged) {
      nearest_turns(model_, support_, seed_, q_);
      const double d = seed_distance(q_);
      if (!have_converged || d < best_distance) {
        best_distance = d;
        q_conv_ = q_;
      }
      have_converged = true;
      if (++found >= std::max(1, options.solutions)) break;
    } else if (!have_converged && E < best_energy) {
      best_energy = E;
      q_best_ = q_;
    }
  }

  res.q = have_converged ? q_conv_ : q_best_;
  res.status = have_converged ? IkStatus::converged : IkStatus::failed;
  evaluate(problem, res.q);
  errors(res.position_error, res.orientation_error);
  difference(model_, seed_, res.q, vfull_);
  res.jump = m_ > 0 ? vfull_.cwiseAbs().maxCoeff() : 0;
  res.time_us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  return res;
}

}  // namespace eom
