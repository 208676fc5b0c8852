// MJCF attribute reading (MuJoCo's xml_util): an element's attributes as typed values, each taken
// from the element or else from the <default> class it uses, with errors naming the file and line
// of the element; and the documents (<include>d files) the elements come from. Private to libeom.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <tinyxml2.h>

#include "core/constants.hpp"
#include "eom/multibody/spatial.hpp"
#include "eom/parsers/urdf.hpp"

namespace eom::detail {

/// An element to read, with what it inherits from where it sits: the <default> class its children
/// take (childclass) and the placement of the <frame>s around it in its body's frame.
struct MjcfItem {
  const tinyxml2::XMLElement* e;
  std::string childclass;
  SE3 frame;
};

/// The <default> class an item takes: its own 'class', else the childclass around it, else "main".
std::string class_of(const MjcfItem& item);

/// The <default> entry an element reads and a <default> child writes: its tag, except that every
/// actuator shortcut (<motor>, <position>, ...) shares one, as MuJoCo keeps one actuator default
/// per class.
std::string default_entry(const char* tag);

/// What attribute values depend on besides the element: the <default> classes and the
/// <compiler>'s angle unit and Euler sequence, set by the reader as it reads those sections.
struct MjcfSettings {
  // class -> element tag -> attribute -> value, each class starting from its parent's
  std::map<std::string, std::map<std::string, std::map<std::string, std::string>>> defaults;
  bool degrees = true;  // <compiler angle="degree">, MuJoCo's default
  std::string euler_sequence = "xyz";
};

class MjcfAttributes {
 public:
  /// `main_file` names the model in messages ("<stdin>" for standard input); what is ignored or
  /// suspicious is appended to `warnings` when given.
  MjcfAttributes(std::string main_file, std::vector<Diagnostic>* warnings);

  // ---- documents and messages ---------------------------------------------------------------

  /// A parsed document: its file, the document that <include>s it (null for the main one) and how
  /// deep that nesting is.
  struct Source {
    std::string file;
    const tinyxml2::XMLDocument* includer = nullptr;
    int depth = 0;
  };
  void add_source(const tinyxml2::XMLDocument* doc, Source source) { sources_[doc] = source; }
  const Source& source(const tinyxml2::XMLDocument* doc) const { return sources_.at(doc); }
  const std::string& main_file() const { return main_file_; }
  /// The main file's directory, which MuJoCo reads <include>d and asset files relative to.
  std::filesystem::path base_directory() const;
  /// The file an element was read from (the main file for null).
  std::string file_of(const tinyxml2::XMLElement* e) const;
  /// "file:line" of an element in an included file, "line N" in the main one (warnings are
  /// printed after the main file's name).
  std::string place(const tinyxml2::XMLElement* e) const;
  /// Throws ModelError at the element's file and line.
  [[noreturn]] void fail(const tinyxml2::XMLElement* e, const std::string& message) const;
  /// A warning about the model as a whole (Diagnostic::on_load: said whenever it is loaded).
  void warn(const std::string& message) const;

  // ---- typed values -------------------------------------------------------------------------

  MjcfSettings settings;
  bool has_class(const std::string& cls) const { return settings.defaults.count(cls) > 0; }

  /// The value of `name` on `e`, else from the <default> class `cls` for e's tag, else null.
  const char* get(const tinyxml2::XMLElement* e, const char* name, const std::string& cls) const;
  /// The numbers of attribute `name` whose value is `text`, separated by white space.
  std::vector<double> list(const tinyxml2::XMLElement* e, const char* name, const char* text) const;
  /// Exactly N numbers, or `fallback` when the attribute is absent.
  template <int N>
  Eigen::Matrix<double, N, 1> fixed(const tinyxml2::XMLElement* e, const char* name,
                                    const std::string& cls,
                                    const Eigen::Matrix<double, N, 1>& fallback) const {
    const char* value = get(e, name, cls);
    if (!value) return fallback;
    const std::vector<double> x = counted(e, name, value, N);
    return Eigen::Map<const Eigen::Matrix<double, N, 1>>(x.data());
  }
  /// Exactly N numbers, the attribute present (the caller checked).
  template <int N>
  Eigen::Matrix<double, N, 1> required(const tinyxml2::XMLElement* e, const char* name,
                                       const std::string& cls) const {
    return fixed<N>(e, name, cls, Eigen::Matrix<double, N, 1>::Zero());
  }
  double number(const tinyxml2::XMLElement* e, const char* name, const std::string& cls,
                double fallback) const;
  std::string text(const tinyxml2::XMLElement* e, const char* name, const std::string& cls,
                   const std::string& fallback) const;
  /// A true / false attribute.
  bool flag(const tinyxml2::XMLElement* e, const char* name, const std::string& cls,
            bool fallback) const;
  /// An angle of the file in radians (<compiler angle>).
  double angle(double x) const { return settings.degrees ? x * kPi / 180 : x; }

  /// The rotation an element's quat, axisangle, euler, xyaxes or zaxis gives (at most one).
  Mat3 orientation(const tinyxml2::XMLElement* e, const std::string& cls) const;
  /// pos and orientation, or fromto (geoms and sites: the segment's midpoint, z along it).
  SE3 pose(const tinyxml2::XMLElement* e, const std::string& cls) const;

 private:
  // the numbers of `text`, exactly n of them
  std::vector<double> counted(const tinyxml2::XMLElement* e, const char* name, const char* text,
                              size_t n) const;
  Mat3 euler(const tinyxml2::XMLElement* e, const std::string& cls) const;
  Mat3 xyaxes(const tinyxml2::XMLElement* e, const std::string& cls) const;

  std::string main_file_;
  std::vector<Diagnostic>* warnings_;
  std::map<const tinyxml2::XMLDocument*, Source> sources_;
};

/// The axis-angle rotation as a matrix (angle in radians).
Mat3 rotation(const Vec3& axis, double angle);
/// MuJoCo's mjuu_z2quat: the rotation taking z to `z` by the shortest arc (about x when opposite).
Mat3 z_to(const Vec3& z);

}  // namespace eom::detail
