// A few columns of a matrix combined with K sets of weights: the kernel of the O(n^2) steps of
// the partial derivatives (M^-1 from its factor, M^-1 times dtau), private to libeom.
#pragma once

#include <Eigen/Core>

// x86-64 processors with AVX2 get kernels 4 doubles wide, chosen at run time; elsewhere, and on
// processors without it, the portable kernels run. Both give the same bits.
#if defined(__x86_64__) && defined(__GNUC__)
#define EOM_AVX2_KERNELS 1
#else
#define EOM_AVX2_KERNELS 0
#endif

namespace eom::detail {

/// out[j][e] = sum_t weight[j][t] A(e, columns[t]) for e in [0, length) and j < K: each output
/// the sum, in the order of `columns`, of count products, started from zero; no fused
/// multiply-add, so every kernel gives the same bits. out may not overlap the columns read.
template <int K>
void combine_columns(const Eigen::MatrixXd& A, const int* columns, int count,
                     const double* const (&weight)[K], double* const (&out)[K], int length);

/// The same on every processor (Eigen's packets), and whether combine_columns runs the AVX2
/// kernel instead (the processor has AVX2); for the tests that the two agree.
template <int K>
void combine_columns_portable(const Eigen::MatrixXd& A, const int* columns, int count,
                              const double* const (&weight)[K], double* const (&out)[K],
                              int length);
bool avx2_kernels();

}  // namespace eom::detail
