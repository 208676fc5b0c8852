// The robot file loader that tells the model formats apart by content: a JSON model, MJCF or URDF.
#pragma once

#include <string>
#include <vector>

#include "eom/multibody/model.hpp"
#include "eom/parsers/urdf.hpp"

namespace eom {

/// Read a robot file ("-" reads stdin) and build its Model, whatever its format: a JSON model
/// (is_json_model), MJCF (is_mjcf) or URDF.
Model load_model(const std::string& path, const LoadOptions& options = {},
                 std::vector<Diagnostic>* warnings = nullptr);

}  // namespace eom
