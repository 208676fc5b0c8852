// Shared body of the table fuzz targets: read a whole table of one format from the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <eom/core/errors.hpp>
#include <eom/io/table.hpp>

inline int fuzz_table(const uint8_t* data, size_t size, eom::Format format) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto reader = eom::TableReader::from_stream(in, "<fuzz>", format);
    std::vector<double> row;
    while (reader->next(row)) {
    }
  } catch (const eom::InputError&) {
  }
  return 0;
}
