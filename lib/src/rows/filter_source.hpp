// The row engine's stages around the derivation: the zero-phase low-pass of the rows before it
// (trajectory/low_pass.hpp; eom identify --filter) and the decimation after it (--decimate).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include <eom/trajectory/derivation.hpp>

#include "eom/rows/row_input.hpp"

namespace eom::rows {

/// The low-pass of `cutoff` Hz on q (on the configuration manifold: q_c + sum_k h_k (q_k - q_c),
/// + and - being integrate and difference, so that angles that wrap and quaternions stay what
/// they are), on the derivative columns the table gives and on the task's input columns (the
/// measured torques), each row given the window centred on it (no delay). The rate is the
/// table's first step's; a gap in t (TimeStepCheck) starts a new segment. The H rows at each end
/// of a segment have no whole window: they are dropped (dropped() counts them). Memory: 2 H + 1
/// samples, whatever the rows.
class LowPassSource final : public SampleSource {
 public:
  LowPassSource(const Model& model, SampleSource& upstream, double cutoff, const Binding& b,
                const std::vector<int>& inputs, const std::string& file, int order);

  bool next(Sample& out) override;

  long dropped() const { return dropped_; }
  int taps() const { return static_cast<int>(taps_.size()); }
  double rate() const { return rate_; }
  double cutoff() const { return cutoff_; }
  /// What was filtered and dropped, for the table's warning (after the last row).
  std::string description() const;

 private:
  bool read(Sample& slot);  // the next upstream row; a gap marks it as starting a segment
  void start();
  void filter(Sample& out) const;
  // the segment's row r
  const Sample& at(long r) const { return ring_[static_cast<size_t>(r) % ring_.size()]; }

  const Model& model_;
  SampleSource& upstream_;
  const double cutoff_;
  std::vector<int> orders_;  // the derivative orders the table gives
  const std::vector<int>& inputs_;
  const std::string& file_;
  const int order_;
  std::vector<double> taps_;
  double rate_ = 0;
  std::vector<Sample> ring_;  // the segment's last 2 H + 1 rows, row r in slot r % size
  long count_ = 0;            // rows of the current segment read
  long dropped_ = 0;
  bool started_ = false;
  bool segment_ = false;  // the next row given on starts a segment (after a gap)
  TimeStepCheck steps_;
  mutable Eigen::VectorXd step_, sum_;  // (nv) workspace
};

/// Every `every`-th row of the upstream's, from its first (the others counted in dropped()).
class DecimationSource final : public SampleSource {
 public:
  DecimationSource(SampleSource& upstream, int every) : upstream_(upstream), every_(every) {}
  bool next(Sample& out) override;
  long dropped() const { return dropped_; }

 private:
  SampleSource& upstream_;
  const int every_;
  long seen_ = 0, dropped_ = 0;
};

}  // namespace eom::rows
