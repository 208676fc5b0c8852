// Deriving the time derivatives of q a table lacks, row by row as the rows stream in: which
// orders come from which (the plan) and the sliding window of rows each stage differentiates.
#pragma once

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/model.hpp"
#include "eom/trajectory/finite_difference.hpp"

namespace eom {

/// How missing derivatives are taken. `fit`: least-squares polynomials over a window of rows,
/// for every order (accurate: see doc/tables.md "Deriving missing derivatives"). `three_point`:
/// the quadratic through a row and its two neighbours (v and a only): local, three rows suffice,
/// and what numpy.gradient and most hand-written scripts do, for comparing with them.
enum class DerivationMethod { fit, three_point };

/// One stage of derivation: orders `targets` (1 v, 2 a, k d<k>q) from order `source` (0: q, on
/// the configuration manifold), by polynomials of degree `degree` through `window` rows (fewer,
/// but at least degree + 1, in a segment shorter than the window). `choose_window`: the window
/// is not given but chosen from the first rows (choose_derivation_window) before any is derived.
struct DerivationStage {
  int source = 0;
  std::vector<int> targets;
  int degree = 2, window = 3;
  bool choose_window = false;
};

/// The degree of the least-squares fits used when derivatives up to `order` are derived:
/// order + 2, two more than the highest derivative, so its estimate keeps some accuracy.
inline int derivation_degree(int order) { return order + 2; }

/// The default rows of those fits: 4 degree + 1 (at most PolynomialFit::kMaxSamples). High
/// derivatives of sampled data are limited by round-off, which a wider fit averages away; a
/// narrower one suits slowly sampled data, where the truncation of the polynomial dominates.
int default_derivation_window(int degree);

/// The displacement from row `from` to row `to` of the rows a window is chosen from, in the
/// space the stage differentiates (nv): tangent displacements for q, differences otherwise.
using RowDisplacement = std::function<void(int from, int to, Eigen::Ref<Eigen::VectorXd> out)>;

/// What choose_derivation_window chose and from what.
struct WindowChoice {
  int window = 0;    // the rows of the fits
  int rows = 0;      // the rows it was judged from (0: too few, the default window taken)
  double noise = 0;  // the noise estimated in the differentiated values (rms over them)
};

/// The window (odd, degree + 3 to PolynomialFit::kMaxSamples rows) that minimises the estimated
/// mean squared error of the stage's highest derivative over the `rows` rows at times t (one
/// segment, strictly increasing), by empirical-bias bandwidth selection (Ruppert, "Empirical-bias
/// bandwidths for local polynomial nonparametric regression and density estimation", JASA 92,
/// 1997): at centred windows spread over the rows, the bias of the degree-p fit is estimated by
/// its difference from a degree p + 2 fit over the same rows, the noise from the residual of
/// degree p + 2 fits over p + 5 rows, and error^2 = bias^2 + noise^2 |weights|^2 is summed over
/// the coordinates. Deterministic; fewer than degree + 5 rows give default_derivation_window.
WindowChoice choose_derivation_window(const DerivationStage& stage, const double* t, int rows,
                                      int nv, const RowDisplacement& displacement);

/// The stages deriving the orders missing from `given` ([k]: order k is read; given[0] is q):
/// v from q on the configuration manifold (with a when a is the highest order), then each run of
/// missing orders from the highest order below it, as plain vectors. `fit`: polynomials of
/// derivation_degree(order) over `window` rows (at least that degree + 1; 0: chosen from the data,
/// choose_window); `three_point`: the
/// three-point formulas (three_point_weights), for orders up to 2 only (InputError beyond).
std::vector<DerivationStage> plan_derivation(const std::vector<bool>& given, int window,
                                             DerivationMethod method = DerivationMethod::fit);

/// The q coordinates of angles that may wrap around a turn, which derivation differences on the
/// circle: those of joints without limits (URDF continuous, a planar joint's theta) and of
/// revolute joints whose limits are more than 2 pi apart (an encoder logging one of them in
/// (-pi, pi] jumps by 2 pi where it passes pi).
std::vector<int> wrapping_angles(const Model& model);

/// Checks the times of samples to be differentiated, one by one: they must increase strictly,
/// and a step more than kGapFactor times the usual step (the median of the last kHistory
/// steps; twice that factor while fewer than kSettled steps are known) is a gap: a boundary
/// between segments derived on their own, since a polynomial through the neighbouring samples
/// cannot be trusted across it (dropped messages). Smaller irregularities (jitter) are no gap:
/// the fits take each sample at its own time. Two large steps in a row are a change of the
/// sampling rate: one gap, then the new step is the usual one.
class TimeStepCheck {
 public:
  static constexpr double kGapFactor = 1.5;
  static constexpr int kHistory = 15, kSettled = 4;
  enum class Result { ok, not_increasing, gap };
  /// The next time; on a problem, previous_t(), usual_step() and step() describe it.
  Result operator()(double t);
  double previous_t() const { return last_t_; }
  double usual_step() const { return usual_; }
  double step() const { return step_; }

 private:
  void remember(double step);

  long samples_ = 0;
  double last_t_ = 0, step_ = 0, usual_ = 0, previous_step_ = 0;
  bool previous_gap_ = false;
  double history_[kHistory] = {};  // the last steps_ steps; once full, the oldest at next_
  int steps_ = 0;
  long next_ = 0;
};

/// One stage over a stream of rows, segment by segment: the rows are stored by the caller in
/// slots_needed() slots (row r in slot r % slots); each row is differentiated once the rows its
/// fit needs are in (half a window later), the first and last rows of a segment with one-sided
/// windows. A row flagged as starting a segment (after a gap in time) closes the one before it,
/// which is differentiated to its end before more rows are read. Angles that wrap
/// (wrapping_angles) are unwrapped within each window when differentiating q. Allocates nothing
/// after construction.
class DerivativeWindow {
 public:
  /// Where one slot's time, q (nq) and derivatives (nv x order, column k - 1 order k) are.
  struct Slot {
    const double* t;
    const Eigen::VectorXd* q;
    const Eigen::MatrixXd* dq;
  };
  /// The slots a stage needs: its window and the row read ahead that closes a segment.
  static int slots_needed(const DerivationStage& stage) { return stage.window + 1; }
  /// slots.size() == slots_needed(stage).
  DerivativeWindow(const Model& model, const DerivationStage& stage, std::vector<Slot> slots);

  /// Whether a row can be read now (false while a closed segment is being finished).
  bool wants_row() const { return !closed_; }
  /// The slot to read the next row into; call filled() once it holds it, end() at the end.
  int slot_to_fill() const { return static_cast<int>(count_ % capacity_); }
  /// The row is in; `starts_segment`: a gap precedes it, which closes the segment before it.
  void filled(bool starts_segment = false);
  /// The table has ended: closes the last segment.
  void end();
  bool ended() const { return ended_; }

  /// Whether the next row can be differentiated: the rows up to half a window after it are in
  /// (at least a whole window), or its segment is closed and has enough rows.
  bool ready() const;
  /// The slot of the row derive() differentiates next.
  int slot_to_emit() const { return static_cast<int>(emitted_ % capacity_); }
  /// When ready(): the stage's target orders of the next row into dq (its other columns are
  /// left alone), and on to the following row.
  void derive(Eigen::MatrixXd& dq);
  /// When a closed segment is done: on to the next one (true), or false when the table has
  /// ended or the segment is not done.
  bool next_segment();

  /// The closed segment has rows, but fewer than degree + 1: it cannot be differentiated. Its
  /// rows are segment_rows(), in slots segment_slot(0 .. segment_rows()).
  bool too_few_rows() const {
    return closed_ && rows_in_segment() > 0 && rows_in_segment() < min_rows_;
  }
  long segment_rows() const { return rows_in_segment(); }
  int segment_slot(long j) const { return static_cast<int>((segment_begin_ + j) % capacity_); }
  /// Whether the segment is the whole table (no gap before or after it).
  bool whole_table() const { return segment_begin_ == 0 && ended_ && segment_end_ == count_; }
  /// The rows differentiated with a window moved off-centre by a gap (not by the table's ends).
  long rows_near_gaps() const { return rows_near_gaps_; }
  int min_rows() const { return min_rows_; }

 private:
  long rows_in_segment() const { return (closed_ ? segment_end_ : count_) - segment_begin_; }
  void unwrap(long start, long n, int at);

  const Model& model_;
  const DerivationStage& stage_;
  const std::vector<Slot> slots_;
  const long window_, half_, capacity_;
  const int min_rows_;
  const std::vector<int> angles_;           // wrapping_angles: unwrapped within the window
  std::vector<Eigen::VectorXd> unwrapped_;  // (window) the window's q, angles unwrapped
  PolynomialFit fit_;
  Eigen::VectorXd displacement_, derivative_;  // (nv)
  long count_ = 0, emitted_ = 0, segment_begin_ = 0, segment_end_ = 0, rows_near_gaps_ = 0;
  bool closed_ = false, ended_ = false;
};

}  // namespace eom
