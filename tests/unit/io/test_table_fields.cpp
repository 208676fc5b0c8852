// Tables as logs write them: every field as the input wrote it (TableReader::field), text and JSON
// values copied between formats (TableWriter::write_row with fields), nested JSON objects
// flattened, and CSV separators other than the comma.

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/io/table.hpp>

using eom::Field;
using eom::FieldKind;
using eom::Format;

namespace {

// Every field of every row, as "kind:text", row by row; the header in `names`.
struct Fields {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;
  char separator = 0;
};

const char* kind_name(FieldKind kind) {
  switch (kind) {
    case FieldKind::none:
      return "none";
    case FieldKind::number:
      return "number";
    case FieldKind::text:
      return "text";
    case FieldKind::empty:
      return "empty";
    case FieldKind::literal:
      return "literal";
    case FieldKind::json:
      return "json";
  }
  return "?";
}

Fields read_fields(const std::string& text, Format format, eom::ReadOptions options = {}) {
  std::istringstream in(text);
  const auto reader = eom::TableReader::from_stream(in, "in", format, options);
  reader->read_columns(std::vector<bool>(reader->header().names.size(), false));
  Fields fields{reader->header().names, {}, reader->separator()};
  std::vector<double> row;
  while (reader->next(row)) {
    auto& out = fields.rows.emplace_back();
    for (int c = 0; c < reader->header().size(); ++c) {
      const Field f = reader->field(c);
      out.push_back(std::string(kind_name(f.kind)) + ":" + std::string(f.text));
    }
  }
  return fields;
}

// `text` read and written again in `to`, field by field (what eom convert does)
std::string convert(const std::string& text, Format from, Format to) {
  std::istringstream in(text);
  const auto reader = eom::TableReader::from_stream(in, "in", from);
  const int n = reader->header().size();
  reader->read_columns(std::vector<bool>(n, false));
  std::ostringstream out;
  const auto writer = eom::TableWriter::to_stream(out, to, reader->header());
  std::vector<double> row;
  std::vector<Field> fields(n);
  while (reader->next(row)) {
    for (int c = 0; c < n; ++c) fields[c] = reader->field(c);
    writer->write_row(row.data(), fields.data());
  }
  writer->commit();
  return out.str();
}

using TextRow = std::vector<std::string>;

}  // namespace

TEST_CASE("CSV fields as written: numbers, text, quotes, empty fields", "[table][csv][fields]") {
  const Fields f = read_fields(
      "stamp,frame,note,x,y\n"
      "1700000000123456789,base_link,\"a, \"\"b\"\"\",+1.50,\n"
      " 2 ,\"\",\"two\nlines\",\"0.25\",nan\n",
      Format::csv);
  REQUIRE(f.rows.size() == 2);
  CHECK(f.rows[0] == TextRow{"number:1700000000123456789", "text:base_link", "text:a, \"b\"",
                             "number:+1.50", "empty:"});
  CHECK(f.rows[1] == TextRow{"number:2", "text:", "text:two\nlines", "number:0.25", "text:nan"});
}

TEST_CASE("JSON fields as written: strings, literals, null, arrays", "[table][json][fields]") {
  const std::string text =
      "{\"t\":1700000000123456789,\"s\":\"a \\\"q\\\"\",\"b\":true,\"n\":null,"
      "\"arr\":[1, \"x]\", {\"k\": 2}],\"e\":{}}\n";
  const Fields f = read_fields(text, Format::ndjson);
  CHECK(f.names == TextRow{"t", "s", "b", "n", "arr", "e"});
  REQUIRE(f.rows.size() == 1);
  CHECK(f.rows[0] == TextRow{"number:1700000000123456789", "text:a \"q\"", "literal:true",
                             "empty:", "json:[1,\"x]\",{\"k\":2}]", "json:{}"});
  // the columns form too
  const Fields columns = read_fields("{\"t\": [1, 2.50], \"s\": [\"a\", null]}", Format::json);
  CHECK(columns.rows == std::vector<TextRow>{{"number:1", "text:a"}, {"number:2.50", "empty:"}});
}

TEST_CASE("nested JSON objects are columns named with dots", "[table][json][fields]") {
  const std::string rows =
      "{\"header\":{\"stamp\":{\"sec\":1700000000,\"nanosec\":5},\"frame_id\":\"base\"},"
      "\"q\":{\"a\":0.5}}\n"
      "{\"q\":{\"a\":0.25},\"header\":{\"frame_id\":\"base\",\"stamp\":{\"nanosec\":6,\"sec\":"
      "1700000000}}}\n";
  const Fields f = read_fields(rows, Format::ndjson);
  CHECK(f.names == TextRow{"header.stamp.sec", "header.stamp.nanosec", "header.frame_id", "q.a"});
  REQUIRE(f.rows.size() == 2);
  CHECK(f.rows[1] == TextRow{"number:1700000000", "number:6", "text:base", "number:0.25"});
  // written flat, read back as the same columns
  const std::string flat = convert(rows, Format::ndjson, Format::ndjson);
  CHECK(flat.substr(0, flat.find('\n')) ==
        "{\"header.stamp.sec\":1700000000,\"header.stamp.nanosec\":5,\"header.frame_id\":\"base\","
        "\"q.a\":0.5}");
  CHECK(read_fields(flat, Format::ndjson).rows == f.rows);
}

TEST_CASE("nested JSON objects in the columns form are columns named with dots",
          "[table][json][fields]") {
  const Fields f = read_fields(
      "{\"t\": [0, 0.5], \"header\": {\"stamp\": {\"sec\": [1, 2], \"nanosec\": [5, 6]}},"
      " \"q\": {\"a\": [0.1, 0.2]}, \"note\": [\"x\", {}]}",
      Format::json);
  CHECK(f.names == TextRow{"t", "header.stamp.sec", "header.stamp.nanosec", "q.a", "note"});
  CHECK(f.rows ==
        std::vector<TextRow>{{"number:0", "number:1", "number:5", "number:0.1", "text:x"},
                             {"number:0.5", "number:2", "number:6", "number:0.2", "json:{}"}});
}

TEST_CASE("objects nested deeper than any stack: one long column name, no recursion",
          "[table][json][fields]") {
  // 100,000 levels: a recursive descent would overflow the call stack here
  const int depth = 100000;
  std::string text = "{\"t\":0,";
  for (int i = 0; i < depth; ++i) text += "\"a\":{";
  text += "\"b\":1";
  text += std::string(depth, '}');
  text += "}\n";
  const Fields f = read_fields(text, Format::ndjson);
  REQUIRE(f.names.size() == 2);
  CHECK(f.names[1].size() == 2 * depth + 1);
  CHECK(f.names[1].substr(f.names[1].size() - 5) == "a.a.b");
  CHECK(f.rows == std::vector<TextRow>{{"number:0", "number:1"}});
}

TEST_CASE("nested keys: the errors name the flattened column", "[table][json][errors]") {
  auto message = [](const std::string& text) {
    try {
      read_fields(text, Format::ndjson);
    } catch (const eom::InputError& e) {
      return e.message();
    }
    return std::string("no error");
  };
  CHECK(message("{\"a\":{\"b\":1}}\n{\"a\":{\"c\":1}}\n") ==
        "row 2: unknown key 'a.c' (not in row 1)");
  CHECK(message("{\"a\":{\"b\":1}}\n{\"a\":{}}\n") == "row 2: unknown key 'a' (not in row 1)");
  CHECK(message("{\"a.b\":1,\"a\":{\"b\":2}}\n") ==
        "row 1: duplicate column 'a.b' (columns 1 and 2)");
  CHECK(message("{\"a\":{\"b\":1,\"b\":2}}\n{\"a\":{\"b\":1}}\n") ==
        "row 1: duplicate column 'a.b' (columns 1 and 2)");
}

TEST_CASE("convert keeps text as text and numbers digit for digit", "[table][fields]") {
  const std::string csv =
      "stamp,frame,note,x,empty\n"
      "1700000000123456789,base_link,\"a, \"\"b\"\"\",+1.50,\n";
  const std::string json = convert(csv, Format::csv, Format::ndjson);
  CHECK(json ==
        "{\"stamp\":1700000000123456789,\"frame\":\"base_link\",\"note\":\"a, \\\"b\\\"\","
        "\"x\":1.5,\"empty\":null}\n");
  CHECK(convert(json, Format::ndjson, Format::csv) ==
        "stamp,frame,note,x,empty\n1700000000123456789,base_link,\"a, \"\"b\"\"\",1.5,\n");
  // JSON literals and arrays in CSV: their JSON text, quoted where it holds a comma
  CHECK(convert("{\"b\":false,\"a\":[1,2],\"s\":\" pad \"}\n", Format::ndjson, Format::csv) ==
        "b,a,s\nfalse,\"[1,2]\",\" pad \"\n");
  // a text column survives CSV -> JSON -> CSV exactly
  const std::string labels = "t,label\n0,\"walk, phase 0\"\n0.5,\"\"\n1,\"say \"\"hi\"\"\"\n";
  CHECK(convert(convert(labels, Format::csv, Format::json), Format::json, Format::csv) == labels);
}

TEST_CASE("CSV separators: detected from the header, or given", "[table][csv][separator]") {
  const Fields semicolons =
      read_fields("\xEF\xBB\xBFt;q.a;label\r\n0;1.5;\"a;b\"\r\n", Format::csv);
  CHECK(semicolons.separator == ';');
  CHECK(semicolons.names == TextRow{"t", "q.a", "label"});
  CHECK(semicolons.rows == std::vector<TextRow>{{"number:0", "number:1.5", "text:a;b"}});
  const Fields tabs = read_fields("t\tq.a\tlabel\n0\t 1.5 \tx y\n", Format::csv);
  CHECK(tabs.separator == '\t');
  CHECK(tabs.rows == std::vector<TextRow>{{"number:0", "number:1.5", "text:x y"}});
  // commas win ties and headers of one column; separators inside quotes do not count
  CHECK(read_fields("a;b,c\n1;2,3\n", Format::csv).separator == ',');
  CHECK(read_fields("t\n1\n", Format::csv).separator == ',');
  CHECK(read_fields("\"a;b;c\",d\n1,2\n", Format::csv).separator == ',');
  // given: a semicolon header read with commas is one column
  const Fields forced = read_fields("t;x\n1;2\n", Format::csv, eom::ReadOptions{','});
  CHECK(forced.names == TextRow{"t;x"});
  CHECK(read_fields("{\"t;x\":1}\n", Format::ndjson).separator == ',');  // JSON has none
}

TEST_CASE("a decimal comma in a table separated by semicolons is named", "[table][csv][errors]") {
  std::istringstream in("t;x\n0;0,25\n");
  const auto reader = eom::TableReader::from_stream(in, "in", Format::csv);
  std::vector<double> row;
  try {
    reader->next(row);
    FAIL("no error");
  } catch (const eom::InputError& e) {
    CHECK(e.message() ==
          "column x: '0,25' is not a number (a decimal comma? eom reads numbers with a decimal "
          "point)");
    CHECK(e.line() == 2);
    CHECK(e.column() == 3);
  }
}
