// The eigenvalues of small symmetric matrices against known spectra: Q diag(lambda) Q^T with Q
// orthogonal (an Eigen Householder QR of a fixed matrix, not the code under test), repeated and
// zero eigenvalues, leading blocks of every size (the entries outside never read), and extreme
// scales.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include <Eigen/QR>

#include "linalg/symmetric_eigenvalues.hpp"

using namespace eom;

namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;

// an orthogonal n x n matrix: the Q of the QR of a fixed matrix of full rank
Eigen::MatrixXd orthogonal(int n) {
  Eigen::MatrixXd X(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) X(i, j) = std::sin(1.0 + 3 * i + 7 * j) + (i == j ? 2 : 0);
  }
  return Eigen::HouseholderQR<Eigen::MatrixXd>(X).householderQ();
}

// Q diag(lambda) Q^T in the top-left n x n block of a 6 x 6 matrix; the rest holds marks that
// must not be read
Mat6 with_spectrum(const std::vector<double>& lambda) {
  const int n = static_cast<int>(lambda.size());
  const Eigen::MatrixXd Q = orthogonal(n);
  const Eigen::VectorXd d = Eigen::Map<const Eigen::VectorXd>(lambda.data(), n);
  Mat6 A = Mat6::Constant(1e300);
  A.topLeftCorner(n, n) = Q * d.asDiagonal() * Q.transpose();
  return A;
}

void check_spectrum(std::vector<double> lambda, double scale) {
  const int n = static_cast<int>(lambda.size());
  INFO("n = " << n << ", scale " << scale);
  std::array<double, 6> computed{};
  REQUIRE(linalg::symmetric_eigenvalues(with_spectrum(lambda), n, computed.data()));
  std::sort(lambda.begin(), lambda.end());
  // backward stable: each eigenvalue within a few eps of the largest magnitude
  double largest = 0;
  for (double l : lambda) largest = std::max(largest, std::abs(l));
  for (int i = 0; i < n; ++i) CHECK(std::abs(computed[i] - lambda[i]) <= 1e-14 * largest);
}

}  // namespace

TEST_CASE("symmetric eigenvalues: known spectra of every size, ascending", "[linalg]") {
  check_spectrum({4.5}, 1);
  check_spectrum({2, -1}, 1);
  check_spectrum({3, 1, 2}, 1);
  check_spectrum({-3, -1, 0.5, 2, 7}, 1);
  check_spectrum({-3, -1, 0.5, 2, 2, 7}, 1);     // a repeated eigenvalue
  check_spectrum({0, 0, 0, 1, 4, 9}, 1);         // a Gram matrix of rank 3
  check_spectrum({1, 1, 1, 1, 1, 1}, 1);         // the identity in disguise
  check_spectrum({1e-8, 1, 1e8, 2, 3, 4}, 1);    // condition 1e16
  check_spectrum({1e150, 3e150, 2e150}, 1e150);  // squares of these would overflow
  check_spectrum({1e-150, 3e-150, 2e-150}, 1e-150);
}

TEST_CASE("symmetric eigenvalues: diagonal and tridiagonal matrices, zero and NaN", "[linalg]") {
  std::array<double, 6> lambda{};
  Mat6 D = Mat6::Zero();
  D.diagonal() << 5, -2, 3, 0, 1, 4;
  REQUIRE(linalg::symmetric_eigenvalues(D, 6, lambda.data()));
  CHECK(lambda == std::array<double, 6>{-2, 0, 1, 3, 4, 5});
  // [2 1; 1 2] has eigenvalues 1 and 3
  Mat6 T = Mat6::Zero();
  T(0, 0) = T(1, 1) = 2;
  T(1, 0) = 1;
  REQUIRE(linalg::symmetric_eigenvalues(T, 2, lambda.data()));
  CHECK(lambda[0] == Approx(1).epsilon(1e-15));
  CHECK(lambda[1] == Approx(3).epsilon(1e-15));
  // the zero matrix: all zero, converged
  REQUIRE(linalg::symmetric_eigenvalues(Mat6::Zero(), 4, lambda.data()));
  CHECK(lambda[0] == 0);
  CHECK(lambda[3] == 0);
  // not finite: refused
  Mat6 bad = Mat6::Identity();
  bad(2, 1) = std::nan("");
  CHECK_FALSE(linalg::symmetric_eigenvalues(bad, 3, lambda.data()));
}
