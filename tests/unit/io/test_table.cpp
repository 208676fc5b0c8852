// Tables: CSV / JSON / NDJSON readers and writers, round trips, and the errors bad input gets.

#include <unistd.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/table.hpp>

namespace fs = std::filesystem;
using eom::Format;
using eom::InputError;
using eom::Table;

namespace {

Table read_text(const std::string& text, Format format) {
  std::istringstream in(text);
  const auto reader = eom::TableReader::from_stream(in, "in", format);
  Table table;
  table.header = reader->header();
  std::vector<double> row;
  while (reader->next(row)) table.values.insert(table.values.end(), row.begin(), row.end());
  return table;
}

std::string write_text(const Table& table, Format format) {
  std::ostringstream out;
  const auto writer = eom::TableWriter::to_stream(out, format, table.header);
  for (int r = 0; r < table.rows(); ++r) writer->write_row(&table.values[r * table.header.size()]);
  writer->commit();
  return out.str();
}

// The error reading `text` throws, at open or at any row.
std::optional<InputError> error_of(const std::string& text, Format format) {
  try {
    read_text(text, format);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

void check_error(const std::string& text, Format format, int line, int column,
                 const std::string& message) {
  INFO(text);
  const auto error = error_of(text, format);
  REQUIRE(error);
  CHECK(error->message() == message);
  CHECK(error->line() == line);
  CHECK(error->column() == column);
  CHECK(error->file() == "in");
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_identical(const Table& expected, const Table& actual) {
  REQUIRE(actual.header.names == expected.header.names);
  REQUIRE(actual.values.size() == expected.values.size());
  size_t k = 0;
  while (k < expected.values.size() && same_bits(expected.values[k], actual.values[k])) ++k;
  if (k < expected.values.size()) {
    FAIL("value " << k << " differs: " << expected.values[k] << " became " << actual.values[k]);
  }
}

// A fresh directory under the system's temporary directory, removed with its contents.
struct TempDir {
  fs::path path;
  TempDir() {
    static int count = 0;
    path = fs::temp_directory_path() /
           ("eom_test_table_" + std::to_string(::getpid()) + "_" + std::to_string(++count));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(path), {}));
  }
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const Format kFormats[] = {Format::csv, Format::json, Format::ndjson};

}  // namespace

TEST_CASE("awkward doubles survive every format bit for bit", "[table]") {
  Table table;
  table.header.names = {"t", "q.a"};
  table.values = {
      0.1,  1e-300,        -0.0, 5e-324, 1.7976931348623157e308, 1.0 / 3, -2.2250738585072014e-308,
      1e21, 123456789.125, -1.5};
  for (const Format format : kFormats) {
    INFO(eom::format_name(format));
    check_identical(table, read_text(write_text(table, format), format));
  }
}

TEST_CASE("random doubles survive every format bit for bit", "[table]") {
  std::mt19937_64 random(42);
  Table table;
  for (int c = 0; c < 8; ++c) table.header.names.push_back("c" + std::to_string(c));
  while (table.values.size() < 8 * 500) {
    const std::uint64_t bits = random();
    double value;
    std::memcpy(&value, &bits, sizeof value);
    if (std::isfinite(value)) table.values.push_back(value);
  }
  for (const Format format : kFormats) {
    INFO(eom::format_name(format));
    check_identical(table, read_text(write_text(table, format), format));
  }
}

TEST_CASE("writers produce the documented layouts", "[table]") {
  Table table;
  table.header.names = {"t", "q.a"};
  table.values = {0, 0.1, 0.5, -0.0};
  CHECK(write_text(table, Format::csv) == "t,q.a\n0,0.1\n0.5,-0\n");
  CHECK(write_text(table, Format::ndjson) == "{\"t\":0,\"q.a\":0.1}\n{\"t\":0.5,\"q.a\":-0}\n");
  CHECK(write_text(table, Format::json) ==
        "[\n{\"t\":0,\"q.a\":0.1},\n{\"t\":0.5,\"q.a\":-0}\n]\n");
  table.values.clear();
  // an empty table keeps its columns in JSON: the columns form, which reads back
  CHECK(write_text(table, Format::json) == "{\"t\":[],\"q.a\":[]}\n");
  CHECK(read_text(write_text(table, Format::json), Format::json).header.names ==
        table.header.names);
  CHECK(write_text(table, Format::csv) == "t,q.a\n");
  CHECK(write_text(table, Format::ndjson).empty());
}

TEST_CASE("awkward column names are escaped and read back", "[table]") {
  Table table;
  table.header.names = {"a,b", "say \"hi\"", "back\\slash", " padded ", "caf\xC3\xA9"};
  table.values = {1, 2, 3, 4, 5};
  const std::string csv = write_text(table, Format::csv);
  CHECK(csv.substr(0, csv.find('\n') + 1) ==
        "\"a,b\",\"say \"\"hi\"\"\",back\\slash,\" padded \",caf\xC3\xA9\n");
  for (const Format format : kFormats) {
    INFO(eom::format_name(format));
    check_identical(table, read_text(write_text(table, format), format));
  }
}

TEST_CASE("CSV reader accepts the usual variations", "[table][csv]") {
  const Table table = read_text(
      "\xEF\xBB\xBF \"t\" ,\t\"q.a\"\r\n"
      "\r\n"
      " 0 ,\t+1.5\r\n"
      "   \n"
      "1e-3,-2",
      Format::csv);
  REQUIRE(table.header.names == std::vector<std::string>{"t", "q.a"});
  CHECK(table.values == std::vector<double>{0, 1.5, 0.001, -2});
  CHECK(table.header.index("q.a") == 1);
  CHECK(table.header.index("q.b") == -1);
}

TEST_CASE("a header without rows is an empty table", "[table]") {
  const Table table = read_text("t,q.a\n\n", Format::csv);
  CHECK(table.header.names.size() == 2);
  CHECK(table.rows() == 0);
  CHECK(read_text("[]", Format::json).rows() == 0);
  CHECK(read_text("{\"t\":[],\"q\":[]}", Format::json).header.names.size() == 2);
}

TEST_CASE("reader reports the line of each row", "[table]") {
  std::istringstream in("t\n\n1\n2\n");
  const auto reader = eom::TableReader::from_stream(in, "in", Format::csv);
  std::vector<double> row;
  REQUIRE(reader->next(row));
  CHECK(reader->line() == 3);
  REQUIRE(reader->next(row));
  CHECK(reader->line() == 4);
  CHECK_FALSE(reader->next(row));
}

TEST_CASE("lines and tokens longer than the read buffer", "[table]") {
  const std::string padding(3 << 20, ' ');
  const Table csv = read_text("t,x\n" + padding + "1.25," + padding + "2\n3,4\n", Format::csv);
  CHECK(csv.values == std::vector<double>{1.25, 2, 3, 4});
  const Table json =
      read_text("[{\"t\":" + padding + "1.25}," + padding + "{\"t\":2}]", Format::json);
  CHECK(json.values == std::vector<double>{1.25, 2});
  const std::string digits = "1." + std::string(2 << 20, '0');
  CHECK(read_text("{\"t\":" + digits + "}\n", Format::ndjson).values == std::vector<double>{1});
}

namespace {

// check_error for texts of megabytes, which are not printed when the check fails
void check_long_error(const std::string& text, Format format, int line, int column,
                      const std::string& message) {
  const auto error = error_of(text, format);
  REQUIRE(error);
  CHECK(error->message() == message);
  CHECK(error->line() == line);
  CHECK(error->column() == column);
}

}  // namespace

TEST_CASE("rows, values and strings are at most 16 MiB", "[table][errors]") {
  // 16 MiB exactly is a row; one byte more is not (the line end is not counted)
  const size_t cap = size_t{16} << 20;
  const std::string fits = "1." + std::string(cap - 2, '0');
  CHECK(read_text("t\n" + fits + "\n", Format::csv).values == std::vector<double>{1});
  const std::string message = "longer than 16 MiB, the most one row of a table may take";
  check_long_error("t\n0\n" + fits + "0\n", Format::csv, 3, 0, "the line is " + message);
  check_long_error("t\n0\n" + fits + "0", Format::csv, 3, 0,
                   "the line is " + message);  // no line end
  check_long_error("t,x\n\"a\nb\"," + fits + "\n", Format::csv, 2, 0,
                   "the record starting on this line is " + message);
  check_long_error(std::string(cap + 1, 'a') + "\n", Format::csv, 1, 0, "the line is " + message);
  // JSON: a value, a string, a row object made of many small values
  check_long_error("{\"t\":0}\n{\"t\":" + fits + "0}\n", Format::ndjson, 2, 6,
                   "a value " + message);
  check_long_error("[{\"t\":0,\"s\":\"" + std::string(cap + 1, 's') + "\"}]", Format::json, 1, 13,
                   "a string " + message);
  check_long_error("{\"t\":0,\"" + std::string(cap + 1, 'k') + "\":0}\n", Format::ndjson, 1, 8,
                   "a string " + message);
  std::string array = "[0";
  while (array.size() <= cap) array += ",0";
  check_long_error("{\"t\":0,\"a\":" + array + "]}\n", Format::ndjson, 1, 12, "a value " + message);
  check_long_error("{\"t\":0,\"a\":0}\n{\"t\":0," + std::string(cap, ' ') + "\"a\":0}\n",
                   Format::ndjson, 2, 1, "row 2: the row object is " + message);
}

TEST_CASE("messages quote at most 60 bytes of the input", "[errors]") {
  CHECK(eom::quote_input("abc") == "'abc'");
  CHECK(eom::quote_input(std::string(60, 'x')) == "'" + std::string(60, 'x') + "'");
  CHECK(eom::quote_input(std::string(61, 'x')) == "'" + std::string(60, 'x') + "...' (61 bytes)");
  CHECK(eom::shown_input(std::string(61, 'x')) == std::string(60, 'x') + "... (61 bytes)");
  // never cut inside a UTF-8 sequence: 59 bytes, then "é" (2 bytes) would be cut after 60
  const std::string accented = std::string(59, 'x') + "\xC3\xA9" + "yz";
  CHECK(eom::quote_input(accented) == "'" + std::string(59, 'x') + "...' (63 bytes)");
  CHECK(eom::out_of_range_message("-1e400") ==
        "'-1e400' is out of the range of a double (beyond 1.8e308)");
  CHECK(eom::out_of_range_message("2e-324") ==
        "'2e-324' underflows to 0 (below the smallest double, 4.9e-324)");
}

TEST_CASE("many rows across read chunks", "[table]") {
  Table table;
  table.header.names = {"t", "x", "y"};
  for (int r = 0; r < 100000; ++r) {
    table.values.insert(table.values.end(), {r * 1e-3, std::sin(r), std::cos(r) * 1e5});
  }
  for (const Format format : kFormats) {
    INFO(eom::format_name(format));
    check_identical(table, read_text(write_text(table, format), format));
  }
}

TEST_CASE("JSON reader accepts rows and columns", "[table][json]") {
  const Table rows = read_text(
      "[ {\"t\": 0, \"q.a\": 1.5},\n"
      "  {\"q.a\": 2.5, \"t\": 1e-1} ]\n",
      Format::json);
  REQUIRE(rows.header.names == std::vector<std::string>{"t", "q.a"});
  CHECK(rows.values == std::vector<double>{0, 1.5, 0.1, 2.5});
  const Table columns = read_text("{\"t\": [0, 0.1], \"q.a\": [1.5, 2.5]}", Format::json);
  check_identical(rows, columns);
}

TEST_CASE("JSON keys with escapes", "[table][json]") {
  const Table table = read_text(
      "{\"a\\\"b\": 1, \"c\\\\d\": 2, \"\\u00e9\": 3, \"\\ud83d\\ude00\": 4}\n", Format::ndjson);
  CHECK(table.header.names ==
        std::vector<std::string>{"a\"b", "c\\d", "\xC3\xA9", "\xF0\x9F\x98\x80"});
}

TEST_CASE("NDJSON reader skips blank lines and takes keys in any order", "[table][ndjson]") {
  std::istringstream in("{\"t\":0,\"q\":1}\n\n  \r\n{\"q\":3,\"t\":2}\r\n");
  const auto reader = eom::TableReader::from_stream(in, "in", Format::ndjson);
  std::vector<double> row;
  REQUIRE(reader->next(row));
  CHECK(reader->line() == 1);
  REQUIRE(reader->next(row));
  CHECK(reader->line() == 4);
  CHECK(row == std::vector<double>{2, 3});
  CHECK_FALSE(reader->next(row));
}

TEST_CASE("CSV errors name line, column and problem", "[table][csv][errors]") {
  check_error("t,q.elbow\n0,1\n0.1,abc\n", Format::csv, 3, 5,
              "column q.elbow: 'abc' is not a number");
  check_error("t,x\n0,1.5abc\n", Format::csv, 2, 3, "column x: '1.5abc' is not a number");
  check_error("t,x\n0,nan\n", Format::csv, 2, 3, "column x: 'nan' is not a finite number");
  check_error("t,x\n0, NaN\n", Format::csv, 2, 4, "column x: 'NaN' is not a finite number");
  check_error("t,x\n0,-inf\n", Format::csv, 2, 3, "column x: '-inf' is not a finite number");
  check_error("t,x\n0,Infinity\n", Format::csv, 2, 3,
              "column x: 'Infinity' is not a finite number");
  check_error("t,x\n0,1e400\n", Format::csv, 2, 3,
              "column x: '1e400' is out of the range of a double (beyond 1.8e308)");
  check_error("t,x,y\n0,,1\n", Format::csv, 2, 3, "column x: empty field, expected a number");
  check_error("t,x,y\n0,1,\n", Format::csv, 2, 5, "column y: empty field, expected a number");
  check_error("t,x\r\n\r\n0,1\r\n1,abc\r\n", Format::csv, 4, 3, "column x: 'abc' is not a number");
  check_error("t\n" + std::string(100, 'x') + "\n", Format::csv, 2, 1,
              "column t: '" + std::string(60, 'x') + "...' (100 bytes) is not a number");
  check_error("t,x\n0,1e-400\n", Format::csv, 2, 3,
              "column x: '1e-400' underflows to 0 (below the smallest double, 4.9e-324)");
}

TEST_CASE("CSV ragged rows", "[table][csv][errors]") {
  check_error("t,x,y\n0,1\n", Format::csv, 2, 4, "expected 3 fields as in the header, found 2");
  check_error("t,x\n0,1,2,3\n", Format::csv, 2, 5, "expected 2 fields as in the header, found 4");
}

TEST_CASE("CSV header errors", "[table][csv][errors]") {
  check_error("t,x, x\n", Format::csv, 1, 6, "duplicate column 'x' (columns 2 and 3)");
  check_error("t,,x\n", Format::csv, 1, 3, "column 2 has an empty name");
  check_error("t,\"x\n", Format::csv, 1, 3, "unterminated quoted column name");
  check_error("t,\"x\" y\n", Format::csv, 1, 7, "unexpected text after a quoted column name");
  check_error("", Format::csv, 0, 0, "empty input, expected a header row");
  check_error("\n  \r\n", Format::csv, 0, 0, "empty input, expected a header row");
}

TEST_CASE("malformed JSON reports line and column", "[table][json][errors]") {
  check_error("[\n{\"t\": 0, \"q\": 1},\n{\"t\": 1 \"q\": 2}\n]", Format::json, 3, 9,
              "expected ',' or '}' after a value, found '\"'");
  check_error("[{\"t\":0}", Format::json, 1, 9,
              "expected ',' or ']' after a row object, found the end of the input");
  check_error("[{\"t\":0}] x", Format::json, 1, 11,
              "unexpected text after the end of the JSON document");
  check_error("[{\"t\":0},]", Format::json, 1, 10, "expected a row object '{', found ']'");
  check_error("[1, 2]", Format::json, 1, 2, "expected a row object '{', found '1'");
  check_error("{\"t\" 0}", Format::json, 1, 6, "expected ':' after a key, found '0'");
  check_error("[{t:0}]", Format::json, 1, 3, "expected a key string, found 't'");
  check_error("[{\"t\":0, \"q\":}]", Format::json, 1, 14, "expected a number, found '}'");
  check_error("[{\"t\n\":0}]", Format::json, 1, 5,
              "control character in a string (write it as an escape)");
  check_error("[{\"t", Format::json, 1, 5, "unterminated string");
  check_error("true", Format::json, 1, 1,
              "expected '[' (an array of row objects) or '{' (an object of columns), found 't'");
  check_error("  \n ", Format::json, 0, 0,
              "empty input, expected a JSON array of row objects or an object of columns");
  check_error("", Format::ndjson, 0, 0, "empty input, expected a row object per line");
  check_error("{\"t\":0} {\"t\":1}\n", Format::ndjson, 1, 9,
              "expected the end of the line after a row object");
}

TEST_CASE("missing, unknown and duplicate keys", "[table][json][ndjson][errors]") {
  check_error("{\"t\":0,\"q\":1}\n{\"t\":1}\n", Format::ndjson, 2, 7, "row 2: missing key 'q'");
  check_error("{\"t\":0}\n{\"t\":1,\"x\":2}\n", Format::ndjson, 2, 8,
              "row 2: unknown key 'x' (not in row 1)");
  check_error("{\"t\":0}\n{\"t\":1,\"t\":2}\n", Format::ndjson, 2, 8, "row 2: duplicate key 't'");
  check_error("{\"t\":0,\"t\":1}\n", Format::ndjson, 1, 8,
              "row 1: duplicate column 't' (columns 1 and 2)");
  check_error("[{\"t\":0,\"q\":1},\n {\"q\":1}]", Format::json, 2, 8, "row 2: missing key 't'");
  check_error("[{\"t\":0},\n {\"t\":1, \"x\":2}]", Format::json, 2, 10,
              "row 2: unknown key 'x' (not in row 1)");
  check_error("[{\"\":0}]", Format::json, 1, 3, "row 1: column 1 has an empty name");
}

TEST_CASE("non-number JSON values", "[table][json][ndjson][errors]") {
  check_error("{\"t\":0,\"q\":1}\n{\"t\":1,\"q\":\"abc\"}\n", Format::ndjson, 2, 12,
              "row 2, column q: the string 'abc' is not a number (numbers are written without "
              "quotes)");
  check_error("{\"t\":null}\n", Format::ndjson, 1, 6, "row 1, column t: 'null' is not a number");
  check_error("{\"t\":true}\n", Format::ndjson, 1, 6, "row 1, column t: 'true' is not a number");
  check_error("{\"t\":NaN}\n", Format::ndjson, 1, 6,
              "row 1, column t: 'NaN' is not a finite number");
  // (a non-empty object is columns: {"t":{"x":1}} is the column t.x)
  check_error("[{\"t\":{}}]", Format::json, 1, 7,
              "row 1, column t: expected a number, found an object");
  check_error("[{\"t\":0},{\"t\":[1]}]", Format::json, 1, 15,
              "row 2, column t: expected a number, found an array");
  check_error("{\"t\":[0,1,\"2\"]}", Format::json, 1, 11,
              "row 3, column t: the string '2' is not a number (numbers are written without "
              "quotes)");
  check_error("{\"t\":5}", Format::json, 1, 6,
              "column t: expected an array of numbers, found '5' (an object of columns; one row "
              "object per line is NDJSON)");
}

TEST_CASE("JSON columns of different lengths", "[table][json][errors]") {
  check_error("{\"t\":[0,1,2],\n \"q\":[0,1]}", Format::json, 2, 2,
              "column q has 2 values, column t has 3");
}

TEST_CASE("files: read_table, write_table, missing files", "[table][files]") {
  const TempDir dir;
  Table table;
  table.header.names = {"t", "q.a"};
  table.values = {0, 1, 0.5, -1};
  for (const char* name : {"a.csv", "a.json", "a.ndjson", "a.jsonl"}) {
    const std::string path = (dir.path / name).string();
    const Format format = eom::format_for(path, std::nullopt);
    eom::write_table(table, path, format);
    check_identical(table, eom::read_table(path, format));
  }
  CHECK(dir.entries() == 4);
  const std::string missing = (dir.path / "missing.csv").string();
  try {
    eom::read_table(missing, Format::csv);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == missing);
    CHECK(e.message() == "cannot open: No such file or directory");
  }
  CHECK_THROWS_AS(eom::write_table(table, (dir.path / "no/such/dir.csv").string(), Format::csv),
                  InputError);
  CHECK(dir.entries() == 4);
}

TEST_CASE("an uncommitted writer leaves nothing behind", "[table][files]") {
  const TempDir dir;
  const fs::path target = dir.path / "out.csv";
  {
    const auto writer = eom::TableWriter::open(target.string(), Format::csv, {{"t"}});
    const double value = 1;
    writer->write_row(&value);
    writer->flush();
    CHECK_FALSE(fs::exists(target));  // rows go to a temporary until commit
  }
  CHECK(dir.entries() == 0);
}

TEST_CASE("a failed run never clobbers an existing target", "[table][files]") {
  const TempDir dir;
  const fs::path target = dir.path / "out.csv";
  std::ofstream(target) << "old\n";
  {
    const auto writer = eom::TableWriter::open(target.string(), Format::csv, {{"t"}});
    const double bad = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(writer->write_row(&bad), eom::NumericalError);
  }
  CHECK(slurp(target) == "old\n");
  CHECK(dir.entries() == 1);

  const auto writer = eom::TableWriter::open(target.string(), Format::csv, {{"t"}});
  const double value = 2;
  writer->write_row(&value);
  writer->commit();
  CHECK(slurp(target) == "t\n2\n");
  CHECK(dir.entries() == 1);
}

TEST_CASE("formats by name and extension", "[table]") {
  CHECK(eom::parse_format("ndjson") == Format::ndjson);
  CHECK_THROWS_AS(eom::parse_format("xml"), InputError);
  CHECK(eom::format_for("-", std::nullopt) == Format::csv);
  CHECK(eom::format_for("a/b.JSON", std::nullopt) == Format::json);
  CHECK(eom::format_for("b.jsonl", std::nullopt) == Format::ndjson);
  CHECK(eom::format_for("x.txt", Format::json) == Format::json);
  // as documented: CSV when neither the extension nor the user says otherwise
  CHECK(eom::format_for("x.d/txt", std::nullopt) == Format::csv);
  CHECK(eom::format_for("out.txt", std::nullopt) == Format::csv);
  CHECK(eom::format_for("/dev/null", std::nullopt) == Format::csv);
  CHECK(eom::format_for("/dev/fd/63", std::nullopt) == Format::csv);
}

TEST_CASE("numbers: shortest output, strict input", "[table]") {
  std::string text;
  eom::append_number(text, 0.1);
  text += ' ';
  eom::append_number(text, -0.0);
  text += ' ';
  eom::append_number(text, 1e-300);
  CHECK(text == "0.1 -0 1e-300");
  CHECK(eom::parse_number("+2.5") == 2.5);
  CHECK(eom::parse_number("-1e-3") == -0.001);
  CHECK_FALSE(eom::parse_number(""));
  CHECK_FALSE(eom::parse_number("+"));
  CHECK_FALSE(eom::parse_number("+-1"));
  CHECK_FALSE(eom::parse_number(" 1"));
  CHECK_FALSE(eom::parse_number("1x"));
  CHECK_FALSE(eom::parse_number("inf"));
  CHECK_FALSE(eom::parse_number("nan"));
  CHECK_FALSE(eom::parse_number("1e999"));
}

TEST_CASE("InputError says where", "[errors]") {
  CHECK(std::string(InputError("walk.csv", 17, 12, "bad").what()) == "walk.csv:17:12: bad");
  CHECK(std::string(InputError("walk.csv", 17, 0, "bad").what()) == "walk.csv:17: bad");
  CHECK(std::string(InputError("walk.csv", 0, 0, "bad").what()) == "walk.csv: bad");
  CHECK(std::string(InputError("bad").what()) == "bad");
  const InputError e("f", 1, 2, "m");
  CHECK(e.message() == "m");
  CHECK(e.file() == "f");
}

namespace {

// Reads `text` reading only the columns named in `used`; NaN where a column no one reads holds
// something that is not a number.
Table read_used(const std::string& text, Format format, const std::vector<std::string>& used,
                std::vector<std::string> why = {}) {
  std::istringstream in(text);
  const auto reader = eom::TableReader::from_stream(in, "in", format);
  std::vector<bool> reads(reader->header().size(), false);
  for (const auto& name : used) reads[reader->header().index(name)] = true;
  reader->read_columns(reads, std::move(why));
  Table table;
  table.header = reader->header();
  std::vector<double> row;
  while (reader->next(row)) table.values.insert(table.values.end(), row.begin(), row.end());
  return table;
}

std::optional<InputError> used_error_of(const std::string& text, Format format,
                                        const std::vector<std::string>& used,
                                        std::vector<std::string> why = {}) {
  try {
    read_used(text, format, used, std::move(why));
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("CSV quoted fields read as their content (RFC 4180)", "[table][csv]") {
  // Python's csv.QUOTE_ALL, with CRLF line ends
  const Table all =
      read_text("\"t\",\"q\"\r\n\"0.25\",\"-1e-3\"\r\n\" 1 \",\"+2\"\r\n", Format::csv);
  CHECK(all.header.names == std::vector<std::string>{"t", "q"});
  CHECK(all.values == std::vector<double>{0.25, -1e-3, 1, 2});
  // text with commas, escaped quotes and a line end inside quotes, in a column no one reads
  const Table text =
      read_used("t,note,q\n0,\"a, b\",1\n1,\"say \"\"hi\"\"\",2\n2,\"two\nlines\",3\n3,,4\n",
                Format::csv, {"t", "q"});
  REQUIRE(text.rows() == 4);
  for (int r = 0; r < 4; ++r) {
    CHECK(text.at(r, 0) == r);
    CHECK(std::isnan(text.at(r, 1)));
    CHECK(text.at(r, 2) == r + 1);
  }
  // the record after a line end inside quotes starts two lines later
  std::istringstream in("t,note\n0,\"x\ny\"\n1,z\n");
  const auto reader = eom::TableReader::from_stream(in, "in", Format::csv);
  reader->read_columns({true, false});
  std::vector<double> row;
  REQUIRE(reader->next(row));
  CHECK(reader->line() == 2);
  REQUIRE(reader->next(row));
  CHECK(reader->line() == 4);
}

TEST_CASE("CSV quoted field errors", "[table][csv][errors]") {
  check_error("t,x\n0,\"1\n", Format::csv, 2, 3, "unterminated quoted field");
  check_error("t,x\n0,\"1\" 2\n", Format::csv, 2, 7, "unexpected text after a quoted field");
  check_error("t,x\n0,\"a,b\"\n", Format::csv, 2, 3, "column x: 'a,b' is not a number");
}

TEST_CASE("columns no one reads may hold anything; the others must be numbers",
          "[table][json][ndjson][csv]") {
  const std::string row1 =
      "{\"t\":0,\"frame\":\"base_link\",\"h\":{\"s\":[1,\"]}\"]},\"ok\":true,\"q\":1}";
  const std::string row2 = "{\"t\":1,\"frame\":null,\"h\":{\"s\":[]},\"ok\":false,\"q\":2}";
  for (const Format format : {Format::ndjson, Format::json}) {
    const std::string text =
        format == Format::json ? "[" + row1 + ",\n" + row2 + "]" : row1 + "\n" + row2 + "\n";
    INFO(text);
    const Table table = read_used(text, format, {"t", "q"});
    REQUIRE(table.rows() == 2);
    CHECK(table.at(1, 0) == 1);
    CHECK(table.at(1, 4) == 2);
    CHECK(std::isnan(table.at(0, 1)));
    CHECK(std::isnan(table.at(0, 2)));
    CHECK(std::isnan(table.at(1, 3)));
    // reading a text column: the error of its first bad value, where it is, with the reason
    const auto error = used_error_of(text, format, {"t", "frame"}, {"", "for a test"});
    REQUIRE(error);
    CHECK(error->line() == 1);
    CHECK(error->column() == (format == Format::json ? 17 : 16));
    CHECK(error->message() ==
          "row 1, column frame: the string 'base_link' is not a number (numbers are written "
          "without quotes) (for a test)");
  }
  // the columns form is read whole at open: its bad values are judged when rows are served
  const std::string columns = "{\"t\":[0,1],\"label\":[\"a\",\"b\"],\"q\":[1,2]}";
  CHECK(read_used(columns, Format::json, {"t", "q"}).at(1, 2) == 2);
  const auto error = used_error_of(columns, Format::json, {"label"});
  REQUIRE(error);
  CHECK(error->message() ==
        "row 1, column label: the string 'a' is not a number (numbers are written without quotes)");
  // CSV: text only where no one reads
  CHECK(std::isnan(read_used("t,frame\n0,base_link\n", Format::csv, {"t"}).at(0, 1)));
  const auto csv = used_error_of("t,frame\n0,base_link\n", Format::csv, {"frame"}, {"", "kept"});
  REQUIRE(csv);
  CHECK(csv->message() == "column frame: 'base_link' is not a number (kept)");
  CHECK(csv->column() == 3);
}
