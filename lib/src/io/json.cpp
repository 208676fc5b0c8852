#include "io/json.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eom/core/errors.hpp"
#include "io/json_cursor.hpp"
#include "io/table_detail.hpp"

namespace eom::detail {
namespace {

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

  bool read_row(std::vector<double>& row) override {
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
    if (first_pending_) {  // its fields are still those of row_text_ and spans_
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

  Field field(int column) const override {
    const auto c = static_cast<size_t>(column);
    if (mode_ == Mode::columns) {
      const Span& s = column_spans_[c][served_ - 1];
      return {s.kind, std::string_view(column_text_[c]).substr(s.begin, s.size)};
    }
    return {spans_[c].kind, std::string_view(row_text_).substr(spans_[c].begin, spans_[c].size)};
  }

 private:
  // where a field's text is in the text of its row (or of its column, in the columns form)
  struct Span {
    uint32_t begin = 0;
    uint32_t size = 0;
    FieldKind kind = FieldKind::empty;
  };

  void start_row() {
    if (in_.peek() != '{') in_.fail("expected a row object '{', found " + in_.found());
    row_start_ = in_.here();
    row_offset_ = in_.offset();
    line_ = row_start_.line;
    ++rows_;
  }

  // One row object into `row`, by the header's columns; nullptr: the first row, which makes the
  // header and goes to first_.
  void parse_row(double* row) {
    in_.advance();
    ++generation_;
    count_ = 0;
    row_text_.clear();
    path_.clear();
    parse_members(row);
    const size_t n = header_.names.size();
    if (row && count_ < n) {
      size_t missing = 0;
      while (seen_[missing] == generation_) ++missing;
      in_.fail(row_prefix() + "missing key " + quote_input(header_.names[missing]));
    }
    in_.advance();
    first_pending_ = !row;
  }

  // The members of a row object whose '{' was just read, up to its '}' (left at the cursor).
  void parse_members(double* row) {
    walk_members([&](Location at, Location value_at, bool empty_object_value) {
      const size_t column = resolve_column(at, row != nullptr);
      const double value = empty_object_value
                               ? empty_object(value_at, column, spans_[column], row_text_)
                               : read_value(column, spans_[column], row_text_);
      if (row) {
        seen_[column] = generation_;
        row[column] = value;
      } else {
        first_.push_back(value);
      }
      if (static_cast<size_t>(in_.offset() - row_offset_) > Input::kMaxRow) {
        in_.fail_at(row_start_, row_prefix() + "the row object is " + Input::too_long());
      }
    });
  }

  // The members of an object whose '{' was just read, up to its '}' (left at the cursor), named
  // after path_: a nested object's members are path.key.member. For each member whose value is
  // not a non-empty object, leaf(key location, value location, empty) is called with path_ its
  // name and the cursor at its value (past it when the value is the empty object {}, a field).
  // Iterative, with the enclosing members' name lengths on a stack: the input decides how deep
  // objects nest, never the depth of the call stack.
  template <class Leaf>
  void walk_members(Leaf&& leaf) {
    std::vector<size_t>& outer = member_path_lengths_;
    outer.clear();
    in_.skip_space();
    if (in_.peek() == '}') return;
    for (;;) {
      const Location at = read_key();
      outer.push_back(path_.size());
      path_ += key_;
      in_.skip_space();
      in_.expect(':', "after a key");
      in_.skip_space();
      const Location value_at = in_.here();
      bool empty = false;
      if (in_.peek() == '{') {
        in_.advance();
        in_.skip_space();
        if (in_.peek() != '}') {  // a nested object: its members come next
          path_ += '.';
          continue;
        }
        in_.advance();
        empty = true;
      }
      leaf(at, value_at, empty);
      // the member ends; so do the nested objects whose '}' follows, and the members holding them
      for (;;) {
        path_.resize(outer.back());
        outer.pop_back();
        in_.skip_space();
        if (in_.peek() != '}') break;
        if (outer.empty()) return;
        in_.advance();
      }
      in_.expect(',', "or '}' after a value");
      in_.skip_space();
    }
  }

  // The column of the key path_ (at `at`): a new one in row 1, else one of row 1's.
  size_t resolve_column(Location at, bool known) {
    const size_t n = header_.names.size();
    size_t column;
    if (!known) {
      const std::string problem = add_column(header_, index_, path_);
      if (!problem.empty()) in_.fail_at(at, "row 1: " + problem);
      column = count_;
      spans_.emplace_back();
    } else if (count_ < n && path_ == header_.names[count_]) {
      column = count_;  // keys in the header's order: no lookup
    } else {
      const auto it = index_.find(path_);
      if (it == index_.end()) {
        in_.fail_at(at, row_prefix() + "unknown key " + quote_input(path_) + " (not in row 1)");
      }
      column = static_cast<size_t>(it->second);
    }
    if (known && seen_[column] == generation_) {
      in_.fail_at(at, row_prefix() + "duplicate key " + quote_input(path_));
    }
    ++count_;
    return column;
  }

  // A key at the cursor into key_; returns where it starts.
  Location read_key() {
    if (in_.peek() != '"') in_.fail("expected a key string, found " + in_.found());
    const Location at = in_.here();
    in_.read_string(key_);
    return at;
  }

  std::string row_prefix() const { return "row " + std::to_string(rows_) + ": "; }

  // A value: a number, or (NaN) anything else in a column the caller does not read; its text goes
  // to the end of `text`, and where it is to `span`.
  double read_value(size_t column, Span& span, std::string& text) {
    const Location at = in_.here();
    const int c = in_.peek();
    span.begin = static_cast<uint32_t>(text.size());
    double value = 0;
    if (c == '"') {
      in_.read_string(text_);
      text += text_;
      set(span, text, FieldKind::text);
      return not_a_number(at, column,
                          "the string " + quote_input(text_) +
                              " is not a number (numbers are written without quotes)");
    }
    if (c == '{' || c == '[') {
      copy_nested(text);
      set(span, text, FieldKind::json);
      return not_a_number(
          at, column,
          std::string("expected a number, found ") + (c == '{' ? "an object" : "an array"));
    }
    const std::string_view token = in_.read_token();
    if (token.empty()) in_.fail("expected a number, found " + in_.found());
    text += token;
    const NumberStatus status = to_number(token, value);
    if (status == NumberStatus::ok) {
      set(span, text, FieldKind::number);
      return value;
    }
    const FieldKind kind = token == "null"                       ? FieldKind::empty
                           : token == "true" || token == "false" ? FieldKind::literal
                                                                 : FieldKind::text;
    if (kind == FieldKind::empty) text.resize(span.begin);  // null has no text
    set(span, text, kind);
    return not_a_number(at, column, describe(token, status));
  }

  // the value {} (read by parse_members), at `at`: a field like an array
  double empty_object(Location at, size_t column, Span& span, std::string& text) {
    span.begin = static_cast<uint32_t>(text.size());
    text += "{}";
    set(span, text, FieldKind::json);
    return not_a_number(at, column, "expected a number, found an object");
  }

  static void set(Span& span, const std::string& text, FieldKind kind) {
    span.kind = kind;
    span.size = static_cast<uint32_t>(text.size() - span.begin);
  }

  // An error in a column the caller reads. Before the caller has said which (the rows read at
  // open: the first row, or every row of the columns form), the first such value of each column
  // is kept and judged when the rows are served.
  double not_a_number(Location at, size_t column, const std::string& message) {
    const std::string what = "row " + std::to_string(rows_) + ", column " +
                             shown_input(header_.names[column]) + ": " + message;
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

  // an object or array where a number would be, copied whole to `text` (its strings escaped
  // again, its blanks dropped)
  void copy_nested(std::string& text) {
    const Location at = in_.here();
    const size_t begin = text.size();
    int depth = 0;
    do {
      if (text.size() - begin > Input::kMaxRow) in_.fail_at(at, "a value " + Input::too_long());
      in_.skip_space();
      const int c = in_.peek();
      if (c < 0) in_.fail("unterminated object or array");
      if (c == '"') {
        in_.read_string(text_);
        append_json_string(text, text_);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      text += static_cast<char>(c);
      in_.advance();
    } while (depth > 0);
  }

  // {"t": [...], "q.a": [...]}, nested objects flattened as in rows ({"q": {"a": [...]}} is the
  // column q.a): the whole table is read here, then served row by row.
  void parse_columns() {
    in_.advance();
    path_.clear();
    std::vector<Location> where;
    walk_members([&](Location at, Location value_at, bool empty_object_value) {
      const std::string problem = add_column(header_, index_, path_);
      if (!problem.empty()) in_.fail_at(at, problem);
      where.push_back(at);
      if (empty_object_value) {
        in_.fail_at(value_at,
                    "column " + shown_input(path_) + ": expected an array of numbers, found {}");
      }
      if (in_.peek() != '[') {
        // likely NDJSON in a .json file: say so
        in_.fail("column " + shown_input(path_) + ": expected an array of numbers, found " +
                 in_.found() + " (an object of columns; one row object per line is NDJSON)");
      }
      in_.advance();
      in_.skip_space();
      std::vector<double>& values = columns_.emplace_back();
      std::string& text = column_text_.emplace_back();
      std::vector<Span>& spans = column_spans_.emplace_back();
      if (in_.peek() != ']') {
        for (;;) {
          rows_ = static_cast<int>(values.size()) + 1;
          values.push_back(read_value(columns_.size() - 1, spans.emplace_back(), text));
          in_.skip_space();
          if (in_.peek() == ']') break;
          in_.expect(',', "or ']' after a value");
          in_.skip_space();
        }
      }
      in_.advance();
    });
    in_.advance();
    for (size_t c = 1; c < columns_.size(); ++c) {
      if (columns_[c].size() != columns_[0].size()) {
        in_.fail_at(where[c], "column " + shown_input(header_.names[c]) + " has " +
                                  std::to_string(columns_[c].size()) + " values, column " +
                                  shown_input(header_.names[0]) + " has " +
                                  std::to_string(columns_[0].size()));
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
  bool opened_ = false;                            // the header is known
  bool judged_ = false;                            // deferred_ was judged
  std::vector<std::optional<Deferred>> deferred_;  // per column, the first bad value read at open
  std::unordered_map<std::string, int> index_;
  std::string key_, text_;
  std::string path_;  // the column name of the key being read: keys of nested objects
  std::vector<size_t> member_path_lengths_;  // walk_members: path_'s length before each key
  size_t count_ = 0;                         // values in the row so far
  std::string row_text_;                     // the text of the fields of the current row
  std::vector<Span> spans_;                  // ... and where each field's is
  std::vector<unsigned long long> seen_;     // generation_ of the row in which a column was seen
  unsigned long long generation_ = 0;
  std::vector<double> first_;  // row 1, read at open to learn the header
  bool first_pending_ = false;
  bool done_ = false;
  int rows_ = 0;  // rows parsed so far (for messages)
  int line_ = 0;
  Location row_start_{0, 0};  // where the current row object starts
  long long row_offset_ = 0;  // ... its stream offset
  std::vector<std::vector<double>> columns_;
  std::vector<std::string> column_text_;  // the columns form: the text of each column's fields
  std::vector<std::vector<Span>> column_spans_;  // ... and where each is
  size_t columns_rows_ = 0, served_ = 0;
};

}  // namespace

std::unique_ptr<TableReader> make_json_reader(std::unique_ptr<Input> in, bool ndjson) {
  return std::make_unique<JsonReader>(std::move(in), ndjson);
}

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

}  // namespace eom::detail
