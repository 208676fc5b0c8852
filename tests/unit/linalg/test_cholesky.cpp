// The dense Cholesky factor of a leading block: the factor of A = L0 L0^T is L0 (it is unique
// with a positive diagonal), the solve inverts A, the entries outside the block are left alone,
// and a matrix that is not positive definite is refused.

#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Core>

#include "linalg/cholesky.hpp"
#include "matchers.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("cholesky: the factor of L0 L0^T is L0, on a leading block only", "[linalg]") {
  Eigen::Matrix3d L0;
  L0 << 2, 0, 0,  //
      -1, 3, 0,   //
      0.5, 4, 1;
  // in a 5 x 5 buffer whose other entries are marks the factor must not touch
  Eigen::MatrixXd A = Eigen::MatrixXd::Constant(5, 5, 7.0);
  A.topLeftCorner(3, 3) = L0 * L0.transpose();
  REQUIRE(linalg::cholesky(A, 3));
  const Eigen::MatrixXd L = A.topLeftCorner(3, 3).triangularView<Eigen::Lower>();
  CHECK_THAT(L, AllClose(L0, 1e-15, 1e-15));
  CHECK(A.rightCols(2).isConstant(7.0));
  CHECK(A.bottomRows(2).isConstant(7.0));

  // A x = b for x = (1, -2, 3): b = L0 L0^T x
  const Eigen::Vector3d x(1, -2, 3);
  Eigen::VectorXd b = Eigen::VectorXd::Constant(5, 7.0);
  b.head<3>() = L0 * (L0.transpose() * x);
  linalg::cholesky_solve(A, 3, b);
  CHECK_THAT(Eigen::VectorXd(b.head<3>()), AllClose(x, 1e-14, 1e-14));
  CHECK(b.tail<2>().isConstant(7.0));
}

TEST_CASE("cholesky: a 1 x 1 block is its square root; indefinite or NaN is refused", "[linalg]") {
  Eigen::MatrixXd A(2, 2);
  A << 9, 0, 0, 0;
  REQUIRE(linalg::cholesky(A, 1));
  CHECK(A(0, 0) == 3);
  // eigenvalues 3 and -1: the second pivot is 1 - 4 = -3
  A << 1, 2, 2, 1;
  CHECK_FALSE(linalg::cholesky(A, 2));
  // positive semi-definite and singular: a zero pivot is refused too
  A << 1, 1, 1, 1;
  CHECK_FALSE(linalg::cholesky(A, 2));
  A << std::nan(""), 0, 0, 1;
  CHECK_FALSE(linalg::cholesky(A, 2));
}
