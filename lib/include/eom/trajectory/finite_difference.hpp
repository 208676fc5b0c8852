// Derivatives of sampled trajectories, for tables that give q (or v) but not its derivatives.
#pragma once

#include <array>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// Weights of the three-point derivatives at sample `at` (0, 1 or 2) of samples at strictly
/// increasing times t[0..2]: f'(t_at) ~ sum_k d1[k] f_k and f''(t_at) ~ sum_k d2[k] f_k. They
/// differentiate the quadratic through the three samples (Lagrange): f' is second-order
/// accurate; f'' is second-order at the middle of uniform samples and first-order otherwise.
struct ThreePointWeights {
  std::array<double, 3> d1, d2;
};
ThreePointWeights three_point_weights(const std::array<double, 3>& t, int at);

/// Weights of derivatives of any order by a local polynomial fit: the polynomial of degree
/// `degree` fitted by least squares to n samples at strictly increasing times t[0..n) (it
/// interpolates them when n = degree + 1), differentiated at t[at]: the r-th derivative there is
/// sum_j weights(r, j) f_j, r = 0..degree. Three samples of degree 2 give three_point_weights
/// exactly. Allocates nothing: sizes are capped at kMaxSamples and kMaxDegree.
class PolynomialFit {
 public:
  static constexpr int kMaxSamples = 63;
  static constexpr int kMaxDegree = 15;
  using Weights =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDegree + 1, kMaxSamples>;

  /// Throws InputError if n, at or degree are out of range (degree + 1 <= n <= kMaxSamples).
  const Weights& operator()(const double* t, int n, int at, int degree);

 private:
  Weights weights_;
};

/// Velocity and acceleration of a configuration trajectory at sample `at` from three samples
/// q[0..2] (nq each), by three_point_weights applied on the configuration manifold: the
/// tangent displacements q_k (-) q_at are differentiated, so quaternions are handled properly.
/// Allocates nothing after construction.
class ConfigurationDifferentiator {
 public:
  explicit ConfigurationDifferentiator(const Model& model);
  void operator()(const std::array<double, 3>& t, const std::array<const Eigen::VectorXd*, 3>& q,
                  int at, VecRef v, VecRef a);

 private:
  const Model& model_;
  Eigen::VectorXd displacement_;  // (nv)
};

}  // namespace eom
