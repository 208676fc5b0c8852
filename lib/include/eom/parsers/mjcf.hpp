// MJCF (MuJoCo's XML): the kinematic and inertial subset, loaded into the same Model as a URDF.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "eom/multibody/model.hpp"
#include "eom/parsers/urdf.hpp"

namespace eom {

/// Whether a robot file's text is MJCF: its root element, after any XML declaration, comments and
/// a byte-order mark, is <mujoco>.
bool is_mjcf(std::string_view text);

/// Build the Model of an MJCF document: bodies nested in <worldbody> (a frame each, and one per
/// <site>), hinge, slide, ball and free joints with their limits, damping, friction loss and
/// armature, inertias from <inertial> or from the geoms (mesh files included) as MuJoCo's compiler
/// infers them. `file` names the document in messages and is the directory <include> and mesh
/// files are read from. Throws ModelError naming the file (the included file, for an element of
/// one) and line of anything that changes the dynamics and is not supported (a ball joint's limit,
/// armature on a free joint, equality constraints, gravcomp, composites), of a mesh file that is
/// missing or malformed, and of malformed input. What is ignored (actuators, tendons, sensors,
/// springs, collision properties) is said once in `warnings` when given.
Model build_mjcf_model(const std::string& text, const std::string& file,
                       const LoadOptions& options = {},
                       std::vector<Diagnostic>* warnings = nullptr);

}  // namespace eom
