// The pseudo-inverses against the Penrose conditions, which define A^+ uniquely (X = A^+ iff
// A X A = A, X A X = X, A X and X A symmetric): X is built column by column from solves of the
// unit vectors, for matrices of full row rank (the fast normal-equation and LDLT paths), rank-
// deficient ones (dependent rows: the SVD and the folded QR decide the rank), tall ones and zero.
// The QR's orthogonal factor and its projection are checked for what they are. The symmetric
// solver's pivoted LDLT is checked on contact-sized matrices whose pivots come in any order.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>

#include <Eigen/Core>

#include "linalg/pseudo_inverse.hpp"
#include "matchers.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// X with X e_i = solve(e_i), rows x cols -> cols x rows
Eigen::MatrixXd pseudo_inverse_of(
    int rows, int cols,
    const std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>& solve) {
  Eigen::MatrixXd X(cols, rows);
  Eigen::VectorXd x(cols);
  for (int i = 0; i < rows; ++i) {
    solve(Eigen::VectorXd::Unit(rows, i), x);
    X.col(i) = x;
  }
  return X;
}

void check_penrose(const Eigen::MatrixXd& A, const Eigen::MatrixXd& X) {
  const double tol = 1e-12;
  CHECK_THAT(Eigen::MatrixXd(A * X * A), AllClose(A, tol, tol));
  CHECK_THAT(Eigen::MatrixXd(X * A * X), AllClose(X, tol, tol));
  const Eigen::MatrixXd AX = A * X, XA = X * A;
  CHECK_THAT(AX, AllClose(Eigen::MatrixXd(AX.transpose()), tol, tol));
  CHECK_THAT(XA, AllClose(Eigen::MatrixXd(XA.transpose()), tol, tol));
}

// 3 x 5 of full row rank; with its third row the sum of the first two, of rank 2
Eigen::MatrixXd wide(bool dependent) {
  Eigen::MatrixXd A(3, 5);
  A << 1, 2, 0, -1, 3,  //
      0, 1, 4, 2, -2,   //
      5, 0, 1, 1, 1;
  if (dependent) A.row(2) = A.row(0) + A.row(1);
  return A;
}

}  // namespace

TEST_CASE("PseudoInverseSolver: the Penrose conditions at full rank and below", "[linalg]") {
  for (const bool dependent : {false, true}) {
    INFO("dependent rows: " << dependent);
    const Eigen::MatrixXd A = wide(dependent);
    linalg::PseudoInverseSolver solver(3, 5);
    int rank = 0;
    const Eigen::MatrixXd X = pseudo_inverse_of(
        3, 5, [&](const Eigen::VectorXd& b, Eigen::VectorXd& x) { rank = solver.solve(A, b, x); });
    CHECK(rank == (dependent ? 2 : 3));
    CHECK(solver.rank(A) == rank);
    check_penrose(A, X);
  }
  // tall (more rows than columns): least squares, by the SVD
  const Eigen::MatrixXd tall = wide(false).transpose();
  linalg::PseudoInverseSolver solver(5, 3);
  const Eigen::MatrixXd X = pseudo_inverse_of(
      5, 3,
      [&](const Eigen::VectorXd& b, Eigen::VectorXd& x) { CHECK(solver.solve(tall, b, x) == 3); });
  check_penrose(tall, X);
  // zero: rank 0, x = 0
  Eigen::VectorXd x(5);
  CHECK(linalg::PseudoInverseSolver(3, 5).solve(Eigen::MatrixXd::Zero(3, 5),
                                                Eigen::VectorXd::Ones(3), x) == 0);
  CHECK(x.isZero(0));
}

TEST_CASE("QrPseudoInverseSolver: the Penrose conditions, Q^T and the projection", "[linalg]") {
  for (const bool dependent : {false, true}) {
    INFO("dependent rows: " << dependent);
    // J_c^T of the contact problems is tall: 5 x 3
    const Eigen::MatrixXd A = wide(dependent).transpose();
    linalg::QrPseudoInverseSolver qr(5, 3);
    const int rank = qr.compute(A);
    CHECK(rank == (dependent ? 2 : 3));
    CHECK(qr.rank() == rank);
    check_penrose(A, pseudo_inverse_of(5, 3, [&](const Eigen::VectorXd& b, Eigen::VectorXd& x) {
                    qr.solve(b, x);
                  }));
    // Q^T is orthogonal, and Q^T A has zero rows past the rank (A P = Q [T 0; 0 0] Z)
    Eigen::MatrixXd Qt = Eigen::MatrixXd::Identity(5, 5);
    qr.apply_qt(Qt);
    CHECK_THAT(Eigen::MatrixXd(Qt * Qt.transpose()),
               AllClose(Eigen::MatrixXd::Identity(5, 5), 1e-14));
    Eigen::MatrixXd QtA = A;
    qr.apply_qt(QtA);
    CHECK(QtA.bottomRows(5 - rank).norm() < 1e-13);
    Eigen::VectorXd b(5);
    b << 1, -2, 0.5, 3, 1;
    Eigen::VectorXd Qtb = b;
    qr.apply_qt(Qtb);
    CHECK_THAT(Qtb, AllClose(Eigen::VectorXd(Qt * b), 1e-14));
    // (I - Q_r Q_r^T) b: orthogonal to the columns of A, idempotent, and b minus it lies in them
    Eigen::VectorXd p = b;
    qr.project_out(p);
    CHECK((A.transpose() * p).norm() < 1e-13);
    Eigen::VectorXd pp = p;
    qr.project_out(pp);
    CHECK_THAT(pp, AllClose(p, 1e-14));
    const Eigen::VectorXd in_range = b - p;
    const Eigen::MatrixXd X = pseudo_inverse_of(
        5, 3, [&](const Eigen::VectorXd& c, Eigen::VectorXd& x) { qr.solve(c, x); });
    CHECK_THAT(Eigen::VectorXd(A * (X * in_range)), AllClose(in_range, 1e-13));
  }
  // zero: rank 0, x = 0
  linalg::QrPseudoInverseSolver zero(5, 3);
  CHECK(zero.compute(Eigen::MatrixXd::Zero(5, 3)) == 0);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  zero.solve(Eigen::VectorXd::Ones(5), x);
  CHECK(x.isZero(0));
}

TEST_CASE("SymmetricPseudoInverseSolver: the inverse when regular, A^+ when singular", "[linalg]") {
  // B B^T with B of full rank: positive definite, A x = b solved exactly
  const Eigen::MatrixXd B = wide(false);
  const Eigen::MatrixXd regular = B * B.transpose();
  linalg::SymmetricPseudoInverseSolver solver(3);
  const Eigen::Vector3d x0(1, -1, 2);
  Eigen::VectorXd x(3);
  CHECK(solver.solve(regular, regular * x0, x) == 3);
  CHECK_THAT(x, AllClose(x0, 1e-12, 1e-12));
  // with dependent rows of B: positive semi-definite of rank 2
  const Eigen::MatrixXd C = wide(true);
  const Eigen::MatrixXd singular = C * C.transpose();
  int rank = 0;
  const Eigen::MatrixXd X = pseudo_inverse_of(
      3, 3,
      [&](const Eigen::VectorXd& b, Eigen::VectorXd& y) { rank = solver.solve(singular, b, y); });
  CHECK(rank == 2);
  check_penrose(singular, X);
}

TEST_CASE("SymmetricPseudoInverseSolver: the pivoted LDLT at 12 rows, pivots in any order",
          "[linalg]") {
  // B B^T, B 12 x 18 random with its rows scaled from 0.03 to 20 (shuffled): the largest
  // diagonal entry moves about, so every step may exchange rows; A x = b is solved to round-off
  // (a backward-stable residual, |A x - b| of the order of eps |A| |x|)
  const int n = 12;
  std::srand(7);
  linalg::SymmetricPseudoInverseSolver solver(n);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, 18);
    for (int r = 0; r < n; ++r) B.row(r) *= std::pow(10.0, (r * 7 + trial) % n * 0.25 - 1.5);
    const Eigen::MatrixXd A = B * B.transpose();
    const Eigen::VectorXd x0 = Eigen::VectorXd::Random(n);
    Eigen::VectorXd x(n);
    REQUIRE(solver.solve(A, A * x0, x) == n);
    CHECK((A * x - A * x0).norm() <= 1e-13 * A.norm() * x.norm());
    CHECK_THAT(x, AllClose(x0, 1e-6));
  }
  // three rows of B repeated (redundant contacts): rank 9, the least-norm solution of the SVD
  Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, 18);
  B.bottomRows(3) = B.topRows(3);
  const Eigen::MatrixXd singular = B * B.transpose();
  int rank = 0;
  const Eigen::MatrixXd X = pseudo_inverse_of(
      n, n,
      [&](const Eigen::VectorXd& b, Eigen::VectorXd& y) { rank = solver.solve(singular, b, y); });
  CHECK(rank == 9);
  check_penrose(singular, X);
}
