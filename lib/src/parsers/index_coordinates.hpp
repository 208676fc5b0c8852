// The per-coordinate views of a Model, derived from its joints, and the one way a loader appends a
// joint: shared by the model builders (urdf.cpp, json_model.cpp, mjcf.cpp) and the locked-joint
// reduction (reduced_model.cpp). Private to libeom.
#pragma once

#include <string>

#include "eom/multibody/model.hpp"

namespace eom::detail {

/// Fills nv_subtree, the per-coordinate limits, damping and friction (from info) and the
/// coordinate names of a model whose joints, parents and idx_q / idx_v are set.
void index_coordinates(Model& model);

/// Appends a joint with its body's inertia (in the joint's frame) to the model, its q and v blocks
/// counted; returns its index.
int append_joint(Model& model, const std::string& name, const Joint& joint, int parent,
                 const SE3& placement, const Inertia& inertia, JointInfo info);

}  // namespace eom::detail
