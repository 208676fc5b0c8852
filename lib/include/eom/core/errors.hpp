// Typed errors thrown by libeom. The library never prints; tools map these to messages and exit
// codes (InputError -> 2).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace eom {

/// Bad input: a malformed file, a wrong column, a non-number, an inconsistent size. Carries the
/// place it was found (file, 1-based line and column, 0 when unknown) and what was expected.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int column, const std::string& message);
  explicit InputError(const std::string& message) : InputError("", 0, 0, message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  /// The message without its location prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

/// A model that cannot be built or is not physical (URDF structure, masses, inertias).
class ModelError : public InputError {
 public:
  using InputError::InputError;
};

/// Text from the input quoted for a message, in single quotes: whole when short, else its first
/// kQuotedInputMax bytes (cut at a character boundary) and its length, '0.12345...' (104857600
/// bytes), so that no message echoes megabytes of input. Every message that quotes input (cells,
/// column names, attribute values, names, suggestions) quotes it with this.
std::string quote_input(std::string_view text);
/// The same without the quotes, for names shown bare ("column q.elbow: ..."): whole when short,
/// else 0.12345... (104857600 bytes).
std::string shown_input(std::string_view text);
inline constexpr std::size_t kQuotedInputMax = 60;

/// Why a decimal number std::from_chars reports out of range is so, after the quoted number:
/// "'1e400' is beyond the largest double (1.8e308)" or "'1e-400' underflows to 0 (below the
/// smallest double, 4.9e-324)".
std::string out_of_range_message(std::string_view number);

/// A numerical failure on valid input: a singular mass matrix, a non-finite result.
class NumericalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace eom
