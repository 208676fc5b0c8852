// Fuzz target: JSON robot models (product of exponentials, DH) through the model builder, fixed
// and floating base. Bad input must end in InputError (with a message); anything else (a crash,
// another exception, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <eom/core/errors.hpp>
#include <eom/parsers/json_model.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const bool floating : {false, true}) {
    try {
      eom::LoadOptions options;
      options.floating_base = floating;
      eom::build_json_model(text, "<fuzz>", options);
    } catch (const eom::InputError&) {
    }
  }
  return 0;
}
