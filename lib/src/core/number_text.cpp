#include "eom/core/number_text.hpp"

#include <charconv>
#include <cstddef>
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

namespace {

// x as printf writes it: %.*f when `fixed`, else %.*g
std::string printf_text(bool fixed, int precision, double x) {
  std::string text(32, '\0');  // room for %g; %f of a large x takes up to 309 digits more
  for (;;) {
    const int size = fixed ? std::snprintf(text.data(), text.size(), "%.*f", precision, x)
                           : std::snprintf(text.data(), text.size(), "%.*g", precision, x);
    if (static_cast<std::size_t>(size) < text.size()) {
      text.resize(static_cast<std::size_t>(size));
      return text;
    }
    text.resize(static_cast<std::size_t>(size) + 1);
  }
}

}  // namespace

std::string number_text(double x, int digits) { return printf_text(false, digits, x); }

std::string fixed_text(double x, int places) { return printf_text(true, places, x); }

}  // namespace eom
