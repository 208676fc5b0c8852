// A loaded model written back as URDF (`eom export`): whatever it was loaded from, with its locked
// joints fixed, readable by eom and by urdfdom's check_urdf, and giving the same dynamics.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "eom/multibody/model.hpp"

namespace eom {

/// Writes `model` as a URDF <robot>: one link per rigid body (the child link of each moving joint,
/// carrying the body's merged inertia: fixed links are folded into the body that carries them, as
/// eom loads them), the moving joints with their placements, axes, limits, damping, friction and
/// mimic tags, and every other frame as a massless link on a fixed joint at its placement. Links
/// welded to the world keep their places but not their masses (they do not enter the dynamics).
/// Numbers are written in shortest round-trip form; placements' rotations as roll, pitch, yaw.
/// Returns what the URDF cannot hold, for the caller to say: the free-flyer `root` of a floating
/// base (reload with a floating base). Throws InputError for a joint that moves more or less than
/// one unit per unit of q (a scaled screw axis of a product-of-exponentials model).
std::vector<std::string> write_urdf(const Model& model, std::ostream& out);

}  // namespace eom
