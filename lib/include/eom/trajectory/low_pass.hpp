// Zero-phase low-pass filtering of logs before identification (eom identify --filter): Gautier's
// parallel filtering (Gautier 1997, "Dynamic identification of robots with power model"; Khalil
// and Dombre 2002, 12.6.2), the same filter on q before it is differentiated and on the measured
// torques, so that the equations of motion still hold between the filtered signals. A symmetric
// FIR of windowed-sinc taps: linear phase, its delay of H rows compensated by giving each row the
// window centred on it, so no phase lag at all; run in a sliding window of 2 H + 1 rows.
#pragma once

#include <vector>

namespace eom {

/// The low-pass's taps h_-H .. h_H (2 H + 1, symmetric, summing to one: a constant passes
/// unchanged) for a cut-off `cutoff` (Hz) at `rate` samples per second: the ideal low-pass's
/// impulse response 2 fc sinc(2 fc k) (fc = cutoff / rate, cycles per sample) times a Blackman
/// window w_k = 0.42 + 0.5 cos(pi k / H) + 0.08 cos(2 pi k / H) (Oppenheim and Schafer 2010,
/// 7.5.1). With H = ceil(4 rate / cutoff) the transition band, at most the window's main lobe
/// 12 pi / (2 H) rad per sample wide (their Table 7.2), spans at most 0.75 times the cut-off,
/// centred on it: the gain is within kLowPassRipple of 1 up to half the cut-off, about 1/2 at the
/// cut-off, and at most kLowPassRipple from 1.5 times the cut-off on (the Blackman window's
/// 74 dB). Requires 0 < cutoff < rate / 2 (InputError otherwise).
std::vector<double> low_pass_taps(double cutoff, double rate);

/// The Blackman window design's peak error in the pass and stop bands (-74 dB).
inline constexpr double kLowPassRipple = 2e-4;

}  // namespace eom
