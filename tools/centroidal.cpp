#include "centroidal.hpp"

#include <limits>
#include <optional>

#include <eom/algorithm/centroidal.hpp>
#include <eom/algorithm/dynamics.hpp>

namespace eom::cli {

void add_centroidal_options(CLI::App& cmd, CentroidalOptions& opt, bool dynamics) {
  cmd.add_flag("--centroidal", opt.enabled,
               dynamics ? "Also write com.x .y .z, com.vx .vy .vz, the centroidal momentum h.lx "
                          ".ly .lz .ax .ay .az (angular about the centre of mass), zmp.x .y on "
                          "the ground plane and, with --contacts, cop.x .y"
                        : "Also write com.x .y .z and, when the table has v columns, com.vx "
                          ".vy .vz and the centroidal momentum h.lx .ly .lz .ax .ay .az");
  if (!dynamics) return;
  cmd.add_option("--ground", opt.ground,
                 "Height of the horizontal ground plane z = HEIGHT of zmp and cop (default 0)")
      ->needs("--centroidal");
}

CentroidalRows::CentroidalRows(const Model& model, double ground, bool velocity, bool dynamics,
                               bool contacts)
    : model_(model), ground_(ground), data_(model) {
  for (const char* name : {"com.x", "com.y", "com.z"}) columns_.emplace_back(name);
  if (velocity || dynamics) {
    for (const char* name :
         {"com.vx", "com.vy", "com.vz", "h.lx", "h.ly", "h.lz", "h.ax", "h.ay", "h.az"}) {
      columns_.emplace_back(name);
    }
  }
  if (dynamics) columns_.insert(columns_.end(), {"zmp.x", "zmp.y"});
  if (contacts) columns_.insert(columns_.end(), {"cop.x", "cop.y"});
}

double* CentroidalRows::position(ConstVec q, double* out) {
  const Vec3& com = center_of_mass(model_, data_, q);
  for (int k = 0; k < 3; ++k) *out++ = com[k];
  return out;
}

double* CentroidalRows::velocity(ConstVec q, ConstVec v, double* out) {
  const Force h = centroidal_momentum(model_, data_, q, v);
  for (int k = 0; k < 3; ++k) *out++ = data_.com[k];
  // c_dot = l / m; a robot without mass has no centre of mass to move
  for (int k = 0; k < 3; ++k) *out++ = data_.mass > 0 ? h.lin[k] / data_.mass : 0.0;
  for (int k = 0; k < 3; ++k) *out++ = h.lin[k];
  for (int k = 0; k < 3; ++k) *out++ = h.ang[k];
  return out;
}

double* CentroidalRows::dynamics(ConstVec q, ConstVec v, ConstVec a, double* out) {
  out = velocity(q, v, out);
  return point(zero_moment_point(environment_wrench(model_, data_, q, v, a), ground_), out);
}

double* CentroidalRows::pressure(const ContactJacobian& contacts, ConstVec f, double* out) const {
  return point(zero_moment_point(total_contact_wrench(contacts, f), ground_), out);
}

double* CentroidalRows::point(const std::optional<Eigen::Vector2d>& p, double* out) const {
  // no point where nothing presses on the ground (a robot in flight): NaN, not a made-up point
  const double none = std::numeric_limits<double>::quiet_NaN();
  *out++ = p ? p->x() : none;
  *out++ = p ? p->y() : none;
  return out;
}

}  // namespace eom::cli
