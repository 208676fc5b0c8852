// Typed errors thrown by libeom. The library never prints; tools map these to messages and exit
// codes (InputError -> 2).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eom {

/// The settings of a run that a message may have to name (the one at fault, or the one that would
/// change what happened): the library names them in its own words (setting_name), a program that
/// takes them from its users names them as its users give them (eom: by its options). A message
/// holds them as data (Phrase) and is spelt out where it is shown.
enum class Setting {
  floating_base,   // the model has a free-flyer root joint
  lock,            // the joints fixed, at a value or at their neutral configuration
  gravity,         // the gravity vector
  separator,       // the separator of CSV fields
  time_column,     // the column holding time
  keep,            // the input columns passed through, renamed or not
  derive,          // the method of derivation (fit or three-point)
  derive_window,   // the rows of the derivation's fits
  no_derive,       // missing derivative columns are an error
  gaps,            // what a gap in time does: split the table or refuse
  duplicates,      // what a row repeating the stamp of the row before does: drop or refuse
  time_scale,      // the seconds per unit of the time column
  output,          // the output table's file
  output_dir,      // the directory of a batch's outputs
  summary,         // the file of the run's summary
  keep_truncated,  // where a run that fails midway keeps the rows so far
  mask,            // the components of an IK target the solution is asked to reach
  contacts,        // the frames in contact
};

/// How a setting is named in messages: the library's words ("time column"), or a program's table.
using SettingNames = std::string_view (*)(Setting);
/// The library's words for a setting.
std::string_view setting_name(Setting setting);

/// The text of a message that names settings: text with the settings at their places, spelt out
/// by text(names). Built like a string: "the free-flyer of " + Setting::floating_base + " ...".
class Phrase {
 public:
  Phrase() = default;
  Phrase(std::string text) : text_(std::move(text)) {}  // NOLINT: text is a phrase
  Phrase(const char* text) : text_(text) {}             // NOLINT
  Phrase(Setting setting) : settings_{{0, setting}} {}  // NOLINT

  Phrase& operator+=(const Phrase& more);
  /// The text with each setting named by `names`.
  std::string text(SettingNames names = setting_name) const;

 private:
  std::string text_;
  std::vector<std::pair<size_t, Setting>> settings_;  // where in text_ each goes, in order
};
Phrase operator+(Phrase a, const Phrase& b);
// with no class among its operands ("..." + Setting::lock), an operator+ is only looked for with
// the enumeration itself as a parameter
Phrase operator+(Phrase a, Setting b);
Phrase operator+(Setting a, const Phrase& b);

/// Bad input: a malformed file, a wrong column, a non-number, an inconsistent size, a setting
/// that does not fit. Carries the place it was found (file, 1-based line and column, 0 when
/// unknown) and what was expected; what() names the settings in the library's words, text() as a
/// program names them.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int column, Phrase message);
  explicit InputError(Phrase message) : InputError("", 0, 0, std::move(message)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  /// The message without its location prefix, in the library's words.
  const std::string& message() const { return message_; }
  /// The same with its settings as data: for an error that rethrows this one with a location.
  const Phrase& phrase() const { return phrase_; }
  /// what() with each setting named by `names`.
  std::string text(SettingNames names) const;

 private:
  std::string file_;
  int line_ = 0;
  int column_ = 0;
  Phrase phrase_;
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
