// The physical bounds every model format is held to (core/tolerances.hpp: kLargestLength,
// kLargestMass, kLargestInertia, kLargestJointScale), checked once on the built Model so that a
// URDF, an MJCF file and a JSON model get the same checks and the same messages. Private to
// libeom.
#pragma once

#include <string>

#include "eom/multibody/model.hpp"

namespace eom::detail {

/// Throws ModelError (file, the joint's line where the format has one) at the first length, mass,
/// inertia or joint scale of `model` beyond its bound: a model that states one would overflow (or
/// lose its other links to round-off) in every row.
void require_physical_bounds(const Model& model, const std::string& file);

}  // namespace eom::detail
