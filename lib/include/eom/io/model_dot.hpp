// A model's kinematic tree as a Graphviz digraph (`eom info --format dot`), as urdfdom's
// urdf_to_graphiz draws a URDF: links as boxes, joints as edges.
#pragma once

#include <ostream>

#include "eom/multibody/model.hpp"

namespace eom {

/// Writes `model` as a DOT digraph: every link (frame) a box, the child link of a moving joint
/// labelled with the mass of the rigid body the joint moves (fixed links merged into it); every
/// moving joint an edge from its parent link to its child link labelled with its name, type and
/// axis (in the child frame); every other link an edge labelled "fixed" from the link it is
/// welded to in the file (Frame::attached_to: a fixed joint's parent link, a site's body), else
/// from the link of the body that carries it. Deterministic: model order.
void write_dot(const Model& model, std::ostream& out);

}  // namespace eom
