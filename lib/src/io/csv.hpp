// CSV tables, private to libeom: the reader, and the quoting of column names for the writer.
#pragma once

#include <memory>
#include <string>

#include "eom/io/table.hpp"
#include "io/input.hpp"

namespace eom::detail {

/// A reader of the CSV table in `in` (header read here).
std::unique_ptr<TableReader> make_csv_reader(std::unique_ptr<Input> in);

/// A column name as a CSV header field, quoted when a reader would not read it back as is.
void append_csv_name(std::string& out, const std::string& name);

}  // namespace eom::detail
