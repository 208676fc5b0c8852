#include "linalg/pseudo_inverse.hpp"

#include <algorithm>
#include <utility>

namespace eom::linalg {

PseudoInverseSolver::PseudoInverseSolver(int rows, int cols)
    : svd_(rows, cols, Eigen::ComputeThinU | Eigen::ComputeThinV),
      gram_(rows),
      gram_matrix_(rows, rows),
      projected_(std::min(rows, cols)),
      gram_rhs_(rows) {
  // singular values below kRankTolerance of the largest are round-off of a rank-deficient matrix
  svd_.setThreshold(kRankTolerance);
}

int PseudoInverseSolver::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                               Eigen::VectorXd& x) {
  if (A.rows() <= A.cols() && A.rows() > 0) {
    // the normal equations square the condition number: only for A well away from singular
    // (pivots of A A^T above kGramPivotTolerance of the largest), where they lose no more than
    // that relative
    gram_matrix_.noalias() = A * A.transpose();
    gram_.compute(gram_matrix_);
    const auto pivots = gram_.vectorD();
    if (gram_.info() == Eigen::Success &&
        pivots.minCoeff() > detail::kGramPivotTolerance * pivots.maxCoeff()) {
      gram_rhs_.noalias() = gram_.solve(b);
      x.noalias() = A.transpose() * gram_rhs_;
      rank_ = static_cast<int>(A.rows());
      return rank_;
    }
  }
  svd_.compute(A);
  rank_ = static_cast<int>(svd_.rank());
  projected_.noalias() = svd_.matrixU().transpose() * b;
  for (Eigen::Index i = 0; i < projected_.size(); ++i) {
    projected_[i] = i < rank_ ? projected_[i] / svd_.singularValues()[i] : 0.0;
  }
  x.noalias() = svd_.matrixV() * projected_;
  return rank_;
}

int PseudoInverseSolver::rank(const Eigen::MatrixXd& A) {
  svd_.compute(A);
  return static_cast<int>(svd_.rank());
}

QrPseudoInverseSolver::QrPseudoInverseSolver(int rows, int cols)
    : cod_(rows, cols), c_(rows), y_(cols) {
  cod_.setThreshold(kRankTolerance);
}

int QrPseudoInverseSolver::compute(const Eigen::MatrixXd& A) {
  cod_.compute(A);
  rank_ = static_cast<int>(cod_.rank());
  return rank_;
}

// Eigen's Householder products evaluate tau v into a temporary (an allocation each); the
// reflections here are written out: H = I - tau [1; e] [1; e]^T, x <- x - (tau (x_0 + e.x_1)) [1; e]

void QrPseudoInverseSolver::reflect_by(Eigen::Index k, Eigen::Ref<Eigen::VectorXd> x) const {
  // H_k acts on rows k and below, e below the diagonal of column k
  const Eigen::MatrixXd& QR = cod_.matrixQTZ();
  const Eigen::Index below = QR.rows() - k - 1;
  const auto e = QR.col(k).tail(below);
  const double w = cod_.hCoeffs()[k] * (x[k] + e.dot(x.tail(below)));
  x[k] -= w;
  x.tail(below) -= w * e;
}

void QrPseudoInverseSolver::reflect(Eigen::Ref<Eigen::VectorXd> x) const {
  // Q^T = H_n-1 ... H_1 H_0
  for (Eigen::Index k = 0; k < cod_.hCoeffs().size(); ++k) reflect_by(k, x);
}

void QrPseudoInverseSolver::reflect_back(Eigen::Ref<Eigen::VectorXd> x) const {
  // Q = H_0 H_1 ... H_n-1
  for (Eigen::Index k = cod_.hCoeffs().size() - 1; k >= 0; --k) reflect_by(k, x);
}

void QrPseudoInverseSolver::apply_qt(Eigen::MatrixXd& M) const {
  for (Eigen::Index j = 0; j < M.cols(); ++j) reflect(M.col(j));
}

void QrPseudoInverseSolver::apply_qt(Eigen::VectorXd& b) const { reflect(b); }

void QrPseudoInverseSolver::project_out(Eigen::Ref<Eigen::VectorXd> x) const {
  // (I - Q_r Q_r^T) x = Q [0; (Q^T x)_tail]
  reflect(x);
  x.head(rank_).setZero();
  reflect_back(x);
}

void QrPseudoInverseSolver::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  if (rank_ == 0) {
    x.setZero();
    return;
  }
  // A P = Q [T 0; 0 0] Z: x = P Z^T [T^-1 (Q^T b)_head; 0] (Eigen's solve, allocation-free)
  c_ = b;
  reflect(c_);
  const Eigen::MatrixXd& QTZ = cod_.matrixQTZ();
  const int r = rank_;
  const int n = static_cast<int>(QTZ.cols()) - r;
  y_.head(r) = c_.head(r);
  QTZ.topLeftCorner(r, r).triangularView<Eigen::Upper>().solveInPlace(y_.head(r));
  y_.tail(n).setZero();
  // Z^T: the reflections that folded R's rows k onto row r - 1 and columns r.. (k = 0, 1, ...)
  for (int k = 0; k < r && n > 0; ++k) {
    std::swap(y_[k], y_[r - 1]);
    const auto e = QTZ.row(k).tail(n).transpose();
    const double w = cod_.zCoeffs()[k] * (y_[r - 1] + e.dot(y_.tail(n)));
    y_[r - 1] -= w;
    y_.tail(n) -= w * e;
    std::swap(y_[k], y_[r - 1]);
  }
  x.noalias() = cod_.colsPermutation() * y_;
}

SymmetricPseudoInverseSolver::SymmetricPseudoInverseSolver(int size)
    : factor_(size, size), swaps_(size), svd_(size, size) {}

bool SymmetricPseudoInverseSolver::factor(const Eigen::MatrixXd& A) {
  const int n = static_cast<int>(A.rows());
  factor_ = A;  // its lower triangle is read and overwritten
  Eigen::MatrixXd& F = factor_;
  for (int k = 0; k < n; ++k) {
    Eigen::Index largest = 0;
    F.diagonal().tail(n - k).maxCoeff(&largest);
    const int p = k + static_cast<int>(largest);
    swaps_[k] = p;
    if (p != k) {
      // exchange rows and columns k and p of the symmetric matrix held in the lower triangle
      F.row(k).head(k).swap(F.row(p).head(k));
      F.col(k).tail(n - p - 1).swap(F.col(p).tail(n - p - 1));
      std::swap(F(k, k), F(p, p));
      for (int i = k + 1; i < p; ++i) std::swap(F(i, k), F(p, i));
    }
    const double d = F(k, k);
    if (!(d > 0)) return false;
    // the trailing lower triangle loses column k's rank-one term, then column k becomes L's
    for (int j = k + 1; j < n; ++j) {
      const double l = F(j, k) / d;
      for (int i = j; i < n; ++i) F(i, j) -= F(i, k) * l;
    }
    for (int i = k + 1; i < n; ++i) F(i, k) /= d;
  }
  return true;
}

void SymmetricPseudoInverseSolver::solve_factored(const Eigen::VectorXd& b,
                                                  Eigen::VectorXd& x) const {
  const int n = static_cast<int>(b.size());
  const Eigen::MatrixXd& F = factor_;
  x = b;
  for (int k = 0; k < n; ++k) std::swap(x[k], x[swaps_[k]]);
  for (int k = 0; k < n; ++k) {
    for (int i = k + 1; i < n; ++i) x[i] -= F(i, k) * x[k];
  }
  for (int k = 0; k < n; ++k) x[k] /= F(k, k);
  for (int k = n - 1; k >= 0; --k) {
    for (int i = k + 1; i < n; ++i) x[k] -= F(i, k) * x[i];
  }
  for (int k = n - 1; k >= 0; --k) std::swap(x[k], x[swaps_[k]]);
}

int SymmetricPseudoInverseSolver::solve(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                        Eigen::VectorXd& x) {
  const int n = static_cast<int>(A.rows());
  if (n > 0 && factor(A)) {
    const auto pivots = factor_.diagonal();
    if (pivots.minCoeff() > kRankTolerance * pivots.maxCoeff()) {
      solve_factored(b, x);
      return n;
    }
  }
  return svd_.solve(A, b, x);
}

}  // namespace eom::linalg
