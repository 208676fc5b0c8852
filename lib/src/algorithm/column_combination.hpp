// Minus a combination of a few columns of a matrix, with K sets of weights: the kernel of the
// O(n^2) steps of the partial derivatives (M^-1 from its factor, -M^-1 dtau), private to libeom.
#pragma once

#include <Eigen/Core>

// x86-64 processors with AVX2 get kernels 4 doubles wide, chosen at run time; elsewhere, on
// processors without it, and with -DEOM_AVX2_KERNELS=0, the portable kernels run. Both give the
// same bits.
#ifndef EOM_AVX2_KERNELS
#if defined(__x86_64__) && defined(__GNUC__)
#define EOM_AVX2_KERNELS 1
#else
#define EOM_AVX2_KERNELS 0
#endif
#endif

namespace eom::detail {

/// out[j][e] = -sum_t weight[j][c_t] A(e, c_t), c_t = columns[t], for e in [0, length) and
/// j < K: minus a combination of a few columns of A, whose weights are read at the columns' own
/// indices. Each output is the sum, in the order of `columns`, of count products started from
/// zero, negated; no fused multiply-add, so every kernel gives the same bits. out may not
/// overlap the columns read.
template <int K>
void negative_combination(const Eigen::MatrixXd& A, const int* columns, int count,
                          const double* const (&weight)[K], double* const (&out)[K], int length);

/// The same on every processor (Eigen's packets), and whether negative_combination runs the
/// AVX2 kernel instead (the processor has AVX2); for the tests that the two agree.
template <int K>
void negative_combination_portable(const Eigen::MatrixXd& A, const int* columns, int count,
                                   const double* const (&weight)[K], double* const (&out)[K],
                                   int length);
bool avx2_kernels();

}  // namespace eom::detail
