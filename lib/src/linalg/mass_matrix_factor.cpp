#include "linalg/mass_matrix_factor.hpp"

#include <cmath>

#include "core/pivot.hpp"

namespace eom::linalg {

namespace {
// the joint that velocity coordinate k belongs to
int joint_of_coordinate(const Model& model, int k) {
  int j = 1;
  while (j + 1 < model.njoints && model.joints[j + 1].idx_v <= k) ++j;
  return j;
}
}  // namespace

int factor_mass_matrix(const Model& model, Data& data) {
  const int n = model.nv;
  const int* begin = data.dof_ancestors_begin.data();
  const int* ancestors = data.dof_ancestors.data();
  double* L = data.L_ancestors.data();
  double* pivot = data.pivot_inv.data();  // the diagonal of L^T L left to factor, then 1 / L_kk
  for (int k = 0; k < n; ++k) {
    pivot[k] = data.M(k, k);
    for (int t = begin[k]; t < begin[k + 1]; ++t) L[t] = data.M(k, ancestors[t]);
  }
  for (int k = n - 1; k >= 0; --k) {
    // pivot k is the D = S^T IA S of aba at coordinate k: the same rule
    if (!detail::pivot_positive(pivot[k], data.pivot_scale)) return joint_of_coordinate(model, k);
    const double d_inv = 1 / std::sqrt(pivot[k]);
    pivot[k] = d_inv;
    double* __restrict lk = L + begin[k];
    const int count = begin[k + 1] - begin[k];
    for (int t = 0; t < count; ++t) lk[t] *= d_inv;
    // the t-th ancestor's own ancestors are the first t of k's, so its row is a prefix of k's
    for (int t = 0; t < count; ++t) {
      const int i = ancestors[begin[k] + t];
      const double lki = lk[t];
      pivot[i] -= lki * lki;
      double* __restrict li = L + begin[i];
      for (int s = 0; s < t; ++s) li[s] -= lki * lk[s];
    }
  }
  return -1;
}

void solve_factored(const Data& data, Eigen::VectorXd& x) {
  const int n = static_cast<int>(x.size());
  const int* begin = data.dof_ancestors_begin.data();
  const int* ancestors = data.dof_ancestors.data();
  const double* L = data.L_ancestors.data();
  const double* pivot_inv = data.pivot_inv.data();
  // L^T y = x from the leaves: y_k final once its descendants have given their share
  for (int k = n - 1; k >= 0; --k) {
    x[k] *= pivot_inv[k];
    for (int t = begin[k]; t < begin[k + 1]; ++t) x[ancestors[t]] -= L[t] * x[k];
  }
  // L z = y from the root: z_k = (y_k - sum over ancestors a of L_ka z_a) / L_kk
  for (int k = 0; k < n; ++k) {
    double sum = x[k];
    for (int t = begin[k]; t < begin[k + 1]; ++t) sum -= L[t] * x[ancestors[t]];
    x[k] = sum * pivot_inv[k];
  }
}

}  // namespace eom::linalg
