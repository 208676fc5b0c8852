// The column-combination kernel behind M^-1 and -M^-1 dtau (lib/src/algorithm/column_combination.hpp):
// against the plain sum it promises, bit for bit, and the run-time AVX2 kernel against the
// portable one, so that results do not depend on the processor.

#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "algorithm/column_combination.hpp"

using namespace eom::detail;

namespace {

// the promised sum, one entry at a time: from zero, in the order of the columns, the weights
// read at the columns' indices, no fused multiply-add (volatile keeps the compiler from
// contracting the product and the sum), negated
double plain_sum(const Eigen::MatrixXd& A, const std::vector<int>& columns,
                 const std::vector<double>& weight, int e) {
  double sum = 0;
  for (int c : columns) {
    volatile double product = weight[c] * A(e, c);
    sum += product;
  }
  return -sum;
}

struct Case {
  Eigen::MatrixXd A;
  std::vector<int> columns;
  std::vector<double> w0, w1;
};

Case random_case(std::mt19937& rng, int n, int count) {
  std::uniform_real_distribution<double> value(-1, 1);
  std::uniform_int_distribution<int> column(0, n - 1);
  Case c{Eigen::MatrixXd(n, n), {}, {}, {}};
  for (Eigen::Index k = 0; k < c.A.size(); ++k) c.A.data()[k] = value(rng);
  for (int t = 0; t < count; ++t) c.columns.push_back(column(rng));
  for (int k = 0; k < n; ++k) {
    c.w0.push_back(value(rng));
    c.w1.push_back(value(rng));
  }
  return c;
}

}  // namespace

TEST_CASE("negative_combination gives the plain sum, to the bit, for every length and count",
          "[column_combination]") {
  std::mt19937 rng(7);
  for (int n = 1; n <= 40; ++n) {
    for (int count : {0, 1, 2, 3, 5, 9, n}) {
      const Case c = random_case(rng, n, count);
      for (int length = 0; length <= n; ++length) {
        Eigen::MatrixXd out = Eigen::MatrixXd::Constant(n, 4, 99.0);
        negative_combination<2>(c.A, c.columns.data(), count, {c.w0.data(), c.w1.data()},
                                {out.col(0).data(), out.col(1).data()}, length);
        negative_combination_portable<2>(c.A, c.columns.data(), count, {c.w0.data(), c.w1.data()},
                                         {out.col(2).data(), out.col(3).data()}, length);
        for (int e = 0; e < n; ++e) {
          INFO("n " << n << ", count " << count << ", length " << length << ", row " << e);
          if (e < length) {
            // bit equality: the sums must not depend on the kernel or the block a row falls in
            CHECK(out(e, 0) == plain_sum(c.A, c.columns, c.w0, e));
            CHECK(out(e, 1) == plain_sum(c.A, c.columns, c.w1, e));
            CHECK(out(e, 2) == out(e, 0));
            CHECK(out(e, 3) == out(e, 1));
          } else {
            // rows past the length are not written
            CHECK(out(e, 0) == 99.0);
            CHECK(out(e, 2) == 99.0);
          }
        }
        Eigen::VectorXd single = Eigen::VectorXd::Constant(n, 99.0);
        negative_combination<1>(c.A, c.columns.data(), count, {c.w1.data()}, {single.data()},
                                length);
        CHECK(single.head(length) == out.col(1).head(length));
      }
    }
  }
  INFO("AVX2 kernels on this processor: " << (avx2_kernels() ? "yes" : "no"));
  SUCCEED();
}
