#include "linalg/ltdl.hpp"

namespace eom::linalg {

int ltdl(const std::vector<int>& lambda, Eigen::MatrixXd& H) {
  const int n = static_cast<int>(H.rows());
  for (int k = n - 1; k >= 0; --k) {
    // every descendant of k has been eliminated: D_k is final
    const double d = H(k, k);
    if (!(d > 0)) return k;
    // eliminate L_ka = H_ka / D_k from the rows of k's ancestors a; H(i, k) for the ancestors i of
    // a is still unscaled here, since a walks up the branch
    for (int a = lambda[k]; a >= 0; a = lambda[a]) {
      const double f = H(a, k) / d;
      for (int i = a; i >= 0; i = lambda[i]) H(i, a) -= H(i, k) * f;
      H(a, k) = f;
    }
  }
  return -1;
}

void solve_lt(const std::vector<int>& lambda, const Eigen::MatrixXd& H,
              Eigen::Ref<Eigen::VectorXd> x) {
  for (int k = static_cast<int>(x.size()) - 1; k >= 0; --k) {
    const double xk = x[k];
    if (xk == 0) continue;
    for (int i = lambda[k]; i >= 0; i = lambda[i]) x[i] -= H(i, k) * xk;
  }
}

void solve_l(const std::vector<int>& lambda, const Eigen::MatrixXd& H,
             Eigen::Ref<Eigen::VectorXd> x) {
  const int n = static_cast<int>(x.size());
  for (int k = 0; k < n; ++k) {
    double sum = x[k];
    for (int i = lambda[k]; i >= 0; i = lambda[i]) sum -= H(i, k) * x[i];
    x[k] = sum;
  }
}

void solve_d(const Eigen::MatrixXd& H, Eigen::Ref<Eigen::VectorXd> x) {
  x.array() /= H.diagonal().array();
}

void solve_ltdl(const std::vector<int>& lambda, const Eigen::MatrixXd& H,
                Eigen::Ref<Eigen::VectorXd> x) {
  solve_lt(lambda, H, x);
  solve_d(H, x);
  solve_l(lambda, H, x);
}

}  // namespace eom::linalg
