// The contact set: what holds a robot (feet on the ground, a tool on a table) and the forces
// they carry.
//
// A contact is a frame of the model held by the environment. Its force is the force the
// environment exerts ON the robot, in world axes, applied at the frame's origin; a 6d contact adds
// the moment about that origin (S. Caron, "Equations of motion", point and surface contacts; the
// ETH Zurich "Robot Dynamics" notes, section 3.7, write the force the robot exerts on the
// environment, the opposite sign). With the stacked contact Jacobian J_c, world-aligned at each
// contact point, the equations of motion read M a + h = S^T tau + J_c^T f.
#pragma once

#include <string>
#include <vector>

#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

/// What a contact holds.
enum class ContactKind {
  normal,  // "1d": only the motion of the frame origin along the normal (one force component)
  point,   // "3d": the motion of the frame origin (a point contact: force, no moment)
  frame,   // "6d": the motion of the whole frame (a flat foot, a weld: force and moment)
};

/// 1, 3 or 6: the constraints (and force components) of a contact.
int constraint_count(ContactKind kind);

/// One contact: a frame, what it holds, the unit normal of a 1d contact (world axes) and its
/// weight in the least-norm force distribution (a heavier weight takes a larger share).
struct Contact {
  int frame = 0;
  ContactKind kind = ContactKind::point;
  Vec3 normal = Vec3::UnitZ();
  double weight = 1;
};

/// The contacts of a run, in the order they were given: contact k owns the rows
/// [offset(k), offset(k) + constraint_count(kind)) of J_c and of the stacked force f.
struct ContactSet {
  std::vector<Contact> contacts;
  /// Total number of constraints (rows of J_c).
  int size() const;
  int offset(int contact) const;
  /// The contact on that frame, -1 if none.
  int find(int frame) const;
};

/// Appends a contact on `frame` of `model` to the set. Throws InputError when no joint moves the
/// frame (the world, or a link welded to a fixed base: a contact there constrains nothing), when
/// the frame holds a contact of the set already, and for a 1d contact whose normal is not a unit
/// vector (unit_contact_normal; the normal of a 3d or 6d contact is not read).
void add_contact(const Model& model, int frame, ContactKind kind, const Vec3& normal,
                 ContactSet& set);
/// Point contacts on the named frames, in their order (Model::require_frame's message for an
/// unknown name; add_contact's for the others).
ContactSet point_contacts(const Model& model, const std::vector<std::string>& frame_names);

/// The normal renormalised; throws InputError when its norm is not 1 within 1e-6 (zero included:
/// a normal is a direction, and a mistyped one is refused rather than silently rescaled).
Vec3 unit_contact_normal(const Vec3& normal);

/// The force component names of a contact: fn (1d), fx fy fz (3d), fx fy fz mx my mz (6d).
std::vector<std::string> contact_force_components(ContactKind kind);

}  // namespace eom
