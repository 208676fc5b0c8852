// The eigenvalues of a small symmetric matrix (private to libeom), for the singular values of a
// task Jacobian from its 6 x 6 Gram matrix (algorithm/singular.cpp).
#pragma once

#include <Eigen/Core>

namespace eom::linalg {

/// The eigenvalues of the symmetric top-left n x n block (n <= 6) of A, ascending, in
/// lambda[0..n-1] (the reduction reads the lower triangle, the scaling the whole block); false if the QL iteration did not converge. Fixed storage, no allocation:
/// Householder tridiagonalisation (Golub and Van Loan, "Matrix Computations", 8.3.1) and the
/// implicit QL iteration with Wilkinson shifts, eigenvalues only (tqli, Press et al., "Numerical
/// Recipes", 11.3). Both are backward stable: each eigenvalue errs by O(eps ||A||), as with
/// Eigen's SelfAdjointEigenSolver, which this replaces at about 3/4 of its time (its dynamic-size
/// 6 x 6 path was 47% of eom jac's CPU time per row).
bool symmetric_eigenvalues(Eigen::Matrix<double, 6, 6> A, int n, double* lambda);

}  // namespace eom::linalg
