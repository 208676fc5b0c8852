// Centroidal quantities of a whole robot: its centre of mass, its momentum about it, and the zero
// moment point on a horizontal ground (M. Vukobratovic and B. Borovac, "Zero-moment point: thirty
// five years of its life", 2004; P. Sardain and G. Bessonnet, "Forces acting on a biped robot.
// Center of pressure - zero moment point", 2004: the ZMP of the motion is the centre of pressure
// of the ground reaction that produces it).
#pragma once

#include <optional>

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The centroidal momentum at (q, v): linear l = m c_dot (lin) and angular about the centre of
/// mass (ang), world axes, summed over the moving bodies (each body's momentum I_i v_i carried
/// to the world). Fills data.oMi, data.v (body twists), data.com and data.mass (as
/// center_of_mass).
Force centroidal_momentum(const Model& model, Data& data, ConstVec q, ConstVec v);

/// The wrench the environment must exert on the robot for the motion (q, v, a) under gravity:
/// the rate of change of its momentum minus the weight's wrench, dh/dt - (m g, c x m g), about the
/// world origin, world axes (force lin, moment ang). One rnea pass: the joint forces where the tree
/// meets the world (the free-flyer's, or a fixed base's) are exactly that wrench. Fills what rnea
/// fills.
Force environment_wrench(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a);

/// The point of the horizontal plane z = height about which `wrench` (about the world origin,
/// world axes) has no horizontal moment: x = (height f_x - n_y) / f_z, y = (height f_y + n_x) /
/// f_z. Of environment_wrench it is the zero moment point of the motion; of the contact forces,
/// their centre of pressure on that plane. Nullopt when f_z is not positive (nothing presses on
/// the ground: a robot in flight, or pulled up).
std::optional<Eigen::Vector2d> zero_moment_point(const Force& wrench, double height);

}  // namespace eom
