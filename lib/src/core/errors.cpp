#include "eom/core/errors.hpp"

#include <cmath>
#include <cstdlib>
#include <utility>

namespace eom {
namespace {

// "file:line:column: message", leaving out the parts that are unknown
std::string locate(const std::string& file, int line, int column, const std::string& message) {
  std::string where = file;
  if (line > 0) {
    if (!where.empty()) where += ':';
    where += std::to_string(line);
    if (column > 0) where += ':' + std::to_string(column);
  }
  return where.empty() ? message : where + ": " + message;
}

// the first kQuotedInputMax bytes of a longer text, not cut inside a UTF-8 sequence
std::string_view head(std::string_view text) {
  size_t cut = kQuotedInputMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

std::string length(std::string_view text) { return " (" + std::to_string(text.size()) + " bytes)"; }

}  // namespace

std::string quote_input(std::string_view text) {
  if (text.size() <= kQuotedInputMax) return "'" + std::string(text) + "'";
  return "'" + std::string(head(text)) + "...'" + length(text);
}

std::string shown_input(std::string_view text) {
  if (text.size() <= kQuotedInputMax) return std::string(text);
  return std::string(head(text)) + "..." + length(text);
}

std::string out_of_range_message(std::string_view number) {
  // strtod tells the two apart: +-HUGE_VAL on overflow, a magnitude below 1 on underflow
  const double value = std::strtod(std::string(number).c_str(), nullptr);
  if (std::abs(value) < 1) {
    return quote_input(number) + " underflows to 0 (below the smallest double, 4.9e-324)";
  }
  return quote_input(number) + " is out of the range of a double (beyond 1.8e308)";
}

InputError::InputError(std::string file, int line, int column, const std::string& message)
    : std::runtime_error(locate(file, line, column, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(message) {}

}  // namespace eom
