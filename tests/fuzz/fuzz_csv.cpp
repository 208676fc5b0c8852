// Fuzz target: csv tables through the streaming reader (see fuzz_table.hpp).
#include "fuzz_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz_table(data, size, eom::Format::csv);
}
