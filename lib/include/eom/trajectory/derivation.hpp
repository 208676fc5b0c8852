// Deriving the time derivatives of q a table lacks, row by row as the rows stream in: which
// orders come from which (the plan) and the sliding window of rows each stage differentiates.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/multibody/model.hpp"
#include "eom/trajectory/finite_difference.hpp"

namespace eom {

/// One stage of derivation: orders `targets` (1 v, 2 a, k d<k>q) from order `source` (0: q, on
/// the configuration manifold), by polynomials of degree `degree` through `window` rows.
struct DerivationStage {
  int source = 0;
  std::vector<int> targets;
  int degree = 2, window = 3;
};

/// The degree of the least-squares fits used when derivatives up to `order` > 2 are derived:
/// order + 2, two more than the highest derivative, so its estimate keeps some accuracy.
inline int derivation_degree(int order) { return order + 2; }

/// The default rows of those fits: 4 degree + 1 (at most PolynomialFit::kMaxSamples). High
/// derivatives of sampled data are limited by round-off, which a wider fit averages away; a
/// narrower one suits slowly sampled data, where the truncation of the polynomial dominates.
int default_derivation_window(int degree);

/// The stages deriving the orders missing from `given` ([k]: order k is read; given[0] is q):
/// v from q on the configuration manifold (with a when three-point formulas suffice), then each
/// run of missing orders from the highest order below it, as plain vectors. Up to order 2 the
/// three-point formulas (three_point_weights); beyond, fits of derivation_degree(order) over
/// `window` rows (at least that degree + 1).
std::vector<DerivationStage> plan_derivation(const std::vector<bool>& given, int window);

/// Checks the times of samples to be differentiated, one by one: they must increase strictly,
/// without a step ten times larger or smaller than the one before it, across which a derivative
/// by a polynomial through the neighbouring samples cannot be trusted.
class TimeStepCheck {
 public:
  enum class Result { ok, not_increasing, step_jump };
  /// The next time; on a problem, previous_t(), previous_step() and step() describe it.
  Result operator()(double t);
  double previous_t() const { return last_t_; }
  double previous_step() const { return last_step_; }
  double step() const { return step_; }

 private:
  long samples_ = 0;
  double last_t_ = 0, last_step_ = 0, step_ = 0;
};

/// One stage over a stream of rows: the rows are stored by the caller in `window` slots (row r in
/// slot r % window); each row is differentiated once the rows its fit needs are in (half a
/// window later), the first and last rows with one-sided windows. Allocates nothing after
/// construction.
class DerivativeWindow {
 public:
  /// Where one slot's time, q (nq) and derivatives (nv x order, column k - 1 order k) are.
  struct Slot {
    const double* t;
    const Eigen::VectorXd* q;
    const Eigen::MatrixXd* dq;
  };
  /// slots.size() == stage.window.
  DerivativeWindow(const Model& model, const DerivationStage& stage, std::vector<Slot> slots);

  /// The slot to read the next row into; call filled() once it holds it, end() at the end.
  int slot_to_fill() const { return static_cast<int>(count_ % window_); }
  void filled() { ++count_; }
  void end() { ended_ = true; }
  bool ended() const { return ended_; }
  long rows() const { return count_; }
  /// The table ended with rows, but fewer than a window.
  bool too_few_rows() const { return ended_ && count_ > 0 && count_ < window_; }

  /// Whether the next row can be differentiated: the rows up to half a window after it are in
  /// (at least a whole window), or the table has ended.
  bool ready() const {
    return count_ >= window_ && (emitted_ + half_ < count_ || (ended_ && emitted_ < count_));
  }
  /// The slot of the row derive() differentiates next.
  int slot_to_emit() const { return static_cast<int>(emitted_ % window_); }
  /// When ready(): the stage's target orders of the next row into dq (its other columns are
  /// left alone), and on to the following row.
  void derive(Eigen::MatrixXd& dq);

 private:
  const Model& model_;
  const DerivationStage& stage_;
  const std::vector<Slot> slots_;
  const long window_, half_;
  PolynomialFit fit_;
  Eigen::VectorXd displacement_, derivative_;  // (nv)
  long count_ = 0, emitted_ = 0;
  bool ended_ = false;
};

}  // namespace eom
