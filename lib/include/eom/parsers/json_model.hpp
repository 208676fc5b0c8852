// JSON robot models: product of exponentials ("format": "poe", Lynch & Park, Modern Robotics,
// section 9.3) and Denavit-Hartenberg tables ("dh" standard, "mdh" modified as in Craig), loaded
// into the same Model as a URDF. load_model (parsers/load_model.hpp), included here, reads any
// robot file whatever its format.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "eom/multibody/model.hpp"
#include "eom/parsers/load_model.hpp"
#include "eom/parsers/urdf.hpp"

namespace eom {

/// Whether a robot file's text is a JSON model rather than XML: its first character other than
/// white space (and a UTF-8 byte-order mark) is '{'. build_json_model then says what is wrong
/// with it, a missing "format" included.
bool is_json_model(std::string_view text);

/// Build the Model of a JSON model. Throws ModelError naming the file and the JSON path of the
/// field ("model.json: joints[2].type: 'spherical' is not revolute or prismatic") for malformed
/// JSON, an unknown format or field, lists of inconsistent lengths, a placement that is not rigid,
/// a spatial inertia that is not a rigid body's (symmetric positive definite, m 1 in the linear
/// block), a screw axis with a pitch, a DH joint with a field missing. What it takes as given but
/// is unusual (a scaled screw axis) is appended to `warnings` when given.
Model build_json_model(const std::string& text, const std::string& file,
                       const LoadOptions& options = {},
                       std::vector<Diagnostic>* warnings = nullptr);

}  // namespace eom
