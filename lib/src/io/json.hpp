// JSON and NDJSON tables, private to libeom: the reader of both (an array of row objects, an
// object of columns, or one row object per line), and the strings of the writer.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "eom/io/table.hpp"
#include "io/input.hpp"

namespace eom::detail {

/// A reader of the JSON table in `in`, or of the NDJSON one if `ndjson` (header read here).
std::unique_ptr<TableReader> make_json_reader(std::unique_ptr<Input> in, bool ndjson);

/// `text` as a JSON string, quoted and escaped.
void append_json_string(std::string& out, std::string_view text);

}  // namespace eom::detail
