// Catch2 matchers for Eigen values that report the worst entry on failure.
#pragma once

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <catch2/catch.hpp>

namespace eom::test {

/// |actual - expected| <= atol + rtol |expected| entrywise.
class AllCloseMatcher : public Catch::MatcherBase<Eigen::MatrixXd> {
 public:
  AllCloseMatcher(Eigen::MatrixXd expected, double atol, double rtol)
      : expected_(std::move(expected)), atol_(atol), rtol_(rtol) {}

  bool match(const Eigen::MatrixXd& actual) const override {
    if (actual.rows() != expected_.rows() || actual.cols() != expected_.cols()) {
      detail_ = "shape " + std::to_string(actual.rows()) + "x" + std::to_string(actual.cols()) +
                " instead of " + std::to_string(expected_.rows()) + "x" +
                std::to_string(expected_.cols());
      return false;
    }
    double worst = -1;
    Eigen::Index wi = 0, wj = 0;
    for (Eigen::Index i = 0; i < actual.rows(); ++i) {
      for (Eigen::Index j = 0; j < actual.cols(); ++j) {
        const double excess =
            std::abs(actual(i, j) - expected_(i, j)) - (atol_ + rtol_ * std::abs(expected_(i, j)));
        if (!(excess <= worst) || std::isnan(actual(i, j))) {
          worst = std::isnan(actual(i, j)) ? INFINITY : excess;
          wi = i;
          wj = j;
        }
      }
    }
    std::ostringstream s;
    s.precision(17);
    s << "worst entry (" << wi << ", " << wj << "): actual " << actual(wi, wj) << ", expected "
      << expected_(wi, wj) << ", residual " << actual(wi, wj) - expected_(wi, wj);
    detail_ = s.str();
    return worst <= 0;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "is close to the expected value (atol " << atol_ << ", rtol " << rtol_ << "): " << detail_;
    return s.str();
  }

 private:
  Eigen::MatrixXd expected_;
  double atol_, rtol_;
  mutable std::string detail_;
};

template <typename Derived>
AllCloseMatcher AllClose(const Eigen::MatrixBase<Derived>& expected, double atol, double rtol = 0) {
  return AllCloseMatcher(expected.eval(), atol, rtol);
}

/// Symmetric up to tol and positive definite (Cholesky succeeds).
inline bool is_symmetric_positive_definite(const Eigen::MatrixXd& M, double tol) {
  if ((M - M.transpose()).cwiseAbs().maxCoeff() > tol * std::max(1.0, M.cwiseAbs().maxCoeff())) {
    return false;
  }
  return Eigen::LLT<Eigen::MatrixXd>(M).info() == Eigen::Success;
}

/// The largest |entry| of x, 0 for an empty matrix: the scale of a relative tolerance.
inline double magnitude(const Eigen::MatrixXd& x) {
  return x.size() ? x.cwiseAbs().maxCoeff() : 0.0;
}

}  // namespace eom::test
