// JSON robot models: product of exponentials (Lynch & Park, Modern Robotics, section 9.3) and
// Denavit-Hartenberg tables (standard, and modified as in Craig, Introduction to Robotics, 3.4),
// built into the Model a URDF gives: a serial chain of 1-DoF joints, one body per joint, named
// frames on the bodies.

#include "eom/parsers/json_model.hpp"

#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include "eom/core/errors.hpp"
#include "core/tolerances.hpp"
#include "eom/multibody/component_names.hpp"
#include "parsers/index_coordinates.hpp"
#include "parsers/json_document.hpp"
#include "parsers/physical_bounds.hpp"

namespace eom {
namespace {

using nlohmann::json;

// what the file's decimals cannot say exactly: a rotation's orthonormality, a spatial inertia's
// symmetry and structure, a screw axis's pitch
using detail::kModelRoundOff;

// a number as the JSON writer spells it ("2.0", "1e-05"): these messages quote the model's JSON
std::string json_number_text(double x) { return json(x).dump(); }

// Reads fields by JSON path and throws ModelError("file: path: what") for anything unexpected.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw ModelError(file_, 0, 0, (path.empty() ? "" : path + ": ") + what);
  }

  const json& field(const json& object, const std::string& path, const char* key) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(path, std::string("missing field \"") + key + "\"");
    return *it;
  }

  // every key of `object` is one of `known`
  void only(const json& object, const std::string& path, const std::vector<std::string>& known) {
    for (const auto& item : object.items()) {
      bool found = false;
      for (const std::string& k : known) found = found || item.key() == k;
      if (!found) {
        fail(path, "unknown field " + quote_input(item.key()) + did_you_mean(known, item.key()));
      }
    }
  }

  const json& object(const json& value, const std::string& path) const {
    if (!value.is_object()) fail(path, "expected an object");
    return value;
  }
  const json& array(const json& value, const std::string& path) const {
    if (!value.is_array()) fail(path, "expected a list");
    return value;
  }

  double number(const json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "expected a number, not " + shown(value));
    const double x = value.get<double>();
    if (!std::isfinite(x)) fail(path, "expected a finite number");
    return x;
  }
  std::string text(const json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, "expected a string, not " + shown(value));
    return value.get<std::string>();
  }

  template <int Rows, int Cols>
  Eigen::Matrix<double, Rows, Cols> matrix(const json& value, const std::string& path) const {
    Eigen::Matrix<double, Rows, Cols> m;
    if (!value.is_array() || value.size() != Rows) {
      fail(path,
           "expected " + std::to_string(Rows) + " rows of " + std::to_string(Cols) + " numbers");
    }
    for (int r = 0; r < Rows; ++r) {
      const std::string row = path + "[" + std::to_string(r) + "]";
      if (!value[r].is_array() || value[r].size() != Cols) {
        fail(row, "expected a row of " + std::to_string(Cols) + " numbers");
      }
      for (int c = 0; c < Cols; ++c) {
        m(r, c) = number(value[r][c], row + "[" + std::to_string(c) + "]");
      }
    }
    return m;
  }

  template <int N>
  Eigen::Matrix<double, N, 1> vector(const json& value, const std::string& path) const {
    Eigen::Matrix<double, N, 1> v;
    if (!value.is_array() || value.size() != N) {
      fail(path, "expected a list of " + std::to_string(N) + " numbers");
    }
    for (int k = 0; k < N; ++k) v[k] = number(value[k], path + "[" + std::to_string(k) + "]");
    return v;
  }

  // a 4x4 homogeneous transform whose rotation is orthonormal with determinant 1 and whose last
  // row is 0 0 0 1
  SE3 placement(const json& value, const std::string& path) const {
    const Eigen::Matrix4d T = matrix<4, 4>(value, path);
    if (!(T.row(3) == Eigen::RowVector4d(0, 0, 0, 1))) {
      fail(path, "not a rigid placement: the last row must be 0 0 0 1");
    }
    const Mat3 R = T.topLeftCorner<3, 3>();
    const double off = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
    if (off > kModelRoundOff || R.determinant() < 0) {
      fail(path,
           "not a rigid placement: the rotation block is not orthonormal with determinant "
           "1 (|R^T R - 1| = " +
               json_number_text(off) + ")");
    }
    return {R, T.topRightCorner<3, 1>()};
  }

 private:
  static std::string shown(const json& value) { return quote_input(value.dump()); }
  std::string file_;
};

std::string at(const std::string& list, size_t i) { return list + "[" + std::to_string(i) + "]"; }

// What the model builder needs of one joint of a serial chain: its kind, unit axis and scale in
// its joint frame, the joint frame in the previous joint's frame (liMi), the body's inertia in the
// joint frame, and the frame named after its link, in the joint frame.
struct ChainJoint {
  std::string name;
  JointKind kind = JointKind::revolute;
  Vec3 axis = Vec3::UnitZ();
  double scale = 1;
  SE3 placement;
  Inertia inertia;
  std::string link;
  SE3 link_frame;
  JointInfo info;
};

// The Model of a serial chain: joint i's body carries the frame link_i, frame `base` is on the
// world (or on the free-flyer with a floating base), `tip` on the last body at tip_frame.
Model build_chain(const std::string& name, const std::vector<ChainJoint>& chain,
                  const SE3& base_frame, const std::string& tip, const SE3& tip_frame,
                  const LoadOptions& options) {
  Model model;
  model.name = name;
  model.root_link = "base";
  model.gravity = options.gravity;
  model.floating_base = options.floating_base;
  auto add = [&model](const std::string& joint_name, const Joint& joint, int parent,
                      const SE3& placement, const Inertia& inertia, JointInfo info) {
    return detail::append_joint(model, joint_name, joint, parent, placement, inertia,
                                std::move(info));
  };
  add("world", Joint{}, -1, SE3::Identity(), Inertia::Zero(), JointInfo{});
  model.frames.push_back({"world", 0, SE3::Identity(), ""});
  int body = 0;
  if (options.floating_base) {
    JointInfo info;
    info.child_link = "base";
    body = add(kFreeFlyerJoint, Joint::make(JointKind::floating, Vec3::UnitZ(), 0, 0, false), 0,
               SE3::Identity(), Inertia::Zero(), std::move(info));
  }
  model.frames.push_back({"base", body, base_frame, ""});
  for (const ChainJoint& j : chain) {
    const bool bounded = j.info.has_limit;
    body = add(j.name, Joint::make(j.kind, j.axis, model.nq, model.nv, bounded, j.scale), body,
               j.placement, j.inertia, j.info);
    model.frames.push_back({j.link, body, j.link_frame, ""});
    model.total_mass += j.inertia.m;
  }
  model.frames.push_back({tip, body, tip_frame, chain.empty() ? "base" : chain.back().link});
  detail::index_coordinates(model);
  return model;
}

// the optional limits and armature of a joint object, into info
void read_limits(Reader& in, const json& joint, const std::string& path, JointInfo& info) {
  auto optional = [&](const char* key, double& out) {
    const auto it = joint.find(key);
    if (it == joint.end()) return false;
    out = in.number(*it, path + "." + key);
    return true;
  };
  const bool lower = optional("lower", info.lower), upper = optional("upper", info.upper);
  if (lower != upper) in.fail(path, "give both \"lower\" and \"upper\", or neither");
  if (lower && !(info.lower <= info.upper)) {
    in.fail(path + ".lower", "lower " + json_number_text(info.lower) + " is above upper " +
                                 json_number_text(info.upper));
  }
  info.has_limit = lower;
  for (const char* key : {"effort", "velocity"}) {
    double& out = std::string(key) == "effort" ? info.effort : info.velocity;
    if (optional(key, out) && !(out > 0)) {
      in.fail(path + "." + key, "must be positive, not " + json_number_text(out));
    }
  }
  if (optional("armature", info.armature) && !(info.armature >= 0)) {
    in.fail(path + ".armature", "must be non-negative, not " + json_number_text(info.armature));
  }
}

JointKind read_type(Reader& in, const json& joint, const std::string& path) {
  const std::string type = in.text(in.field(joint, path, "type"), path + ".type");
  if (type == "revolute") return JointKind::revolute;
  if (type == "prismatic") return JointKind::prismatic;
  in.fail(path + ".type", quote_input(type) + " is not revolute or prismatic");
}

// names of joints (and links) must be unique and non-empty
void require_unique(Reader& in, std::set<std::string>& seen, const std::string& name,
                    const std::string& path) {
  if (name.empty()) in.fail(path, "must not be empty");
  if (!seen.insert(name).second) in.fail(path, quote_input(name) + " is used twice");
}

// A 6x6 spatial inertia, rotational block first. Modern Robotics eq. 9.52 writes it about the
// centre of mass, G = diag(I_c, m 1); about a frame origin at -c from it the momentum
// (I_c w + c x p, p = m (v + w x c)) gives G = [I_o, m [c]; m [c]^T, m 1] with
// I_o = I_c + m [c]^T [c], which this reads back. Refuses what is not a rigid body's.
Inertia spatial_inertia(Reader& in, const json& value, const std::string& path) {
  using Mat6d = Eigen::Matrix<double, 6, 6>;
  const Mat6d G = in.matrix<6, 6>(value, path);
  const double size = G.cwiseAbs().maxCoeff();
  if ((G - G.transpose()).cwiseAbs().maxCoeff() > kModelRoundOff * size) {
    in.fail(path, "not symmetric");
  }
  const Eigen::SelfAdjointEigenSolver<Mat6d> eig(G);
  if (!(eig.eigenvalues().minCoeff() > 0)) {
    in.fail(path, "not positive definite (smallest eigenvalue " +
                      json_number_text(eig.eigenvalues().minCoeff()) + ")");
  }
  const double m = G(3, 3);
  if ((G.bottomRightCorner<3, 3>() - m * Mat3::Identity()).cwiseAbs().maxCoeff() >
      kModelRoundOff * size) {
    in.fail(path, "not a rigid body's: the linear block must be m times the identity");
  }
  const Mat3 mc = G.topRightCorner<3, 3>();  // m [c]
  if ((mc + mc.transpose()).cwiseAbs().maxCoeff() > kModelRoundOff * size) {
    in.fail(path, "not a rigid body's: the coupling block must be skew-symmetric (m [c])");
  }
  const Vec3 c = Vec3(mc(2, 1), mc(0, 2), mc(1, 0)) / m;
  const Mat3 I_o = G.topLeftCorner<3, 3>();
  const Mat3 I_c = I_o - m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return {m, c, 0.5 * (I_c + I_c.transpose())};
}

// ---- product of exponentials -----------------------------------------------------------------

// Modern Robotics, section 9.3 (eqs. 9.35-9.40, 9.49-9.51): frame {i} (link i's centre of mass)
// sits at M_i = M_01 ... M_{i-1,i} at theta = 0, and T_{i-1,i}(theta) = M_{i-1,i} e^{[A_i] theta_i}
// with A_i = Ad_{M_i^-1} S_i, the screw axis in frame {i}. (The book's eq. 9.51 prints M_{i-1}^-1;
// 9.40 and its software use M_i^-1, the frame A_i is a twist of.)
//
// eom's 1-DoF joints turn about (or slide along) an axis through the origin of their joint frame
// J_i, placed in the previous joint frame. For A_i = (w, v) with s = |w| > 0 and zero pitch
// (w . v = 0) the motion is a rotation by s theta about the unit axis n = w / s through the point
// r = n x (v / s) of frame {i} (v / s = r x n):
//   e^{[A_i] theta} = T(r) Rot(n, s theta) T(-r),
// so J_i = {i} moved by T(r) (same axes), {i} sits at B_i = T(-r) in J_i, and the joint has axis n
// and scale s (Joint::scale). With w = 0 it slides along n = v / |v| at |v| per unit of theta:
// J_i = {i}, B_i = 1, scale |v|. Then, with B_0 = 1 (the world),
//   liMi = B_{i-1} M_{i-1,i} T(r_i),   inertia_i = G_i moved by B_i,   frame {i} = B_i in J_i,
// and the end-effector frame {n+1} sits at B_n M_{n,n+1} on the last body. A nonzero pitch (a
// helical joint) has no eom joint: refused.
// Joint i's kind, unit axis and scale from its space-frame screw axis S (angular first) at the
// home placement M_i of frame {i}, checked against its declared type; returns T(r), the joint's
// frame J_i in {i} (a revolute axis passes through r = w x v / |w|^2, from v = -w x r).
SE3 read_screw_axis(Reader& in, const json& value, const std::string& path, const SE3& M_i,
                    JointKind type, ChainJoint& c, std::vector<Diagnostic>* warnings) {
  const Vec6 S = in.vector<6>(value, path);
  const Motion A = M_i.act_inv(Motion{S.tail<3>(), S.head<3>()});
  // stableNorm: the squares of a 1e200 axis overflow, the norm itself does not
  const double w = A.ang.stableNorm(), speed = A.lin.stableNorm();
  SE3 joint_in_i;
  if (w > 0) {
    c.kind = JointKind::revolute;
    c.axis = A.ang / w;
    c.scale = w;
    if (std::abs(c.axis.dot(A.lin)) > kModelRoundOff * (1 + speed)) {
      in.fail(path, "a screw axis with pitch " + json_number_text(c.axis.dot(A.lin) / w) +
                        " (w . v != 0): eom has no helical joint");
    }
    joint_in_i.p = c.axis.cross(A.lin / w);
  } else if (speed > 0) {
    c.kind = JointKind::prismatic;
    c.axis = A.lin / speed;
    c.scale = speed;
  } else {
    in.fail(path, "a zero screw axis moves nothing");
  }
  if (c.kind != type) {
    in.fail(path, std::string("a ") + (c.kind == JointKind::revolute ? "rotating" : "sliding") +
                      " screw axis for " + quote_input(c.name) + ", which is " +
                      (type == JointKind::revolute ? "revolute" : "prismatic") +
                      " (a zero angular part makes it prismatic)");
  }
  if (std::abs(c.scale - 1) > kModelRoundOff && warnings) {
    warnings->push_back({Diagnostic::Severity::warning, 0,
                         path + ": the " + (w > 0 ? "angular" : "linear") + " part has norm " +
                             json_number_text(c.scale) +
                             ", not 1: taken as a scaled twist (joint " + quote_input(c.name) +
                             " moves " + json_number_text(c.scale) + " per unit of q)",
                         true});
  }
  return joint_in_i;
}

Model build_poe(Reader& in, const json& doc, const std::string& name, const LoadOptions& options,
                std::vector<Diagnostic>* warnings) {
  in.only(doc, "", {"format", "name", "joints", "M", "S", "G", "links"});
  const json& joints = in.array(in.field(doc, "", "joints"), "joints");
  const size_t n = joints.size();
  if (n == 0) in.fail("joints", "the list is empty: a model needs a joint");
  const json& Ms = in.array(in.field(doc, "", "M"), "M");
  const json& Ss = in.array(in.field(doc, "", "S"), "S");
  const json& Gs = in.array(in.field(doc, "", "G"), "G");
  auto count = [&](const json& list, const char* key, size_t expected, const char* what) {
    if (list.size() != expected) {
      in.fail(key, "expected " + std::to_string(expected) + " entries (" + what + "), not " +
                       std::to_string(list.size()));
    }
  };
  count(Ms, "M", n + 1, "n + 1 placements M_{i-1,i}, the last one the end-effector's");
  count(Ss, "S", n, "one screw axis per joint");
  count(Gs, "G", n, "one spatial inertia per joint");
  std::vector<std::string> links;
  if (const auto it = doc.find("links"); it != doc.end()) {
    in.array(*it, "links");
    count(*it, "links", n + 1, "n + 1 frame names, the last one the end-effector's");
    for (size_t i = 0; i <= n; ++i) links.push_back(in.text((*it)[i], at("links", i)));
  } else {
    for (size_t i = 1; i <= n; ++i) links.push_back("link" + std::to_string(i));
    links.push_back("ee");
  }
  std::set<std::string> frame_names{"world", "base"};
  for (size_t i = 0; i <= n; ++i) require_unique(in, frame_names, links[i], at("links", i));

  std::vector<ChainJoint> chain(n);
  std::set<std::string> joint_names;
  SE3 M_i;         // M_i, frame {i} at theta = 0 in the space frame
  SE3 B_previous;  // B_{i-1}
  for (size_t i = 0; i < n; ++i) {
    const std::string path = at("joints", i);
    const json& joint = in.object(joints[i], path);
    in.only(joint, path, {"name", "type", "lower", "upper", "effort", "velocity", "armature"});
    ChainJoint& c = chain[i];
    c.name = in.text(in.field(joint, path, "name"), path + ".name");
    require_unique(in, joint_names, c.name, path + ".name");
    const JointKind type = read_type(in, joint, path);
    read_limits(in, joint, path, c.info);
    c.info.parent_link = i == 0 ? "base" : links[i - 1];
    c.info.child_link = links[i];

    const SE3 M_step = in.placement(Ms[i], at("M", i));
    M_i = M_i * M_step;
    const SE3 joint_in_i = read_screw_axis(in, Ss[i], at("S", i), M_i, type, c, warnings);
    const SE3 B_i = joint_in_i.inverse();
    c.placement = B_previous * M_step * joint_in_i;
    c.inertia = spatial_inertia(in, Gs[i], at("G", i)).transformed(B_i);
    c.link = links[i];
    c.link_frame = B_i;
    B_previous = B_i;
  }
  const SE3 tip = B_previous * in.placement(Ms[n], at("M", n));
  return build_chain(name, chain, SE3::Identity(), links[n], tip, options);
}

// ---- Denavit-Hartenberg ----------------------------------------------------------------------

SE3 rot_x(double t) {
  return {Eigen::AngleAxisd(t, Vec3::UnitX()).toRotationMatrix(), Vec3::Zero()};
}
SE3 rot_z(double t) {
  return {Eigen::AngleAxisd(t, Vec3::UnitZ()).toRotationMatrix(), Vec3::Zero()};
}
SE3 along(const Vec3& p) { return {Mat3::Identity(), p}; }

// Standard DH (Denavit & Hartenberg 1955; Spong, Robot Modeling and Control, 3.2): link frame
// {i} in {i-1} is Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i), joint i turning theta_i (revolute) or
// sliding d_i (prismatic) along z_{i-1}. With the file's theta and d the values at q = 0:
//   revolute:  J_i = F_{i-1} Rz(theta),        {i} = Tz(d) Tx(a) Rx(alpha) in J_i
//   prismatic: J_i = F_{i-1} Rz(theta) Tz(d),  {i} = Tx(a) Rx(alpha) in J_i
// Modified DH (Craig, Introduction to Robotics, 3.4): {i} in {i-1} is Rx(alpha_{i-1}) Tx(a_{i-1})
// Rz(theta_i) Tz(d_i), the motion about (along) z_i, so {i} is the joint frame itself:
//   J_i = F_{i-1} Rx(alpha) Tx(a) Rz(theta) Tz(d),  {i} = 1 in J_i
// (joint i's entry holds alpha_{i-1} and a_{i-1}, as Craig's table rows do). F_{i-1} is frame
// {i-1} in the previous joint frame, the placement `base` for i = 1.
Model build_dh(Reader& in, const json& doc, const std::string& name, bool modified,
               const LoadOptions& options) {
  in.only(doc, "", {"format", "name", "joints", "base", "tool"});
  const json& joints = in.array(in.field(doc, "", "joints"), "joints");
  if (joints.empty()) in.fail("joints", "the list is empty: a model needs a joint");
  const auto base_it = doc.find("base"), tool_it = doc.find("tool");
  const SE3 base = base_it == doc.end() ? SE3::Identity() : in.placement(*base_it, "base");
  const SE3 tool = tool_it == doc.end() ? SE3::Identity() : in.placement(*tool_it, "tool");

  std::vector<ChainJoint> chain(joints.size());
  std::set<std::string> joint_names;
  SE3 F_previous = base;
  for (size_t i = 0; i < joints.size(); ++i) {
    const std::string path = at("joints", i);
    const json& joint = in.object(joints[i], path);
    in.only(joint, path,
            {"name", "type", "a", "alpha", "d", "theta", "mass", "com", "inertia", "lower", "upper",
             "effort", "velocity", "armature"});
    ChainJoint& c = chain[i];
    c.name = in.text(in.field(joint, path, "name"), path + ".name");
    require_unique(in, joint_names, c.name, path + ".name");
    c.kind = read_type(in, joint, path);
    read_limits(in, joint, path, c.info);
    c.link = "link" + std::to_string(i + 1);
    c.info.parent_link = i == 0 ? "base" : chain[i - 1].link;
    c.info.child_link = c.link;
    auto number = [&](const char* key) {
      return in.number(in.field(joint, path, key), path + "." + key);
    };
    const double a = number("a"), alpha = number("alpha"), d = number("d"), theta = number("theta"),
                 mass = number("mass");
    const Vec3 com = in.vector<3>(in.field(joint, path, "com"), path + ".com");
    const Mat3 inertia = in.matrix<3, 3>(in.field(joint, path, "inertia"), path + ".inertia");
    if (!(mass >= 0))
      in.fail(path + ".mass", "must not be negative, not " + json_number_text(mass));
    if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() >
        kModelRoundOff * inertia.cwiseAbs().maxCoeff()) {
      in.fail(path + ".inertia", "not symmetric");
    }
    if (Eigen::SelfAdjointEigenSolver<Mat3>(inertia).eigenvalues().minCoeff() < 0) {
      in.fail(path + ".inertia", "not positive semi-definite");
    }
    const bool slides = c.kind == JointKind::prismatic;
    SE3 link_in_joint;  // {i} in J_i
    if (modified) {
      c.placement = F_previous * rot_x(alpha) * along({a, 0, 0}) * rot_z(theta) * along({0, 0, d});
    } else {
      c.placement = F_previous * rot_z(theta) * (slides ? along({0, 0, d}) : SE3::Identity());
      link_in_joint =
          (slides ? SE3::Identity() : along({0, 0, d})) * along({a, 0, 0}) * rot_x(alpha);
    }
    c.axis = Vec3::UnitZ();
    c.link_frame = link_in_joint;
    c.inertia = Inertia{mass, com, inertia}.transformed(link_in_joint);
    F_previous = link_in_joint;
  }
  return build_chain(name, chain, base, "tool", F_previous * tool, options);
}

}  // namespace

bool is_json_model(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

Model build_json_model(const std::string& text, const std::string& file, const LoadOptions& options,
                       std::vector<Diagnostic>* warnings) {
  const json doc = detail::parse_json_document(text, file);
  Reader in(file);
  in.object(doc, "");
  const auto format = doc.find("format");
  if (format == doc.end()) {
    in.fail("", "a JSON model needs a \"format\": \"poe\", \"dh\" or \"mdh\"");
  }
  const std::string kind = in.text(*format, "format");
  const auto name_it = doc.find("name");
  // without a "name", the file's stem names the robot ("model" for stdin)
  const std::string stem = std::filesystem::path(file).stem().string();
  const std::string name = name_it != doc.end() ? in.text(*name_it, "name")
                           : file == "<stdin>"  ? "model"
                                                : stem;
  if (kind != "poe" && kind != "dh" && kind != "mdh") {
    in.fail("format", quote_input(kind) + " is not a model format eom reads (poe, dh or mdh)");
  }
  const Model model = kind == "poe" ? build_poe(in, doc, name, options, warnings)
                                    : build_dh(in, doc, name, kind == "mdh", options);
  detail::require_physical_bounds(model, file);
  return model;
}

}  // namespace eom
