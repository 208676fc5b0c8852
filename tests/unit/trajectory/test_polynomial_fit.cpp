// Derivative weights by local polynomial fits: exact on polynomials, three-point compatible,
// allocation-free.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/trajectory/finite_difference.hpp>

#include "allocations.hpp"

using namespace eom;

namespace {
// p(t) = sum_c coefficient_c t^c and its r-th derivative
double polynomial(const std::vector<double>& coefficient, double t, int r) {
  double sum = 0;
  for (size_t c = r; c < coefficient.size(); ++c) {
    double factor = 1;
    for (size_t k = c; k > c - r; --k) factor *= static_cast<double>(k);
    sum += coefficient[c] * factor * std::pow(t, static_cast<double>(c - r));
  }
  return sum;
}
}  // namespace

TEST_CASE(
    "a fit of degree D differentiates polynomials of degree D exactly, anywhere in the window",
    "[finite_difference]") {
  const std::vector<double> coefficient{0.3, -1.2, 0.7, 2.1, -0.4, 0.9, -1.5};  // degree 6
  // non-uniform times
  std::vector<double> t;
  for (int j = 0; j < 21; ++j) t.push_back(0.01 * j + 0.002 * std::sin(3.0 * j));
  PolynomialFit fit;
  for (const int n : {7, 13, 21}) {
    for (const int at : {0, n / 2, n - 1}) {
      const auto& w = fit(t.data(), n, at, 6);
      for (int r = 0; r <= 6; ++r) {
        double estimate = 0, magnitude = 0;
        for (int j = 0; j < n; ++j) {
          estimate += w(r, j) * polynomial(coefficient, t[j], 0);
          magnitude += std::abs(w(r, j) * polynomial(coefficient, t[j], 0));
        }
        const double exact = polynomial(coefficient, t[at], r);
        // exact up to round-off: the weighted sum cancels terms of size `magnitude`, and the QR
        // of a degree-6 Vandermonde matrix on [-1, 1] loses about three digits
        INFO("n " << n << " at " << at << " derivative " << r);
        CHECK(std::abs(estimate - exact) <= 1e-12 * magnitude + 1e-12 * std::abs(exact));
      }
    }
  }
}

TEST_CASE("three samples of degree 2 give the three-point weights bit for bit",
          "[finite_difference]") {
  const double t[3] = {0.1, 0.13, 0.2};
  PolynomialFit fit;
  for (int at = 0; at < 3; ++at) {
    const ThreePointWeights expected = three_point_weights({t[0], t[1], t[2]}, at);
    const auto& w = fit(t, 3, at, 2);
    for (int j = 0; j < 3; ++j) {
      CHECK(w(1, j) == expected.d1[j]);
      CHECK(w(2, j) == expected.d2[j]);
    }
  }
}

TEST_CASE("polynomial fits refuse impossible sizes", "[finite_difference]") {
  std::vector<double> t(64);
  for (size_t j = 0; j < t.size(); ++j) t[j] = 0.001 * static_cast<double>(j);
  PolynomialFit fit;
  CHECK_THROWS_AS(fit(t.data(), 5, 0, 5), InputError);
  CHECK_THROWS_AS(fit(t.data(), 64, 0, 3), InputError);
  CHECK_THROWS_AS(fit(t.data(), 9, 9, 3), InputError);
}

TEST_CASE("polynomial fits allocate nothing once sized", "[finite_difference]" EOM_ALLOCATION_TAG) {
  std::vector<double> t(64);
  for (size_t j = 0; j < t.size(); ++j) t[j] = 0.001 * static_cast<double>(j);
  PolynomialFit fit;
  fit(t.data(), 63, 31, 15);  // sizes the storage once
  CHECK(test::allocations_during([&] {
          fit(t.data(), 25, 3, 8);
          fit(t.data(), 63, 31, 15);
        }) == 0);
}
