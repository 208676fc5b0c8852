#include "eom/finite_difference.hpp"

#include "eom/configuration.hpp"

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
