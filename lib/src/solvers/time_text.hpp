// A time (or any quantity) in the simulator's messages: 9 significant digits (private to libeom).
#pragma once

#include <sstream>
#include <string>

namespace eom {

inline std::string time_string(double t) {
  std::ostringstream s;
  s.precision(9);
  s << t;
  return s.str();
}

}  // namespace eom
