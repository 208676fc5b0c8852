// Derivatives of sampled trajectories, for tables that give q (or v) but not its derivatives.
#pragma once

#include <array>

#include <Eigen/Core>

#include "eom/joint.hpp"
#include "eom/model.hpp"

namespace eom {

/// Weights of the three-point derivatives at sample `at` (0, 1 or 2) of samples at strictly
/// increasing times t[0..2]: f'(t_at) ~ sum_k d1[k] f_k and f''(t_at) ~ sum_k d2[k] f_k. They
/// differentiate the quadratic through the three samples (Lagrange): f' is second-order
/// accurate; f'' is second-order at the middle of uniform samples and first-order otherwise.
struct ThreePointWeights {
  std::array<double, 3> d1, d2;
};
ThreePointWeights three_point_weights(const std::array<double, 3>& t, int at);

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
