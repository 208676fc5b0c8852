#include "linalg/symmetric_eigenvalues.hpp"

#include <algorithm>
#include <cmath>

namespace eom::linalg {
namespace {

// A = H^T T H with T tridiagonal (Golub and Van Loan 8.3.1): the diagonal of T into d, the
// off-diagonal into e (e[i] couples i and i + 1). A's lower triangle is overwritten.
void tridiagonalize(Eigen::Matrix<double, 6, 6>& A, int n, double* d, double* e) {
  for (int k = 0; k + 2 < n; ++k) {
    const int m = n - k - 1;  // the size of the trailing block A(k+1.., k+1..)
    double v[6] = {}, sigma = 0;
    for (int i = 1; i < m; ++i) {
      v[i] = A(k + 1 + i, k);
      sigma += v[i] * v[i];
    }
    const double x0 = A(k + 1, k);
    if (sigma == 0) {
      e[k] = x0;
      continue;
    }
    const double mu = std::sqrt(x0 * x0 + sigma);
    const double alpha = x0 <= 0 ? mu : -mu;  // H x = alpha e_1, no cancellation in x0 - alpha
    v[0] = x0 - alpha;
    e[k] = alpha;
    const double vv = v[0] * v[0] + sigma;
    // B <- H B H, H = I - 2 v v^T / vv: B -= v q^T + q v^T, p = 2 B v / vv, q = p - (v^T p / vv) v
    double p[6], vp = 0;
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int j = 0; j < m; ++j) sum += A(k + 1 + std::max(i, j), k + 1 + std::min(i, j)) * v[j];
      p[i] = 2 * sum / vv;
      vp += v[i] * p[i];
    }
    for (int i = 0; i < m; ++i) p[i] -= vp / vv * v[i];
    for (int j = 0; j < m; ++j) {
      for (int i = j; i < m; ++i) A(k + 1 + i, k + 1 + j) -= v[i] * p[j] + p[i] * v[j];
    }
  }
  if (n >= 2) e[n - 2] = A(n - 1, n - 2);
  for (int i = 0; i < n; ++i) d[i] = A(i, i);
}

// The eigenvalues of the tridiagonal (d, e) into d, unordered, by the implicit QL iteration with
// Wilkinson shifts (Numerical Recipes 11.3, tqli without eigenvectors); false when an eigenvalue
// takes more than 60 iterations.
bool ql_eigenvalues(int n, double* d, double* e) {
  for (int l = 0; l < n; ++l) {
    int m, iterations = 0;
    do {
      for (m = l; m + 1 < n; ++m) {  // the first negligible off-diagonal from l
        if (std::abs(e[m]) <= 0x1p-53 * (std::abs(d[m]) + std::abs(d[m + 1]))) break;
      }
      if (m == l) break;
      if (++iterations > 60) return false;
      double g = (d[l + 1] - d[l]) / (2 * e[l]);
      double r = std::sqrt(g * g + 1);
      g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
      double s = 1, c = 1, shift = 0;
      int i = m - 1;
      for (; i >= l; --i) {
        const double f = s * e[i], b = c * e[i];
        e[i + 1] = r = std::sqrt(f * f + g * g);
        if (r == 0) {  // underflow: split here and start over
          d[i + 1] -= shift;
          e[m] = 0;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - shift;
        r = (d[i] - g) * s + 2 * c * b;
        shift = s * r;
        d[i + 1] = g + shift;
        g = c * r - b;
      }
      if (r == 0 && i >= l) continue;
      d[l] -= shift;
      e[l] = g;
      e[m] = 0;
    } while (true);
  }
  return true;
}

}  // namespace

bool symmetric_eigenvalues(Eigen::Matrix<double, 6, 6> A, int n, double* lambda) {
  const double scale = A.topLeftCorner(n, n).cwiseAbs().maxCoeff();
  if (!(scale > 0)) {
    std::fill(lambda, lambda + n, 0.0);
    return scale == 0;
  }
  // scaled to entries of at most 1, so that no square in the reflections or rotations overflows
  A /= scale;
  double e[6] = {};
  tridiagonalize(A, n, lambda, e);
  if (!ql_eigenvalues(n, lambda, e)) return false;
  std::sort(lambda, lambda + n);
  for (int i = 0; i < n; ++i) lambda[i] *= scale;
  return true;
}

}  // namespace eom::linalg
