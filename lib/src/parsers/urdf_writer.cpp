#include "eom/parsers/urdf_writer.hpp"

#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/multibody/component_names.hpp"
#include "eom/multibody/joint.hpp"
#include "eom/multibody/spatial.hpp"

namespace eom {
namespace {

std::string number(double x) {
  if (x == 0) x = 0;  // -0 (a pitch of atan2(-0, 1)) is written as 0
  return shortest_text(x);
}

std::string numbers(const Vec3& x) {
  return number(x.x()) + " " + number(x.y()) + " " + number(x.z());
}

// an XML attribute value: quoted, with its special characters escaped
std::string attribute(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "&quot;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out += c;
    }
  }
  return out + '"';
}

void write_origin(std::ostream& out, const SE3& M, const char* indent) {
  out << indent << "<origin xyz=" << attribute(numbers(M.p))
      << " rpy=" << attribute(numbers(matrix_to_rpy(M.R))) << "/>\n";
}

void write_inertial(std::ostream& out, const Inertia& I) {
  const Mat3& J = I.I_c;
  out << "    <inertial>\n"
      << "      <origin xyz=" << attribute(numbers(I.c)) << " rpy=\"0 0 0\"/>\n"
      << "      <mass value=" << attribute(number(I.m)) << "/>\n"
      << "      <inertia ixx=" << attribute(number(J(0, 0)))
      << " ixy=" << attribute(number(J(0, 1))) << " ixz=" << attribute(number(J(0, 2)))
      << " iyy=" << attribute(number(J(1, 1))) << " iyz=" << attribute(number(J(1, 2)))
      << " izz=" << attribute(number(J(2, 2))) << "/>\n"
      << "    </inertial>\n";
}

// URDF cannot say a scaled screw axis or a ball joint: InputError naming the joint.
void refuse_unwritable_joints(const Model& model) {
  // a scaled twist of a product-of-exponentials model moves scale per unit of q: a URDF joint
  // moves 1, and rescaling q would change the columns' meaning, so such a model is refused
  for (int i = 1; i < model.njoints; ++i) {
    if (model.joints[i].scale != 1) {
      throw InputError("joint '" + model.joint_names[i] + "' moves " +
                       number_text(model.joints[i].scale) +
                       " per unit of q (a scaled screw axis): a URDF joint moves 1, so the model "
                       "cannot be written as URDF");
    }
    if (is_spherical(model.joints[i])) {
      throw InputError("joint '" + model.joint_names[i] +
                       "' is a ball joint: URDF has no ball (spherical) joint, so the model cannot "
                       "be written as URDF");
    }
  }
}

// The URDF links: the root link and, per joint, the link of its body.
struct UrdfLinks {
  std::string root;
  std::vector<std::string> body_link;
};

UrdfLinks urdf_links(const Model& model) {
  // A URDF link's frame is its joint's frame. A frame of the model that sits there (every child
  // link of a URDF) names the body; else (a DH model's link frames, placed off their joints) the
  // body is a new link <joint>_link and the frame hangs from it like any other. Likewise the root
  // link: the model's, unless a fixed-base model places it away from the world (a DH model's
  // base), where a link "world" is the root.
  auto at_joint_frame = [&](const std::string& name, int joint) {
    const int f = model.frame_index(name);
    return f >= 0 && model.frames[f].parent == joint &&
           model.frames[f].placement.p == Vec3::Zero() &&
           model.frames[f].placement.R == Mat3::Identity();
  };
  const std::string root =
      model.floating_base || at_joint_frame(model.root_link, 0) ? model.root_link : "world";
  std::vector<std::string> body_link(model.njoints, root);
  std::unordered_set<std::string> link_names;
  for (const Frame& f : model.frames) link_names.insert(f.name);
  for (int i = 1; i < model.njoints; ++i) {
    const std::string& child = model.info[i].child_link;
    if (at_joint_frame(child, i)) {
      body_link[i] = child;
      continue;
    }
    std::string name = model.joint_names[i] + "_link";
    while (!link_names.insert(name).second) name += "_";
    body_link[i] = name;
  }
  return {root, body_link};
}

// The <joint> of moving joint i, from link `parent` (its parent's body, or its mount) at `origin`.
void write_joint(std::ostream& out, const Model& model, int i, const std::string& parent,
                 const SE3& origin, const std::vector<std::string>& body_link) {
  const JointInfo& info = model.info[i];
  const Joint& joint = model.joints[i];
  // URDF's revolute joint has position limits; one without them (unbounded) is continuous
  out << "  <joint name=" << attribute(model.joint_names[i])
      << " type=" << attribute(joint_type_name(joint)) << ">\n";
  out << "    <parent link=" << attribute(parent) << "/>\n";
  out << "    <child link=" << attribute(body_link[i]) << "/>\n";
  write_origin(out, origin, "    ");
  if (joint.nv == 1 || joint.kind == JointKind::planar) {
    out << "    <axis xyz=" << attribute(numbers(joint.axis)) << "/>\n";
  }
  // a <limit> element gave effort and velocity (urdfdom refuses one without them), and the
  // position limits of a joint that is not continuous. URDF has no spelling for "no limit"
  // (a model from MJCF or JSON with a range and no effort): the largest double stands for it,
  // which bounds nothing and which eom's URDF reader reads back as no limit (urdf.cpp). A joint
  // without any limit writes no <limit> (a revolute one is written as continuous); a prismatic
  // joint needs its <limit> in URDF: one without position limits gets -+ the largest double.
  const bool needs_limit = joint.kind == JointKind::prismatic && !info.has_limit;
  if (info.has_limit || needs_limit || std::isfinite(info.effort) || std::isfinite(info.velocity)) {
    const auto bound = [](double x) {
      return number(std::isfinite(x) ? x : std::numeric_limits<double>::max());
    };
    out << "    <limit";
    if (info.has_limit || needs_limit) {
      out << " lower=" << attribute(needs_limit ? "-" + bound(INFINITY) : number(info.lower))
          << " upper=" << attribute(needs_limit ? bound(INFINITY) : number(info.upper));
    }
    out << " effort=" << attribute(bound(info.effort))
        << " velocity=" << attribute(bound(info.velocity)) << "/>\n";
  }
  if (info.damping != 0 || info.friction != 0 || info.armature != 0) {
    out << "    <dynamics damping=" << attribute(number(info.damping))
        << " friction=" << attribute(number(info.friction));
    // eom's extension (doc/models.md), which other URDF readers skip
    if (info.armature != 0) out << " armature=" << attribute(number(info.armature));
    out << "/>\n";
  }
  if (info.mimic_joint) {
    out << "    <mimic joint=" << attribute(*info.mimic_joint)
        << " multiplier=" << attribute(number(info.mimic_multiplier))
        << " offset=" << attribute(number(info.mimic_offset)) << "/>\n";
  }
  out << "  </joint>\n";
}

// A URDF reader visits the child joints of a link in byte-wise order of their names (urdf.cpp, as
// the common URDF parser stores them), the model in its own order (an MJCF file's: Go1's FR_hip
// before FL_hip). Where a body's moving child joints are not in name order, each hangs from a
// massless mount link on a fixed joint named <body link>_mount_<k>, k zero-padded, so that the
// fixed joints sort, and the joints read back, in the model's order. "" where no mount is needed.
std::vector<std::string> mount_joint_names(const Model& model,
                                           const std::vector<std::string>& body_link) {
  std::vector<std::vector<int>> children(model.njoints);
  for (int i = 1; i < model.njoints; ++i) {
    if (model.parent[i] >= 0) children[model.parent[i]].push_back(i);
  }
  std::vector<std::string> mount(model.njoints);
  for (int b = 0; b < model.njoints; ++b) {
    const std::vector<int>& list = children[b];
    bool sorted = true;
    for (std::size_t k = 1; k < list.size(); ++k) {
      sorted = sorted && model.joint_names[list[k - 1]] < model.joint_names[list[k]];
    }
    if (sorted) continue;
    const std::size_t width = std::to_string(list.size() - 1).size();
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string digits = std::to_string(k);
      mount[list[k]] = body_link[b] + "_mount_" + std::string(width - digits.size(), '0') + digits;
    }
  }
  return mount;
}

}  // namespace

std::vector<std::string> write_urdf(const Model& model, std::ostream& out) {
  refuse_unwritable_joints(model);
  std::vector<std::string> left_out;
  const UrdfLinks links = urdf_links(model);
  const std::string& root = links.root;
  const std::vector<std::string>& body_link = links.body_link;
  const bool free_root = model.floating_base;
  if (free_root) {
    const std::string& name = model.joint_names[1];
    // the free-flyer a floating base adds (no line in a file), or the file's own free joint (an
    // MJCF <freejoint>, named or not: an unnamed one is called 'root' too)
    if (model.info[1].line == 0) {
      left_out.push_back(
          "the free-flyer 'root' that a floating base adds (load the URDF with a floating base)");
    } else {
      left_out.push_back("the file's free joint" +
                         (name == kFreeFlyerJoint ? std::string() : " '" + name + "'") +
                         " (load the URDF with a floating base, which names it 'root')");
    }
  }
  out << "<?xml version=\"1.0\"?>\n<robot name=" << attribute(model.name) << ">\n";
  // links: the root link, the bodies of the moving joints, then the other frames
  // stated_zero: a massless link the export makes up writes its zero <inertial>, so that readers
  // (eom check) see a link massless by construction, not one whose <inertial> was forgotten
  auto link = [&](const std::string& name, const Inertia* inertia, bool stated_zero = false) {
    out << "  <link name=" << attribute(name);
    if (!inertia || (inertia->m == 0 && !stated_zero)) {
      out << "/>\n";
      return;
    }
    out << ">\n";
    write_inertial(out, *inertia);
    out << "  </link>\n";
  };
  // a fixed base's root link keeps what is welded to the world (in the world's frame, the root
  // link's): it does not enter the fixed-base dynamics, but a reload with a floating base moves it
  link(root, &model.inertia[free_root ? 1 : 0]);
  // a body link the model has no frame for is the export's: the link between two joints of one
  // MJCF body (its mass is on the last joint's), or a DH joint's link
  for (int i = free_root ? 2 : 1; i < model.njoints; ++i) {
    link(body_link[i], &model.inertia[i], body_link[i] != model.info[i].child_link);
  }
  const std::unordered_set<std::string> body_links(body_link.begin(), body_link.end());
  auto is_body_link = [&](const std::string& name) { return body_links.count(name) > 0; };
  // names for the fixed joints of the frames: NAME_fixed, made unique against the others
  std::unordered_set<std::string> joint_names(model.joint_names.begin(), model.joint_names.end());
  auto fixed_joint_name = [&](const std::string& frame) {
    std::string name = frame + "_fixed";
    while (!joint_names.insert(name).second) name += "_";
    return name;
  };
  for (const Frame& f : model.frames) {
    if (f.name == "world" || is_body_link(f.name)) continue;
    link(f.name, nullptr);
  }
  // moving joints, each from its mount where its siblings need one to keep the model's order
  std::vector<std::string> mount = mount_joint_names(model, body_link);
  std::unordered_set<std::string> link_names(body_link.begin(), body_link.end());
  for (const Frame& f : model.frames) link_names.insert(f.name);
  for (int i = free_root ? 2 : 1; i < model.njoints; ++i) {
    const std::string& parent = body_link[model.parent[i]];
    if (mount[i].empty()) {
      write_joint(out, model, i, parent, model.placement[i], body_link);
      continue;
    }
    std::string mount_link = model.joint_names[i] + "_mount";
    while (!link_names.insert(mount_link).second) mount_link += "_";
    link(mount_link, nullptr);
    while (!joint_names.insert(mount[i]).second) mount[i] += "_";
    out << "  <joint name=" << attribute(mount[i]) << " type=\"fixed\">\n"
        << "    <parent link=" << attribute(parent) << "/>\n"
        << "    <child link=" << attribute(mount_link) << "/>\n";
    write_origin(out, model.placement[i], "    ");
    out << "  </joint>\n";
    write_joint(out, model, i, mount_link, SE3::Identity(), body_link);
  }
  // the other frames, fixed where they are on their bodies
  for (const Frame& f : model.frames) {
    if (f.name == "world" || is_body_link(f.name)) continue;
    // a frame of the free-flyer's body hangs on the root link, the body it moves
    const int carrier = free_root && f.parent == 1 ? 0 : f.parent;
    out << "  <joint name=" << attribute(fixed_joint_name(f.name)) << " type=\"fixed\">\n"
        << "    <parent link=" << attribute(body_link[carrier]) << "/>\n"
        << "    <child link=" << attribute(f.name) << "/>\n";
    write_origin(out, f.placement, "    ");
    out << "  </joint>\n";
  }
  out << "</robot>\n";
  return left_out;
}

}  // namespace eom
