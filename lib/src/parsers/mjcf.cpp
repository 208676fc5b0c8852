// MJCF reading (tinyxml2): MuJoCo's kinematic and inertial subset, read as MuJoCo 2.2's
// xml_native_reader reads it and compiled as its compiler does (mjCBody, mjCJoint in
// user_objects.cc), into eom's Model. Attribute reading is in mjcf_attributes.cpp, the bodies'
// inertias (<inertial>, geoms, meshes) in mjcf_inertia.cpp.

#include "eom/parsers/mjcf.hpp"

#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include <tinyxml2.h>

#include "eom/core/errors.hpp"
#include "eom/multibody/component_names.hpp"
#include "core/tolerances.hpp"
#include "parsers/index_coordinates.hpp"
#include "parsers/physical_bounds.hpp"
#include "parsers/mjcf_actuators.hpp"
#include "parsers/mjcf_attributes.hpp"
#include "parsers/mjcf_inertia.hpp"
#include "parsers/xml_error.hpp"

namespace eom {
namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using namespace detail;
using Item = MjcfItem;

// <include> nesting and count: bounded whatever the input says
constexpr int kMaxIncludeDepth = 32;
constexpr int kMaxIncludedFiles = 1000;

// The reader is an attribute reader of its documents (as MuJoCo's mjXReader is an mjXBase)
class MjcfReader : MjcfAttributes {
 public:
  MjcfReader(const std::string& file, const LoadOptions& options, std::vector<Diagnostic>* warnings)
      : MjcfAttributes(file, warnings), options_(options), inertia_(*this) {}

  Model read(const std::string& text) {
    const XMLDocument& doc = parse(text, main_file(), nullptr, 0);
    const XMLElement* root = doc.RootElement();
    model_.name = root->Attribute("model")   ? root->Attribute("model")
                  : main_file() == "<stdin>" ? "model"
                                             : std::filesystem::path(main_file()).stem().string();
    model_.gravity = options_.gravity;
    model_.root_link = "world";
    add_joint("world", Joint{}, -1, SE3::Identity(), JointInfo{});
    model_.frames.push_back({"world", 0, SE3::Identity(), ""});
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
  // ---- files ----------------------------------------------------------------------------------

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
    add_source(doc.get(), {file, includer, depth});
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
    const std::string path = (base_directory() / name).lexically_normal().string();
    const Source& including = source(e->GetDocument());
    std::error_code error;
    for (const XMLDocument* d = e->GetDocument(); d; d = source(d).includer) {
      const std::string& other = source(d).file;
      if (other == path || std::filesystem::equivalent(other, path, error)) {
        // the whole chain, from the main file through the loop to the file included again
        std::string chain = path;
        for (const XMLDocument* x = e->GetDocument(); x; x = source(x).includer) {
          chain = source(x).file + " -> " + chain;
        }
        fail(e, "<include file=\"" + shown_input(name) + "\">: " + quote_input(path) +
                    " includes itself: " + chain);
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

  // ---- sections -------------------------------------------------------------------------------

  void compiler(const XMLElement* e) {
    const std::string cls;
    const std::string angle = text(e, "angle", cls, settings.degrees ? "degree" : "radian");
    if (angle != "degree" && angle != "radian") {
      fail(e, "<compiler angle=\"" + shown_input(angle) + "\">: expected degree or radian");
    }
    settings.degrees = angle == "degree";
    const std::string seq = text(e, "eulerseq", cls, settings.euler_sequence);
    if (seq.size() != 3 || seq.find_first_not_of("xyzXYZ") != std::string::npos) {
      fail(e, "<compiler eulerseq=\"" + shown_input(seq) +
                  "\">: expected 3 of x, y, z (moving axes) or X, Y, Z (fixed axes)");
    }
    settings.euler_sequence = seq;
    autolimits_ = flag(e, "autolimits", cls, autolimits_);
    MjcfInertiaSettings& inertia = inertia_.settings;
    inertia.from_geom = text(e, "inertiafromgeom", cls, inertia.from_geom);
    if (inertia.from_geom != "auto" && inertia.from_geom != "true" &&
        inertia.from_geom != "false") {
      fail(e, "<compiler inertiafromgeom=\"" + shown_input(inertia.from_geom) +
                  "\">: expected auto, true or false");
    }
    inertia.mesh_dir = text(e, "meshdir", cls, text(e, "assetdir", cls, inertia.mesh_dir));
    inertia.exact_mesh = flag(e, "exactmeshinertia", cls, inertia.exact_mesh);
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
    // the file's gravity unless the options give another than the default
    const bool file_gravity = options_.gravity == LoadOptions{}.gravity;
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
      if (cls != "main" && has_class(cls)) {
        fail(e, "<default class=\"" + shown_input(cls) + "\"> is defined twice");
      }
      auto& mine = settings.defaults[cls];
      if (!parent.empty()) mine = settings.defaults.at(parent);
      for (const XMLElement* c : children(e)) {
        if (std::string(c->Name()) == "default") {
          stack.push_back({c, cls});
          continue;
        }
        std::map<std::string, std::string>& attributes = mine[default_entry(c->Name())];
        for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next()) {
          attributes[a->Name()] = a->Value();
        }
      }
    }
  }

  // <mesh> assets, read when a geom's mass needs them
  void assets(const XMLElement* asset) {
    for (const XMLElement* c : children(asset)) {
      if (std::string(c->Name()) == "mesh") inertia_.add_mesh(c);
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
    if (tag == "actuator") {
      // read when every joint is known (MuJoCo names the joints of any section in any order)
      for (const XMLElement* c : children(e)) actuators_.push_back(c);
      return;
    }
    if (tag == "tendon" || tag == "sensor" || tag == "contact" || tag == "keyframe") {
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

  void check_class(const Item& item) const {
    const std::string cls = class_of(item);
    if (cls != "main" && !has_class(cls)) {
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
    add_sites(held.sites, "world", 0, SE3::Identity());
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

  void add_sites(const std::vector<Item>& sites, const std::string& body, int carrier,
                 const SE3& where) {
    for (const Item& site : sites) {
      const std::string name = frame_name(site.e, "site", site_count_++);
      model_.frames.push_back(
          {name, carrier, where * site.frame * pose(site.e, class_of(site)), body});
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
    if (childclass && !has_class(cls)) {
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
    // a body without joints is welded to its parent body
    model_.frames.push_back({name, carrier, where, held.joints.empty() ? placed.parent : ""});
    add_sites(held.sites, name, carrier, where);
    const Inertia I = inertia_.body(held.inertial, held.geoms, carrier != 0);
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
    // on each of the joint's dofs (MuJoCo's dof_armature); <freejoint> is MuJoCo's shortcut for a
    // free joint with armature 0, whatever the defaults say
    info.armature = free_tag ? 0 : number(e, "armature", cls, 0);
    if (info.armature < 0) fail(e, "<joint armature> is negative");
    if (type == "free") return free_joint(e, std::move(info), placed, count, id);
    if (type != "hinge" && type != "slide" && type != "ball") {
      fail(e, "<joint type=\"" + shown_input(type) + "\">: expected hinge, slide, ball or free");
    }
    return axis_joint(e, cls, type, std::move(info), carrier, where, id);
  }

  // A free joint: the first one, unnamed, is the free-flyer "root" of a floating base
  std::pair<int, SE3> free_joint(const XMLElement* e, JointInfo info, const Placed& placed,
                                 size_t count, int id) {
    if (info.armature != 0) {
      // MuJoCo adds it on the world-frame translation of qvel: in eom's body-frame twist that is
      // a (dv/dt + w x v), not a constant on M's diagonal
      fail(e,
           "<joint type=\"free\" armature>: armature on a free joint is not supported (MuJoCo "
           "adds it to the world-frame translation, eom's v is the body-frame twist)");
    }
    if (count > 1) fail(e, "a free joint must be its body's only joint");
    if (placed.parent != "world") {
      fail(e, "a free joint's body must be a child of <worldbody>");
    }
    const char* given = e->Attribute("name");
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

  // A hinge, slide or ball joint: its anchor, axis (none for a ball), reference position, damping,
  // friction loss and limits
  std::pair<int, SE3> axis_joint(const XMLElement* e, const std::string& cls,
                                 const std::string& type, JointInfo info, int carrier,
                                 const SE3& where, int id) {
    const bool hinge = type == "hinge", ball = type == "ball";
    // a ball joint turns about every axis through its pos: an axis on it is a mistake (one from a
    // <default> class is meant for the class's hinges and slides, and MuJoCo ignores it)
    if (ball && e->Attribute("axis")) {
      fail(e, "<joint type=\"ball\" axis>: a ball joint turns about every axis, it has none");
    }
    const Vec3 pos = fixed<3>(e, "pos", cls, Vec3::Zero());
    const Vec3 axis = ball ? Vec3::UnitZ() : fixed<3>(e, "axis", cls, Vec3::UnitZ());
    if (axis.norm() < kZeroLength) fail(e, "<joint axis>: zero axis");
    // MuJoCo reads ref for slide and hinge joints only: a ball joint's qpos0 is the identity
    const double ref = ball    ? 0
                       : hinge ? angle(number(e, "ref", cls, 0))
                               : number(e, "ref", cls, 0);
    if (number(e, "stiffness", cls, 0) != 0) springs_ = true;
    info.damping = number(e, "damping", cls, 0);
    info.friction = number(e, "frictionloss", cls, 0);
    if (info.damping < 0) fail(e, "<joint damping> is negative");
    if (info.friction < 0) fail(e, "<joint frictionloss> is negative");
    read_limits(e, cls, hinge, ball, info);
    if (!ball) info.effort = joint_actuator_force_bound(*this, e, cls, autolimits_);
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
    const char* given = e->Attribute("name");
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

  // limited="true", or with autolimits a range given (MuJoCo 2.2 refuses a range without either)
  void read_limits(const XMLElement* e, const std::string& cls, bool hinge, bool ball,
                   JointInfo& info) {
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
    if (!info.has_limit) return;
    const Eigen::Vector2d range = fixed<2>(e, "range", cls, Eigen::Vector2d::Zero());
    info.lower = hinge ? angle(range[0]) : range[0];
    info.upper = hinge ? angle(range[1]) : range[1];
    if (!(info.lower < info.upper)) {
      fail(e, "<joint range>: the lower limit must be below the upper");
    }
    // real joints turn up to two turns (the UR5e's -2 pi to 2 pi): only a range beyond that
    // reads as degrees
    if (hinge && !settings.degrees && info.upper - info.lower > 4 * kPi + kFullTurnRoundOff) {
      range_warnings_.push_back(e);
    }
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
      model_.root_link = model_.info[1].child_link;
    } else if (options_.floating_base) {
      throw ModelError(
          main_file(), 0, 0,
          "a floating base is added to URDF and JSON models only: an MJCF model floats by "
          "a <freejoint> in its top body");
    }
    if (!range_warnings_.empty()) {
      std::string joints;
      for (const XMLElement* e : range_warnings_) {
        const char* name = e->Attribute("name");
        joints +=
            (joints.empty() ? "" : ", ") + quote_input(name ? name : "") + " (" + place(e) + ")";
      }
      warn("<joint range> of " + joints + (range_warnings_.size() > 1 ? " span" : " spans") +
           " more than two turns (4 pi) with <compiler angle=\"radian\">: degrees given as "
           "radians?");
    }
    for (const std::string& unused :
         read_actuator_force_limits(*this, actuators_, autolimits_, model_)) {
      ignored_.insert(unused);
    }
    if (springs_) {
      warn("joint stiffness (springs) ignored: eom models no spring forces");
    }
    if (!ignored_.empty() || inertia_.saw_contact_properties()) {
      std::string list;
      for (const std::string& tag : ignored_) list += (list.empty() ? "" : ", ") + tag;
      if (inertia_.saw_contact_properties())
        list += std::string(list.empty() ? "" : ", ") + "geom contact properties";
      warn("ignored (no part of eom's rigid-body model): " + list);
    }
    detail::index_coordinates(model_);
  }

  struct BodyMass {
    int carrier;
    double mass;
  };

  const LoadOptions options_;
  std::vector<std::unique_ptr<XMLDocument>> docs_;
  bool autolimits_ = false;
  MjcfInertia inertia_;
  Model model_;
  std::set<std::string> frame_names_;
  std::set<std::string> ignored_;
  std::vector<const XMLElement*> range_warnings_;
  std::vector<BodyMass> body_mass_;
  std::vector<const XMLElement*> joint_elements_;  // of joint i + 1, for messages
  std::vector<const XMLElement*> actuators_;
  bool springs_ = false;
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

Model build_mjcf_model(const std::string& text, const std::string& file, const LoadOptions& options,
                       std::vector<Diagnostic>* warnings) {
  Model model = MjcfReader(file, options, warnings).read(text);
  detail::require_physical_bounds(model, file);
  return model;
}

}  // namespace eom
