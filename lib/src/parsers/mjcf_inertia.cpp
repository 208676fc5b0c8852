// MJCF inertias: the closed forms of MuJoCo 2.2's mjCGeom::SetInertia for the primitive shapes,
// meshes through parsers/mesh.hpp, explicit <inertial> elements checked for being a rigid body's.

#include "parsers/mjcf_inertia.hpp"

#include <algorithm>
#include <filesystem>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "core/constants.hpp"
#include "core/tolerances.hpp"
#include "eom/core/errors.hpp"

namespace eom::detail {

using tinyxml2::XMLElement;

SolidInertia sphere_inertia(double r) {
  SolidInertia s;
  s.volume = 4.0 / 3 * kPi * r * r * r;
  s.inertia_per_mass.setConstant(2 * r * r / 5);
  return s;
}

SolidInertia cylinder_inertia(double r, double half) {
  const double h = 2 * half;
  SolidInertia s;
  s.volume = kPi * r * r * h;
  s.inertia_per_mass << (3 * r * r + h * h) / 12, (3 * r * r + h * h) / 12, r * r / 2;
  return s;
}

// the cylinder and two hemispheres, each hemisphere's centroid 3r/8 beyond the cylinder's end
// (parallel axes): I_xx = m_c (3r^2 + h^2)/12 + m_s (2r^2/5 + h^2/4 + 3hr/8)
SolidInertia capsule_inertia(double r, double half) {
  const double h = 2 * half;
  const double cylinder = kPi * r * r * h;
  const double sphere = 4.0 / 3 * kPi * r * r * r;
  SolidInertia s;
  s.volume = cylinder + sphere;
  const double ms = sphere / s.volume, mc = cylinder / s.volume;
  const double side =
      mc * (3 * r * r + h * h) / 12 + ms * (2 * r * r / 5 + h * h / 4 + 3 * h * r / 8);
  s.inertia_per_mass << side, side, mc * r * r / 2 + ms * 2 * r * r / 5;
  return s;
}

SolidInertia box_inertia(const Vec3& half_sides) {
  const double a = half_sides[0], b = half_sides[1], c = half_sides[2];
  SolidInertia s;
  s.volume = 8 * a * b * c;
  s.inertia_per_mass << (b * b + c * c) / 3, (a * a + c * c) / 3, (a * a + b * b) / 3;
  return s;
}

SolidInertia ellipsoid_inertia(const Vec3& semi_axes) {
  const double a = semi_axes[0], b = semi_axes[1], c = semi_axes[2];
  SolidInertia s;
  s.volume = 4.0 / 3 * kPi * a * b * c;
  s.inertia_per_mass << (b * b + c * c) / 5, (a * a + c * c) / 5, (a * a + b * b) / 5;
  return s;
}

void MjcfInertia::add_mesh(const XMLElement* e) {
  const char* given = e->Attribute("name");
  const char* file = e->Attribute("file");
  const std::string name = given  ? given
                           : file ? std::filesystem::path(file).stem().string()
                                  : std::string();
  if (name.empty()) a_.fail(e, "<mesh> needs a 'name' or a 'file'");
  if (!meshes_.emplace(name, Mesh{e, std::nullopt}).second) {
    a_.fail(e, "the mesh name " + quote_input(name) + " is used twice");
  }
}

Inertia MjcfInertia::body(const XMLElement* inertial, const std::vector<MjcfItem>& geoms,
                          bool moving) {
  if (inertial && settings.from_geom != "true") return explicit_inertia(inertial);
  if (settings.from_geom == "false") return Inertia::Zero();
  Inertia sum;
  for (const MjcfItem& item : geoms) sum += geom(item, moving);
  return sum;
}

Inertia MjcfInertia::explicit_inertia(const XMLElement* e) const {
  const std::string cls;
  if (!e->Attribute("pos")) a_.fail(e, "<inertial> needs a 'pos'");
  if (!e->Attribute("mass")) a_.fail(e, "<inertial> needs a 'mass'");
  const SE3 frame = a_.pose(e, cls);
  const double m = a_.number(e, "mass", cls, 0);
  if (m < 0) a_.fail(e, "<inertial mass> is negative");
  Mat3 I;
  if (e->Attribute("diaginertia") && e->Attribute("fullinertia")) {
    a_.fail(e, "<inertial> has both diaginertia and fullinertia");
  }
  if (e->Attribute("diaginertia")) {
    I = a_.required<3>(e, "diaginertia", cls).asDiagonal();
  } else if (e->Attribute("fullinertia")) {
    // ixx iyy izz ixy ixz iyz
    const Eigen::Matrix<double, 6, 1> f = a_.required<6>(e, "fullinertia", cls);
    I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
  } else {
    a_.fail(e, "<inertial> needs a 'diaginertia' or a 'fullinertia'");
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(I);
  const Vec3 d = eig.eigenvalues();
  if (d.minCoeff() < -kEigenvalueRoundOff * std::max(1.0, d.maxCoeff()) ||
      d[0] + d[1] < d[2] * (1 - kModelRoundOff)) {
    a_.fail(e,
            "<inertial>: the inertia is not a rigid body's (positive, and each principal "
            "moment at most the sum of the other two)");
  }
  return {m, frame.p, frame.R * I * frame.R.transpose()};
}

// A geom's mass and inertia as mjCGeom::SetInertia computes them, in the body frame
Inertia MjcfInertia::geom(const MjcfItem& item, bool moving) {
  const XMLElement* e = item.e;
  const std::string cls = class_of(item);
  for (const char* contact : {"contype", "conaffinity", "condim", "friction", "solref", "solimp",
                              "margin", "gap", "priority", "solmix"}) {
    if (a_.get(e, contact, cls)) contact_properties_ = true;
  }
  const std::string type = a_.text(e, "type", cls, "sphere");
  const char* given_mass = a_.get(e, "mass", cls);
  const double density = a_.number(e, "density", cls, 1000);
  if (type != "mesh" && a_.get(e, "mesh", cls)) {
    a_.fail(e, "<geom type=\"" + shown_input(type) +
                   "\" mesh>: a primitive fitted to a mesh is not supported");
  }
  if (type == "mesh" || type == "hfield" || type == "plane" || type == "sdf") {
    if (given_mass && a_.number(e, "mass", cls, 0) == 0) return {};
    if (!moving && type == "plane") return {};
    if (type == "mesh") return mesh_geom(item, density);
    a_.fail(e, "<geom type=\"" + type + "\">: eom does not read " + type +
                   " geoms; give the body an <inertial> (or the geom mass=\"0\")");
  }
  const char* size = a_.get(e, "size", cls);
  const std::vector<double> sizes = size ? a_.list(e, "size", size) : std::vector<double>{};
  if (a_.get(e, "fromto", cls) && type == "sphere") {
    a_.fail(e, "<geom fromto> does not apply to a sphere");
  }
  const SE3 frame = item.frame * a_.pose(e, cls);
  const SolidInertia solid = primitive(e, cls, type, sizes);
  const double m = given_mass ? a_.number(e, "mass", cls, 0) : density * solid.volume;
  if (m < 0) a_.fail(e, "<geom mass> is negative");
  const Mat3 Ic = frame.R * (m * solid.inertia_per_mass).asDiagonal() * frame.R.transpose();
  return {m, frame.p, Ic};
}

// The shape of a primitive geom from its size, or from fromto for the length along z (half the
// segment; a box's and an ellipsoid's size[0] then also across, as in MuJoCo 2.2's mjCGeom)
SolidInertia MjcfInertia::primitive(const XMLElement* e, const std::string& cls,
                                    const std::string& type,
                                    const std::vector<double>& size) const {
  const bool fromto = a_.get(e, "fromto", cls) != nullptr;
  const auto need = [&](size_t n) {
    if (size.size() < n) {
      a_.fail(e, "<geom type=\"" + type + "\">: 'size' needs " + std::to_string(n) +
                     (n == 1 ? " number" : " numbers"));
    }
    for (size_t k = 0; k < n; ++k) {
      if (size[k] < 0) a_.fail(e, "<geom size>: negative");
    }
  };
  // half the length of the fromto segment
  const auto half_length = [&] {
    const Eigen::Matrix<double, 6, 1> s = a_.required<6>(e, "fromto", cls);
    return (s.tail<3>() - s.head<3>()).norm() / 2;
  };
  if (type == "sphere") {
    need(1);
    return sphere_inertia(size[0]);
  }
  if (type == "capsule" || type == "cylinder") {
    need(fromto ? 1 : 2);
    const double half = fromto ? half_length() : size[1];
    return type == "cylinder" ? cylinder_inertia(size[0], half) : capsule_inertia(size[0], half);
  }
  if (type == "box" || type == "ellipsoid") {
    need(fromto ? 1 : 3);
    const Vec3 sides(size[0], fromto ? size[0] : size[1], fromto ? half_length() : size[2]);
    return type == "box" ? box_inertia(sides) : ellipsoid_inertia(sides);
  }
  a_.fail(e, "<geom type=\"" + shown_input(type) +
                 "\">: expected sphere, capsule, cylinder, box, ellipsoid, mesh, plane or hfield");
}

// A mesh geom's mass and inertia in the body frame: the mesh's (parsers/mesh.hpp), computed once
// per mesh, placed by the geom's pos and orientation
Inertia MjcfInertia::mesh_geom(const MjcfItem& item, double density) {
  const XMLElement* e = item.e;
  const std::string cls = class_of(item);
  const std::string name = a_.text(e, "mesh", cls, "");
  if (name.empty()) a_.fail(e, "<geom type=\"mesh\"> needs a 'mesh'");
  const auto it = meshes_.find(name);
  if (it == meshes_.end()) {
    a_.fail(e, "<geom mesh=" + quote_input(name) + ">: no <mesh> of that name in <asset>");
  }
  if (!it->second.inertia) it->second.inertia = read_mesh_asset(it->second.e);
  const MeshInertia& mesh = *it->second.inertia;
  const double m = a_.get(e, "mass", cls) ? a_.number(e, "mass", cls, 0) : density * mesh.volume;
  if (m < 0) a_.fail(e, "<geom mass> is negative");
  const SE3 frame = item.frame * a_.pose(e, cls);
  return {m, frame.act(mesh.com), frame.R * (m * mesh.inertia_per_mass) * frame.R.transpose()};
}

// the file is found as MuJoCo finds it: as given when absolute, else in the compiler's meshdir
// (itself relative to the model file's directory unless absolute)
std::string MjcfInertia::mesh_path(const char* file) const {
  namespace fs = std::filesystem;
  const fs::path base = a_.base_directory();
  const fs::path dir = fs::path(settings.mesh_dir).is_absolute() ? fs::path(settings.mesh_dir)
                                                                 : base / settings.mesh_dir;
  return (fs::path(file).is_absolute() ? fs::path(file) : dir / file).lexically_normal().string();
}

// A <mesh>'s file read, placed (refpos, refquat) and scaled as MuJoCo's compiler does, and its
// mass properties
MeshInertia MjcfInertia::read_mesh_asset(const XMLElement* e) const {
  const char* cls_given = e->Attribute("class");
  const std::string cls = cls_given ? cls_given : "main";
  if (cls != "main" && !a_.has_class(cls)) {
    a_.fail(e, "<mesh> uses the undefined <default> class " + quote_input(cls));
  }
  const char* file = e->Attribute("file");
  if (!file) {
    a_.fail(e,
            "<mesh> without a 'file' (vertices in the XML) is not supported: eom reads mesh "
            "files");
  }
  const std::string path = mesh_path(file);
  const Vec3 scale = a_.fixed<3>(e, "scale", cls, Vec3::Ones());
  if (scale.prod() == 0) a_.fail(e, "<mesh scale> has a zero factor");
  const Vec3 refpos = a_.fixed<3>(e, "refpos", cls, Vec3::Zero());
  const Eigen::Vector4d refquat = a_.fixed<4>(e, "refquat", cls, Eigen::Vector4d(1, 0, 0, 0));
  if (refquat.norm() < kZeroLength) a_.fail(e, "<mesh refquat>: a zero quaternion");
  const Mat3 R =
      Eigen::Quaterniond(refquat[0], refquat[1], refquat[2], refquat[3]).normalized().matrix();
  const std::string where = "<mesh file=\"" + shown_input(file) + "\">: ";
  try {
    std::vector<Triangle> triangles = read_mesh(path);
    // MuJoCo moves the vertices by refpos, turns them by refquat^-1, then scales them
    for (Triangle& t : triangles) {
      for (Vec3& v : t) v = (R.transpose() * (v - refpos)).cwiseProduct(scale);
      if (scale.prod() < 0) std::swap(t[1], t[2]);
    }
    if (settings.exact_mesh) {
      if (const size_t open = open_edges(triangles)) {
        a_.fail(e, where + quote_input(path) + " is not a closed surface with outward faces (" +
                       std::to_string(open) +
                       " edges not shared by two faces in opposite "
                       "directions): it bounds no solid to weigh");
      }
    }
    const MeshInertia inertia = mesh_inertia(triangles, settings.exact_mesh);
    if (!inertia.star_shaped) {
      a_.warn(a_.place(e) + ": " + where +
              "MuJoCo 2.2's default mesh inertia, which eom follows, is "
              "not the solid's for this mesh (it is not star-shaped about its surface centroid): "
              "<compiler exactmeshinertia=\"true\"> weighs the solid");
    }
    return inertia;
  } catch (const ModelError&) {
    throw;
  } catch (const InputError& error) {
    const std::string& message = error.message();
    // read_mesh's messages start with the quoted path; mesh_inertia's do not
    a_.fail(e, where + (message.rfind("'", 0) == 0 ? message : quote_input(path) + ": " + message));
  }
}

}  // namespace eom::detail
