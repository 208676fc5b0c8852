// MJCF reading (tinyxml2): MuJoCo's kinematic and inertial subset, compiled as MuJoCo 2.2's
// compiler does (mjCBody, mjCJoint, mjCGeom in user_objects.cc; orientations in mjCAlternative),
// into eom's Model.

#include "eom/parsers/mjcf.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <tinyxml2.h>

#include "eom/core/errors.hpp"
#include "eom/multibody/component_names.hpp"
#include "parsers/index_coordinates.hpp"
#include "parsers/mesh.hpp"
#include "parsers/xml_error.hpp"

namespace eom {
namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using Attributes = std::map<std::string, std::string>;

// <include> nesting and count: bounded whatever the input says
constexpr int kMaxIncludeDepth = 32;
constexpr int kMaxIncludedFiles = 1000;
constexpr double kPi = 3.14159265358979323846;

// An element to read, with what it inherits from where it sits: the <default> class its children
// take (childclass) and the placement of the <frame>s around it in its body's frame.
struct Item {
  const XMLElement* e;
  std::string childclass;
  SE3 frame;
};

// The axis-angle rotation as a matrix (angle in radians)
Mat3 rotation(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// MuJoCo's mjuu_z2quat: the rotation taking z to `z` by the shortest arc (about x when opposite)
Mat3 z_to(const Vec3& z) {
  const Vec3 n = z.normalized();
  Vec3 axis = Vec3::UnitZ().cross(n);
  const double s = axis.norm();
  if (s < 1e-10) axis = Vec3::UnitX();
  return rotation(axis, std::atan2(s, n.z()));
}

class MjcfReader {
 public:
  MjcfReader(const std::string& file, const UrdfOptions& options, std::vector<Diagnostic>* warnings)
      : main_file_(file), options_(options), warnings_(warnings) {}

  Model read(const std::string& text) {
    const XMLDocument& doc = parse(text, main_file_, nullptr, 0);
    const XMLElement* root = doc.RootElement();
    model_.name = root->Attribute("model")  ? root->Attribute("model")
                  : main_file_ == "<stdin>" ? "model"
                                            : std::filesystem::path(main_file_).stem().string();
    model_.gravity = options_.gravity;
    model_.root_link = "world";
    add_joint("world", Joint{}, -1, SE3::Identity(), JointInfo{});
    model_.frames.push_back({"world", 0, SE3::Identity()});
    frame_names_.insert("world");
    // compiler settings and defaults apply to the whole model wherever they appear: read first
    const std::vector<const XMLElement*> sections = children(root);
    for (const XMLElement* e : sections) {
      const std::string tag = e->Name();
      if (tag == "compiler") compiler(e);
      if (tag == "default") defaults(e);
      if (tag == "option") option(e);
      if (tag == "asset") assets(e);
    }
    for (const XMLElement* e : sections) section(e);
    finish();
    return std::move(model_);
  }

 private:
  // ---- files, messages, numbers -------------------------------------------------------------

  [[noreturn]] void fail(const XMLElement* e, const std::string& message) const {
    throw ModelError(file_of(e), e ? e->GetLineNum() : 0, 0, message);
  }

  std::string file_of(const XMLElement* e) const {
    if (!e) return main_file_;
    const auto it = files_.find(e->GetDocument());
    return it == files_.end() ? main_file_ : it->second.file;
  }

  // "file:line" of an element in an included file, the line alone in the main one (warnings are
  // printed after the main file's name)
  std::string place(const XMLElement* e) const {
    const std::string file = file_of(e);
    return (file == main_file_ ? "line " : file + ":") + std::to_string(e->GetLineNum());
  }

  void warn(const std::string& message, int line = 0) {
    if (warnings_) warnings_->push_back({Diagnostic::Severity::warning, line, message, true});
  }

  const XMLDocument& parse(const std::string& text, const std::string& file,
                           const XMLDocument* includer, int depth) {
    auto doc = std::make_unique<XMLDocument>();
    if (doc->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
      throw ModelError(file, doc->ErrorLineNum(), 0, detail::xml_error(*doc));
    }
    const XMLElement* root = doc->RootElement();
    if (!root || std::string(root->Name()) != "mujoco") {
      throw ModelError(file, root ? root->GetLineNum() : 1, 0, "expected a <mujoco> root element");
    }
    files_[doc.get()] = {file, includer, depth};
    docs_.push_back(std::move(doc));
    return *docs_.back();
  }

  // The child elements of `e`, each <include> replaced by the children of the included file's
  // <mujoco> (themselves expanded), without recursion: an explicit stack of sibling lists.
  std::vector<const XMLElement*> children(const XMLElement* e) {
    std::vector<const XMLElement*> out;
    std::vector<const XMLElement*> next{e->FirstChildElement()};
    while (!next.empty()) {
      const XMLElement* c = next.back();
      if (!c) {
        next.pop_back();
        continue;
      }
      next.back() = c->NextSiblingElement();
      if (std::string(c->Name()) != "include") {
        out.push_back(c);
        continue;
      }
      next.push_back(include(c).RootElement()->FirstChildElement());
    }
    return out;
  }

  // MuJoCo reads an included file relative to the main model file's directory
  const XMLDocument& include(const XMLElement* e) {
    const char* name = e->Attribute("file");
    if (!name) fail(e, "<include> needs a 'file' attribute");
    const std::filesystem::path base = main_file_ == "<stdin>"
                                           ? std::filesystem::path()
                                           : std::filesystem::path(main_file_).parent_path();
    const std::string path = (base / name).lexically_normal().string();
    const FileInfo& including = files_.at(e->GetDocument());
    std::error_code error;
    for (const XMLDocument* d = e->GetDocument(); d; d = files_.at(d).includer) {
      const std::string& other = files_.at(d).file;
      if (other == path || std::filesystem::equivalent(other, path, error)) {
        fail(e, "<include file=\"" + shown_input(name) + "\">: " + quote_input(path) +
                    " includes itself" +
                    (d == e->GetDocument() ? "" : " (through " + files_.at(d).file + ")"));
      }
    }
    if (including.depth + 1 > kMaxIncludeDepth) {
      fail(e, "<include> nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    }
    if (docs_.size() >= kMaxIncludedFiles) {
      fail(e, "more than " + std::to_string(kMaxIncludedFiles) + " <include> files");
    }
    std::string text;
    try {
      text = read_robot_file(path);
    } catch (const InputError& error) {
      fail(e, "<include file=\"" + shown_input(name) + "\">: " + quote_input(path) + ": " +
                  error.message());
    }
    return parse(text, path, e->GetDocument(), including.depth + 1);
  }

  // The value of `name` on `e`, else from the <default> class the element takes, else null
  const char* get(const XMLElement* e, const char* name, const std::string& cls) const {
    if (const char* value = e->Attribute(name)) return value;
    const auto c = defaults_.find(cls);
    if (c == defaults_.end()) return nullptr;
    const auto t = c->second.find(e->Name());
    if (t == c->second.end()) return nullptr;
    const auto a = t->second.find(name);
    return a == t->second.end() ? nullptr : a->second.c_str();
  }

  std::vector<double> list(const XMLElement* e, const char* name, const char* text) const {
    std::vector<double> out;
    const char* p = text;
    const char* end = text + std::char_traits<char>::length(text);
    for (;;) {
      while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
      if (p == end) return out;
      const char* start = p;
      while (p < end && !std::isspace(static_cast<unsigned char>(*p))) ++p;
      if (*start == '+') ++start;
      double x = 0;
      const auto [ptr, ec] = std::from_chars(start, p, x);
      const std::string_view token(start, p - start);
      const std::string where =
          std::string("<") + e->Name() + " " + name + "=\"" + shown_input(text) + "\">: ";
      if (ec == std::errc::result_out_of_range && ptr == p) {
        fail(e, where + out_of_range_message(token));
      }
      if (ec != std::errc() || ptr != p || !std::isfinite(x)) {
        fail(e, where + quote_input(token) + " is not a number");
      }
      out.push_back(x);
    }
  }

  // exactly N numbers, or `fallback` when the attribute is absent
  template <int N>
  Eigen::Matrix<double, N, 1> fixed(const XMLElement* e, const char* name, const std::string& cls,
                                    const Eigen::Matrix<double, N, 1>& fallback) const {
    const char* text = get(e, name, cls);
    if (!text) return fallback;
    const std::vector<double> x = list(e, name, text);
    if (int(x.size()) != N) {
      fail(e, std::string("<") + e->Name() + " " + name + "=\"" + shown_input(text) +
                  "\">: expected " + std::to_string(N) + (N == 1 ? " number" : " numbers") +
                  ", found " + std::to_string(x.size()));
    }
    return Eigen::Map<const Eigen::Matrix<double, N, 1>>(x.data());
  }

  // exactly N numbers, the attribute present (the caller checked)
  template <int N>
  Eigen::Matrix<double, N, 1> required(const XMLElement* e, const char* name,
                                       const std::string& cls) const {
    return fixed<N>(e, name, cls, Eigen::Matrix<double, N, 1>::Zero());
  }

  double number(const XMLElement* e, const char* name, const std::string& cls,
                double fallback) const {
    return fixed<1>(e, name, cls, Eigen::Matrix<double, 1, 1>(fallback))[0];
  }

  std::string text(const XMLElement* e, const char* name, const std::string& cls,
                   const std::string& fallback) const {
    const char* value = get(e, name, cls);
    return value ? value : fallback;
  }

  // true / false attributes
  bool flag(const XMLElement* e, const char* name, const std::string& cls, bool fallback) const {
    const std::string value = text(e, name, cls, fallback ? "true" : "false");
    if (value != "true" && value != "false") {
      fail(e, std::string("<") + e->Name() + " " + name + "=\"" + shown_input(value) +
                  "\">: expected true or false");
    }
    return value == "true";
  }

  double angle(double x) const { return degrees_ ? x * kPi / 180 : x; }

  // ---- orientation and placement --------------------------------------------------------------

  // The rotation an element's quat, axisangle, euler, xyaxes or zaxis gives (at most one)
  Mat3 orientation(const XMLElement* e, const std::string& cls) const {
    static const char* const kinds[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
    // the element's own spelling wins over its class's
    const char* chosen = nullptr;
    for (const XMLElement* source : {e, static_cast<const XMLElement*>(nullptr)}) {
      for (const char* kind : kinds) {
        const char* value = source ? source->Attribute(kind) : get(e, kind, cls);
        if (!value) continue;
        if (chosen) {
          fail(e, std::string("<") + e->Name() + "> has both '" + chosen + "' and '" + kind +
                      "': give one orientation");
        }
        chosen = kind;
      }
      if (chosen) break;
    }
    if (!chosen) return Mat3::Identity();
    const std::string kind = chosen;
    if (kind == "quat") {
      const Eigen::Vector4d w = required<4>(e, "quat", cls);  // MuJoCo's order: w x y z
      if (w.norm() < 1e-10) fail(e, "<" + std::string(e->Name()) + " quat>: a zero quaternion");
      return Eigen::Quaterniond(w[0], w[1], w[2], w[3]).normalized().toRotationMatrix();
    }
    if (kind == "axisangle") {
      const Eigen::Vector4d a = required<4>(e, "axisangle", cls);
      if (a.head<3>().norm() < 1e-10)
        fail(e, "<" + std::string(e->Name()) + "axisangle>: zero axis");
      return rotation(a.head<3>(), angle(a[3]));
    }
    if (kind == "euler") {
      // each angle about an axis of eulerseq: lower case turns about the moving axes (multiply
      // on the right), upper case about the fixed ones (on the left)
      const Vec3 a = required<3>(e, "euler", cls);
      Mat3 R = Mat3::Identity();
      for (int i = 0; i < 3; ++i) {
        const char axis = euler_sequence_[i];
        const Vec3 u = Vec3::Unit(std::tolower(axis) - 'x');
        R = std::islower(axis) ? Mat3(R * rotation(u, angle(a[i])))
                               : Mat3(rotation(u, angle(a[i])) * R);
      }
      return R;
    }
    if (kind == "xyaxes") {
      const Eigen::Matrix<double, 6, 1> a = required<6>(e, "xyaxes", cls);
      Vec3 x = a.head<3>(), y = a.tail<3>();
      if (x.norm() < 1e-10) fail(e, std::string("<") + e->Name() + " xyaxes>: zero x axis");
      x.normalize();
      y -= x * x.dot(y);
      if (y.norm() < 1e-10) {
        fail(e, std::string("<") + e->Name() + " xyaxes>: the y axis is parallel to x");
      }
      y.normalize();
      Mat3 R;
      R << x, y, x.cross(y);
      return R;
    }
    const Vec3 z = required<3>(e, "zaxis", cls);
    if (z.norm() < 1e-10) fail(e, std::string("<") + e->Name() + " zaxis>: zero axis");
    return z_to(z);
  }

  // pos and orientation, or fromto (geoms and sites: the segment's midpoint, z along it)
  SE3 pose(const XMLElement* e, const std::string& cls) const {
    SE3 M;
    if (get(e, "fromto", cls)) {
      const Eigen::Matrix<double, 6, 1> s = required<6>(e, "fromto", cls);
      const Vec3 d = s.tail<3>() - s.head<3>();
      if (d.norm() < 1e-10) fail(e, std::string("<") + e->Name() + " fromto>: zero length");
      M.p = (s.head<3>() + s.tail<3>()) / 2;
      M.R = z_to(d);
      return M;
    }
    M.p = fixed<3>(e, "pos", cls, Vec3::Zero());
    M.R = orientation(e, cls);
    return M;
  }

  // ---- sections -------------------------------------------------------------------------------

  void compiler(const XMLElement* e) {
    const std::string cls;
    const std::string angle = text(e, "angle", cls, degrees_ ? "degree" : "radian");
    if (angle != "degree" && angle != "radian") {
      fail(e, "<compiler angle=\"" + shown_input(angle) + "\">: expected degree or radian");
    }
    degrees_ = angle == "degree";
    const std::string seq = text(e, "eulerseq", cls, euler_sequence_);
    if (seq.size() != 3 || seq.find_first_not_of("xyzXYZ") != std::string::npos) {
      fail(e, "<compiler eulerseq=\"" + shown_input(seq) +
                  "\">: expected 3 of x, y, z (moving axes) or X, Y, Z (fixed axes)");
    }
    euler_sequence_ = seq;
    autolimits_ = flag(e, "autolimits", cls, autolimits_);
    inertia_from_geom_ = text(e, "inertiafromgeom", cls, inertia_from_geom_);
    if (inertia_from_geom_ != "auto" && inertia_from_geom_ != "true" &&
        inertia_from_geom_ != "false") {
      fail(e, "<compiler inertiafromgeom=\"" + shown_input(inertia_from_geom_) +
                  "\">: expected auto, true or false");
    }
    mesh_dir_ = text(e, "meshdir", cls, text(e, "assetdir", cls, mesh_dir_));
    exact_mesh_inertia_ = flag(e, "exactmeshinertia", cls, exact_mesh_inertia_);
    if (text(e, "coordinate", cls, "local") != "local") {
      fail(e, "<compiler coordinate=\"global\"> is not supported (MuJoCo 2.3 removed it)");
    }
    // what rescales or bounds the masses the file gives
    for (const char* changes : {"boundmass", "boundinertia", "settotalmass"}) {
      if (e->Attribute(changes))
        fail(e, std::string("<compiler ") + changes + "> is not supported");
    }
    if (flag(e, "balanceinertia", cls, false)) {
      fail(e, "<compiler balanceinertia=\"true\"> is not supported");
    }
    if (const char* range = e->Attribute("inertiagrouprange")) {
      if (list(e, "inertiagrouprange", range) != std::vector<double>{0, 5}) {
        fail(e, "<compiler inertiagrouprange> is not supported (every geom counts)");
      }
    }
  }

  void option(const XMLElement* e) {
    const std::string cls;
    // the file's gravity unless --gravity gives another than the default
    const bool file_gravity = options_.gravity == UrdfOptions{}.gravity;
    if (e->Attribute("gravity") && file_gravity) {
      model_.gravity = required<3>(e, "gravity", cls);
    }
    for (const char* fluid : {"density", "viscosity"}) {
      if (number(e, fluid, cls, 0) != 0) {
        fail(e, std::string("<option ") + fluid + "> (fluid forces) is not supported");
      }
    }
    if (e->Attribute("wind") && required<3>(e, "wind", cls) != Vec3::Zero()) {
      fail(e, "<option wind> (fluid forces) is not supported");
    }
    // <flag>: gravity="disable" is a model without gravity; the others switch off what eom does
    // not model (contacts, constraints, passive forces)
    for (const XMLElement* c : children(e)) {
      if (std::string(c->Name()) != "flag")
        fail(c, "unknown element <" + std::string(c->Name()) + "> in <option>");
      if (text(c, "gravity", "", "enable") == "disable" && file_gravity) model_.gravity.setZero();
    }
  }

  // <default> classes, nested: each starts from its parent's attributes (iterative)
  void defaults(const XMLElement* top) {
    std::vector<std::pair<const XMLElement*, std::string>> stack{{top, ""}};
    while (!stack.empty()) {
      const auto [e, parent] = stack.back();
      stack.pop_back();
      const char* given = e->Attribute("class");
      const std::string cls = given ? given : parent.empty() ? "main" : "";
      if (cls.empty()) fail(e, "a nested <default> needs a 'class'");
      if (cls != "main" && defaults_.count(cls)) {
        fail(e, "<default class=\"" + shown_input(cls) + "\"> is defined twice");
      }
      auto& mine = defaults_[cls];
      if (!parent.empty()) mine = defaults_.at(parent);
      for (const XMLElement* c : children(e)) {
        if (std::string(c->Name()) == "default") {
          stack.push_back({c, cls});
          continue;
        }
        Attributes& attributes = mine[c->Name()];
        for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next()) {
          attributes[a->Name()] = a->Value();
        }
      }
    }
  }

  // <mesh> assets by name (the file's stem when unnamed, as MuJoCo names them); read when a geom's
  // mass needs them
  void assets(const XMLElement* asset) {
    for (const XMLElement* c : children(asset)) {
      if (std::string(c->Name()) != "mesh") continue;
      const char* given = c->Attribute("name");
      const char* file = c->Attribute("file");
      const std::string name = given  ? given
                               : file ? std::filesystem::path(file).stem().string()
                                      : std::string();
      if (name.empty()) fail(c, "<mesh> needs a 'name' or a 'file'");
      if (!meshes_.emplace(name, Mesh{c, std::nullopt}).second) {
        fail(c, "the mesh name " + quote_input(name) + " is used twice");
      }
    }
  }

  void ignore(const XMLElement* e) { ignored_.insert(std::string("<") + e->Name() + ">"); }

  void section(const XMLElement* e) {
    const std::string tag = e->Name();
    if (tag == "worldbody") return worldbody(e);
    if (tag == "compiler" || tag == "default" || tag == "option") return;
    if (tag == "equality") {
      for (const XMLElement* c : children(e)) {
        fail(c, "<" + std::string(c->Name()) +
                    "> equality constraints are not supported (eom models open trees)");
      }
      return;
    }
    if (tag == "asset" || tag == "size" || tag == "visual" || tag == "statistic" ||
        tag == "custom" || tag == "extension") {
      return;  // no effect on the dynamics; meshes are refused where their mass is used
    }
    if (tag == "actuator" || tag == "tendon" || tag == "sensor" || tag == "contact" ||
        tag == "keyframe") {
      return ignore(e);
    }
    fail(e, "unknown element <" + tag + "> in <mujoco>");
  }

  // ---- bodies ---------------------------------------------------------------------------------

  // The content of a body, <frame>s opened (their placement composed into the items) and
  // <include>s expanded
  std::vector<Item> content(const XMLElement* body, const std::string& childclass) {
    std::vector<Item> out;
    std::vector<Item> frames{{body, childclass, SE3::Identity()}};
    for (size_t k = 0; k < frames.size(); ++k) {
      const Item frame = frames[k];
      for (const XMLElement* c : children(frame.e)) {
        if (std::string(c->Name()) == "frame") {
          if (frames.size() > 100000) fail(c, "too many <frame> elements");
          const std::string inner = text(c, "childclass", "", frame.childclass);
          frames.push_back({c, inner, frame.frame * pose(c, frame.childclass)});
        } else {
          out.push_back({c, frame.childclass, frame.frame});
        }
      }
    }
    return out;
  }

  static std::string class_of(const Item& item) {
    const char* cls = item.e->Attribute("class");
    return cls ? cls : item.childclass.empty() ? "main" : item.childclass;
  }

  void check_class(const Item& item) const {
    const std::string cls = class_of(item);
    if (cls != "main" && !defaults_.count(cls)) {
      fail(item.e, "<" + std::string(item.e->Name()) + "> uses the undefined <default> class " +
                       quote_input(cls));
    }
  }

  // a frame name for the model: unique among bodies and sites
  std::string frame_name(const XMLElement* e, const char* prefix, int id) {
    const char* given = e->Attribute("name");
    const std::string name = given ? given : prefix + std::to_string(id);
    if (!frame_names_.insert(name).second) {
      fail(e, "the name " + quote_input(name) + " is used by another body or site");
    }
    return name;
  }

  struct Placed {
    const XMLElement* body;
    std::string parent;  // the parent body's name
    int carrier;         // eom joint whose body carries the parent body's frame
    SE3 where;           // the parent body's frame in that joint's frame
    std::string childclass;
    SE3 frame;  // the <frame>s around the body, in the parent body's frame
  };

  // What a body (or the world) holds, sorted
  struct Content {
    std::vector<Item> geoms, joints, sites, bodies;
    const XMLElement* inertial = nullptr;
  };

  void worldbody(const XMLElement* world) {
    const Content held = sort(world, "");
    for (const Item& j : held.joints)
      fail(j.e, "<" + std::string(j.e->Name()) + "> in <worldbody>: joints belong in a <body>");
    if (held.inertial) fail(held.inertial, "<inertial> in <worldbody>: it belongs in a <body>");
    add_sites(held.sites, 0, SE3::Identity());
    std::vector<Placed> stack;
    push_bodies(held.bodies, "world", 0, SE3::Identity(), stack);
    while (!stack.empty()) {
      const Placed next = stack.back();
      stack.pop_back();
      body(next, stack);
    }
  }

  Content sort(const XMLElement* e, const std::string& childclass) {
    Content held;
    for (const Item& item : content(e, childclass)) {
      const std::string tag = item.e->Name();
      if (tag != "body" && tag != "inertial") check_class(item);
      if (tag == "body") {
        held.bodies.push_back(item);
      } else if (tag == "site") {
        held.sites.push_back(item);
      } else if (tag == "geom") {
        held.geoms.push_back(item);
      } else if (tag == "joint" || tag == "freejoint") {
        if (!item.frame.R.isIdentity() || !item.frame.p.isZero()) {
          fail(item.e, "<" + tag + "> inside a placed <frame> is not supported");
        }
        held.joints.push_back(item);
      } else if (tag == "inertial") {
        if (held.inertial) fail(item.e, "a <body> has one <inertial>");
        if (!item.frame.R.isIdentity() || !item.frame.p.isZero()) {
          fail(item.e, "<inertial> inside a <frame> is not supported");
        }
        held.inertial = item.e;
      } else if (tag == "camera" || tag == "light") {
        // no effect on the dynamics
      } else if (tag == "composite" || tag == "flexcomp" || tag == "replicate" || tag == "plugin") {
        fail(item.e, "<" + tag + "> is not supported");
      } else {
        fail(item.e, "unknown element <" + tag + "> in <" + e->Name() + ">");
      }
    }
    return held;
  }

  void add_sites(const std::vector<Item>& sites, int carrier, const SE3& where) {
    for (const Item& site : sites) {
      const std::string name = frame_name(site.e, "site", site_count_++);
      model_.frames.push_back({name, carrier, where * site.frame * pose(site.e, class_of(site))});
    }
  }

  // child bodies go on the stack last first, so that they are read in document order (MuJoCo's
  // body numbering: depth first)
  void push_bodies(const std::vector<Item>& bodies, const std::string& parent, int carrier,
                   const SE3& where, std::vector<Placed>& stack) {
    for (auto b = bodies.rbegin(); b != bodies.rend(); ++b) {
      stack.push_back({b->e, parent, carrier, where, b->childclass, b->frame});
    }
  }

  void body(const Placed& placed, std::vector<Placed>& stack) {
    const XMLElement* e = placed.body;
    const char* childclass = e->Attribute("childclass");
    const std::string cls = childclass ? childclass : placed.childclass;
    if (childclass && !defaults_.count(cls)) {
      fail(e, "<body childclass=\"" + shown_input(cls) + "\">: no such <default> class");
    }
    if (e->Attribute("gravcomp") && number(e, "gravcomp", "", 0) != 0) {
      fail(e, "<body gravcomp> (gravity compensation) is not supported");
    }
    const std::string name = frame_name(e, "body", ++body_count_);
    const Content held = sort(e, cls);
    // the body's frame, carried by its last joint (or by its parent's carrier when it has none)
    int carrier = placed.carrier;
    SE3 where = placed.where * placed.frame * pose(e, "");
    for (const Item& j : held.joints) {
      std::tie(carrier, where) = joint(j, placed, carrier, where, held.joints.size(), name);
    }
    model_.frames.push_back({name, carrier, where});
    add_sites(held.sites, carrier, where);
    const Inertia I = body_inertia(held, carrier != 0);
    model_.inertia[carrier] += I.transformed(where);
    model_.total_mass += I.m;
    body_mass_.push_back({carrier, I.m});
    push_bodies(held.bodies, name, carrier, where, stack);
  }

  // One joint of a body: added to the model below `carrier`; returns the joint's index and the
  // body frame's placement in it (MuJoCo turns the body about the joint's anchor `pos`: the body
  // frame sits at -pos in the joint's frame, whose axes are the body's)
  std::pair<int, SE3> joint(const Item& item, const Placed& placed, int carrier, const SE3& where,
                            size_t count, const std::string& body) {
    const XMLElement* e = item.e;
    const std::string cls = class_of(item);
    const bool free_tag = std::string(e->Name()) == "freejoint";
    const std::string type = free_tag ? "free" : text(e, "type", cls, "hinge");
    const int id = joint_count_++;
    JointInfo info;
    info.line = e->GetLineNum();
    joint_elements_.push_back(e);
    info.parent_link = placed.parent;
    info.child_link = body;
    const char* given = e->Attribute("name");
    // on each of the joint's dofs (MuJoCo's dof_armature); <freejoint> is MuJoCo's shortcut for a
    // free joint with armature 0, whatever the defaults say
    info.armature = free_tag ? 0 : number(e, "armature", cls, 0);
    if (info.armature < 0) fail(e, "<joint armature> is negative");
    if (type == "free" && info.armature != 0) {
      // MuJoCo adds it on the world-frame translation of qvel: in eom's body-frame twist that is
      // a (dv/dt + w x v), not a constant on M's diagonal
      fail(e,
           "<joint type=\"free\" armature>: armature on a free joint is not supported (MuJoCo "
           "adds it to the world-frame translation, eom's v is the body-frame twist)");
    }
    if (type == "free") {
      if (count > 1) fail(e, "a free joint must be its body's only joint");
      if (placed.parent != "world") {
        fail(e, "a free joint's body must be a child of <worldbody>");
      }
      info.urdf_type = "floating";
      const std::string name = given                 ? std::string(given)
                               : model_.njoints == 1 ? std::string(kFreeFlyerJoint)
                                                     : "joint" + std::to_string(id);
      // MuJoCo places a free body by qpos alone: the body's pos and quat are its qpos0
      const int index =
          add_joint(unique_joint(e, name),
                    Joint::make(JointKind::floating, Vec3::UnitZ(), model_.nq, model_.nv, false), 0,
                    SE3::Identity(), std::move(info));
      return {index, SE3::Identity()};
    }
    if (type != "hinge" && type != "slide" && type != "ball") {
      fail(e, "<joint type=\"" + shown_input(type) + "\">: expected hinge, slide, ball or free");
    }
    const bool hinge = type == "hinge", ball = type == "ball";
    // a ball joint turns about every axis through its pos: an axis on it is a mistake (one from a
    // <default> class is meant for the class's hinges and slides, and MuJoCo ignores it)
    if (ball && e->Attribute("axis")) {
      fail(e, "<joint type=\"ball\" axis>: a ball joint turns about every axis, it has none");
    }
    const Vec3 pos = fixed<3>(e, "pos", cls, Vec3::Zero());
    const Vec3 axis = ball ? Vec3::UnitZ() : fixed<3>(e, "axis", cls, Vec3::UnitZ());
    if (axis.norm() < 1e-10) fail(e, "<joint axis>: zero axis");
    // MuJoCo reads ref for slide and hinge joints only: a ball joint's qpos0 is the identity
    const double ref = ball    ? 0
                       : hinge ? angle(number(e, "ref", cls, 0))
                               : number(e, "ref", cls, 0);
    if (number(e, "stiffness", cls, 0) != 0) springs_ = true;
    info.damping = number(e, "damping", cls, 0);
    info.friction = number(e, "frictionloss", cls, 0);
    if (info.damping < 0) fail(e, "<joint damping> is negative");
    if (info.friction < 0) fail(e, "<joint frictionloss> is negative");
    // limits: limited="true", or with autolimits a range given (MuJoCo 2.2 refuses a range
    // without either)
    const std::string limited = text(e, "limited", cls, "auto");
    const bool has_range = get(e, "range", cls) != nullptr;
    if (limited != "true" && limited != "false" && limited != "auto") {
      fail(e, "<joint limited=\"" + shown_input(limited) + "\">: expected true, false or auto");
    }
    if (limited == "auto" && has_range && !autolimits_) {
      fail(e,
           "<joint range> without limited=\"true\": set <compiler autolimits=\"true\"> or "
           "limited (as MuJoCo requires)");
    }
    info.has_limit = limited == "true" || (limited == "auto" && has_range);
    if (ball && info.has_limit) {
      // MuJoCo's ball limit is a cone on the rotation angle, a constraint eom does not model
      fail(e,
           "<joint type=\"ball\" range>: a ball joint's limit (a cone on its rotation angle) is "
           "not supported; set limited=\"false\" or remove the range");
    }
    info.urdf_type = ball             ? "ball"
                     : !hinge         ? "prismatic"
                     : info.has_limit ? "revolute"
                                      : "continuous";
    if (info.has_limit) {
      const Eigen::Vector2d range = fixed<2>(e, "range", cls, Eigen::Vector2d::Zero());
      info.lower = hinge ? angle(range[0]) : range[0];
      info.upper = hinge ? angle(range[1]) : range[1];
      if (!(info.lower < info.upper)) {
        fail(e, "<joint range>: the lower limit must be below the upper");
      }
      if (hinge && !degrees_ && info.upper - info.lower > 2 * kPi + 1e-9) {
        range_warnings_.push_back(e);
      }
    }
    // at q = ref the body is where the file puts it: the motion is by q - ref
    SE3 joint_frame = where;
    joint_frame.p = where.act(pos);
    const SE3 back{Mat3::Identity(), -pos};
    SE3 offset;
    if (hinge) {
      offset.R = rotation(axis, -ref);
    } else {
      offset.p = -ref * axis.normalized();
    }
    const std::string name = given ? given : "joint" + std::to_string(id);
    const JointKind kind = ball    ? JointKind::ball
                           : hinge ? JointKind::revolute
                                   : JointKind::prismatic;
    const int index =
        add_joint(unique_joint(e, name),
                  Joint::make(kind, axis.normalized(), model_.nq, model_.nv, info.has_limit),
                  carrier, joint_frame * offset, std::move(info));
    return {index, back};
  }

  std::string unique_joint(const XMLElement* e, const std::string& name) {
    if (model_.joint_index(name) >= 0 || name == "world") {
      fail(e, "the joint name " + quote_input(name) + " is used twice");
    }
    return name;
  }

  int add_joint(const std::string& name, const Joint& joint, int parent, const SE3& placement,
                JointInfo info) {
    return detail::append_joint(model_, name, joint, parent, placement, Inertia::Zero(),
                                std::move(info));
  }

  // ---- inertia --------------------------------------------------------------------------------

  // <inertial>, or the geoms' (compiler inertiafromgeom: auto uses them when there is none)
  Inertia body_inertia(const Content& held, bool moving) {
    if (held.inertial && inertia_from_geom_ != "true") return explicit_inertia(held.inertial);
    if (inertia_from_geom_ == "false") return Inertia::Zero();
    Inertia sum;
    for (const Item& geom : held.geoms) sum += geom_inertia(geom, moving);
    return sum;
  }

  Inertia explicit_inertia(const XMLElement* e) {
    const std::string cls;
    if (!e->Attribute("pos")) fail(e, "<inertial> needs a 'pos'");
    if (!e->Attribute("mass")) fail(e, "<inertial> needs a 'mass'");
    const SE3 frame = pose(e, cls);
    const double m = number(e, "mass", cls, 0);
    if (m < 0) fail(e, "<inertial mass> is negative");
    Mat3 I;
    if (e->Attribute("diaginertia") && e->Attribute("fullinertia")) {
      fail(e, "<inertial> has both diaginertia and fullinertia");
    }
    if (e->Attribute("diaginertia")) {
      I = required<3>(e, "diaginertia", cls).asDiagonal();
    } else if (e->Attribute("fullinertia")) {
      // ixx iyy izz ixy ixz iyz
      const Eigen::Matrix<double, 6, 1> f = required<6>(e, "fullinertia", cls);
      I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
    } else {
      fail(e, "<inertial> needs a 'diaginertia' or a 'fullinertia'");
    }
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(I);
    const Vec3 d = eig.eigenvalues();
    if (d.minCoeff() < -1e-12 * std::max(1.0, d.maxCoeff()) || d[0] + d[1] < d[2] * (1 - 1e-9)) {
      fail(e,
           "<inertial>: the inertia is not a rigid body's (positive, and each principal "
           "moment at most the sum of the other two)");
    }
    return {m, frame.p, frame.R * I * frame.R.transpose()};
  }

  // half the length of a geom's fromto segment
  double half_length(const XMLElement* e, const std::string& cls) const {
    const Eigen::Matrix<double, 6, 1> s = required<6>(e, "fromto", cls);
    return (s.tail<3>() - s.head<3>()).norm() / 2;
  }

  // A geom's mass and inertia as mjCGeom::SetInertia computes them, in the body frame
  Inertia geom_inertia(const Item& item, bool moving) {
    const XMLElement* e = item.e;
    const std::string cls = class_of(item);
    for (const char* collision : {"contype", "conaffinity", "condim", "friction", "solref",
                                  "solimp", "margin", "gap", "priority", "solmix"}) {
      if (get(e, collision, cls)) collision_ = true;
    }
    const std::string type = text(e, "type", cls, "sphere");
    const char* given_mass = get(e, "mass", cls);
    const double density = number(e, "density", cls, 1000);
    if (type != "mesh" && get(e, "mesh", cls)) {
      fail(e, "<geom type=\"" + shown_input(type) +
                  "\" mesh>: a primitive fitted to a mesh is not supported");
    }
    if (type == "mesh" || type == "hfield" || type == "plane" || type == "sdf") {
      if (given_mass && number(e, "mass", cls, 0) == 0) return {};
      if (!moving && type == "plane") return {};
      if (type == "mesh") return mesh_geom_inertia(item, density);
      fail(e, "<geom type=\"" + type + "\">: eom does not read " + type +
                  " geoms; give the body an <inertial> (or the geom mass=\"0\")");
    }
    const std::vector<double> size =
        get(e, "size", cls) ? list(e, "size", get(e, "size", cls)) : std::vector<double>{};
    const bool fromto = get(e, "fromto", cls) != nullptr;
    if (fromto && type == "sphere") fail(e, "<geom fromto> does not apply to a sphere");
    const auto need = [&](size_t n) {
      if (size.size() < n) {
        fail(e, "<geom type=\"" + type + "\">: 'size' needs " + std::to_string(n) +
                    (n == 1 ? " number" : " numbers"));
      }
      for (size_t k = 0; k < n; ++k) {
        if (size[k] < 0) fail(e, "<geom size>: negative");
      }
    };
    SE3 frame = item.frame * pose(e, cls);
    double volume = 0;
    Vec3 I;  // per unit mass, principal, in the geom frame
    if (type == "sphere") {
      need(1);
      const double r = size[0];
      volume = 4.0 / 3 * kPi * r * r * r;
      I.setConstant(2 * r * r / 5);
    } else if (type == "capsule" || type == "cylinder") {
      need(fromto ? 1 : 2);
      const double r = size[0];
      const double half = fromto ? half_length(e, cls) : size[1];
      const double h = 2 * half;  // the cylinder's height
      const double cylinder = kPi * r * r * h;
      if (type == "cylinder") {
        volume = cylinder;
        I << (3 * r * r + h * h) / 12, (3 * r * r + h * h) / 12, r * r / 2;
      } else {
        // the cylinder and two hemispheres, each hemisphere's centroid 3r/8 beyond the cylinder's
        // end (parallel axes): I_xx = m_c (3r^2 + h^2)/12 + m_s (2r^2/5 + h^2/4 + 3hr/8)
        const double sphere = 4.0 / 3 * kPi * r * r * r;
        volume = cylinder + sphere;
        const double ms = sphere / volume, mc = cylinder / volume;
        const double side =
            mc * (3 * r * r + h * h) / 12 + ms * (2 * r * r / 5 + h * h / 4 + 3 * h * r / 8);
        I << side, side, mc * r * r / 2 + ms * 2 * r * r / 5;
      }
    } else if (type == "box") {
      // fromto: size[0] across (x and y), half the segment along z (MuJoCo 2.2's mjCGeom)
      need(fromto ? 1 : 3);
      const double a = size[0], b = fromto ? a : size[1],
                   c = fromto ? half_length(e, cls) : size[2];
      volume = 8 * a * b * c;
      I << (b * b + c * c) / 3, (a * a + c * c) / 3, (a * a + b * b) / 3;
    } else if (type == "ellipsoid") {
      need(fromto ? 1 : 3);
      const double a = size[0], b = fromto ? a : size[1],
                   c = fromto ? half_length(e, cls) : size[2];
      volume = 4.0 / 3 * kPi * a * b * c;
      I << (b * b + c * c) / 5, (a * a + c * c) / 5, (a * a + b * b) / 5;
    } else {
      fail(e, "<geom type=\"" + shown_input(type) +
                  "\">: expected sphere, capsule, cylinder, box, ellipsoid, mesh, plane or hfield");
    }
    const double m = given_mass ? number(e, "mass", cls, 0) : density * volume;
    if (m < 0) fail(e, "<geom mass> is negative");
    const Mat3 Ic = frame.R * (m * I).asDiagonal() * frame.R.transpose();
    return {m, frame.p, Ic};
  }

  // A mesh geom's mass and inertia in the body frame: the mesh's (parsers/mesh.hpp), computed once
  // per mesh, placed by the geom's pos and orientation
  Inertia mesh_geom_inertia(const Item& item, double density) {
    const XMLElement* e = item.e;
    const std::string cls = class_of(item);
    const std::string name = text(e, "mesh", cls, "");
    if (name.empty()) fail(e, "<geom type=\"mesh\"> needs a 'mesh'");
    const auto it = meshes_.find(name);
    if (it == meshes_.end()) {
      fail(e, "<geom mesh=" + quote_input(name) + ">: no <mesh> of that name in <asset>");
    }
    if (!it->second.inertia) it->second.inertia = read_mesh_asset(it->second.e);
    const detail::MeshInertia& mesh = *it->second.inertia;
    const double m = get(e, "mass", cls) ? number(e, "mass", cls, 0) : density * mesh.volume;
    if (m < 0) fail(e, "<geom mass> is negative");
    const SE3 frame = item.frame * pose(e, cls);
    return {m, frame.act(mesh.com), frame.R * (m * mesh.inertia_per_mass) * frame.R.transpose()};
  }

  // A <mesh>'s file read, placed (refpos, refquat) and scaled as MuJoCo's compiler does, and its
  // mass properties; the file is found as MuJoCo finds it: as given when absolute, else in the
  // compiler's meshdir (itself relative to the model file's directory unless absolute)
  detail::MeshInertia read_mesh_asset(const XMLElement* e) {
    const char* cls_given = e->Attribute("class");
    const std::string cls = cls_given ? cls_given : "main";
    if (cls != "main" && !defaults_.count(cls)) {
      fail(e, "<mesh> uses the undefined <default> class " + quote_input(cls));
    }
    const char* file = e->Attribute("file");
    if (!file) {
      fail(e,
           "<mesh> without a 'file' (vertices in the XML) is not supported: eom reads mesh "
           "files");
    }
    namespace fs = std::filesystem;
    const fs::path base = main_file_ == "<stdin>" ? fs::path() : fs::path(main_file_).parent_path();
    const fs::path dir = fs::path(mesh_dir_).is_absolute() ? fs::path(mesh_dir_) : base / mesh_dir_;
    const std::string path =
        (fs::path(file).is_absolute() ? fs::path(file) : dir / file).lexically_normal().string();
    const Vec3 scale = fixed<3>(e, "scale", cls, Vec3::Ones());
    if (scale.prod() == 0) fail(e, "<mesh scale> has a zero factor");
    const Vec3 refpos = fixed<3>(e, "refpos", cls, Vec3::Zero());
    const Eigen::Vector4d refquat = fixed<4>(e, "refquat", cls, Eigen::Vector4d(1, 0, 0, 0));
    if (refquat.norm() < 1e-10) fail(e, "<mesh refquat>: a zero quaternion");
    const Mat3 R =
        Eigen::Quaterniond(refquat[0], refquat[1], refquat[2], refquat[3]).normalized().matrix();
    const std::string where = "<mesh file=\"" + shown_input(file) + "\">: ";
    try {
      std::vector<detail::Triangle> triangles = detail::read_mesh(path);
      // MuJoCo moves the vertices by refpos, turns them by refquat^-1, then scales them
      for (detail::Triangle& t : triangles) {
        for (Vec3& v : t) v = (R.transpose() * (v - refpos)).cwiseProduct(scale);
        if (scale.prod() < 0) std::swap(t[1], t[2]);
      }
      if (exact_mesh_inertia_) {
        if (const size_t open = detail::open_edges(triangles)) {
          fail(e, where + quote_input(path) + " is not a closed surface with outward faces (" +
                      std::to_string(open) +
                      " edges not shared by two faces in opposite "
                      "directions): it bounds no solid to weigh");
        }
      }
      const detail::MeshInertia inertia = detail::mesh_inertia(triangles, exact_mesh_inertia_);
      if (!inertia.star_shaped) {
        warn(place(e) + ": " + where +
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
      fail(e, where + (message.rfind("'", 0) == 0 ? message : quote_input(path) + ": " + message));
    }
  }

  // ---- the end --------------------------------------------------------------------------------

  void finish() {
    // a moving joint whose subtree has no mass makes M singular
    std::vector<double> mass(model_.njoints, 0);
    for (const auto& b : body_mass_) mass[b.carrier] += b.mass;
    for (int i = model_.njoints - 1; i > 0; --i) {
      if (model_.parent[i] > 0) mass[model_.parent[i]] += mass[i];
    }
    for (int i = 1; i < model_.njoints; ++i) {
      if (mass[i] <= 0) {
        fail(joint_elements_[i - 1],
             "joint " + quote_input(model_.joint_names[i]) +
                 " moves no mass: its body and those below it have neither an "
                 "<inertial> nor geoms with mass");
      }
    }
    // a free joint first, carrying everything: eom's floating base
    bool floating = model_.njoints > 1 && is_floating(model_.joints[1]);
    for (int i = 2; floating && i < model_.njoints; ++i) floating = model_.parent[i] != 0;
    if (floating) {
      model_.floating_base = true;
      model_.info[1].urdf_type = "free-flyer";
      model_.root_link = model_.info[1].child_link;
    } else if (options_.floating_base) {
      throw ModelError(main_file_, 0, 0,
                       "--floating-base: an MJCF model floats by a <freejoint> in its top body");
    }
    for (const XMLElement* e : range_warnings_) {
      warn(place(e) +
           ": <joint range> spans more than 2 pi with <compiler angle=\"radian\">: "
           "degrees given as radians?");
    }
    if (springs_) {
      warn("joint stiffness (springs) ignored: eom models no spring forces");
    }
    if (!ignored_.empty() || collision_) {
      std::string list;
      for (const std::string& tag : ignored_) list += (list.empty() ? "" : ", ") + tag;
      if (collision_) list += std::string(list.empty() ? "" : ", ") + "geom contact properties";
      warn("ignored (no part of eom's rigid-body model): " + list);
    }
    detail::index_coordinates(model_);
  }

  struct FileInfo {
    std::string file;
    const XMLDocument* includer = nullptr;
    int depth = 0;
  };
  struct BodyMass {
    int carrier;
    double mass;
  };

  const std::string main_file_;
  const UrdfOptions options_;
  std::vector<Diagnostic>* warnings_;
  std::vector<std::unique_ptr<XMLDocument>> docs_;
  std::map<const XMLDocument*, FileInfo> files_;
  std::map<std::string, std::map<std::string, Attributes>> defaults_;  // class -> tag -> values
  bool degrees_ = true;
  std::string euler_sequence_ = "xyz";
  bool autolimits_ = false;
  std::string inertia_from_geom_ = "auto";
  std::string mesh_dir_;
  bool exact_mesh_inertia_ = false;
  struct Mesh {
    const XMLElement* e;
    std::optional<detail::MeshInertia> inertia;
  };
  std::map<std::string, Mesh> meshes_;
  Model model_;
  std::set<std::string> frame_names_;
  std::set<std::string> ignored_;
  std::vector<const XMLElement*> range_warnings_;
  std::vector<BodyMass> body_mass_;
  std::vector<const XMLElement*> joint_elements_;  // of joint i + 1, for messages
  bool springs_ = false, collision_ = false;
  int body_count_ = 0, joint_count_ = 0, site_count_ = 0;
};

}  // namespace

bool is_mjcf(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  for (;;) {
    const size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return false;
    text.remove_prefix(start);
    // the XML declaration, comments and a DOCTYPE come before the root element
    const char* close = text.rfind("<?", 0) == 0     ? "?>"
                        : text.rfind("<!--", 0) == 0 ? "-->"
                        : text.rfind("<!", 0) == 0   ? ">"
                                                     : nullptr;
    if (!close) break;
    const size_t end = text.find(close);
    if (end == std::string_view::npos) return false;
    text.remove_prefix(end + std::char_traits<char>::length(close));
  }
  if (text.rfind("<mujoco", 0) != 0 || text.size() == 7) return false;
  const char next = text[7];
  return next == '>' || next == '/' || std::isspace(static_cast<unsigned char>(next));
}

Model build_mjcf_model(const std::string& text, const std::string& file, const UrdfOptions& options,
                       std::vector<Diagnostic>* warnings) {
  return MjcfReader(file, options, warnings).read(text);
}

}  // namespace eom
