// CSV tables, private to libeom: the reader, and the quoting of column names for the writer.
#pragma once

#include <memory>
#include <string>

#include "eom/io/table.hpp"
#include "io/input.hpp"

namespace eom::detail {

/// A reader of the CSV table in `in` (header read here), its fields separated by `separator`
/// (0: detected from the header row).
std::unique_ptr<TableReader> make_csv_reader(std::unique_ptr<Input> in, char separator);

/// A column name or a text field as a CSV field, quoted when a reader would not read it back as
/// is (RFC 4180: a comma, a quote or a line end in it; also blanks around it, which readers trim,
/// and the empty text, which unquoted is an empty field).
void append_csv_text(std::string& out, std::string_view text);

}  // namespace eom::detail
