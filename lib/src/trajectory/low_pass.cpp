#include "eom/trajectory/low_pass.hpp"

#include <cmath>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"

namespace eom {

std::vector<double> low_pass_taps(double cutoff, double rate) {
  if (!(cutoff > 0 && cutoff < rate / 2)) {
    throw InputError("a low-pass cut-off of " + number_text(cutoff) +
                     " Hz: it must be above 0 and below " + number_text(rate / 2) +
                     " Hz, the Nyquist frequency of the log's " + number_text(rate) +
                     " samples per second");
  }
  const int H = static_cast<int>(std::ceil(4 * rate / cutoff));
  const double fc = cutoff / rate;
  std::vector<double> h(2 * H + 1);
  double sum = 0;
  for (int k = -H; k <= H; ++k) {
    // 2 fc sinc(2 fc k), times the Blackman window centred on k = 0
    const double ideal = k == 0 ? 2 * fc : std::sin(2 * M_PI * fc * k) / (M_PI * k);
    const double window = 0.42 + 0.5 * std::cos(M_PI * k / H) + 0.08 * std::cos(2 * M_PI * k / H);
    h[k + H] = ideal * window;
    sum += h[k + H];
  }
  // unit gain at zero frequency
  for (double& x : h) x /= sum;
  return h;
}

}  // namespace eom
