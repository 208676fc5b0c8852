#include "eom/io/table.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/io/decimal.hpp"
#include "io/csv.hpp"
#include "io/input.hpp"
#include "io/json.hpp"
#include "io/table_detail.hpp"

namespace eom {
namespace detail {

std::string system_message(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

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
      return quote_input(text) + " is not a finite number";
    case NumberStatus::out_of_range:
      return out_of_range_message(text);
    default:
      return text.empty() ? "empty field, expected a number"
                          : quote_input(text) + " is not a number";
  }
}

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
    return "duplicate column " + quote_input(name) + " (columns " + std::to_string(it->second + 1) +
           " and " + position + ")";
  }
  header.names.push_back(name);
  return {};
}

}  // namespace detail

using detail::Input;

namespace {

std::unique_ptr<TableReader> make_reader(std::unique_ptr<Input> in, Format format,
                                         ReadOptions options) {
  if (format == Format::csv) return detail::make_csv_reader(std::move(in), options.separator);
  return detail::make_json_reader(std::move(in), format == Format::ndjson);
}

}  // namespace

Format parse_format(std::string_view name) {
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "ndjson") return Format::ndjson;
  throw InputError("unknown format " + quote_input(name) + "; expected csv, json or ndjson");
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

void TableReader::check_flags(const std::vector<double>& row) const {
  for (size_t c = 0; c < flags_.size(); ++c) {
    if (!flags_[c] || row[c] == 0 || row[c] == 1) continue;
    const int column = static_cast<int>(c);
    throw InputError(name_, line(), column_position(column),
                     "column " + shown_input(header_.names[c]) + ": " +
                         quote_input(field(column).text) + " is neither 1 nor 0" + why(c));
  }
}

std::unique_ptr<TableReader> TableReader::open(const std::string& path, Format format,
                                               ReadOptions options) {
  if (path == "-") {
    return make_reader(std::make_unique<Input>("<stdin>", STDIN_FILENO, false), format, options);
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, 0, detail::system_message("cannot open"));
  struct stat info;
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    throw InputError(path, 0, 0, "is a directory, not a table");
  }
  return make_reader(std::make_unique<Input>(path, fd, true), format, options);
}

std::unique_ptr<TableReader> TableReader::from_stream(std::istream& in, const std::string& name,
                                                      Format format, ReadOptions options) {
  return make_reader(std::make_unique<Input>(name, in), format, options);
}

Table read_table(const std::string& path, Format format) {
  const auto reader = TableReader::open(path, format);
  Table table;
  table.header = reader->header();
  std::vector<double> row;
  while (reader->next(row)) table.values.insert(table.values.end(), row.begin(), row.end());
  return table;
}

void append_number_text(std::string& out, std::string_view text) {
  double value;
  thread_local Decimal written, shortest;  // their digits' storage is reused
  if (detail::to_number(text, value) != detail::NumberStatus::ok || !parse_decimal(text, written)) {
    out += text;  // not a number: nothing to normalise
    return;
  }
  const size_t start = out.size();
  append_number(out, value);
  const std::string_view printed = std::string_view(out).substr(start);
  if (printed == text) return;
  if (parse_decimal(printed, shortest) && shortest == written) {
    // an integer stays one (a stamp of seconds, 1700000000, rather than 1.7e+09)
    const bool integer = text.find_first_of(".eE") == std::string_view::npos;
    if (integer && value != 0) {
      out.resize(start);
      append_decimal(out, written);
    }
    return;
  }
  // Another number than the double. A writer of doubles spells one with at most 17 significant
  // digits (4.9406564584124654e-324 is the double 5e-324), but an integer the double does not
  // equal, or more digits than that, is a number a double cannot hold (a nanosecond stamp)
  constexpr size_t kDoubleDigits = 17;
  if (written.digits.size() <= kDoubleDigits && written.exponent < 0) return;
  out.resize(start);
  append_decimal(out, written);
}

std::optional<double> parse_number(std::string_view text) {
  double value;
  if (detail::to_number(text, value) != detail::NumberStatus::ok) return std::nullopt;
  return value;
}

}  // namespace eom
