// Fuzz target: URDF text through the parser, the checker and the model builder. Bad input must
// end in InputError (with a message); anything else (a crash, another exception, a sanitizer
// report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const eom::UrdfDescription urdf = eom::parse_urdf(text, "<fuzz>");
    for (const bool floating : {false, true}) {
      eom::LoadOptions options;
      options.floating_base = floating;
      eom::check_urdf(urdf, options);
      eom::build_model(urdf, options);
    }
  } catch (const eom::InputError&) {
  }
  return 0;
}
