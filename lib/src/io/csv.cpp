#include "io/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
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
  CsvReader(std::unique_ptr<Input> in, char separator) : in_(std::move(in)) {
    name_ = in_->name();
    read_header(separator);
    spans_.resize(header_.names.size());
  }

  bool read_row(std::vector<double>& row) override {
    const size_t n = header_.names.size();
    if (row.size() != n) row.resize(n);
    unquoted_.clear();
    std::string_view text;
    do {
      if (!next_line(text)) return false;
    } while (is_blank_line(text));
    line_begin_ = text.data();
    const char* p = text.data();
    const char* const end = p + text.size();
    for (size_t c = 0;; ++c) {
      while (p < end && blank(*p)) ++p;
      const char* const start = p;
      double value = 0;
      const auto [ptr, ec] = std::from_chars(p, end, value);
      p = ptr;
      while (p < end && blank(*p)) ++p;
      if (ec != std::errc() || (p < end && *p != separator_) || !std::isfinite(value)) {
        p = unusual_field(c, start, end, value);
      } else {
        spans_[c] = {offset(start), static_cast<uint32_t>(ptr - start), FieldKind::number, false,
                     offset(start)};
      }
      row[c] = value;
      if (c + 1 == n) break;
      if (p == end) fail(end, field_count(c + 1));
      ++p;
    }
    if (p < end) fail(p + 1, field_count(n + 1 + std::count(p + 1, end, separator_)));
    return true;
  }

  Field field(int column) const override {
    const Span& s = spans_[static_cast<size_t>(column)];
    const char* base = s.unescaped ? unquoted_.data() : line_begin_;
    return {s.kind, std::string_view(base + s.begin, s.size)};
  }

  int line() const override { return line_; }
  int column_position(int column) const override {
    return position(line_begin_ + spans_[static_cast<size_t>(column)].at);
  }
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
      if ((nl ? static_cast<size_t>(nl - start) : n) > Input::kMaxRow) {
        throw InputError(
            name_, next_line_, 0,
            (breaks ? "the record starting on this line is " : "the line is ") + Input::too_long());
      }
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

  // a field of a record, for field(): where its text is (in the record, or in unquoted_)
  struct Span {
    uint32_t begin = 0;
    uint32_t size = 0;
    FieldKind kind = FieldKind::empty;
    bool unescaped = false;  // in unquoted_
    uint32_t at = 0;         // where the field starts in the record (its quote, if quoted)
  };

  uint32_t offset(const char* at) const { return static_cast<uint32_t>(at - line_begin_); }

  // The UTF-8 characters in [from, to): the bytes that do not continue a sequence.
  static int characters(const char* from, const char* to) {
    return static_cast<int>(std::count_if(
        from, to, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  }
  // The 1-based character position of `at` in the current record, as messages give line:column.
  int position(const char* at) const { return 1 + characters(line_begin_, at); }

  // blanks around fields are padding; a tab is one unless it separates the fields
  bool blank(char c) const { return c == ' ' || (c == '\t' && separator_ != '\t'); }

  bool is_blank_line(std::string_view text) const {
    return std::all_of(text.begin(), text.end(), [this](char c) { return blank(c); });
  }

  // The separator of a header row: of ',', ';' and tab, the one found most often outside quotes
  // (a comma on ties and when there is none, as for a table of one column).
  static char detect_separator(std::string_view text) {
    size_t commas = 0, semicolons = 0, tabs = 0;
    bool quoted = false;
    for (const char c : text) {
      quoted ^= c == '"';
      if (quoted) continue;
      commas += c == ',';
      semicolons += c == ';';
      tabs += c == '\t';
    }
    if (semicolons > commas && semicolons >= tabs) return ';';
    if (tabs > commas && tabs > semicolons) return '\t';
    return ',';
  }

  void read_header(char separator) {
    std::string_view text;
    bool blank_line = true;
    do {
      if (!next_line(text)) throw InputError(name_, 0, 0, "empty input, expected a header row");
      line_begin_ = text.data();
      if (line_ == 1 && has_bom(text)) text.remove_prefix(3);  // spreadsheets write one
      blank_line = std::all_of(text.begin(), text.end(), is_blank);
    } while (blank_line);
    separator_ = separator ? separator : detect_separator(text);

    std::unordered_map<std::string, int> index;
    std::string name;
    const char* p = text.data();
    const char* const end = p + text.size();
    // where each name starts, counted on from the name before (a header may have 10^5 names)
    const char* counted = line_begin_;
    int at = 1;
    for (;;) {
      while (p < end && blank(*p)) ++p;
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
        while (p < end && blank(*p)) ++p;
        if (p < end && *p != separator_) fail(p, "unexpected text after a quoted column name");
      } else {
        const char* comma = std::find(p, end, separator_);
        const char* last = comma;
        while (last > p && blank(last[-1])) --last;
        name.assign(p, last);
        p = comma;
      }
      const std::string problem = add_column(header_, index, name);
      if (!problem.empty()) fail(start, problem);
      at += characters(counted, start);
      counted = start;
      header_.at.push_back(at);
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
    Span& span = spans_[column];
    const bool quoted = start < end && *start == '"';
    if (quoted) {
      after = quoted_field(start, end, text);
    } else {
      after = std::find(start, end, separator_);
      const char* last = after;
      while (last > start && blank(last[-1])) --last;
      text = std::string_view(start, last - start);
    }
    span.unescaped = quoted && last_unescaped_;
    span.begin = span.unescaped ? static_cast<uint32_t>(text.data() - unquoted_.data())
                                : offset(text.data());
    span.size = static_cast<uint32_t>(text.size());
    span.at = offset(start);
    const NumberStatus status = to_number(text, value);
    if (status == NumberStatus::ok) {
      span.kind = FieldKind::number;
      return after;
    }
    span.kind = text.empty() && !quoted ? FieldKind::empty : FieldKind::text;
    if (used(column)) {
      fail(start, "column " + shown_input(header_.names[column]) + ": " + describe(text, status) +
                      decimal_comma_hint(text) + why(column));
    }
    value = std::numeric_limits<double>::quiet_NaN();
    return after;
  }

  // "0,25" in a table separated by semicolons: a spreadsheet's decimal comma
  std::string decimal_comma_hint(std::string_view text) const {
    if (separator_ == ',' || text.find(',') == std::string_view::npos) return "";
    std::string point(text);
    std::replace(point.begin(), point.end(), ',', '.');
    double value;
    if (to_number(point, value) != NumberStatus::ok) return "";
    return " (a decimal comma? eom reads numbers with a decimal point)";
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
      // appended: the escaped fields of a record share unquoted_ (their spans hold offsets)
      const size_t begin = unquoted_.size();
      for (const char* c = p; c < close; ++c) {
        unquoted_ += *c;
        if (*c == '"') ++c;  // "" stands for one quote
      }
      text = std::string_view(unquoted_).substr(begin);
    }
    last_unescaped_ = escaped;
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    const char* after = close + 1;
    while (after < end && blank(*after)) ++after;
    if (after < end && *after != separator_) fail(after, "unexpected text after a quoted field");
    return after;
  }

  std::string field_count(size_t found) const {
    return "expected " + std::to_string(header_.names.size()) + " fields as in the header, found " +
           std::to_string(found);
  }

  [[noreturn]] void fail(const char* at, const std::string& message) const {
    throw InputError(name_, line_, position(at), message);
  }

  std::unique_ptr<Input> in_;
  std::vector<Span> spans_;           // the fields of the current record
  int line_ = 0;                      // first line of the current record
  int next_line_ = 1;                 // ... of the next one
  const char* line_begin_ = nullptr;  // of the current record, for columns in messages
  std::string unquoted_;              // the record's quoted fields with "" escapes, unescaped
  bool last_unescaped_ = false;       // the last quoted field read is in unquoted_
};

}  // namespace

std::unique_ptr<TableReader> make_csv_reader(std::unique_ptr<Input> in, char separator) {
  return std::make_unique<CsvReader>(std::move(in), separator);
}

void append_csv_text(std::string& out, std::string_view text) {
  const bool quote = text.find_first_of(",;\"\r\n") != std::string::npos || text.empty() ||
                     is_blank(text.front()) || is_blank(text.back());  // readers trim blanks
  if (!quote) {
    out += text;
    return;
  }
  out += '"';
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace eom::detail
