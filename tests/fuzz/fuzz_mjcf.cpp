// Fuzz target: MJCF text through the reader and the model builder (its <include>s and meshes are
// files relative to the working directory, refused when absent). Bad input must end in
// InputError (with a message); anything else (a crash, another exception, a sanitizer report) is
// a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <eom/core/errors.hpp>
#include <eom/parsers/mjcf.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    eom::build_mjcf_model(text, "<fuzz>", eom::LoadOptions{});
  } catch (const eom::InputError&) {
  }
  return 0;
}
