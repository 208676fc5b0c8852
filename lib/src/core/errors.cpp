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

// control characters as \xNN: a NUL would end the message where it is printed, a newline or an
// escape sequence would garble the terminal
std::string visible(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
      continue;
    }
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
  }
  return out;
}

}  // namespace

std::string quote_input(std::string_view text) {
  if (text.size() <= kQuotedInputMax) return "'" + visible(text) + "'";
  return "'" + visible(head(text)) + "...'" + length(text);
}

std::string shown_input(std::string_view text) {
  if (text.size() <= kQuotedInputMax) return visible(text);
  return visible(head(text)) + "..." + length(text);
}

std::string out_of_range_message(std::string_view number) {
  // strtod tells the two apart: +-HUGE_VAL on overflow, a magnitude below 1 on underflow
  const double value = std::strtod(std::string(number).c_str(), nullptr);
  if (std::abs(value) < 1) {
    return quote_input(number) + " underflows to 0 (below the smallest double, 4.9e-324)";
  }
  return quote_input(number) + " is out of the range of a double (beyond 1.8e308)";
}

std::string_view setting_name(Setting setting) {
  switch (setting) {
    case Setting::floating_base:
      return "floating base";
    case Setting::lock:
      return "lock";
    case Setting::gravity:
      return "gravity";
    case Setting::separator:
      return "separator";
    case Setting::time_column:
      return "time column";
    case Setting::keep:
      return "keep";
    case Setting::derive:
      return "derive";
    case Setting::derive_window:
      return "derive window";
    case Setting::no_derive:
      return "no derive";
    case Setting::gaps:
      return "gaps";
    case Setting::output:
      return "output";
    case Setting::output_dir:
      return "output directory";
    case Setting::summary:
      return "summary";
    case Setting::keep_truncated:
      return "keep truncated";
    case Setting::duplicates:
      return "duplicate stamps";
    case Setting::time_scale:
      return "time scale";
    case Setting::mask:
      return "mask";
    case Setting::contacts:
      return "contacts";
  }
  return "setting";
}

Phrase& Phrase::operator+=(const Phrase& more) {
  for (const auto& [at, setting] : more.settings_)
    settings_.emplace_back(text_.size() + at, setting);
  text_ += more.text_;
  return *this;
}

Phrase operator+(Phrase a, const Phrase& b) { return a += b; }
Phrase operator+(Phrase a, Setting b) { return a += b; }
Phrase operator+(Setting a, const Phrase& b) { return Phrase(a) += b; }

std::string Phrase::text(SettingNames names) const {
  std::string out;
  size_t from = 0;
  for (const auto& [at, setting] : settings_) {
    out.append(text_, from, at - from).append(names(setting));
    from = at;
  }
  return out.append(text_, from, std::string::npos);
}

InputError::InputError(std::string file, int line, int column, Phrase message)
    : std::runtime_error(locate(file, line, column, message.text())),
      file_(std::move(file)),
      line_(line),
      column_(column),
      phrase_(std::move(message)),
      message_(phrase_.text()) {}

std::string InputError::text(SettingNames names) const {
  return locate(file_, line_, column_, phrase_.text(names));
}

}  // namespace eom
