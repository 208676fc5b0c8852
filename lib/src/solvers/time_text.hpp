// A time (or any quantity) in the simulator's messages: 9 significant digits, enough to tell
// apart the steps of a long run (private to libeom).
#pragma once

#include <string>

#include "eom/core/number_text.hpp"

namespace eom {

inline std::string time_string(double t) { return number_text(t, 9); }

}  // namespace eom
