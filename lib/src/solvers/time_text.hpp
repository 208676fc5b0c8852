// A time (or any quantity) in the simulator's messages: 9 significant digits, enough to tell
// apart the steps of a long run (private to libeom).
#pragma once

#include <string>

#include "eom/core/number_text.hpp"

namespace eom {

inline std::string time_string(double t) { return number_text(t, 9); }

/// Refuses (InputError) a step too fine for the times of a run from t0 to t_end: one that moves
/// the time by fewer than 1024 of a double's resolution units there (output_times.cpp).
void check_time_resolution(double t0, double t_end, double step);

}  // namespace eom
