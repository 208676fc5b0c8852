#include "linalg/cholesky.hpp"

#include <cmath>

namespace eom::linalg {

bool cholesky(Eigen::MatrixXd& A, int m) {
  for (int j = 0; j < m; ++j) {
    double d = A(j, j);
    for (int k = 0; k < j; ++k) d -= A(j, k) * A(j, k);
    if (!(d > 0)) return false;
    const double l = std::sqrt(d);
    A(j, j) = l;
    for (int i = j + 1; i < m; ++i) {
      double s = A(i, j);
      for (int k = 0; k < j; ++k) s -= A(i, k) * A(j, k);
      A(i, j) = s / l;
    }
  }
  return true;
}

void cholesky_solve(const Eigen::MatrixXd& L, int m, Eigen::VectorXd& x) {
  // L y = x forward, then L^T x = y backward
  for (int i = 0; i < m; ++i) {
    double s = x[i];
    for (int k = 0; k < i; ++k) s -= L(i, k) * x[k];
    x[i] = s / L(i, i);
  }
  for (int i = m - 1; i >= 0; --i) {
    double s = x[i];
    for (int k = i + 1; k < m; ++k) s -= L(k, i) * x[k];
    x[i] = s / L(i, i);
  }
}

}  // namespace eom::linalg
