// The zero-phase low-pass of parallel filtering (trajectory/low_pass.hpp) against closed forms:
// a symmetric FIR applied to a sinusoid sampled at the rate gives the sinusoid times the FIR's
// real frequency response, no phase lag; the Blackman design bounds that response within
// kLowPassRipple of 1 up to half the cut-off and of 0 from 1.5 times the cut-off on.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/trajectory/low_pass.hpp>

using namespace eom;
using Catch::Matchers::Contains;

namespace {

// The largest |y_c - gain x_c| over rows c, y the taps' window centred on c (as LowPassSource
// gives each row), x a unit sinusoid of frequency f at `rate` samples per second.
double worst_error(const std::vector<double>& h, double f, double rate, double gain) {
  const int H = static_cast<int>(h.size() / 2);
  double worst = 0;
  for (int c = 0; c < 400; ++c) {
    const auto x = [&](int n) { return std::sin(2 * M_PI * f * n / rate + 0.3); };
    double y = 0;
    for (int k = -H; k <= H; ++k) y += h[k + H] * x(c + k);
    worst = std::max(worst, std::abs(y - gain * x(c)));
  }
  return worst;
}

}  // namespace

TEST_CASE("Low-pass taps: symmetric, unit gain at zero frequency, 2 ceil(4 rate / cut-off) + 1",
          "[low_pass]") {
  const std::vector<double> h = low_pass_taps(5, 100);
  REQUIRE(h.size() == 2 * 80 + 1);
  double sum = 0;
  for (size_t k = 0; k < h.size(); ++k) {
    CHECK(h[k] == h[h.size() - 1 - k]);
    sum += h[k];
  }
  CHECK(std::abs(sum - 1) <= 1e-15);
  CHECK(low_pass_taps(7, 1000).size() == 2 * 572 + 1);  // ceil(4000 / 7) = 572
}

TEST_CASE("Low-pass: a sinusoid well below the cut-off passes with no lag, one well above goes",
          "[low_pass]") {
  const double rate = GENERATE(100.0, 1000.0);
  const double cutoff = GENERATE(2.0, 5.0, 20.0);
  const std::vector<double> h = low_pass_taps(cutoff, rate);
  // the pass band, up to half the cut-off: the sinusoid itself within the ripple (a lag of phi
  // would leave an error of phi, a gain g one of |1 - g|)
  for (const double f : {0.05 * cutoff, 0.25 * cutoff, 0.5 * cutoff}) {
    CHECK(worst_error(h, f, rate, 1) <= kLowPassRipple);
  }
  // the stop band, from 1.5 times the cut-off to the Nyquist frequency: attenuated to the ripple
  for (const double f : {1.5 * cutoff, 3 * cutoff, 0.49 * rate}) {
    if (f < rate / 2) CHECK(worst_error(h, f, rate, 0) <= kLowPassRipple);
  }
}

TEST_CASE("Low-pass: a cut-off not in (0, Nyquist) is refused, saying the rate", "[low_pass]") {
  CHECK_THROWS_WITH(low_pass_taps(50, 100),
                    Contains("below 50 Hz, the Nyquist frequency of the log's 100 samples"));
  CHECK_THROWS_AS(low_pass_taps(0, 100), InputError);
  CHECK_THROWS_AS(low_pass_taps(-1, 100), InputError);
  CHECK_THROWS_AS(low_pass_taps(NAN, 100), InputError);
}
