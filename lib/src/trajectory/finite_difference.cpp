#include "eom/trajectory/finite_difference.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <string>

#include "eom/multibody/configuration.hpp"
#include "eom/core/errors.hpp"

namespace eom {

ThreePointWeights three_point_weights(const std::array<double, 3>& t, int at) {
  // L_k(s) = prod_{j != k} (s - t_j) / (t_k - t_j); L_k' at t_at, L_k'' constant
  ThreePointWeights w{};
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const double denominator = (t[k] - t[i]) * (t[k] - t[j]);
    w.d1[k] = ((t[at] - t[i]) + (t[at] - t[j])) / denominator;
    w.d2[k] = 2 / denominator;
  }
  return w;
}

const PolynomialFit::Weights& PolynomialFit::operator()(const double* t, int n, int at,
                                                        int degree) {
  if (degree < 0 || degree > kMaxDegree || n < degree + 1 || n > kMaxSamples || at < 0 || at >= n) {
    throw InputError("polynomial fit: " + std::to_string(n) + " samples cannot give a degree " +
                     std::to_string(degree) + " fit (at most " + std::to_string(kMaxSamples) +
                     " samples, degree " + std::to_string(kMaxDegree) + ")");
  }
  weights_.resize(degree + 1, n);
  if (n == 3 && degree == 2) {
    // the closed-form Lagrange weights, so three-point results stay what they always were
    const ThreePointWeights w = three_point_weights({t[0], t[1], t[2]}, at);
    for (int j = 0; j < 3; ++j) {
      weights_(0, j) = j == at;
      weights_(1, j) = w.d1[j];
      weights_(2, j) = w.d2[j];
    }
    return weights_;
  }
  // least squares in the scaled local time s = (t - t_at) / h, |s| <= 1, which keeps the
  // Vandermonde matrix well conditioned; by QR, not the normal equations
  double h = 0;
  for (int j = 0; j < n; ++j) h = std::max(h, std::abs(t[j] - t[at]));
  using Vandermonde =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxSamples, kMaxDegree + 1>;
  Vandermonde V(n, degree + 1);
  for (int j = 0; j < n; ++j) {
    const double s = (t[j] - t[at]) / h;
    double power = 1;
    for (int c = 0; c <= degree; ++c, power *= s) V(j, c) = power;
  }
  const Eigen::HouseholderQR<Vandermonde> qr(V);
  using Square = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxSamples, kMaxSamples>;
  // row c of V^+ maps the samples to the coefficient of s^c; f^(r)(t_at) = r! c_r / h^r
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDegree + 1, kMaxSamples>
      pseudo_inverse = qr.solve(Square::Identity(n, n));
  double scale = 1;
  for (int r = 0; r <= degree; ++r) {
    weights_.row(r) = scale * pseudo_inverse.row(r);
    scale *= (r + 1) / h;
  }
  return weights_;
}

ConfigurationDifferentiator::ConfigurationDifferentiator(const Model& model)
    : model_(model), displacement_(model.nv) {}

void ConfigurationDifferentiator::operator()(const std::array<double, 3>& t,
                                             const std::array<const Eigen::VectorXd*, 3>& q, int at,
                                             VecRef v, VecRef a) {
  const ThreePointWeights w = three_point_weights(t, at);
  v.setZero();
  a.setZero();
  for (int k = 0; k < 3; ++k) {
    if (k == at) continue;  // its displacement from itself is zero
    difference(model_, *q[at], *q[k], displacement_);
    v += w.d1[k] * displacement_;
    a += w.d2[k] * displacement_;
  }
}

}  // namespace eom
