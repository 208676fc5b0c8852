// Fuzz target: a --friction-file (JSON) read over the model's URDF friction. Bad input must end in
// InputError; anything else (a crash, another exception, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <eom/core/errors.hpp>

#include <eom/rows/forces.hpp>
#include "fuzz_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const eom::Model& model = fuzz_model();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    eom::rows::read_friction(model, text, "<fuzz>", eom::Friction::from_model(model));
  } catch (const eom::InputError&) {
  }
  return 0;
}
