#include "eom/io/table.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <unordered_map>
#include <utility>

#include "eom/core/errors.hpp"

namespace eom {
namespace {

constexpr size_t kReadChunk = size_t{1} << 20;
constexpr size_t kWriteChunk = size_t{1} << 16;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool has_bom(std::string_view text) { return text.substr(0, 3) == "\xEF\xBB\xBF"; }

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// A bad value quoted for a message, shortened so one field cannot flood the terminal.
std::string excerpt(std::string_view text) {
  constexpr size_t kMax = 40;
  return text.size() > kMax ? quoted(std::string(text.substr(0, kMax - 3)) + "...") : quoted(text);
}

std::string system_message(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

enum class NumberStatus { ok, not_number, not_finite, out_of_range };

NumberStatus to_number(std::string_view text, double& value) {
  const char* first = text.data();
  const char* last = first + text.size();
  // from_chars rejects the '+' sign that some writers put on positive numbers
  if (last - first > 1 && *first == '+' && first[1] != '-') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ptr != last || first == last) return NumberStatus::not_number;
  if (ec == std::errc::result_out_of_range) return NumberStatus::out_of_range;
  if (ec != std::errc()) return NumberStatus::not_number;
  return std::isfinite(value) ? NumberStatus::ok : NumberStatus::not_finite;
}

std::string describe(std::string_view text, NumberStatus status) {
  switch (status) {
    case NumberStatus::not_finite:
      return excerpt(text) + " is not a finite number";
    case NumberStatus::out_of_range:
      return excerpt(text) + " is out of the range of a double";
    default:
      return text.empty() ? "empty field, expected a number" : excerpt(text) + " is not a number";
  }
}

// Adds a column name to `header`; returns why it cannot be one (empty if it can).
std::string add_column(Header& header, std::unordered_map<std::string, int>& index,
                       const std::string& name) {
  const std::string position = std::to_string(header.size() + 1);
  if (name.empty()) return "column " + position + " has an empty name";
  for (const unsigned char c : name) {
    // a control character would not survive a round trip through CSV
    if (c < 0x20 || c == 0x7f) return "column " + position + ": control character in the name";
  }
  const auto [it, added] = index.emplace(name, header.size());
  if (!added) {
    return "duplicate column " + quoted(name) + " (columns " + std::to_string(it->second + 1) +
           " and " + position + ")";
  }
  header.names.push_back(name);
  return {};
}

// Bytes from a file descriptor or a std::istream, read in large chunks into one buffer whose
// unread part stays contiguous, so lines and tokens are parsed in place.
class Input {
 public:
  Input(std::string name, int fd, bool owned)
      : name_(std::move(name)), fd_(fd), owned_(owned), buffer_(kReadChunk) {}
  Input(std::string name, std::istream& in)
      : name_(std::move(name)), stream_(&in), buffer_(kReadChunk) {}
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() {
    if (owned_) ::close(fd_);
  }

  const std::string& name() const { return name_; }
  const char* data() const { return buffer_.data() + pos_; }
  size_t available() const { return end_ - pos_; }
  void consume(size_t n) { pos_ += n; }
  /// Stream offset of data().
  long long offset() const { return base_ + static_cast<long long>(pos_); }

  /// Appends more bytes after the unread ones (which move to the front of the buffer, so
  /// pointers into it are invalidated); false at the end of the input.
  bool fill() {
    if (eof_) return false;
    if (pos_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
      base_ += static_cast<long long>(pos_);
      end_ -= pos_;
      pos_ = 0;
    }
    if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());  // one line or token fills it
    const size_t got = read_some(buffer_.data() + end_, buffer_.size() - end_);
    if (got == 0) eof_ = true;
    end_ += got;
    return got > 0;
  }

 private:
  size_t read_some(char* out, size_t n) {
    if (stream_) {
      stream_->read(out, static_cast<std::streamsize>(n));
      if (stream_->bad()) throw InputError(name_, 0, 0, "cannot read");
      return static_cast<size_t>(stream_->gcount());
    }
    for (;;) {
      // read(2) returns what a pipe has, so rows stream through without waiting for a full chunk
      const ssize_t got = ::read(fd_, out, n);
      if (got >= 0) return static_cast<size_t>(got);
      if (errno != EINTR) throw InputError(name_, 0, 0, system_message("cannot read"));
    }
  }

  std::string name_;
  int fd_ = -1;
  bool owned_ = false;
  std::istream* stream_ = nullptr;
  std::vector<char> buffer_;
  size_t pos_ = 0, end_ = 0;
  long long base_ = 0;
  bool eof_ = false;
};

// ---------------------------------------------------------------------------------------------
// CSV

class CsvReader final : public TableReader {
 public:
  explicit CsvReader(std::unique_ptr<Input> in) : in_(std::move(in)) {
    name_ = in_->name();
    read_header();
  }

  bool next(std::vector<double>& row) override {
    const size_t n = header_.names.size();
    if (row.size() != n) row.resize(n);
    std::string_view text;
    do {
      if (!next_line(text)) return false;
    } while (is_blank_line(text));
    line_begin_ = text.data();
    const char* p = text.data();
    const char* const end = p + text.size();
    for (size_t c = 0;; ++c) {
      while (p < end && is_blank(*p)) ++p;
      const char* const start = p;
      double value = 0;
      const auto [ptr, ec] = std::from_chars(p, end, value);
      p = ptr;
      while (p < end && is_blank(*p)) ++p;
      if (ec != std::errc() || (p < end && *p != ',') || !std::isfinite(value)) {
        p = unusual_field(c, start, end, value);
      }
      row[c] = value;
      if (c + 1 == n) break;
      if (p == end) fail(end, field_count(c + 1));
      ++p;
    }
    if (p < end) fail(p + 1, field_count(n + 1 + std::count(p + 1, end, ',')));
    return true;
  }

  int line() const override { return line_; }
  long long offset() const override { return in_->offset(); }

 private:
  // The next record without its line end: a physical line, or several when a quoted field holds
  // a line end (RFC 4180); false at the end of the input. line_ becomes its first line.
  bool next_line(std::string_view& text) {
    size_t scanned = 0;  // bytes searched for the line end
    size_t parity = 0;   // bytes whose quotes were counted
    bool quoted = false;
    int breaks = 0;  // line ends inside quotes
    for (;;) {
      const char* const start = in_->data();
      const size_t n = in_->available();
      const auto* nl = static_cast<const char*>(std::memchr(start + scanned, '\n', n - scanned));
      if (nl) {
        const char* const stop = nl;
        for (const char* q = start + parity;
             (q = static_cast<const char*>(std::memchr(q, '"', stop - q))) != nullptr; ++q) {
          quoted = !quoted;
        }
        if (quoted) {  // the line end belongs to a quoted field
          scanned = parity = static_cast<size_t>(nl - start) + 1;
          ++breaks;
          continue;
        }
        text = std::string_view(start, nl - start);
        in_->consume(text.size() + 1);
        break;
      }
      scanned = n;
      if (!in_->fill()) {
        if (n == 0) return false;
        text = std::string_view(in_->data(), n);  // a last line without '\n'
        in_->consume(n);
        break;
      }
    }
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    line_ = next_line_;
    next_line_ += 1 + breaks;
    return true;
  }

  static bool is_blank_line(std::string_view text) {
    return std::all_of(text.begin(), text.end(), is_blank);
  }

  void read_header() {
    std::string_view text;
    do {
      if (!next_line(text)) throw InputError(name_, 0, 0, "empty input, expected a header row");
      line_begin_ = text.data();
      if (line_ == 1 && has_bom(text)) text.remove_prefix(3);  // spreadsheets write one
    } while (is_blank_line(text));

    std::unordered_map<std::string, int> index;
    std::string name;
    const char* p = text.data();
    const char* const end = p + text.size();
    for (;;) {
      while (p < end && is_blank(*p)) ++p;
      const char* const start = p;
      name.clear();
      if (p < end && *p == '"') {
        for (++p;; ++p) {
          if (p == end) fail(start, "unterminated quoted column name");
          if (*p == '"') {
            if (p + 1 == end || p[1] != '"') break;
            ++p;  // "" stands for one quote
          }
          name += *p;
        }
        ++p;
        while (p < end && is_blank(*p)) ++p;
        if (p < end && *p != ',') fail(p, "unexpected text after a quoted column name");
      } else {
        const char* comma = std::find(p, end, ',');
        const char* last = comma;
        while (last > p && is_blank(last[-1])) --last;
        name.assign(p, last);
        p = comma;
      }
      const std::string problem = add_column(header_, index, name);
      if (!problem.empty()) fail(start, problem);
      if (p == end) break;
      ++p;
    }
  }

  // A field that is not a plain finite number: a '+' sign or quotes around it are fine; anything
  // else is an error in a column the caller reads, and NaN in the others. Returns the end of the
  // field.
  const char* unusual_field(size_t column, const char* start, const char* end, double& value) {
    std::string_view text;
    const char* after;
    if (*start == '"') {
      after = quoted_field(start, end, text);
    } else {
      after = std::find(start, end, ',');
      const char* last = after;
      while (last > start && is_blank(last[-1])) --last;
      text = std::string_view(start, last - start);
    }
    const NumberStatus status = to_number(text, value);
    if (status == NumberStatus::ok) return after;
    if (used(column)) {
      fail(start, "column " + header_.names[column] + ": " + describe(text, status) + why(column));
    }
    value = std::numeric_limits<double>::quiet_NaN();
    return after;
  }

  // The content of the quoted field at `start` (blanks around it trimmed, "" read as one quote)
  // into `text`; returns the end of the field.
  const char* quoted_field(const char* start, const char* end, std::string_view& text) {
    const char* p = start + 1;
    const char* close = p;
    bool escaped = false;
    for (;; ++close) {
      if (close == end) fail(start, "unterminated quoted field");
      if (*close != '"') continue;
      if (close + 1 == end || close[1] != '"') break;
      escaped = true;
      ++close;
    }
    text = std::string_view(p, close - p);
    if (escaped) {
      unquoted_.clear();
      for (const char* c = p; c < close; ++c) {
        unquoted_ += *c;
        if (*c == '"') ++c;  // "" stands for one quote
      }
      text = unquoted_;
    }
    while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
    const char* after = close + 1;
    while (after < end && is_blank(*after)) ++after;
    if (after < end && *after != ',') fail(after, "unexpected text after a quoted field");
    return after;
  }

  std::string field_count(size_t found) const {
    return "expected " + std::to_string(header_.names.size()) + " fields as in the header, found " +
           std::to_string(found);
  }

  [[noreturn]] void fail(const char* at, const std::string& message) const {
    throw InputError(name_, line_, static_cast<int>(at - line_begin_) + 1, message);
  }

  std::unique_ptr<Input> in_;
  int line_ = 0;                      // first line of the current record
  int next_line_ = 1;                 // ... of the next one
  const char* line_begin_ = nullptr;  // of the current record, for columns in messages
  std::string unquoted_;              // a quoted field with "" escapes, unescaped
};

// ---------------------------------------------------------------------------------------------
// JSON and NDJSON: a small pull parser for what tables need (flat objects of numbers, arrays of
// numbers). It streams, knows line and column of every byte, and explains what it expected.

struct Location {
  int line;
  int column;
};

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

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

class JsonCursor {
 public:
  explicit JsonCursor(std::unique_ptr<Input> in) : in_(std::move(in)) {
    if (peek() >= 0 && has_bom(std::string_view(in_->data(), in_->available()))) {
      in_->consume(3);
      line_start_ = 3;
    }
  }

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
  std::string found() {
    const int c = peek();
    if (c < 0) return "the end of the input";
    return quoted(std::string(1, static_cast<char>(c)));
  }

  /// A string at the cursor (which is at its opening quote), unescaped into `out`.
  void read_string(std::string& out) {
    out.clear();
    advance();
    for (;;) {
      if (in_->available() == 0 && !in_->fill()) fail("unterminated string");
      const char* const first = in_->data();
      const char* const end = first + in_->available();
      const char* p = first;
      while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
      out.append(first, p);
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

  /// The bare token at the cursor (a number, or stray text such as null or NaN), consumed. Valid
  /// until the next peek().
  std::string_view read_token() {
    size_t n = 0;
    for (;;) {
      const char* const p = in_->data();
      const size_t available = in_->available();
      while (n < available && !is_delimiter(p[n])) ++n;
      if (n < available || !in_->fill()) break;
    }
    const std::string_view token(in_->data(), n);
    in_->consume(n);
    return token;
  }

  [[noreturn]] void fail(const std::string& message) const { fail_at(here(), message); }
  [[noreturn]] void fail_at(Location at, const std::string& message) const {
    throw InputError(name(), at.line, at.column, message);
  }

 private:
  unsigned read_hex4() {
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

  std::unique_ptr<Input> in_;
  int line_ = 1;
  long long line_start_ = 0;  // stream offset of the current line
};

class JsonReader final : public TableReader {
 public:
  enum class Mode { rows, lines, columns };  // JSON array of rows, NDJSON, JSON object of columns

  JsonReader(std::unique_ptr<Input> in, bool ndjson) : in_(std::move(in)) {
    name_ = in_.name();
    in_.skip_space();
    const int c = in_.peek();
    if (ndjson) {
      mode_ = Mode::lines;
      if (c < 0) throw InputError(name_, 0, 0, "empty input, expected a row object per line");
      start_row();
      parse_row(nullptr);
      end_line();
    } else if (c == '[') {
      in_.advance();
      in_.skip_space();
      if (in_.peek() == ']') {  // no rows, and so no columns either
        in_.advance();
        end_document();
        done_ = true;
      } else {
        start_row();
        parse_row(nullptr);
      }
    } else if (c == '{') {
      mode_ = Mode::columns;
      parse_columns();
      end_document();
    } else if (c < 0) {
      throw InputError(name_, 0, 0,
                       "empty input, expected a JSON array of row objects or an object of columns");
    } else {
      in_.fail("expected '[' (an array of row objects) or '{' (an object of columns), found " +
               in_.found());
    }
    seen_.assign(header_.names.size(), 0);
    opened_ = true;
  }

  bool next(std::vector<double>& row) override {
    const size_t n = header_.names.size();
    if (row.size() != n) row.resize(n);
    if (!judged_) {
      judged_ = true;
      judge_deferred();
    }
    if (mode_ == Mode::columns) {
      if (served_ == columns_rows_) return false;
      for (size_t c = 0; c < n; ++c) row[c] = columns_[c][served_];
      line_ = static_cast<int>(++served_);
      return true;
    }
    if (first_pending_) {
      std::copy(first_.begin(), first_.end(), row.begin());
      first_pending_ = false;
      return true;
    }
    if (done_) return false;
    if (mode_ == Mode::lines) {
      in_.skip_space();
      if (in_.peek() < 0) return false;
      start_row();
      parse_row(row.data());
      end_line();
      return true;
    }
    in_.skip_space();
    const int c = in_.peek();
    if (c == ']') {
      in_.advance();
      end_document();
      done_ = true;
      return false;
    }
    if (c != ',') in_.fail("expected ',' or ']' after a row object, found " + in_.found());
    in_.advance();
    in_.skip_space();
    start_row();
    parse_row(row.data());
    return true;
  }

  int line() const override { return line_; }
  long long offset() const override { return in_.offset(); }

 private:
  void start_row() {
    if (in_.peek() != '{') in_.fail("expected a row object '{', found " + in_.found());
    line_ = in_.here().line;
    ++rows_;
  }

  // One row object into `row`, by the header's columns; nullptr: the first row, which makes the
  // header and goes to first_.
  void parse_row(double* row) {
    in_.advance();
    in_.skip_space();
    ++generation_;
    size_t count = 0;
    const size_t n = header_.names.size();
    if (in_.peek() != '}') {
      for (;;) {
        const Location at = read_key();
        size_t column;
        if (!row) {
          const std::string problem = add_column(header_, index_, key_);
          if (!problem.empty()) in_.fail_at(at, "row 1: " + problem);
          column = count;
        } else if (count < n && key_ == header_.names[count]) {
          column = count;  // keys in the header's order: no lookup
        } else {
          const auto it = index_.find(key_);
          if (it == index_.end()) {
            in_.fail_at(at, row_prefix() + "unknown key " + quoted(key_) + " (not in row 1)");
          }
          column = static_cast<size_t>(it->second);
        }
        if (row && seen_[column] == generation_) {
          in_.fail_at(at, row_prefix() + "duplicate key " + quoted(key_));
        }
        ++count;
        in_.skip_space();
        in_.expect(':', "after a key");
        in_.skip_space();
        const double value = read_value(column);
        if (row) {
          seen_[column] = generation_;
          row[column] = value;
        } else {
          first_.push_back(value);
        }
        in_.skip_space();
        if (in_.peek() == '}') break;
        in_.expect(',', "or '}' after a value");
        in_.skip_space();
      }
    }
    if (row && count < n) {
      size_t missing = 0;
      while (seen_[missing] == generation_) ++missing;
      in_.fail(row_prefix() + "missing key " + quoted(header_.names[missing]));
    }
    in_.advance();
    first_pending_ = !row;
  }

  // A key at the cursor into key_; returns where it starts.
  Location read_key() {
    if (in_.peek() != '"') in_.fail("expected a key string, found " + in_.found());
    const Location at = in_.here();
    in_.read_string(key_);
    return at;
  }

  std::string row_prefix() const { return "row " + std::to_string(rows_) + ": "; }

  // A value: a number, or (NaN) anything else in a column the caller does not read.
  double read_value(size_t column) {
    const Location at = in_.here();
    const int c = in_.peek();
    if (c == '"') {
      in_.read_string(text_);
      return not_a_number(at, column,
                          "the string " + excerpt(text_) +
                              " is not a number (numbers are written without quotes)");
    }
    if (c == '{' || c == '[') {
      skip_nested();
      return not_a_number(
          at, column, std::string("expected a number, found ") + (c == '{' ? "an object" : "an array"));
    }
    const std::string_view token = in_.read_token();
    if (token.empty()) in_.fail("expected a number, found " + in_.found());
    double value;
    const NumberStatus status = to_number(token, value);
    if (status != NumberStatus::ok) return not_a_number(at, column, describe(token, status));
    return value;
  }

  // An error in a column the caller reads. Before the caller has said which (the rows read at
  // open: the first row, or every row of the columns form), the first such value of each column
  // is kept and judged when the rows are served.
  double not_a_number(Location at, size_t column, const std::string& message) {
    const std::string what =
        "row " + std::to_string(rows_) + ", column " + header_.names[column] + ": " + message;
    if (!opened_) {
      if (deferred_.size() <= column) deferred_.resize(column + 1);
      if (!deferred_[column]) deferred_[column] = Deferred{at, what};
    } else if (used(column)) {
      in_.fail_at(at, what + why(column));
    }
    return std::numeric_limits<double>::quiet_NaN();
  }

  // the bad values read at open, in the columns the caller reads: the first in the input fails
  void judge_deferred() const {
    size_t first = deferred_.size();
    for (size_t c = 0; c < deferred_.size(); ++c) {
      if (!deferred_[c] || !used(c)) continue;
      const Location at = deferred_[c]->at;
      if (first == deferred_.size() || at.line < deferred_[first]->at.line ||
          (at.line == deferred_[first]->at.line && at.column < deferred_[first]->at.column)) {
        first = c;
      }
    }
    if (first < deferred_.size()) {
      in_.fail_at(deferred_[first]->at, deferred_[first]->what + why(first));
    }
  }

  // an object or array where a number would be, skipped whole (strings may hold brackets)
  void skip_nested() {
    int depth = 0;
    do {
      in_.skip_space();
      const int c = in_.peek();
      if (c < 0) in_.fail("unterminated object or array");
      if (c == '"') {
        in_.read_string(text_);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      in_.advance();
    } while (depth > 0);
  }

  // {"t": [...], "q.a": [...]}: the whole table is read here, then served row by row.
  void parse_columns() {
    in_.advance();
    in_.skip_space();
    std::vector<Location> where;
    if (in_.peek() != '}') {
      for (;;) {
        const Location at = read_key();
        const std::string problem = add_column(header_, index_, key_);
        if (!problem.empty()) in_.fail_at(at, problem);
        where.push_back(at);
        in_.skip_space();
        in_.expect(':', "after a key");
        in_.skip_space();
        if (in_.peek() != '[') {
          // likely NDJSON in a .json file: say so
          in_.fail("column " + key_ + ": expected an array of numbers, found " + in_.found() +
                   " (an object of columns; one row object per line is NDJSON)");
        }
        in_.advance();
        in_.skip_space();
        std::vector<double>& values = columns_.emplace_back();
        if (in_.peek() != ']') {
          for (;;) {
            rows_ = static_cast<int>(values.size()) + 1;
            values.push_back(read_value(columns_.size() - 1));
            in_.skip_space();
            if (in_.peek() == ']') break;
            in_.expect(',', "or ']' after a value");
            in_.skip_space();
          }
        }
        in_.advance();
        in_.skip_space();
        if (in_.peek() == '}') break;
        in_.expect(',', "or '}' after a column");
        in_.skip_space();
      }
    }
    in_.advance();
    for (size_t c = 1; c < columns_.size(); ++c) {
      if (columns_[c].size() != columns_[0].size()) {
        in_.fail_at(where[c], "column " + header_.names[c] + " has " +
                                  std::to_string(columns_[c].size()) + " values, column " +
                                  header_.names[0] + " has " + std::to_string(columns_[0].size()));
      }
    }
    columns_rows_ = columns_.empty() ? 0 : columns_[0].size();
  }

  void end_line() {
    in_.skip_space(false);
    const int c = in_.peek();
    if (c >= 0 && c != '\n') in_.fail("expected the end of the line after a row object");
  }

  void end_document() {
    in_.skip_space();
    if (in_.peek() >= 0) in_.fail("unexpected text after the end of the JSON document");
  }

  // a bad value read before the caller said which columns it reads
  struct Deferred {
    Location at;
    std::string what;
  };

  JsonCursor in_;
  Mode mode_ = Mode::rows;
  bool opened_ = false;                         // the header is known
  bool judged_ = false;                         // deferred_ was judged
  std::vector<std::optional<Deferred>> deferred_;  // per column, the first bad value read at open
  std::unordered_map<std::string, int> index_;
  std::string key_, text_;
  std::vector<unsigned long long> seen_;  // generation_ of the row in which a column was seen
  unsigned long long generation_ = 0;
  std::vector<double> first_;  // row 1, read at open to learn the header
  bool first_pending_ = false;
  bool done_ = false;
  int rows_ = 0;  // rows parsed so far (for messages)
  int line_ = 0;
  std::vector<std::vector<double>> columns_;
  size_t columns_rows_ = 0, served_ = 0;
};

std::unique_ptr<TableReader> make_reader(std::unique_ptr<Input> in, Format format) {
  if (format == Format::csv) return std::make_unique<CsvReader>(std::move(in));
  return std::make_unique<JsonReader>(std::move(in), format == Format::ndjson);
}

// ---------------------------------------------------------------------------------------------
// Writers

void append_json_string(std::string& out, std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_csv_name(std::string& out, const std::string& name) {
  const bool quote = name.find_first_of(",\"\r\n") != std::string::npos || name.empty() ||
                     is_blank(name.front()) || is_blank(name.back());  // readers trim blanks
  if (!quote) {
    out += name;
    return;
  }
  out += '"';
  for (const char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// Temporaries of unfinished outputs, for remove_pending_outputs() in a signal handler: fixed
// slots of atomic pointers, since a handler may neither lock nor allocate.
constexpr int kPendingSlots = 256;
std::atomic<const char*> pending_outputs[kPendingSlots];

int register_pending_output(const char* path) {
  for (int k = 0; k < kPendingSlots; ++k) {
    const char* expected = nullptr;
    if (pending_outputs[k].compare_exchange_strong(expected, path)) return k;
  }
  return -1;  // more unfinished outputs than slots: those are not cleaned up on a signal
}

void unregister_pending_output(int slot) {
  if (slot >= 0) pending_outputs[slot] = nullptr;
}

// The destination of an output: a regular file is written to a temporary next to it and renamed
// over it by commit() (all or nothing); a stream, device or fifo is written directly.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
    unregister_pending_output(pending_);
  }

  void to_stream(std::ostream& out, std::string name) {
    stream_ = &out;
    target_ = std::move(name);
  }

  // Writes go to a new temporary next to the file they replace, renamed over it by commit():
  // through a symlink to its target, keeping an existing file's permissions. Devices, fifos and
  // the /dev and /proc names of descriptors (/dev/stdout) are written directly: there is nothing
  // to replace, and renaming over the file behind /dev/stdout would cut it from the shell.
  void to_file(const std::string& path) {
    target_ = path;
    struct stat info;
    const bool exists = ::stat(path.c_str(), &info) == 0;
    if ((exists && !S_ISREG(info.st_mode)) || path.rfind("/dev/", 0) == 0 ||
        path.rfind("/proc/", 0) == 0) {
      fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | (exists ? 0 : O_CREAT | O_TRUNC), 0666);
      if (fd_ < 0) throw InputError(path, 0, 0, system_message("cannot open"));
      if (exists && S_ISREG(info.st_mode)) (void)::ftruncate(fd_, 0);
      return;
    }
    if (exists) {
      if (char* real = ::realpath(path.c_str(), nullptr)) {
        target_ = real;
        std::free(real);
      }
    }
    // unique per process and per writer, created exclusively: batch threads never share one
    static std::atomic<unsigned> counter{0};
    const size_t slash = target_.find_last_of('/');
    const std::string directory = slash == std::string::npos ? "" : target_.substr(0, slash + 1);
    const std::string base = directory + "." + target_.substr(directory.size()) + ".eom-" +
                             std::to_string(::getpid()) + "-";
    for (int attempt = 0; fd_ < 0 && attempt < 100; ++attempt) {
      temporary_ = base + std::to_string(counter++) + ".tmp";
      fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ < 0 && errno != EEXIST) break;
    }
    if (fd_ < 0) {
      const std::string message = system_message("cannot create");
      temporary_.clear();
      throw InputError(path, 0, 0, message);
    }
    if (exists) (void)::fchmod(fd_, info.st_mode & 07777);
    pending_ = register_pending_output(temporary_.c_str());
  }

  void write(const std::string& bytes) {
    if (stream_) {
      if (!stream_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
        throw InputError(target_, 0, 0, "cannot write");
      }
      return;
    }
    for (size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw InputError(target_, 0, 0, system_message("cannot write"));
      done += static_cast<size_t>(n);
    }
  }

  void flush() {
    if (stream_ && !stream_->flush()) throw InputError(target_, 0, 0, "cannot write");
  }

  void commit() {
    flush();
    if (stream_) {
      committed_ = true;
      return;
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw InputError(target_, 0, 0, system_message("cannot write"));
    if (!temporary_.empty() && std::rename(temporary_.c_str(), target_.c_str()) != 0) {
      throw InputError(target_, 0, 0, system_message("cannot move the finished file into place"));
    }
    committed_ = true;
    unregister_pending_output(pending_);
    pending_ = -1;
  }

 private:
  std::ostream* stream_ = nullptr;
  int fd_ = -1;
  std::string target_, temporary_;
  int pending_ = -1;  // slot in the registry of temporaries
  bool committed_ = false;
};

class Writer final : public TableWriter {
 public:
  Writer(Format format, Header header) : format_(format) {
    header_ = std::move(header);
    buffer_.reserve(kWriteChunk + 4096);
    const auto& names = header_.names;
    for (size_t c = 0; c < names.size(); ++c) {
      std::string prefix = c ? "," : "";
      if (format == Format::csv) {
        append_csv_name(buffer_, names[c]);
        buffer_ += c + 1 < names.size() ? "," : "";
      } else {
        append_json_string(prefix, names[c]);
        prefix += ':';
      }
      prefixes_.push_back(std::move(prefix));
    }
    if (format == Format::csv) buffer_ += '\n';
    if (format == Format::json) buffer_ += "[\n";
    row_start_ = format == Format::csv ? "" : "{";
    row_end_ = format == Format::csv ? "\n" : format == Format::ndjson ? "}\n" : "}";
  }

  OutputFile& file() { return file_; }

  void write_row(const double* values) override {
    if (rows_ > 0 && format_ == Format::json) buffer_ += ",\n";
    buffer_ += row_start_;
    for (size_t c = 0; c < prefixes_.size(); ++c) {
      if (!std::isfinite(values[c])) {
        throw NumericalError("row " + std::to_string(rows_ + 1) + ", column " + header_.names[c] +
                             ": cannot write " + std::to_string(values[c]) +
                             ", tables hold finite numbers only");
      }
      buffer_ += prefixes_[c];
      append_number(buffer_, values[c]);
    }
    buffer_ += row_end_;
    ++rows_;
    if (buffer_.size() >= kWriteChunk) drain();
  }

  void flush() override {
    drain();
    file_.flush();
  }

  void commit() override {
    if (format_ == Format::json && rows_ == 0 && buffer_ == "[\n") {
      // an empty array of rows would lose the columns: write the columns form, {"t":[],...}
      buffer_ = "{";
      for (const std::string& prefix : prefixes_) buffer_ += prefix + "[]";
      buffer_ += "}\n";
    } else if (format_ == Format::json) {
      buffer_ += rows_ > 0 ? "\n]\n" : "]\n";
    }
    drain();
    file_.commit();
  }

 private:
  void drain() {
    file_.write(buffer_);
    buffer_.clear();
  }

  Format format_;
  std::vector<std::string> prefixes_;  // what goes before each value: separator, JSON key
  const char* row_start_ = "";
  const char* row_end_ = "";
  std::string buffer_;
  long long rows_ = 0;
  OutputFile file_;
};

}  // namespace

void remove_pending_outputs() {
  for (auto& slot : pending_outputs) {
    if (const char* path = slot.load()) ::unlink(path);
  }
}

Format parse_format(std::string_view name) {
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "ndjson") return Format::ndjson;
  throw InputError("unknown format " + quoted(name) + "; expected csv, json or ndjson");
}

const char* format_name(Format format) {
  switch (format) {
    case Format::csv:
      return "csv";
    case Format::json:
      return "json";
    case Format::ndjson:
      return "ndjson";
  }
  return "csv";
}

Format format_for(const std::string& path, std::optional<Format> forced) {
  if (forced) return *forced;
  if (path == "-") return Format::csv;
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    std::string extension = path.substr(dot + 1);
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (extension == "csv") return Format::csv;
    if (extension == "json") return Format::json;
    if (extension == "ndjson" || extension == "jsonl") return Format::ndjson;
  }
  return Format::csv;  // as documented: CSV unless the extension or the user says otherwise
}

int Header::index(std::string_view name) const {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

std::unique_ptr<TableReader> TableReader::open(const std::string& path, Format format) {
  if (path == "-") {
    return make_reader(std::make_unique<Input>("<stdin>", STDIN_FILENO, false), format);
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, 0, system_message("cannot open"));
  struct stat info;
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    throw InputError(path, 0, 0, "is a directory, not a table");
  }
  return make_reader(std::make_unique<Input>(path, fd, true), format);
}

std::unique_ptr<TableReader> TableReader::from_stream(std::istream& in, const std::string& name,
                                                      Format format) {
  return make_reader(std::make_unique<Input>(name, in), format);
}

std::unique_ptr<TableWriter> TableWriter::open(const std::string& path, Format format,
                                               Header header) {
  auto writer = std::make_unique<Writer>(format, std::move(header));
  if (path == "-") {
    writer->file().to_stream(std::cout, "<stdout>");
  } else {
    writer->file().to_file(path);
  }
  return writer;
}

std::unique_ptr<TableWriter> TableWriter::to_stream(std::ostream& out, Format format,
                                                    Header header) {
  auto writer = std::make_unique<Writer>(format, std::move(header));
  writer->file().to_stream(out, "<stream>");
  return writer;
}

Table read_table(const std::string& path, Format format) {
  const auto reader = TableReader::open(path, format);
  Table table;
  table.header = reader->header();
  std::vector<double> row;
  while (reader->next(row)) table.values.insert(table.values.end(), row.begin(), row.end());
  return table;
}

void write_file(const std::string& path, const std::string& contents) {
  OutputFile file;
  if (path == "-") {
    file.to_stream(std::cout, "<stdout>");
  } else {
    file.to_file(path);
  }
  file.write(contents);
  file.commit();
}

void write_table(const Table& table, const std::string& path, Format format) {
  const auto writer = TableWriter::open(path, format, table.header);
  for (int r = 0; r < table.rows(); ++r) {
    writer->write_row(table.values.data() + static_cast<size_t>(r) * table.header.names.size());
  }
  writer->commit();
}

void append_number(std::string& out, double value) {
  char text[32];  // the longest shortest form of a double has 24 characters
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

std::optional<double> parse_number(std::string_view text) {
  double value;
  if (to_number(text, value) != NumberStatus::ok) return std::nullopt;
  return value;
}

}  // namespace eom
