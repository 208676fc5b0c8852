// MJCF attributes as typed values, orientations as MuJoCo 2.2's compiler reads them
// (mjCAlternative in user_objects.cc).

#include "parsers/mjcf_attributes.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include <Eigen/Geometry>

#include "eom/core/errors.hpp"
#include "core/tolerances.hpp"

namespace eom::detail {

using tinyxml2::XMLElement;

std::string class_of(const MjcfItem& item) {
  const char* cls = item.e->Attribute("class");
  return cls ? cls : item.childclass.empty() ? "main" : item.childclass;
}

std::string default_entry(const char* tag) {
  for (const char* actuator : {"general", "motor", "position", "velocity", "intvelocity", "damper",
                               "cylinder", "muscle", "adhesion"}) {
    if (std::strcmp(tag, actuator) == 0) return "actuator";
  }
  return tag;
}

Mat3 rotation(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Mat3 z_to(const Vec3& z) {
  const Vec3 n = z.normalized();
  Vec3 axis = Vec3::UnitZ().cross(n);
  const double s = axis.norm();
  if (s < kZeroLength) axis = Vec3::UnitX();
  return rotation(axis, std::atan2(s, n.z()));
}

MjcfAttributes::MjcfAttributes(std::string main_file, std::vector<Diagnostic>* warnings)
    : main_file_(std::move(main_file)), warnings_(warnings) {}

// ---- documents and messages -------------------------------------------------------------------

std::filesystem::path MjcfAttributes::base_directory() const {
  return main_file_ == "<stdin>" ? std::filesystem::path()
                                 : std::filesystem::path(main_file_).parent_path();
}

std::string MjcfAttributes::file_of(const XMLElement* e) const {
  if (!e) return main_file_;
  const auto it = sources_.find(e->GetDocument());
  return it == sources_.end() ? main_file_ : it->second.file;
}

std::string MjcfAttributes::place(const XMLElement* e) const {
  const std::string file = file_of(e);
  return (file == main_file_ ? "line " : file + ":") + std::to_string(e->GetLineNum());
}

void MjcfAttributes::fail(const XMLElement* e, const std::string& message) const {
  throw ModelError(file_of(e), e ? e->GetLineNum() : 0, 0, message);
}

void MjcfAttributes::warn(const std::string& message) const {
  if (warnings_) warnings_->push_back({Diagnostic::Severity::warning, 0, message, true});
}

// ---- typed values -----------------------------------------------------------------------------

const char* MjcfAttributes::get(const XMLElement* e, const char* name,
                                const std::string& cls) const {
  if (const char* value = e->Attribute(name)) return value;
  const auto c = settings.defaults.find(cls);
  if (c == settings.defaults.end()) return nullptr;
  const auto t = c->second.find(default_entry(e->Name()));
  if (t == c->second.end()) return nullptr;
  const auto a = t->second.find(name);
  return a == t->second.end() ? nullptr : a->second.c_str();
}

std::vector<double> MjcfAttributes::list(const XMLElement* e, const char* name,
                                         const char* text) const {
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

std::vector<double> MjcfAttributes::counted(const XMLElement* e, const char* name, const char* text,
                                            size_t n) const {
  std::vector<double> x = list(e, name, text);
  if (x.size() != n) {
    fail(e, std::string("<") + e->Name() + " " + name + "=\"" + shown_input(text) +
                "\">: expected " + std::to_string(n) + (n == 1 ? " number" : " numbers") +
                ", found " + std::to_string(x.size()));
  }
  return x;
}

double MjcfAttributes::number(const XMLElement* e, const char* name, const std::string& cls,
                              double fallback) const {
  return fixed<1>(e, name, cls, Eigen::Matrix<double, 1, 1>(fallback))[0];
}

std::string MjcfAttributes::text(const XMLElement* e, const char* name, const std::string& cls,
                                 const std::string& fallback) const {
  const char* value = get(e, name, cls);
  return value ? value : fallback;
}

bool MjcfAttributes::flag(const XMLElement* e, const char* name, const std::string& cls,
                          bool fallback) const {
  const std::string value = text(e, name, cls, fallback ? "true" : "false");
  if (value != "true" && value != "false") {
    fail(e, std::string("<") + e->Name() + " " + name + "=\"" + shown_input(value) +
                "\">: expected true or false");
  }
  return value == "true";
}

// ---- orientation and placement ----------------------------------------------------------------

Mat3 MjcfAttributes::orientation(const XMLElement* e, const std::string& cls) const {
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
    if (w.norm() < kZeroLength) fail(e, "<" + std::string(e->Name()) + " quat>: a zero quaternion");
    return Eigen::Quaterniond(w[0], w[1], w[2], w[3]).normalized().toRotationMatrix();
  }
  if (kind == "axisangle") {
    const Eigen::Vector4d a = required<4>(e, "axisangle", cls);
    if (a.head<3>().norm() < kZeroLength)
      fail(e, "<" + std::string(e->Name()) + "axisangle>: zero axis");
    return rotation(a.head<3>(), angle(a[3]));
  }
  if (kind == "euler") return euler(e, cls);
  if (kind == "xyaxes") return xyaxes(e, cls);
  const Vec3 z = required<3>(e, "zaxis", cls);
  if (z.norm() < kZeroLength) fail(e, std::string("<") + e->Name() + " zaxis>: zero axis");
  return z_to(z);
}

// each angle about an axis of eulerseq: lower case turns about the moving axes (multiply on the
// right), upper case about the fixed ones (on the left)
Mat3 MjcfAttributes::euler(const XMLElement* e, const std::string& cls) const {
  const Vec3 a = required<3>(e, "euler", cls);
  Mat3 R = Mat3::Identity();
  for (int i = 0; i < 3; ++i) {
    const char axis = settings.euler_sequence[i];
    const Vec3 u = Vec3::Unit(std::tolower(axis) - 'x');
    R = std::islower(axis) ? Mat3(R * rotation(u, angle(a[i])))
                           : Mat3(rotation(u, angle(a[i])) * R);
  }
  return R;
}

Mat3 MjcfAttributes::xyaxes(const XMLElement* e, const std::string& cls) const {
  const Eigen::Matrix<double, 6, 1> a = required<6>(e, "xyaxes", cls);
  Vec3 x = a.head<3>(), y = a.tail<3>();
  if (x.norm() < kZeroLength) fail(e, std::string("<") + e->Name() + " xyaxes>: zero x axis");
  x.normalize();
  y -= x * x.dot(y);
  if (y.norm() < kZeroLength) {
    fail(e, std::string("<") + e->Name() + " xyaxes>: the y axis is parallel to x");
  }
  y.normalize();
  Mat3 R;
  R << x, y, x.cross(y);
  return R;
}

SE3 MjcfAttributes::pose(const XMLElement* e, const std::string& cls) const {
  SE3 M;
  if (get(e, "fromto", cls)) {
    const Eigen::Matrix<double, 6, 1> s = required<6>(e, "fromto", cls);
    const Vec3 d = s.tail<3>() - s.head<3>();
    if (d.norm() < kZeroLength) fail(e, std::string("<") + e->Name() + " fromto>: zero length");
    M.p = (s.head<3>() + s.tail<3>()) / 2;
    M.R = z_to(d);
    return M;
  }
  M.p = fixed<3>(e, "pos", cls, Vec3::Zero());
  M.R = orientation(e, cls);
  return M;
}

}  // namespace eom::detail
