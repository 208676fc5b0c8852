#include "io/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eom/core/errors.hpp"
#include "io/table_detail.hpp"

namespace eom::detail {
namespace {

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

}  // namespace

std::unique_ptr<TableReader> make_csv_reader(std::unique_ptr<Input> in) {
  return std::make_unique<CsvReader>(std::move(in));
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

}  // namespace eom::detail
