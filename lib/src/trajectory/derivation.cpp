#include "eom/trajectory/derivation.hpp"

#include <algorithm>
#include <utility>

#include "eom/multibody/configuration.hpp"

namespace eom {

int default_derivation_window(int degree) {
  return std::min(4 * degree + 1, PolynomialFit::kMaxSamples);
}

std::vector<DerivationStage> plan_derivation(const std::vector<bool>& given, int window) {
  const int order = static_cast<int>(given.size()) - 1;
  std::vector<bool> present = given;
  std::vector<DerivationStage> stages;
  auto add = [&](int source, std::vector<int> targets) {
    DerivationStage s;
    s.source = source;
    s.targets = std::move(targets);
    if (order > 2) {
      s.degree = derivation_degree(order);
      s.window = window;
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

TimeStepCheck::Result TimeStepCheck::operator()(double t) {
  if (samples_++ > 0) {
    step_ = t - last_t_;
    if (!(step_ > 0)) return Result::not_increasing;
    if (last_step_ > 0 && (step_ > 10 * last_step_ || last_step_ > 10 * step_)) {
      return Result::step_jump;
    }
    last_step_ = step_;
  }
  last_t_ = t;
  return Result::ok;
}

DerivativeWindow::DerivativeWindow(const Model& model, const DerivationStage& stage,
                                   std::vector<Slot> slots)
    : model_(model),
      stage_(stage),
      slots_(std::move(slots)),
      window_(stage.window),
      half_(stage.window / 2),
      displacement_(model.nv),
      derivative_(model.nv) {}

void DerivativeWindow::derive(Eigen::MatrixXd& dq) {
  const long w = window_;
  // the window around the row, shifted inwards at the ends of the table
  const long start = std::max(0L, std::min(emitted_ - half_, count_ - w));
  const auto slot = [&](long j) -> const Slot& { return slots_[(start + j) % w]; };
  double t[PolynomialFit::kMaxSamples];
  for (long j = 0; j < w; ++j) t[j] = *slot(j).t;
  const int at = static_cast<int>(emitted_ - start);
  const auto& weights = fit_(t, static_cast<int>(w), at, stage_.degree);
  for (int k : stage_.targets) {
    const int r = k - stage_.source;
    if (stage_.source == 0) {
      // on the manifold: the tangent displacements from this row to the others; its own is zero
      derivative_.setZero();
      for (long j = 0; j < w; ++j) {
        if (j == at) continue;
        difference(model_, *slot(at).q, *slot(j).q, displacement_);
        derivative_ += weights(r, j) * displacement_;
      }
    } else {
      const int m = stage_.source - 1;
      derivative_ = weights(r, 0) * slot(0).dq->col(m);
      for (long j = 1; j < w; ++j) derivative_ += weights(r, j) * slot(j).dq->col(m);
    }
    dq.col(k - 1) = derivative_;
  }
  ++emitted_;
}

}  // namespace eom
