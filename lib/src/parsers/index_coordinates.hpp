// The per-coordinate views of a Model, derived from its joints: shared by the model builder
// (urdf.cpp) and the locked-joint reduction (reduced_model.cpp). Private to libeom.
#pragma once

#include "eom/multibody/model.hpp"

namespace eom::detail {

/// Fills nv_subtree, the per-coordinate limits, damping and friction (from info) and the
/// coordinate names of a model whose joints, parents and idx_q / idx_v are set.
void index_coordinates(Model& model);

}  // namespace eom::detail
