// Signals sampled over time and the values between the samples: the torque and wrench tables
// that drive a simulation, the reference trajectory a controller tracks.
#pragma once

#include <array>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"
#include "eom/trajectory/finite_difference.hpp"

namespace eom {

/// Between two samples: zero-order hold (the earlier sample until the next) or linear.
enum class Interpolation { hold, linear };

/// Rows of `width` values sampled at strictly increasing times. Between rows the values follow
/// the Interpolation; outside the time range the first and last rows hold.
///
/// The rows are appended (a series held whole), or read from a Source as the times asked for
/// need them (a streamed series): then release() drops the rows no later time needs, so that the
/// memory is that of the rows between the time released and the latest time asked for, however
/// long the table. Rows keep their numbers (0 the first row of the table) when earlier ones are
/// dropped.
class TimeSeries {
 public:
  /// Reads the next row into t and values (width of them); false at the end of the rows.
  using Source = std::function<bool(double& t, double* values)>;

  explicit TimeSeries(int width) : width_(width) {}
  /// A streamed series: the rows come from `source` (which throws for a bad row) when asked for.
  TimeSeries(int width, Source source);

  /// Appends the row `values` (width of them) sampled at t. Throws InputError when t does not
  /// come strictly after the last row's time.
  void append(double t, const double* values);
  /// Throws InputError when t does not come strictly after `before` (the message append gives).
  static void check_after(double before, double t);

  /// One past the last row read so far (every row of a series held whole).
  int rows() const { return first_ + static_cast<int>(times_.size()); }
  /// The first row held: 0 until release() drops rows.
  int first() const { return first_; }
  /// Whether every row has been read (always for a series held whole).
  bool complete() const { return !source_; }
  int width() const { return width_; }
  /// For a row held (first() <= r < rows()).
  double time(int r) const { return times_[r - first_]; }
  double at(int r, int column) const {
    return values_[static_cast<size_t>(r - first_) * width_ + column];
  }
  /// Reads rows until row r is held or the source ends; returns whether row r exists.
  bool reach(int r);
  /// Whether [t0, t1] lies within the sampled times (else the first or last row holds there).
  /// Reads rows as far as t1 needs.
  bool covers(double t0, double t1);
  /// Drops the rows before the one at or before t, less `kept_before` more: no later call asks
  /// for an earlier time (nor, with kept_before, for earlier rows). Allocates nothing.
  void release(double t, int kept_before = 0);

  /// The rows around t: k and k + 1, with weight s of row k + 1 (s = 0 for hold, at a sample and
  /// outside the time range, where k is the first or last row). Reads rows as far as t needs;
  /// needs a row; throws std::logic_error for a time before the rows released.
  void locate(double t, Interpolation how, int& k, double& s);
  /// out[j] = the value of column columns[j] at t. Allocates nothing once the rows between
  /// release() and t are held.
  void sample(double t, Interpolation how, const std::vector<int>& columns, VecRef out);
  /// out = every column at t (width values). Allocates nothing (as above).
  void sample(double t, Interpolation how, VecRef out);

 private:
  bool read_row();

  int width_;
  Source source_;                       // empty once the rows have all been read
  int first_ = 0;                       // the number of the first row held
  std::vector<double> times_, values_;  // values_ row-major
  std::vector<double> row_;             // the row being read
};

/// A reference trajectory from samples of q (and of v and a): between rows k and k + 1, q moves
/// on the configuration manifold, q_k (+) s (q_k+1 (-) q_k), and v and a linearly (with linear
/// interpolation; hold keeps row k). Samples without v or a give them by three-point differences
/// of q on the manifold (ConfigurationDifferentiator), row by row as they are asked for, so that
/// a streamed series needs only the rows around the times asked for.
class ReferenceTrajectory {
 public:
  /// q_columns: nq columns of `samples`; v_columns, a_columns: nv columns each, or empty when
  /// the samples lack them (then derived). Throws InputError when deriving from fewer than 3
  /// rows.
  ReferenceTrajectory(const Model& model, TimeSeries samples, std::vector<int> q_columns,
                      std::vector<int> v_columns, std::vector<int> a_columns, Interpolation how);

  /// q_ref (nq), v_ref and a_ref (nv) at t. Allocates nothing once the rows between release()
  /// and t are held.
  void operator()(double t, VecRef q, VecRef v, VecRef a);
  /// No later call asks for a time before t: the samples no later call needs are dropped.
  void release(double t);
  /// The samples (the rows read so far and whether they are all).
  TimeSeries& samples() { return samples_; }

 private:
  void configuration(int row, VecRef q) const;
  // v and a at a row: its columns, or three-point differences over it and its neighbours
  void rates(int row, VecRef v, VecRef a);

  const Model& model_;
  TimeSeries samples_;
  const std::vector<int> q_columns_, v_columns_, a_columns_;
  const Interpolation how_;
  ConfigurationDifferentiator differentiate_;
  std::array<Eigen::VectorXd, 3> q3_;
  Eigen::VectorXd q0_, q1_, dq_, v0_, a0_, v1_, a1_, v3_, a3_;
};

}  // namespace eom
