// Triangle meshes for MJCF <geom type="mesh">: reading STL (binary and ASCII) and OBJ files, and
// the mass properties MuJoCo 2.2's compiler gives them (mjCMesh::Process). Private to libeom.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eom/multibody/spatial.hpp"

namespace eom::detail {

using Triangle = std::array<Vec3, 3>;

/// Largest mesh read, in triangles (MuJoCo 2.2 takes at most 200000 from an STL file) and bytes:
/// what a mesh can make eom allocate is bounded whatever the file says.
constexpr size_t kMaxMeshTriangles = 10'000'000;
constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t(1) << 30;

/// The triangles of an STL (binary or ASCII, told apart by size and content) or OBJ file (by its
/// extension, as MuJoCo does; polygons fan-triangulated). Throws InputError with a message that
/// starts with the quoted path and names the line of a text file.
std::vector<Triangle> read_mesh(const std::string& path);

/// The number of edges of a triangle mesh that are not shared by exactly one other triangle in
/// the opposite direction: 0 for a closed, consistently oriented surface (vertices compared
/// exactly).
size_t open_edges(const std::vector<Triangle>& triangles);

/// What a mesh geom weighs as MuJoCo 2.2 computes it: mass = density * volume (or the geom's
/// mass), centre of mass `com` and inertia about it `mass * inertia_per_mass`, in the mesh's
/// coordinates.
struct MeshInertia {
  double volume = 0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia_per_mass = Mat3::Zero();
  // whether every face sees the surface centroid from inside (the legacy rule is then exact)
  bool star_shaped = true;
};

/// `exact` (<compiler exactmeshinertia="true">): the solid's volume integrals by signed tetrahedra
/// (exact for any closed, consistently oriented mesh). Otherwise MuJoCo 2.2's default ("legacy")
/// rule, exact only for a mesh star-shaped about its surface centroid: pyramids from that
/// centroid with unsigned volumes give the centre of mass, pyramids from there the inertia, and
/// the mass is that of the box with the same principal moments. Throws InputError (message
/// only) for a mesh of no area or volume, or with moments no rigid body has.
MeshInertia mesh_inertia(const std::vector<Triangle>& triangles, bool exact);

}  // namespace eom::detail
