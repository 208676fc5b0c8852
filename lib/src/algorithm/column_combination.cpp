#include "algorithm/column_combination.hpp"

namespace eom::detail {
namespace {

// Rows go in blocks whose sums stay in registers over all the columns; each block of a column is
// loaded once for the K outputs.
template <int K, int B>
inline void portable_block(const double* A, Eigen::Index stride, const int* columns, int count,
                           const double* const (&weight)[K], double* const (&out)[K], int e) {
  using Block = Eigen::Matrix<double, B, 1>;
  Block sum[K];
  for (int j = 0; j < K; ++j) sum[j].setZero();
  for (int t = 0; t < count; ++t) {
    const Eigen::Map<const Block> a(A + columns[t] * stride + e);
    for (int j = 0; j < K; ++j) sum[j].noalias() += weight[j][columns[t]] * a;
  }
  for (int j = 0; j < K; ++j) Eigen::Map<Block>(out[j] + e) = -sum[j];
}

#if EOM_AVX2_KERNELS
// 4 doubles, unaligned, that may alias the doubles they are read from
using Pack = double __attribute__((vector_size(32), aligned(8), may_alias));

template <int K, int P>
__attribute__((target("avx2"))) inline void avx2_block(const double* A, Eigen::Index stride,
                                                       const int* columns, int count,
                                                       const double* const (&weight)[K],
                                                       double* const (&out)[K], int e) {
  Pack sum[K][P] = {};
  for (int t = 0; t < count; ++t) {
    const Pack* a = reinterpret_cast<const Pack*>(A + columns[t] * stride + e);
    for (int j = 0; j < K; ++j) {
      const double w = weight[j][columns[t]];
      for (int u = 0; u < P; ++u) sum[j][u] += w * a[u];
    }
  }
  for (int j = 0; j < K; ++j) {
    for (int u = 0; u < P; ++u) *reinterpret_cast<Pack*>(out[j] + e + 4 * u) = -sum[j][u];
  }
}

// the last rows as one more block of 4 ending at the last row: the rows it shares with the block
// before are computed again to the same bits, which costs less than a tail of single rows
template <int K>
__attribute__((target("avx2"))) void negative_combination_avx2(const Eigen::MatrixXd& A,
                                                               const int* columns, int count,
                                                               const double* const (&weight)[K],
                                                               double* const (&out)[K],
                                                               int length) {
  if (length < 4) return negative_combination_portable<K>(A, columns, count, weight, out, length);
  const double* a = A.data();
  const Eigen::Index stride = A.rows();
  int e = 0;
  for (; e + 8 <= length; e += 8) avx2_block<K, 2>(a, stride, columns, count, weight, out, e);
  if (e + 4 <= length) {
    avx2_block<K, 1>(a, stride, columns, count, weight, out, e);
    e += 4;
  }
  if (e < length) avx2_block<K, 1>(a, stride, columns, count, weight, out, length - 4);
}
#endif

}  // namespace

template <int K>
void negative_combination_portable(const Eigen::MatrixXd& A, const int* columns, int count,
                                   const double* const (&weight)[K], double* const (&out)[K],
                                   int length) {
  const double* a = A.data();
  const Eigen::Index stride = A.rows();
  int e = 0;
  for (; e + 8 <= length; e += 8) portable_block<K, 8>(a, stride, columns, count, weight, out, e);
  if (e + 4 <= length) {
    portable_block<K, 4>(a, stride, columns, count, weight, out, e);
    e += 4;
  }
  if (e + 2 <= length) {
    portable_block<K, 2>(a, stride, columns, count, weight, out, e);
    e += 2;
  }
  if (e < length) portable_block<K, 1>(a, stride, columns, count, weight, out, e);
}

bool avx2_kernels() {
#if EOM_AVX2_KERNELS
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return avx2;
#else
  return false;
#endif
}

template <int K>
void negative_combination(const Eigen::MatrixXd& A, const int* columns, int count,
                          const double* const (&weight)[K], double* const (&out)[K], int length) {
#if EOM_AVX2_KERNELS
  if (avx2_kernels()) return negative_combination_avx2<K>(A, columns, count, weight, out, length);
#endif
  negative_combination_portable<K>(A, columns, count, weight, out, length);
}

template void negative_combination<1>(const Eigen::MatrixXd&, const int*, int,
                                      const double* const (&)[1], double* const (&)[1], int);
template void negative_combination<2>(const Eigen::MatrixXd&, const int*, int,
                                      const double* const (&)[2], double* const (&)[2], int);
template void negative_combination_portable<1>(const Eigen::MatrixXd&, const int*, int,
                                               const double* const (&)[1], double* const (&)[1],
                                               int);
template void negative_combination_portable<2>(const Eigen::MatrixXd&, const int*, int,
                                               const double* const (&)[2], double* const (&)[2],
                                               int);

}  // namespace eom::detail
