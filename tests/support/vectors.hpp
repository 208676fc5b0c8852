// Vectors written inline in tests: vec({1, 2, 3}).
#pragma once

#include <initializer_list>

#include <Eigen/Core>

namespace eom::test {

inline Eigen::VectorXd vec(std::initializer_list<double> x) {
  return Eigen::Map<const Eigen::VectorXd>(x.begin(), static_cast<Eigen::Index>(x.size()));
}

}  // namespace eom::test
