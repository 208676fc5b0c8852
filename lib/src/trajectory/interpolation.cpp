#include "eom/trajectory/interpolation.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <string>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/multibody/configuration.hpp"
#include "eom/trajectory/finite_difference.hpp"

namespace eom {

void TimeSeries::append(double t, const double* values) {
  if (!times_.empty() && !(t > times_.back())) {
    std::ostringstream message;
    message << "t must increase strictly: " << number_text(t) << " after "
            << number_text(times_.back());
    throw InputError(message.str());
  }
  times_.push_back(t);
  values_.insert(values_.end(), values, values + width_);
}

bool TimeSeries::covers(double t0, double t1) const {
  return t0 >= times_.front() && t1 <= times_.back();
}

void TimeSeries::locate(double t, Interpolation how, int& k, double& s) const {
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  k = std::max(0, static_cast<int>(it - times_.begin()) - 1);
  s = 0;
  if (how == Interpolation::linear && k + 1 < rows() && t > times_[k]) {
    s = (t - times_[k]) / (times_[k + 1] - times_[k]);
  }
}

void TimeSeries::sample(double t, Interpolation how, const std::vector<int>& columns,
                        VecRef out) const {
  int k;
  double s;
  locate(t, how, k, s);
  for (size_t j = 0; j < columns.size(); ++j) {
    const double x0 = at(k, columns[j]);
    out[static_cast<Eigen::Index>(j)] = s == 0 ? x0 : x0 + s * (at(k + 1, columns[j]) - x0);
  }
}

void TimeSeries::sample(double t, Interpolation how, VecRef out) const {
  int k;
  double s;
  locate(t, how, k, s);
  for (int c = 0; c < width_; ++c) {
    const double x0 = at(k, c);
    out[c] = s == 0 ? x0 : x0 + s * (at(k + 1, c) - x0);
  }
}

ReferenceTrajectory::ReferenceTrajectory(const Model& model, TimeSeries samples,
                                         std::vector<int> q_columns,
                                         const std::vector<int>& v_columns,
                                         const std::vector<int>& a_columns, Interpolation how)
    : model_(model),
      samples_(std::move(samples)),
      q_columns_(std::move(q_columns)),
      how_(how),
      q0_(model.nq),
      q1_(model.nq),
      dq_(model.nv) {
  const int n = samples_.rows();
  const bool derive = v_columns.empty() || a_columns.empty();
  if (derive && n < 3) {
    throw InputError("a reference without v and a columns needs at least 3 rows to derive them");
  }
  v_.resize(model.nv, n);
  a_.resize(model.nv, n);
  ConfigurationDifferentiator differentiate(model);
  std::array<Eigen::VectorXd, 3> q3;
  q3.fill(Eigen::VectorXd(model.nq));
  Eigen::VectorXd v(model.nv), a(model.nv);
  for (int r = 0; r < n; ++r) {
    if (derive) {
      // the three rows around r (one-sided at the ends)
      const int first = std::clamp(r - 1, 0, n - 3);
      std::array<double, 3> t;
      for (int k = 0; k < 3; ++k) {
        t[k] = samples_.time(first + k);
        configuration(first + k, q3[k]);
      }
      differentiate(t, {&q3[0], &q3[1], &q3[2]}, r - first, v, a);
    }
    for (int i = 0; i < model.nv; ++i) {
      v_(i, r) = v_columns.empty() ? v[i] : samples_.at(r, v_columns[i]);
      a_(i, r) = a_columns.empty() ? a[i] : samples_.at(r, a_columns[i]);
    }
  }
}

void ReferenceTrajectory::operator()(double t, VecRef q, VecRef v, VecRef a) {
  int k;
  double s;
  samples_.locate(t, how_, k, s);
  configuration(k, q0_);
  if (s == 0) {
    q = q0_;
    v = v_.col(k);
    a = a_.col(k);
    return;
  }
  configuration(k + 1, q1_);
  difference(model_, q0_, q1_, dq_);
  dq_ *= s;
  integrate(model_, q0_, dq_, q);
  v = (1 - s) * v_.col(k) + s * v_.col(k + 1);
  a = (1 - s) * a_.col(k) + s * a_.col(k + 1);
}

void ReferenceTrajectory::configuration(int row, VecRef q) const {
  for (int i = 0; i < model_.nq; ++i) q[i] = samples_.at(row, q_columns_[i]);
}

}  // namespace eom
