#include "eom/core/number_text.hpp"

#include <charconv>
#include <cstdio>

namespace eom {

void append_number(std::string& out, double value) {
  char text[32];  // the longest shortest form of a double has 24 characters
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

std::string shortest_text(double x) {
  std::string text;
  append_number(text, x);
  return text;
}

std::string number_text(double x, int digits) {
  char text[32];  // at most 17 meaningful digits, a sign, a point and "e+308"
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return text;
}

}  // namespace eom
