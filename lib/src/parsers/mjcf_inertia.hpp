// MJCF body inertias as MuJoCo 2.2's compiler infers them (mjCBody, mjCGeom::SetInertia and
// mjCMesh in user_objects.cc / user_mesh.cc): from an <inertial>, or from the geoms' shapes, mesh
// files included. Private to libeom.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "eom/multibody/spatial.hpp"
#include "parsers/mesh.hpp"
#include "parsers/mjcf_attributes.hpp"

namespace eom::detail {

/// A solid of uniform density: its volume and its principal moments of inertia per unit of mass
/// about its centre, in its own frame (z the axis of a cylinder or capsule).
struct SolidInertia {
  double volume = 0;
  Vec3 inertia_per_mass = Vec3::Zero();
};

/// Sphere of radius r: V = 4/3 pi r^3, I = 2/5 r^2 about every axis.
SolidInertia sphere_inertia(double r);
/// Cylinder of radius r and height 2 half: V = pi r^2 h, I = (3r^2 + h^2)/12 across, r^2/2 along.
SolidInertia cylinder_inertia(double r, double half);
/// Capsule: the cylinder of radius r and height 2 half with a hemisphere on each end.
SolidInertia capsule_inertia(double r, double half);
/// Box of half-sides a, b, c: V = 8abc, I_xx = (b^2 + c^2)/3, ...
SolidInertia box_inertia(const Vec3& half_sides);
/// Ellipsoid of semi-axes a, b, c: V = 4/3 pi abc, I_xx = (b^2 + c^2)/5, ...
SolidInertia ellipsoid_inertia(const Vec3& semi_axes);

/// The <compiler> settings that decide inertias.
struct MjcfInertiaSettings {
  std::string from_geom = "auto";  // inertiafromgeom: auto uses the geoms when no <inertial>
  std::string mesh_dir;            // meshdir (or assetdir), relative to the model file
  bool exact_mesh = false;         // exactmeshinertia
};

/// The inertias of an MJCF model's bodies, read with the reader's attributes (defaults, angles,
/// messages). Each <mesh> asset is read once, when a geom's mass first needs it.
class MjcfInertia {
 public:
  explicit MjcfInertia(const MjcfAttributes& attributes) : a_(attributes) {}

  MjcfInertiaSettings settings;

  /// A <mesh> of <asset>, by name (the file's stem when unnamed, as MuJoCo names them).
  void add_mesh(const tinyxml2::XMLElement* e);
  /// The body's <inertial> (null when none), else its geoms' (per settings.from_geom), in the body
  /// frame; `moving`: a body on a moving joint (a plane on one is refused).
  Inertia body(const tinyxml2::XMLElement* inertial, const std::vector<MjcfItem>& geoms,
               bool moving);
  /// Whether a geom weighed so far gave contact properties (which eom ignores).
  bool saw_contact_properties() const { return contact_properties_; }

 private:
  Inertia explicit_inertia(const tinyxml2::XMLElement* e) const;
  Inertia geom(const MjcfItem& item, bool moving);
  SolidInertia primitive(const tinyxml2::XMLElement* e, const std::string& cls,
                         const std::string& type, const std::vector<double>& size) const;
  Inertia mesh_geom(const MjcfItem& item, double density);
  MeshInertia read_mesh_asset(const tinyxml2::XMLElement* e) const;
  std::string mesh_path(const char* file) const;

  struct Mesh {
    const tinyxml2::XMLElement* e;
    std::optional<MeshInertia> inertia;
  };
  const MjcfAttributes& a_;
  std::map<std::string, Mesh> meshes_;
  bool contact_properties_ = false;
};

}  // namespace eom::detail
