#include "io/json_cursor.hpp"

#include <utility>

#include "eom/core/errors.hpp"
#include "eom/core/utf8.hpp"
#include "io/table_detail.hpp"

namespace eom::detail {
namespace {

bool is_delimiter(char c) {
  switch (c) {
    case ',':
    case ':':
    case '{':
    case '}':
    case '[':
    case ']':
    case '"':
    case ' ':
    case '\t':
    case '\r':
    case '\n':
      return true;
    default:
      return false;
  }
}

}  // namespace

JsonCursor::JsonCursor(std::unique_ptr<Input> in) : in_(std::move(in)) {
  if (peek() >= 0 && has_bom(std::string_view(in_->data(), in_->available()))) {
    in_->consume(3);
    line_start_ = 3;
  }
}

std::string JsonCursor::found() {
  const int c = peek();
  if (c < 0) return "the end of the input";
  return quote_input(std::string(1, static_cast<char>(c)));
}

void JsonCursor::read_string(std::string& out) {
  const Location at = here();
  out.clear();
  advance();
  for (;;) {
    if (in_->available() == 0 && !in_->fill()) fail("unterminated string");
    const char* const first = in_->data();
    const char* const end = first + in_->available();
    const char* p = first;
    while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
    out.append(first, p);
    if (out.size() > Input::kMaxRow) fail_at(at, "a string " + Input::too_long());
    in_->consume(p - first);
    if (p == end) continue;
    if (*p == '"') {
      advance();
      return;
    }
    if (*p != '\\') fail("control character in a string (write it as an escape)");
    advance();
    const int c = peek();
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out += static_cast<char>(c);
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        advance();
        unsigned code = read_hex4();
        if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair: two escapes, one character
          if (peek() != '\\') fail("unpaired surrogate in a \\u escape");
          advance();
          if (peek() != 'u') fail("unpaired surrogate in a \\u escape");
          advance();
          const unsigned low = read_hex4();
          if (low < 0xDC00 || low >= 0xE000) fail("unpaired surrogate in a \\u escape");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code < 0xE000) {
          fail("unpaired surrogate in a \\u escape");
        }
        append_utf8(out, code);
        continue;
      }
      default:
        fail("invalid escape in a string");
    }
    advance();
  }
}

std::string_view JsonCursor::read_token() {
  size_t n = 0;
  for (;;) {
    const char* const p = in_->data();
    const size_t available = in_->available();
    while (n < available && !is_delimiter(p[n])) ++n;
    if (n > Input::kMaxRow) fail("a value " + Input::too_long());
    if (n < available || !in_->fill()) break;
  }
  const std::string_view token(in_->data(), n);
  in_->consume(n);
  return token;
}

void JsonCursor::fail_at(Location at, const std::string& message) const {
  throw InputError(name(), at.line, at.column, message);
}

unsigned JsonCursor::read_hex4() {
  unsigned code = 0;
  for (int k = 0; k < 4; ++k) {
    const int c = peek();
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) fail("expected 4 hex digits in a \\u escape");
    code = code * 16 + static_cast<unsigned>(digit);
    advance();
  }
  return code;
}

}  // namespace eom::detail
