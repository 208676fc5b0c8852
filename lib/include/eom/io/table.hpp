// Tables of named numeric columns, read and written as CSV, JSON or NDJSON.
//
// CSV: a header row of column names, then one row per line (separated by commas, or by semicolons
//   or tabs, detected from the header row; optional CRLF line ends and byte order mark, blank
//   lines ignored). Fields may be quoted as RFC 4180 says ("0.25", "a,b", "say ""hi""", a line end
//   inside quotes); a quoted field reads as its content.
// JSON: either an array of row objects [{"t": 0, "q.a": 1}, ...] (the canonical form eom writes,
//   one row per line, so it streams) or an object of columns {"t": [...], "q.a": [...]}. A nested
//   object in a row is flattened with dots: {"header": {"stamp": {"sec": 1}}} is the column
//   header.stamp.sec (eom writes the flat keys, which read back as the same columns).
// NDJSON: one row object per line.
// Every value of a column the caller reads (all, unless read_columns says otherwise) must be a
// finite number; anything else is an InputError with file, line, column. The other columns may
// hold anything: text (labels, ROS frame ids), JSON strings, literals, objects and arrays.
// Numbers are written in shortest round-trip form (std::to_chars) and read with std::from_chars,
// so a table written and read back gives identical doubles. Every field is also available as the
// input wrote it (TableReader::field), so that text, and numbers with more digits than a double
// holds (nanosecond stamps), pass through unchanged (TableWriter::write_row with fields).
#pragma once

#include <cstdio>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eom {

enum class Format { csv, json, ndjson };

/// Parse "csv", "json" or "ndjson"; throws InputError otherwise.
Format parse_format(std::string_view name);
const char* format_name(Format format);
/// The format of a path: `forced` if given, else from the extension (.csv, .json, .ndjson/.jsonl),
/// else CSV (stdin/stdout, /dev/null, out.txt, <(...)).
Format format_for(const std::string& path, std::optional<Format> forced);

/// What a field holds, as the input wrote it.
enum class FieldKind : unsigned char {
  none,     // no field: the writer writes the number given beside it (computed columns)
  number,   // a finite number; the text is its spelling
  text,     // CSV: any other non-empty field; JSON: a string, or stray text such as NaN
  empty,    // CSV: an empty field; JSON: null
  literal,  // JSON: true or false
  json,     // JSON: an array (or an empty object), as its JSON text
};

/// One field: its kind and text (a string's content, unescaped and unquoted).
struct Field {
  FieldKind kind = FieldKind::none;
  std::string_view text;
};

/// How a table is read.
struct ReadOptions {
  /// CSV field separator: ',', ';' or '\t'; 0 detects it from the header row (the one of the
  /// three found most often outside quotes, a comma when none is).
  char separator = 0;
};

/// Column names of a table, in order, unique.
struct Header {
  std::vector<std::string> names;
  /// Where each name starts in the header line of its file (1-based character position, as
  /// messages give line:column), for messages about a column itself; empty, or 0 for a name,
  /// where unknown (JSON, a header built in memory).
  std::vector<int> at = {};

  int size() const { return static_cast<int>(names.size()); }
  /// Index of a column, -1 if absent.
  int index(std::string_view name) const;
  /// at[column], or 0 when unknown.
  int position(int column) const {
    return static_cast<size_t>(column) < at.size() ? at[static_cast<size_t>(column)] : 0;
  }
};

/// Streaming reader of a table. Reads the header at open; next() fills one row at a time.
class TableReader {
 public:
  virtual ~TableReader() = default;
  /// Open a file ("-" = stdin) in the given format. Throws InputError if it cannot be read, is
  /// empty, or its header is malformed (duplicate or empty column names).
  static std::unique_ptr<TableReader> open(const std::string& path, Format format,
                                           ReadOptions options = {});
  /// Read from an existing stream (tests, in-process use); `name` is used in messages.
  static std::unique_ptr<TableReader> from_stream(std::istream& in, const std::string& name,
                                                  Format format, ReadOptions options = {});

  const Header& header() const { return header_; }
  const std::string& name() const { return name_; }
  /// The CSV field separator used (',' for JSON and NDJSON).
  char separator() const { return separator_; }
  /// The columns the caller reads (default: all): their values must be finite numbers. Values of
  /// the other columns may be anything and read as NaN unless they are numbers. `why[c]`, when
  /// given and not empty, is added to the message of a bad value in column c. `flags[c]`: column
  /// c (one read) holds 0 or 1 (contact.<frame>), another value is refused at its line:column as
  /// a bad number is. Call before next().
  void read_columns(std::vector<bool> used, std::vector<std::string> why = {},
                    std::vector<bool> flags = {}) {
    used_ = std::move(used);
    why_ = std::move(why);
    flags_ = std::move(flags);
  }
  /// Fill `row` (resized to header().size() on first use, never reallocated afterwards) with the
  /// next row; false at the end. Throws InputError (file:line:column) for text, NaN/Inf in a
  /// column read, a flag other than 0 and 1, ragged rows, missing or unknown keys.
  bool next(std::vector<double>& row) {
    if (!read_row(row)) return false;
    if (!flags_.empty()) check_flags(row);
    return true;
  }
  /// Column `column` of the row last returned by next(), as the input wrote it. Valid until the
  /// next call of next().
  virtual Field field(int column) const = 0;
  /// 1-based line of the row last returned by next() (JSON columns form: the row index + 1).
  virtual int line() const = 0;
  /// 1-based character position in that line where field `column` starts, as the reader's own
  /// messages give it (line:column); 0 where the format has none (JSON).
  virtual int column_position(int column) const {
    (void)column;
    return 0;
  }
  /// Bytes of the input consumed so far (for progress reports).
  virtual long long offset() const = 0;

 protected:
  /// next() but for the flags' check.
  virtual bool read_row(std::vector<double>& row) = 0;
  bool used(std::size_t column) const { return used_.empty() || used_[column]; }
  /// " (why)" for a bad value in `column`, or nothing.
  std::string why(std::size_t column) const {
    return column < why_.size() && !why_[column].empty() ? " (" + why_[column] + ")" : "";
  }

  Header header_;
  std::string name_;
  char separator_ = ',';

 private:
  void check_flags(const std::vector<double>& row) const;

  std::vector<bool> used_;        // empty: every column
  std::vector<std::string> why_;  // per column, may be empty
  std::vector<bool> flags_;       // per column, may be empty
};

/// Streaming writer of a table, to an OutputFile (output_file.hpp): a regular file is written to
/// a temporary next to the target (through a symlink: next to its target) and renamed over it by
/// commit(), keeping an existing file's permissions; destroying an uncommitted writer removes the
/// temporary, so a failed run leaves no partial file. Devices, FIFOs, sockets and descriptors
/// (/dev/stdout) are written in place. "-" writes to stdout.
class TableWriter {
 public:
  virtual ~TableWriter() = default;
  static std::unique_ptr<TableWriter> open(const std::string& path, Format format, Header header);
  /// Write to an existing stream (tests, in-process use). commit() flushes.
  static std::unique_ptr<TableWriter> to_stream(std::ostream& out, Format format, Header header);

  const Header& header() const { return header_; }
  /// Append one row of header().size() values.
  void write_row(const double* values) { write_row(values, nullptr); }
  /// Append one row: fields[c] as the input wrote it (a number as append_number_text writes it;
  /// text quoted as the format needs; CSV writes null as an empty field and JSON an empty field
  /// as null), or values[c] where fields is null or fields[c] is FieldKind::none.
  virtual void write_row(const double* values, const Field* fields) = 0;
  /// Push buffered rows to the destination now (streaming pipelines).
  virtual void flush() = 0;
  /// Finish the table (closing bracket for JSON), flush, and move the file into place.
  virtual void commit() = 0;
  /// Finish the table and flush it to its destination, everything that can fail but the move into
  /// place (commit() then moves it): a run whose outputs are one result (a table and its summary)
  /// finishes all of them before it commits any. Releases the row buffer.
  virtual void finish() = 0;
  /// Finish, then move the table to `path` (next to the destination) instead of into place,
  /// never replacing an existing file (InputError). Only for a regular-file destination.
  virtual void commit_as(const std::string& path) = 0;
  /// The destination is written in place (stdout, a descriptor, a device, a FIFO): it cannot be
  /// moved anywhere else.
  virtual bool written_in_place() const = 0;

 protected:
  Header header_;
};

/// A whole table in memory, row-major. For tests, convert and small inputs.
struct Table {
  Header header;
  std::vector<double> values;  // rows() x header.size()

  int rows() const {
    return header.size() == 0 ? 0 : static_cast<int>(values.size() / header.size());
  }
  double at(int row, int column) const {
    return values[static_cast<size_t>(row) * header.size() + column];
  }
};

Table read_table(const std::string& path, Format format);
void write_table(const Table& table, const std::string& path, Format format);
/// Writes `contents` to path as TableWriter writes a table: all or nothing (a temporary renamed
/// over the file), devices and fifos directly, "-" to stdout.
void write_file(const std::string& path, const std::string& contents);

/// A number as a table spells it (a finite number std::from_chars reads), appended to `out`: in
/// shortest round-trip form ("+1.50" gives 1.5, "4.9406564584124654e-324" 5e-324), unless it is
/// a number no double holds, an integer the double does not equal or one of more than 17
/// significant digits: then every digit of it ("1700000000123456789" stays so).
void append_number_text(std::string& out, std::string_view text);
/// Parse a whole field as a finite double with std::from_chars; nullopt if it is not one.
std::optional<double> parse_number(std::string_view text);

}  // namespace eom
