// Signals sampled over time and the values between the samples: the torque and wrench tables
// that drive a simulation, the reference trajectory a controller tracks.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// Between two samples: zero-order hold (the earlier sample until the next) or linear.
enum class Interpolation { hold, linear };

/// Rows of `width` values sampled at strictly increasing times. Between rows the values follow
/// the Interpolation; outside the time range the first and last rows hold.
class TimeSeries {
 public:
  explicit TimeSeries(int width) : width_(width) {}

  /// Appends the row `values` (width of them) sampled at t. Throws InputError when t does not
  /// come strictly after the last row's time.
  void append(double t, const double* values);

  int rows() const { return static_cast<int>(times_.size()); }
  int width() const { return width_; }
  double time(int r) const { return times_[r]; }
  double at(int r, int column) const { return values_[static_cast<size_t>(r) * width_ + column]; }
  /// Whether [t0, t1] lies within the sampled times (else the first or last row holds there).
  bool covers(double t0, double t1) const;

  /// The rows around t: k and k + 1, with weight s of row k + 1 (s = 0 for hold, at a sample and
  /// outside the time range, where k is the first or last row). Needs a row.
  void locate(double t, Interpolation how, int& k, double& s) const;
  /// out[j] = the value of column columns[j] at t. Allocates nothing.
  void sample(double t, Interpolation how, const std::vector<int>& columns, VecRef out) const;
  /// out = every column at t (width values). Allocates nothing.
  void sample(double t, Interpolation how, VecRef out) const;

 private:
  int width_;
  std::vector<double> times_, values_;  // values_ row-major
};

/// A reference trajectory from samples of q (and of v and a): between rows k and k + 1, q moves
/// on the configuration manifold, q_k (+) s (q_k+1 (-) q_k), and v and a linearly (with linear
/// interpolation; hold keeps row k). Samples without v or a give them by three-point differences
/// of q on the manifold (ConfigurationDifferentiator).
class ReferenceTrajectory {
 public:
  /// q_columns: nq columns of `samples`; v_columns, a_columns: nv columns each, or empty when
  /// the samples lack them (then derived). Throws InputError when deriving from fewer than 3
  /// rows.
  ReferenceTrajectory(const Model& model, TimeSeries samples, std::vector<int> q_columns,
                      const std::vector<int>& v_columns, const std::vector<int>& a_columns,
                      Interpolation how);

  /// q_ref (nq), v_ref and a_ref (nv) at t. Allocates nothing.
  void operator()(double t, VecRef q, VecRef v, VecRef a);

 private:
  void configuration(int row, VecRef q) const;

  const Model& model_;
  const TimeSeries samples_;
  const std::vector<int> q_columns_;
  const Interpolation how_;
  Eigen::MatrixXd v_, a_;  // (nv x rows)
  Eigen::VectorXd q0_, q1_, dq_;
};

}  // namespace eom
