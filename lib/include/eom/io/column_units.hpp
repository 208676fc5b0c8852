// What a column's name says about how to show it (doc/plot.md "Panels and units"): the panel it
// belongs to, its name within the panel and its unit, read from the column naming contract
// (column_names.hpp) alone or, given the Model, from the kind of the joint it names.
#pragma once

#include <string>
#include <string_view>

#include "eom/multibody/model.hpp"

namespace eom {

/// The group (plot panel) of a column: the prefix of a joint coordinate (tau.elbow and
/// tau.root.fx are in tau; q, v, a, d<k>q, jerk, snap, d<k>tau, tau_<term>, power), the first two
/// parts of any other name of three parts or more (f.FL_FOOT.fx in f.FL_FOOT, J.vx.elbow in J.vx,
/// cop.foot.x in cop.foot), else the first part (sigma.1 in sigma, a pose's tool0.x in tool0, rank
/// in rank).
std::string column_group(std::string_view name);

/// The column's name within its group: what follows the group and its dot (elbow, root.fx, fx,
/// 1), or the whole name for a group of one part (rank).
std::string column_member(std::string_view name);

/// The SI unit of a column, "" for a dimensionless one (ratios, quaternion components, singular
/// values of mixed rows) and for a name the contract does not give a unit. Joint coordinates are
/// angular (rad, rad/s, rad/s², N m) unless they are linear: a free-flyer's x y z, vx vy vz, fx
/// fy fz, a planar joint's x y, vx vy, fx fy, and, given `model`, the coordinates of its prismatic
/// joints (m, m/s, N). Forces f.<frame>.fx, wrench.*, residual.*: N and N m; a pose's x y z and
/// cop.*: m; power.*: W; energy.*: J.
std::string column_unit(std::string_view name, const Model* model = nullptr);

}  // namespace eom
