// A dense Cholesky factor of a leading block (private to libeom), for the damped least-squares
// steps of the IK solver (solvers/ik.cpp), whose normal equations change size with the joints
// locked at a limit: a small hand-written one factors any leading m x m block of a matrix sized
// once, with no allocation.
#pragma once

#include <Eigen/Core>

namespace eom::linalg {

/// A = L L^T of the top-left m x m block of the symmetric A (lower triangle read), L into that
/// lower triangle in place, column by column (Golub and Van Loan, "Matrix Computations", 4.2).
/// False when a pivot is not positive (A not positive definite, or not finite).
bool cholesky(Eigen::MatrixXd& A, int m);

/// x = (L L^T)^-1 x on the first m entries, with L from cholesky().
void cholesky_solve(const Eigen::MatrixXd& L, int m, Eigen::VectorXd& x);

}  // namespace eom::linalg
