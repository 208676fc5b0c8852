// Typed errors thrown by libeom. The library never prints; tools map these to messages and exit
// codes (InputError -> 2).
#pragma once

#include <stdexcept>
#include <string>

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

/// A numerical failure on valid input: a singular mass matrix, a non-finite result.
class NumericalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace eom
