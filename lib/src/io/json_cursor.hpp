// JSON and NDJSON, private to libeom: a small pull parser for what tables need (flat objects of
// numbers, arrays of numbers). It streams, knows line and column of every byte, and explains
// what it expected.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "io/input.hpp"

namespace eom::detail {

struct Location {
  int line;
  int column;
};

class JsonCursor {
 public:
  /// Skips a byte order mark.
  explicit JsonCursor(std::unique_ptr<Input> in);

  const std::string& name() const { return in_->name(); }
  long long offset() const { return in_->offset(); }
  /// The next byte, -1 at the end.
  int peek() {
    if (in_->available() == 0 && !in_->fill()) return -1;
    return static_cast<unsigned char>(*in_->data());
  }
  void advance() { in_->consume(1); }
  Location here() const { return {line_, static_cast<int>(in_->offset() - line_start_) + 1}; }

  /// Skips white space; across line ends unless `newlines` is false (end of an NDJSON row).
  void skip_space(bool newlines = true) {
    for (int c = peek();; c = peek()) {
      if (c == ' ' || c == '\t' || c == '\r') {
        advance();
      } else if (c == '\n' && newlines) {
        advance();
        ++line_;
        line_start_ = in_->offset();
      } else {
        return;
      }
    }
  }

  void expect(char c, const char* context) {
    if (peek() != c) fail(std::string("expected '") + c + "' " + context + ", found " + found());
    advance();
  }

  /// What is at the cursor, for messages.
  std::string found();

  /// A string at the cursor (which is at its opening quote), unescaped into `out`.
  void read_string(std::string& out);

  /// The bare token at the cursor (a number, or stray text such as null or NaN), consumed. Valid
  /// until the next peek().
  std::string_view read_token();

  [[noreturn]] void fail(const std::string& message) const { fail_at(here(), message); }
  [[noreturn]] void fail_at(Location at, const std::string& message) const;

 private:
  unsigned read_hex4();

  std::unique_ptr<Input> in_;
  int line_ = 1;
  long long line_start_ = 0;  // stream offset of the current line
};

}  // namespace eom::detail
