#include "eom/trajectory/interpolation.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <stdexcept>
#include <string>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/multibody/configuration.hpp"

namespace eom {

TimeSeries::TimeSeries(int width, Source source)
    : width_(width), source_(std::move(source)), row_(width) {}

void TimeSeries::check_after(double before, double t) {
  if (!(t > before)) {
    std::ostringstream message;
    message << "t must increase strictly: " << number_text(t) << " after " << number_text(before);
    throw InputError(message.str());
  }
}

void TimeSeries::append(double t, const double* values) {
  if (!times_.empty()) check_after(times_.back(), t);
  times_.push_back(t);
  values_.insert(values_.end(), values, values + width_);
}

bool TimeSeries::read_row() {
  if (!source_) return false;
  double t;
  if (!source_(t, row_.data())) {
    source_ = nullptr;
    return false;
  }
  append(t, row_.data());
  return true;
}

bool TimeSeries::reach(int r) {
  while (rows() <= r) {
    if (!read_row()) return false;
  }
  return true;
}

bool TimeSeries::covers(double t0, double t1) {
  if (!reach(0)) return false;
  while (times_.back() < t1 && read_row()) {
  }
  return t0 >= times_.front() && t1 <= times_.back();
}

void TimeSeries::release(double t, int kept_before) {
  // the rows before the one at or before t: none later is asked for
  const auto after = std::upper_bound(times_.begin(), times_.end(), t);
  const long dropped = std::max(0L, static_cast<long>(after - times_.begin()) - 1 - kept_before);
  times_.erase(times_.begin(), times_.begin() + dropped);
  values_.erase(values_.begin(), values_.begin() + dropped * width_);
  first_ += static_cast<int>(dropped);
}

void TimeSeries::locate(double t, Interpolation how, int& k, double& s) {
  // the row after t, when there is one, tells which row is at or before it
  while ((times_.empty() || times_.back() <= t) && read_row()) {
  }
  if (first_ > 0 && t < times_.front()) {
    throw std::logic_error("TimeSeries: sampled at a time before the rows released");
  }
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  k = first_ + std::max(0, static_cast<int>(it - times_.begin()) - 1);
  s = 0;
  if (how == Interpolation::linear && k + 1 < rows() && t > time(k)) {
    s = (t - time(k)) / (time(k + 1) - time(k));
  }
}

void TimeSeries::sample(double t, Interpolation how, const std::vector<int>& columns, VecRef out) {
  int k;
  double s;
  locate(t, how, k, s);
  for (size_t j = 0; j < columns.size(); ++j) {
    const double x0 = at(k, columns[j]);
    out[static_cast<Eigen::Index>(j)] = s == 0 ? x0 : x0 + s * (at(k + 1, columns[j]) - x0);
  }
}

void TimeSeries::sample(double t, Interpolation how, VecRef out) {
  int k;
  double s;
  locate(t, how, k, s);
  for (int c = 0; c < width_; ++c) {
    const double x0 = at(k, c);
    out[c] = s == 0 ? x0 : x0 + s * (at(k + 1, c) - x0);
  }
}

ReferenceTrajectory::ReferenceTrajectory(const Model& model, TimeSeries samples,
                                         std::vector<int> q_columns, std::vector<int> v_columns,
                                         std::vector<int> a_columns, Interpolation how)
    : model_(model),
      samples_(std::move(samples)),
      q_columns_(std::move(q_columns)),
      v_columns_(std::move(v_columns)),
      a_columns_(std::move(a_columns)),
      how_(how),
      differentiate_(model),
      q0_(model.nq),
      q1_(model.nq),
      dq_(model.nv),
      v0_(model.nv),
      a0_(model.nv),
      v1_(model.nv),
      a1_(model.nv),
      v3_(model.nv),
      a3_(model.nv) {
  q3_.fill(Eigen::VectorXd(model.nq));
  if ((v_columns_.empty() || a_columns_.empty()) && !samples_.reach(2)) {
    throw InputError("a reference without v and a columns needs at least 3 rows to derive them");
  }
}

void ReferenceTrajectory::rates(int row, VecRef v, VecRef a) {
  if (v_columns_.empty() || a_columns_.empty()) {
    // the three rows around the row (one-sided at the ends: the first three, the last three)
    const int first = row == 0 ? 0 : samples_.reach(row + 1) ? row - 1 : row - 2;
    std::array<double, 3> t;
    for (int k = 0; k < 3; ++k) {
      t[k] = samples_.time(first + k);
      configuration(first + k, q3_[k]);
    }
    differentiate_(t, {&q3_[0], &q3_[1], &q3_[2]}, row - first, v3_, a3_);
  }
  for (int i = 0; i < model_.nv; ++i) {
    v[i] = v_columns_.empty() ? v3_[i] : samples_.at(row, v_columns_[i]);
    a[i] = a_columns_.empty() ? a3_[i] : samples_.at(row, a_columns_[i]);
  }
}

void ReferenceTrajectory::operator()(double t, VecRef q, VecRef v, VecRef a) {
  int k;
  double s;
  samples_.locate(t, how_, k, s);
  configuration(k, q0_);
  rates(k, v0_, a0_);
  if (s == 0) {
    q = q0_;
    v = v0_;
    a = a0_;
    return;
  }
  configuration(k + 1, q1_);
  rates(k + 1, v1_, a1_);
  difference(model_, q0_, q1_, dq_);
  dq_ *= s;
  integrate(model_, q0_, dq_, q);
  v = (1 - s) * v0_ + s * v1_;
  a = (1 - s) * a0_ + s * a1_;
}

void ReferenceTrajectory::release(double t) {
  // the differences at a row reach two rows back (at the last row)
  samples_.release(t, v_columns_.empty() || a_columns_.empty() ? 2 : 0);
}

void ReferenceTrajectory::configuration(int row, VecRef q) const {
  for (int i = 0; i < model_.nq; ++i) q[i] = samples_.at(row, q_columns_[i]);
}

}  // namespace eom
