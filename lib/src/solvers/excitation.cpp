#include "eom/solvers/excitation.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/QR>
#include <Eigen/SVD>

#include "core/constants.hpp"
#include "core/tolerances.hpp"
#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/multibody/configuration.hpp"
#include "eom/multibody/data.hpp"
#include "eom/trajectory/identification.hpp"
#include "eom/trajectory/joint_fill.hpp"

namespace eom {
namespace {

using detail::kPi;

// the grid the limits are kept on: 64 points per period and harmonic, so that the widening of the
// extremes (h^2 / 8 times the next derivative's bound) is at most pi^2 / 8192 of an amplitude
constexpr int kGridPerHarmonic = 64;
// compass search's steps on the unknowns (coefficients start in [-1, 1])
constexpr double kInitialStep = 0.5, kFinalStep = 1e-3;

// The leader of joint i when it mimics a moving joint, else -1.
int leader_of(const Model& model, int i) {
  const JointInfo& info = model.info[i];
  return info.mimic_joint ? model.joint_index(*info.mimic_joint) : -1;
}

// The mimic followers, a leader before its followers.
std::vector<JointFill> mimic_followers(const Model& model) {
  std::vector<JointFill> fills;
  for (int i = 1; i < model.njoints; ++i) {
    const int leader = leader_of(model, i);
    if (leader > 0) {
      fills.push_back({i, leader, model.info[i].mimic_multiplier, model.info[i].mimic_offset});
    }
  }
  order_leaders_first(fills);
  return fills;
}

// One excited coordinate's bounds, those of its followers folded in.
struct Bounds {
  double lower, upper, velocity, acceleration;
};

// Per excited coordinate its bounds: its own, intersected with each follower's mapped through
// q_f = M q + O (the mimic chain from the follower up to this coordinate).
std::vector<Bounds> excited_bounds(const Model& model, const ExcitationLimits& limits,
                                   const std::vector<int>& coordinates) {
  std::vector<Bounds> bounds;
  for (const int k : coordinates) {
    bounds.push_back(
        {limits.lower[k], limits.upper[k], limits.velocity[k], limits.acceleration[k]});
  }
  for (int f = 1; f < model.njoints; ++f) {
    double M = 1, O = 0;
    int at = f;
    for (int leader = leader_of(model, at); leader > 0; leader = leader_of(model, at)) {
      O += M * model.info[at].mimic_offset;
      M *= model.info[at].mimic_multiplier;
      at = leader;
    }
    if (at == f || M == 0) continue;
    const int k = model.joints[f].idx_v;
    Bounds& b = bounds[std::find(coordinates.begin(), coordinates.end(), model.joints[at].idx_v) -
                       coordinates.begin()];
    const double lo = (limits.lower[k] - O) / M, hi = (limits.upper[k] - O) / M;
    b.lower = std::max(b.lower, std::min(lo, hi));
    b.upper = std::min(b.upper, std::max(lo, hi));
    b.velocity = std::min(b.velocity, limits.velocity[k] / std::abs(M));
    b.acceleration = std::min(b.acceleration, limits.acceleration[k] / std::abs(M));
  }
  return bounds;
}

void check_bounds(const Model& model, const std::vector<int>& coordinates,
                  const std::vector<Bounds>& bounds) {
  for (size_t j = 0; j < bounds.size(); ++j) {
    const Bounds& b = bounds[j];
    const std::string joint = "joint '" + model.v_names[coordinates[j]] + "'";
    if (!std::isfinite(b.lower) || !std::isfinite(b.upper)) {
      throw InputError(joint + " has no position limits: an excitation needs them");
    }
    if (!(b.upper > b.lower)) {
      throw InputError(joint + ": its position range (" + shortest_text(b.lower) + " .. " +
                       shortest_text(b.upper) + ", its mimic followers' included) is empty");
    }
    if (!std::isfinite(b.velocity)) {
      throw InputError(joint + " has no velocity limit: an excitation needs one");
    }
    if (!(b.velocity > 0) || !(b.acceleration > 0)) {
      throw InputError(joint + ": its velocity and acceleration limits must be positive");
    }
  }
}

// sin(l w t) and cos(l w t) at `count` instants t = i period / count of a period (count x K).
void harmonic_table(int count, int harmonics, Eigen::MatrixXd& S, Eigen::MatrixXd& C) {
  S.resize(count, harmonics);
  C.resize(count, harmonics);
  for (int i = 0; i < count; ++i) {
    for (int l = 1; l <= harmonics; ++l) {
      // the phase reduced to one turn before it is multiplied out: exact for the grid's fractions
      const double phase =
          2 * kPi * static_cast<double>((static_cast<long>(l) * i) % count) / count;
      S(i, l - 1) = std::sin(phase);
      C(i, l - 1) = std::cos(phase);
    }
  }
}

// What the optimiser searches: per excited coordinate the shape's free coefficients (a then b;
// for rest-to-rest ends those of harmonics 2 .. K) and a position in the slack, in [-1, 1].
class Problem {
 public:
  Problem(const Model& model, const ExcitationOptions& options, std::vector<int> coordinates,
          std::vector<Bounds> bounds, std::vector<int> base)
      : model_(model),
        options_(options),
        K_(options.harmonics),
        rest_(options.ends == ExcitationEnds::rest_to_rest),
        w_(2 * kPi / options.period),
        bounds_(std::move(bounds)),
        base_(std::move(base)),
        data_(model),
        Y_(model.nv, regressor_columns(model, options.drive)),
        q_(model.nq),
        v_(model.nv),
        a_(model.nv) {
    trajectory_.period = options.period;
    trajectory_.coordinates = std::move(coordinates);
    trajectory_.followers = mimic_followers(model);
    const int n = static_cast<int>(trajectory_.coordinates.size());
    trajectory_.offset.resize(n);
    trajectory_.a.resize(n, K_);
    trajectory_.b.resize(n, K_);
    harmonic_table(kGridPerHarmonic * K_, K_, grid_sin_, grid_cos_);
    harmonic_table(excitation_samples(K_), K_, sample_sin_, sample_cos_);
    W_.resize(static_cast<Eigen::Index>(sample_sin_.rows()) * model.nv,
              static_cast<Eigen::Index>(base_.size()));
  }

  int free_per_joint() const { return (rest_ ? 2 * K_ - 2 : 2 * K_) + 1; }
  int unknowns() const { return free_per_joint() * static_cast<int>(bounds_.size()); }
  const FourierTrajectory& trajectory() const { return trajectory_; }

  // The trajectory of the unknowns x (made feasible), into trajectory().
  void place(const Eigen::VectorXd& x) {
    const int m = free_per_joint();
    for (size_t j = 0; j < bounds_.size(); ++j) {
      place_joint(j, x.segment(static_cast<Eigen::Index>(j) * m, m));
    }
  }

  struct Value {
    double objective, condition, log_det;
  };
  // The criterion of the trajectory of x.
  Value evaluate(const Eigen::VectorXd& x) {
    place(x);
    const int samples = static_cast<int>(sample_sin_.rows());
    for (int i = 0; i < samples; ++i) {
      trajectory_.evaluate(model_, options_.period * i / samples, q_, v_, a_);
      joint_torque_regressor(model_, data_, q_, v_, a_, Y_, options_.drive);
      for (size_t c = 0; c < base_.size(); ++c) {
        W_.block(static_cast<Eigen::Index>(i) * model_.nv, static_cast<Eigen::Index>(c), model_.nv,
                 1) = Y_.col(base_[c]);
      }
    }
    const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(W_).singularValues();
    Value value;
    const double smallest = sigma.size() ? sigma[sigma.size() - 1] : 0;
    value.condition = smallest > 0 ? sigma[0] / smallest : INFINITY;
    // log det(W^T W / samples) = sum 2 log sigma - r log samples
    value.log_det = smallest > 0 ? 2 * sigma.array().log().sum() -
                                       static_cast<double>(sigma.size()) * std::log(samples)
                                 : -INFINITY;
    value.objective = options_.criterion == ExcitationCriterion::condition
                          ? std::log(value.condition)
                          : -value.log_det;
    return value;
  }

 private:
  void place_joint(size_t j, const Eigen::Ref<const Eigen::VectorXd>& x);

  const Model& model_;
  const ExcitationOptions& options_;
  int K_;
  bool rest_;
  double w_;
  std::vector<Bounds> bounds_;
  std::vector<int> base_;
  FourierTrajectory trajectory_;
  Eigen::MatrixXd grid_sin_, grid_cos_, sample_sin_, sample_cos_;
  Data data_;
  Eigen::MatrixXd Y_, W_;
  Eigen::VectorXd q_, v_, a_;
};

void Problem::place_joint(size_t j, const Eigen::Ref<const Eigen::VectorXd>& x) {
  // the shape's velocity harmonics; rest-to-rest: v(0) = sum a_l = 0, a(0) = w sum l b_l = 0
  Eigen::VectorXd a(K_), b(K_);
  const int first = rest_ ? 1 : 0;
  const int free = K_ - first;
  a.tail(free) = x.head(free);
  b.tail(free) = x.segment(free, free);
  if (rest_) {
    a[0] = -a.tail(free).sum();
    b[0] = 0;
    for (int l = 2; l <= K_; ++l) b[0] -= l * b[l - 1];
  }
  const Eigen::ArrayXd lw = w_ * Eigen::ArrayXd::LinSpaced(K_, 1, K_);
  // the shape's position, velocity and acceleration on the grid (Swevers et al. 1997, eq. 9)
  const Eigen::VectorXd f =
      grid_sin_ * (a.array() / lw).matrix() - grid_cos_ * (b.array() / lw).matrix();
  const Eigen::VectorXd v = grid_cos_ * a + grid_sin_ * b;
  const Eigen::VectorXd acc =
      grid_cos_ * (lw * b.array()).matrix() - grid_sin_ * (lw * a.array()).matrix();
  // between grid points an extreme exceeds the grid's by at most h^2 / 8 times the largest second
  // derivative there (the first vanishes at the extreme), bounded by the amplitudes' sum
  const Eigen::ArrayXd amplitude = (a.array().square() + b.array().square()).sqrt();
  const double h = options_.period / static_cast<double>(grid_sin_.rows());
  const double widen = h * h / 8;
  const double mq = widen * (amplitude * lw).sum();
  const double mv = widen * (amplitude * lw.square()).sum();
  const double ma = widen * (amplitude * lw.cube()).sum();
  const Bounds& bound = bounds_[j];
  const double range = bound.upper - bound.lower;
  const double span = f.maxCoeff() - f.minCoeff() + 2 * mq;
  // the largest scale within every limit (none for a shape that does not move)
  double s = 0;
  if (span > 0) {
    s = range / span;
    s = std::min(s, bound.velocity / (v.cwiseAbs().maxCoeff() + mv));
    if (std::isfinite(bound.acceleration)) {
      s = std::min(s, bound.acceleration / (acc.cwiseAbs().maxCoeff() + ma));
    }
  }
  const double slack = std::max(0.0, range - s * span);
  const double position = std::clamp(x[2 * free], -1.0, 1.0);
  trajectory_.a.row(static_cast<Eigen::Index>(j)) = s * a;
  trajectory_.b.row(static_cast<Eigen::Index>(j)) = s * b;
  trajectory_.offset[static_cast<Eigen::Index>(j)] = (bound.lower + bound.upper) / 2 -
                                                     s * (f.maxCoeff() + f.minCoeff()) / 2 +
                                                     position * slack / 2;
}

}  // namespace

void FourierTrajectory::evaluate(const Model& model, double t, VecRef q, VecRef v,
                                 VecRef acc) const {
  const double w = 2 * kPi / period;
  for (size_t j = 0; j < coordinates.size(); ++j) {
    const Eigen::Index r = static_cast<Eigen::Index>(j);
    const int k = coordinates[j];
    double qj = offset[r], vj = 0, aj = 0;
    for (int l = 1; l <= harmonics(); ++l) {
      const double lw = l * w, s = std::sin(lw * t), c = std::cos(lw * t);
      const double al = a(r, l - 1), bl = b(r, l - 1);
      qj += (al * s - bl * c) / lw;
      vj += al * c + bl * s;
      aj += lw * (bl * c - al * s);
    }
    q[k] = qj;  // a 1-DoF joint: its q and v indices are one coordinate's
    v[k] = vj;
    acc[k] = aj;
  }
  fill_configuration(model, followers, q);
  fill_derivative(model, followers, v);
  fill_derivative(model, followers, acc);
}

std::vector<int> excited_coordinates(const Model& model) {
  std::vector<int> coordinates;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& joint = model.joints[i];
    if (leader_of(model, i) > 0) continue;
    if (!is_one_dof(joint)) {
      throw InputError("joint '" + model.joint_names[i] + "' is a " + model.joint_type_name(i) +
                       " joint: an excitation moves 1-DoF joints only (fix it with " +
                       Setting::lock + ")");
    }
    coordinates.push_back(joint.idx_v);
  }
  return coordinates;
}

ExcitationLimits model_limits(const Model& model) {
  ExcitationLimits limits;
  limits.lower = limits.upper = Eigen::VectorXd::Constant(model.nv, NAN);
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& joint = model.joints[i];
    if (!is_one_dof(joint)) continue;
    limits.lower[joint.idx_v] = model.lower_limit[joint.idx_q];
    limits.upper[joint.idx_v] = model.upper_limit[joint.idx_q];
  }
  limits.velocity = model.velocity_limit;
  limits.acceleration = Eigen::VectorXd::Constant(model.nv, INFINITY);
  return limits;
}

int excitation_samples(int harmonics) { return 10 * (harmonics + 1); }

long excitation_rows(double duration, double rate) {
  const double last = duration * rate;
  const double nearest = std::round(last);
  // the end falls on a row when the product is a whole number but for its round-off
  const bool whole = std::abs(last - nearest) <= detail::kStepCountRoundOff * std::max(1.0, last);
  return static_cast<long>(whole ? nearest : std::floor(last)) + 1;
}

std::vector<int> base_columns(const Model& model, const DriveParameters& drive,
                              const std::vector<int>& columns) {
  if (columns.empty()) return base_parameters(model, drive).independent;
  // the regressor at random states as base_parameters stacks it, the chosen columns only
  const int all = regressor_columns(model, drive);
  const int states = std::max(20, 2 * all / std::max(1, model.nv) + 1);
  Eigen::MatrixXd Y(model.nv, all);
  Eigen::MatrixXd stack(static_cast<Eigen::Index>(states) * model.nv,
                        static_cast<Eigen::Index>(columns.size()));
  Data data(model);
  Rng rng(36);
  for (int s = 0; s < states; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    const Eigen::VectorXd a = random_tangent(model, rng);
    joint_torque_regressor(model, data, q, v, a, Y, drive);
    for (size_t c = 0; c < columns.size(); ++c) {
      stack.block(s * model.nv, static_cast<Eigen::Index>(c), model.nv, 1) = Y.col(columns[c]);
    }
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(stack);
  const Eigen::MatrixXd R = qr.matrixR();
  const Eigen::Index diagonal = std::min(R.rows(), R.cols());
  const double largest = diagonal ? std::abs(R(0, 0)) : 0;
  std::vector<int> independent;
  for (Eigen::Index k = 0; k < diagonal && std::abs(R(k, k)) > kBaseParameterTolerance * largest;
       ++k) {
    independent.push_back(columns[qr.colsPermutation().indices()[k]]);
  }
  std::sort(independent.begin(), independent.end());
  return independent;
}

Excitation design_excitation(const Model& model, const ExcitationLimits& limits,
                             const ExcitationOptions& options) {
  if (!(options.period > 0) || !std::isfinite(options.period)) {
    throw InputError("the period must be a positive number of seconds");
  }
  if (options.harmonics < 1 || options.evaluations < 1) {
    throw InputError("the harmonics and the evaluations must be positive");
  }
  if (options.ends == ExcitationEnds::rest_to_rest && options.harmonics < 2) {
    throw InputError(
        "rest-to-rest ends need at least 2 harmonics (with one, v(0) = a(0) = 0 "
        "leaves no motion)");
  }
  std::vector<int> coordinates = excited_coordinates(model);
  std::vector<Bounds> bounds = excited_bounds(model, limits, coordinates);
  check_bounds(model, coordinates, bounds);
  Excitation result;
  std::vector<int> base = base_columns(model, options.drive, options.columns);
  result.base_parameters = static_cast<int>(base.size());
  Problem problem(model, options, std::move(coordinates), std::move(bounds), std::move(base));

  // the starting guess: coefficients uniform in [-1, 1], each joint centred in its slack
  Rng rng(options.seed);
  const int m = problem.free_per_joint();
  Eigen::VectorXd x(problem.unknowns());
  for (Eigen::Index k = 0; k < x.size(); ++k) x[k] = (k + 1) % m ? rng.uniform(-1, 1) : 0.0;
  Problem::Value best = problem.evaluate(x);
  result.start_condition = best.condition;
  result.start_log_det = best.log_det;
  int evaluations = 1;
  // compass search (Kolda, Lewis and Torczon 2003, section 3.3): each unknown up, else down, by
  // the step; the step halved after a sweep that improved nothing
  for (double step = kInitialStep; step >= kFinalStep && evaluations < options.evaluations;) {
    bool improved = false;
    for (Eigen::Index k = 0; k < x.size() && evaluations < options.evaluations; ++k) {
      for (const double sign : {1.0, -1.0}) {
        if (evaluations >= options.evaluations) break;
        Eigen::VectorXd trial = x;
        trial[k] += sign * step;
        const Problem::Value value = problem.evaluate(trial);
        ++evaluations;
        if (value.objective < best.objective) {
          best = value;
          x = trial;
          improved = true;
          break;
        }
      }
    }
    if (!improved) step /= 2;
  }
  problem.place(x);
  result.trajectory = problem.trajectory();
  result.condition = best.condition;
  result.log_det = best.log_det;
  result.evaluations = evaluations;
  return result;
}

}  // namespace eom
