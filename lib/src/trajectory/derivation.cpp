#include "eom/trajectory/derivation.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "eom/core/errors.hpp"
#include "eom/multibody/configuration.hpp"

namespace eom {

namespace {
constexpr double kTurn = 6.283185307179586476925;  // 2 pi
}  // namespace

int default_derivation_window(int degree) {
  return std::min(4 * degree + 1, PolynomialFit::kMaxSamples);
}

std::vector<DerivationStage> plan_derivation(const std::vector<bool>& given, int window,
                                             DerivationMethod method) {
  const int order = static_cast<int>(given.size()) - 1;
  const bool three_point = method == DerivationMethod::three_point;
  std::vector<bool> present = given;
  std::vector<DerivationStage> stages;
  auto add = [&](int source, std::vector<int> targets) {
    DerivationStage s;
    s.source = source;
    s.targets = std::move(targets);
    if (three_point && s.targets.back() > 2) {
      throw InputError("three-point differences derive v and a only, not " +
                       std::to_string(s.targets.back()) +
                       "th derivatives of q: derive them by fits (the default)");
    }
    if (!three_point) {
      s.degree = derivation_degree(order);
      s.choose_window = window == 0;
      s.window = window == 0 ? default_derivation_window(s.degree) : window;
    }
    for (int k : s.targets) present[k] = true;
    stages.push_back(std::move(s));
  };
  if (order >= 1 && !present[1]) {
    add(0, order == 2 && !present[2] ? std::vector<int>{1, 2} : std::vector<int>{1});
  }
  for (int k = 2; k <= order; ++k) {
    if (present[k]) continue;
    std::vector<int> targets;
    for (int m = k; m <= order && !present[m]; ++m) targets.push_back(m);
    add(k - 1, std::move(targets));
  }
  return stages;
}

std::vector<int> wrapping_angles(const Model& model) {
  std::vector<int> angles;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    for (int k = 0; k < j.nq; ++k) {
      const int c = j.idx_q + k;
      // unlimited (infinite range) or limits more than a turn apart
      if (coordinate_is_angle(j, k) && !(model.upper_limit[c] - model.lower_limit[c] <= kTurn)) {
        angles.push_back(c);
      }
    }
  }
  return angles;
}

TimeStepCheck::Result TimeStepCheck::operator()(double t) {
  if (samples_++ == 0) {
    last_t_ = t;
    return Result::ok;
  }
  step_ = t - last_t_;
  if (!(step_ > 0)) return Result::not_increasing;
  last_t_ = t;
  // the usual step: the median of the last steps, robust to the odd gap among them
  double recent[kHistory];
  std::copy(history_, history_ + steps_, recent);
  std::nth_element(recent, recent + steps_ / 2, recent + steps_);
  usual_ = steps_ > 0 ? recent[steps_ / 2] : step_;
  // while few steps are known, the usual one is uncertain: only a far larger step is a gap
  const double factor = steps_ >= kSettled ? kGapFactor : 2 * kGapFactor;
  bool gap = step_ > factor * usual_;
  if (gap && previous_gap_) {
    // a second large step in a row: the sampling rate changed, which the gap before marked
    steps_ = 0;
    next_ = 0;
    remember(previous_step_);
    gap = false;
  }
  remember(step_);
  previous_gap_ = gap;
  previous_step_ = step_;
  return gap ? Result::gap : Result::ok;
}

void TimeStepCheck::remember(double step) {
  if (steps_ < kHistory) {
    history_[steps_++] = step;
  } else {
    history_[next_++ % kHistory] = step;  // in place of the oldest
  }
}

DerivativeWindow::DerivativeWindow(const Model& model, const DerivationStage& stage,
                                   std::vector<Slot> slots)
    : model_(model),
      stage_(stage),
      slots_(std::move(slots)),
      window_(stage.window),
      half_(stage.window / 2),
      capacity_(slots_needed(stage)),
      min_rows_(stage.degree + 1),
      angles_(stage.source == 0 ? wrapping_angles(model) : std::vector<int>{}),
      unwrapped_(angles_.empty() ? 0 : stage.window, Eigen::VectorXd(model.nq)),
      displacement_(model.nv),
      derivative_(model.nv) {}

void DerivativeWindow::filled(bool starts_segment) {
  ++count_;
  if (starts_segment && count_ - 1 > segment_begin_) {
    closed_ = true;
    segment_end_ = count_ - 1;
  }
}

void DerivativeWindow::end() {
  ended_ = true;
  if (!closed_) {
    closed_ = true;
    segment_end_ = count_;
  }
}

bool DerivativeWindow::ready() const {
  if (emitted_ >= (closed_ ? segment_end_ : count_)) return false;
  if (closed_) return rows_in_segment() >= min_rows_;
  return rows_in_segment() >= window_ && emitted_ + half_ < count_;
}

bool DerivativeWindow::next_segment() {
  if (!closed_ || emitted_ < segment_end_ || segment_end_ == count_) return false;
  // the row read ahead, after the gap, starts the next segment
  segment_begin_ = segment_end_;
  closed_ = ended_;
  segment_end_ = count_;
  return true;
}

void DerivativeWindow::unwrap(long start, long n, int at) {
  const auto q = [&](long j) -> const Eigen::VectorXd& {
    return *slots_[(start + j) % capacity_].q;
  };
  for (long j = 0; j < n; ++j) unwrapped_[j] = q(j);
  // outwards from the row differentiated, each angle within half a turn of its neighbour's
  for (int c : angles_) {
    for (long j = at + 1; j < n; ++j) {
      const double d = unwrapped_[j][c] - unwrapped_[j - 1][c];
      unwrapped_[j][c] -= kTurn * std::round(d / kTurn);
    }
    for (long j = at - 1; j >= 0; --j) {
      const double d = unwrapped_[j][c] - unwrapped_[j + 1][c];
      unwrapped_[j][c] -= kTurn * std::round(d / kTurn);
    }
  }
}

void DerivativeWindow::derive(Eigen::MatrixXd& dq) {
  const long end = closed_ ? segment_end_ : count_;
  const long n = std::min(window_, end - segment_begin_);
  // the window around the row, shifted inwards at the ends of its segment
  const long centred = emitted_ - half_;
  const long start = std::max(segment_begin_, std::min(centred, end - n));
  const bool gap_after = closed_ && !(ended_ && segment_end_ == count_);
  if ((centred < segment_begin_ && segment_begin_ > 0) || (centred + window_ > end && gap_after)) {
    ++rows_near_gaps_;
  }
  const auto slot = [&](long j) -> const Slot& { return slots_[(start + j) % capacity_]; };
  double t[PolynomialFit::kMaxSamples];
  for (long j = 0; j < n; ++j) t[j] = *slot(j).t;
  const int at = static_cast<int>(emitted_ - start);
  const auto& weights = fit_(t, static_cast<int>(n), at, stage_.degree);
  if (stage_.source == 0 && !angles_.empty()) unwrap(start, n, at);
  const auto q = [&](long j) -> const Eigen::VectorXd& {
    return angles_.empty() ? *slot(j).q : unwrapped_[j];
  };
  for (int k : stage_.targets) {
    const int r = k - stage_.source;
    if (stage_.source == 0) {
      // on the manifold: the tangent displacements from this row to the others; its own is zero
      derivative_.setZero();
      for (long j = 0; j < n; ++j) {
        if (j == at) continue;
        difference(model_, q(at), q(j), displacement_);
        derivative_ += weights(r, j) * displacement_;
      }
    } else {
      const int m = stage_.source - 1;
      derivative_ = weights(r, 0) * slot(0).dq->col(m);
      for (long j = 1; j < n; ++j) derivative_ += weights(r, j) * slot(j).dq->col(m);
    }
    dq.col(k - 1) = derivative_;
  }
  ++emitted_;
}

}  // namespace eom
