// Pseudo-inverses for the contact problems (private to libeom): least-norm least-squares
// solutions x = A^+ b of possibly rank-deficient A, by the normal equations when A is clearly
// regular and by an SVD or a complete orthogonal decomposition otherwise. Sized at construction;
// the solves allocate nothing (Eigen's own Householder products would: see pseudo_inverse.cpp).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <vector>

#include "core/tolerances.hpp"

namespace eom::linalg {

// Singular values and pivots below kRankTolerance of the largest count as zero
// (core/tolerances.hpp).
using detail::kRankTolerance;

/// x = A^+ b, the least-squares solution of least norm, with singular values below 1e-9 of the
/// largest counted as zero. A clearly of full row rank (every pivot of the LDLT factor of A A^T
/// above 1e-8 of the largest) takes the fast path x = A^T (A A^T)^-1 b; any other A its SVD, which
/// then decides the rank. Sized at construction for A of rows x cols; solve() allocates nothing.
class PseudoInverseSolver {
 public:
  PseudoInverseSolver(int rows, int cols);
  /// A^+ b into x (cols); returns the rank of A.
  int solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd& x);
  /// The rank of A, by the SVD's rule.
  int rank(const Eigen::MatrixXd& A);

 private:
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
  Eigen::LDLT<Eigen::MatrixXd> gram_;  // of A A^T (rows <= cols)
  Eigen::MatrixXd gram_matrix_;
  Eigen::VectorXd projected_, gram_rhs_;
  int rank_ = 0;
};

/// A^+ b by a complete orthogonal decomposition A P = Q [T 0; 0 0] Z of A (rows x cols): a
/// Householder QR with column pivoting, whose R is then folded onto its first rank rows (Golub &
/// Van Loan, Matrix Computations, 4th ed., 5.4.2, 5.5.2; Eigen's CompleteOrthogonalDecomposition),
/// for any rank. A pivot |R_ii| at most 1e-9 of the largest counts as zero, the rule the
/// pseudo-inverses above apply to singular values (the diagonal of a column-pivoted R tracks
/// them; dependent contact constraints leave pivots of the order of round-off, 1e-16 of the
/// largest). It also applies Q^T, an orthonormal basis [Q_r Q_n] of the column space of A and of
/// its orthogonal complement. Sized at construction; compute(), solve() and apply_qt() allocate
/// nothing.
class QrPseudoInverseSolver {
 public:
  QrPseudoInverseSolver(int rows, int cols);
  /// Factors A (rows x cols); returns its rank.
  int compute(const Eigen::MatrixXd& A);
  int rank() const { return rank_; }
  /// x = A^+ b (b: rows, x: cols), the least-squares solution of least norm.
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);
  /// M = Q^T M in place (M: rows of A x any).
  void apply_qt(Eigen::MatrixXd& M) const;
  /// b = Q^T b in place (b: rows).
  void apply_qt(Eigen::VectorXd& b) const;
  /// x = (I - Q_r Q_r^T) x in place: its component orthogonal to the column space of A.
  void project_out(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  void reflect_by(Eigen::Index k, Eigen::Ref<Eigen::VectorXd> x) const;  // x = H_k x
  void reflect(Eigen::Ref<Eigen::VectorXd> x) const;                     // x = Q^T x
  void reflect_back(Eigen::Ref<Eigen::VectorXd> x) const;                // x = Q x

  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  Eigen::VectorXd c_, y_;  // rows, cols
  int rank_ = 0;
};

/// The same for a symmetric positive semi-definite A, fast when A is regular: its Cholesky factor
/// with diagonal pivoting (LDLT) solves it when every pivot is above 1e-9 of the largest (A of
/// full rank); otherwise the SVD of PseudoInverseSolver decides the rank and gives the least-norm
/// solution.
class SymmetricPseudoInverseSolver {
 public:
  explicit SymmetricPseudoInverseSolver(int size);
  /// A^+ b into x (size); returns the rank of A.
  int solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd& x);

 private:
  // P A P^T = L D L^T in factor_ (D on the diagonal, L below it), the largest remaining diagonal
  // entry the pivot of each step (Eigen's LDLT rule; Higham, Accuracy and Stability of Numerical
  // Algorithms, 2nd ed., Section 10.3: the positive semi-definite case). False as soon as a pivot
  // is not positive. Written out because Eigen's LDLT spends more on its dynamic-size blocks than
  // on the arithmetic at the few dozen rows of a contact set.
  bool factor(const Eigen::MatrixXd& A);
  void solve_factored(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  Eigen::MatrixXd factor_;
  std::vector<int> swaps_;  // step k exchanged rows and columns k and swaps_[k] >= k
  PseudoInverseSolver svd_;
};

}  // namespace eom::linalg
