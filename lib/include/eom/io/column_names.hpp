// The column naming contract (DESIGN.md, Conventions; doc/tables.md): every column name that
// subcommands, their inputs and their tests must agree on is built here, from the component
// names of eom/multibody/component_names.hpp.
//
//   q.<joint> v.<joint> a.<joint> tau.<joint>   per coordinate; a floating base's free-flyer is
//                                               the joint root: q.root.x ... q.root.qw,
//                                               v.root.vx ... v.root.wz, tau.root.fx ... .mz
//   d3q.<joint> d4q.<joint> ...                 higher derivatives of q (jerk., snap. accepted)
//   d1tau.<joint> d1M.<row>.<col> ...           time derivatives of other quantities
//   <matrix>.<row>.<col>                        nv x nv matrices, by velocity coordinates
//   <frame>.x .y .z .qx .qy .qz .qw             a frame's pose
//   wrench.<frame>.fx .fy .fz .mx .my .mz       a wrench on a frame
//   J.vx.<coordinate> ... J.wz.<coordinate>     Jacobian rows are twist components
//   f.<frame>.<component> p.<frame>.<component> a contact's force and impulse (fn; fx fy fz; mx ..)
//   contact.<frame>                             whether a contact holds on a row: 1 or 0
//   contact.rank .base_rank .internal .full     the rank of the active contacts
//   friction.<frame>                            |f_t| / f_n, the friction coefficient it needs
//   cop.<frame>.x .y                            a 6d contact's centre of pressure
//   residual.fx ... .mz, residual.norm          the base wrench the contacts cannot supply
//   impact.energy_loss                          the kinetic energy an impact dissipates (J)
//   energy.kinetic .potential .total            the robot's energy (J)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "eom/multibody/component_names.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// "<prefix>.<name>": how every column name is composed.
std::string column_name(std::string_view prefix, std::string_view name);

/// Column names "<prefix>.<coordinate>" for a space: e.g. ("q", Space::q) gives q.<joint>... (nq).
std::vector<std::string> coordinate_columns(const Model& model, std::string_view prefix,
                                            Space space);

/// "<prefix>.<row>.<col>": the column of a matrix entry.
std::string matrix_column(std::string_view prefix, std::string_view row, std::string_view col);

/// Column names "<prefix>.<row>.<col>" of an nv x nv matrix, row-major, rows and columns named by
/// velocity coordinates: "M.root.vx.shoulder_joint" (nv^2).
std::vector<std::string> matrix_columns(const Model& model, std::string_view prefix);

/// The column prefix of the k-th time derivative of q: q, v, a, d3q, d4q, ...
std::string derivative_prefix(int k);

/// The other prefix read as the k-th time derivative of q: jerk (k = 3), snap (k = 4); nullptr
/// for the other orders.
const char* derivative_alias(int k);

/// The column prefix of the k-th time derivative of another quantity: the quantity itself for
/// k = 0, then d<k><quantity>: tau, d1tau, d2tau; d1M; d1wrench.
std::string time_derivative_prefix(std::string_view quantity, int k);

/// Whether "<prefix>.<name>" names a model coordinate: q, v, a, tau, jerk, snap, d<N>q, d<N>tau.
bool is_coordinate_prefix(std::string_view prefix);

/// The pose columns of a frame: <frame>.x .y .z .qx .qy .qz .qw.
std::vector<std::string> pose_columns(std::string_view frame);

/// The wrench columns of a frame: <prefix>.<frame>.fx .fy .fz .mx .my .mz.
std::vector<std::string> wrench_columns(std::string_view prefix, std::string_view frame);

/// "<prefix>.<frame>.<component>": a component of a quantity of a frame (a wrench, a contact
/// force or impulse, a centre of pressure).
std::string frame_column(std::string_view prefix, std::string_view frame,
                         std::string_view component);

/// The prefixes of a contact's columns.
inline constexpr char kContactForcePrefix[] = "f";           // f.<frame>.<component> (N, N m)
inline constexpr char kContactImpulsePrefix[] = "p";         // p.<frame>.<component> (N s, N m s)
inline constexpr char kContactActivityPrefix[] = "contact";  // contact.<frame>: 1 holds, 0 not

/// "contact.<frame>": whether the contact at the frame holds on a row (1) or not (0).
std::string contact_activity_column(std::string_view frame);
/// What the values of a contact.<frame> column mean, for the message of another value.
inline constexpr char kContactActivityMeaning[] = "1: the contact holds, 0: it does not";

/// The frame of a "contact.<frame>" column, empty for another column.
std::string_view contact_activity_frame(std::string_view column);

/// contact.rank, contact.base_rank, contact.internal and contact.full: the rank analysis of the
/// active contacts (eom jac --contacts), which readers of contact.<frame> let pass.
const std::vector<std::string>& contact_rank_columns();

/// "friction.<frame>": |f_t| / f_n, the friction coefficient a contact needs (doc/id.md).
std::string friction_ratio_column(std::string_view frame);

/// cop.<frame>.x and .y: a 6d contact's centre of pressure in its frame.
std::vector<std::string> center_of_pressure_columns(std::string_view frame);

/// residual.fx ... residual.mz and residual.norm: the base wrench the contacts cannot supply.
std::vector<std::string> residual_columns();

/// The kinetic energy an impact dissipates (J): eom impact's and eom sim's column; the summaries
/// spell it impact_energy_loss.
inline constexpr char kImpactEnergyLossColumn[] = "impact.energy_loss";

/// energy.kinetic, energy.potential and energy.total (J).
std::vector<std::string> energy_columns();

}  // namespace eom
