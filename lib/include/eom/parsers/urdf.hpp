// URDF reading: the raw description as written (for eom check), and the Model built from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "eom/multibody/model.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {

/// A <link> as written in the file.
struct UrdfLink {
  std::string name;
  int line = 0;
  bool has_inertial = false;
  int inertial_line = 0;
  double mass = 0;
  SE3 inertial_origin;          // centre of mass frame in the link frame
  Mat3 inertia = Mat3::Zero();  // about the centre of mass, in the inertial_origin axes
};

/// A <joint> as written in the file.
struct UrdfJoint {
  std::string name;
  std::string type;  // as written; validated when the model is built
  int line = 0;
  std::string parent, child;
  SE3 origin;                 // child joint frame in the parent link frame
  Vec3 axis = Vec3::UnitX();  // as written (not normalised); URDF default 1 0 0
  bool has_limit = false;
  double lower = 0, upper = 0, effort = 0, velocity = 0;
  double damping = 0, friction = 0;
  double armature = 0;  // eom's extension <dynamics armature="...">: reflected rotor inertia
  std::optional<std::string> mimic_joint;
  double mimic_multiplier = 1, mimic_offset = 0;
};

/// A whole URDF file as written: the <robot> name, its links and joints in document order.
struct UrdfDescription {
  std::string file;  // path for messages ("<string>" when parsed from text)
  std::string name;
  std::vector<UrdfLink> links;
  std::vector<UrdfJoint> joints;
};

/// How to build a Model from a robot file, whatever its format (load_model).
struct LoadOptions {
  bool floating_base = false;  // add the free-flyer joint "root" above the root link
  Vec3 gravity{0, 0, -9.81};
};

/// Parse URDF text. Throws InputError (file:line) on malformed XML, a missing <robot>, missing or
/// non-numeric attributes. `file` names the source in messages.
UrdfDescription parse_urdf(const std::string& text, const std::string& file = "<string>");
/// The text of a robot file ("-" reads stdin): a regular file or a pipe of at most 64 MiB
/// (doc/files.md). Throws InputError naming the file if it cannot be read, is a directory or a
/// device, or is larger.
std::string read_robot_file(const std::string& path);
/// Read and parse a URDF file ("-" reads stdin). Throws InputError if it cannot be read.
UrdfDescription parse_urdf_file(const std::string& path);

/// One finding about a robot file: of check_urdf, or a warning of any format's loader.
struct Diagnostic {
  enum class Severity { error, warning, note };
  Severity severity = Severity::error;
  int line = 0;  // line in the file, 0 if not tied to one
  std::string message;
  /// A defect that eom works around when it loads the model (a link whose inertia is not
  /// positive semi-definite but that is welded to the world, or merged into a body whose combined
  /// inertia is): build_model returns it among its warnings.
  bool on_load = false;
};

/// Build the Model. Throws ModelError (file:line, what was expected) for anything eom check
/// reports as an error: structure (roots, cycles, dangling or duplicate names, unknown joint
/// types, zero axes) and physics (masses, inertias of the bodies the dynamics use, limits,
/// non-finite numbers, also those produced by merging and placing bodies). The defects it works
/// around (Diagnostic::on_load) are appended to `warnings` when given; the library never prints.
Model build_model(const UrdfDescription& urdf, const LoadOptions& options = {},
                  std::vector<Diagnostic>* warnings = nullptr);

/// parse_urdf_file + build_model.
Model load_urdf(const std::string& path, const LoadOptions& options = {},
                std::vector<Diagnostic>* warnings = nullptr);

/// Every structural and physical problem of a description: errors, then warnings, then notes,
/// each group by line. Errors make build_model throw. Warnings are plausible-but-suspicious data
/// (triangle inequality violations, massless moving leaves that make M singular, limits that look
/// off, defective links merged into a physical body). Notes are defects that cannot affect the
/// dynamics: links welded to the world in a fixed-base model ("welded to the world: not used").
std::vector<Diagnostic> check_urdf(const UrdfDescription& urdf, const LoadOptions& options = {});

}  // namespace eom
