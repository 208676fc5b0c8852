#include "eom/core/number_text.hpp"
#include "eom/rows/centroidal.hpp"

#include <optional>

#include <eom/algorithm/centroidal.hpp>
#include <eom/algorithm/dynamics.hpp>

#include <eom/rows/run.hpp>

namespace eom::rows {

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

double* CentroidalRows::dynamics(ConstVec q, ConstVec v, ConstVec a, double t, int line,
                                 double* out) {
  out = velocity(q, v, out);
  const Force wrench = environment_wrench(model_, data_, q, v, a);
  return point(zero_moment_point(wrench, ground_), no_zmp_, t, line, out);
}

double* CentroidalRows::pressure(const ContactJacobian& contacts, ConstVec f, double t, int line,
                                 double* out) {
  return point(zero_moment_point(total_contact_wrench(contacts, f), ground_), no_cop_, t, line,
               out);
}

double* CentroidalRows::point(const std::optional<Eigen::Vector2d>& p, RowTally& undefined,
                              double t, int line, double* out) const {
  // no point where nothing presses on the ground (a robot in flight): 0, 0 as cop.<frame> of an
  // unloaded contact (a table cell cannot hold NaN), and the rows said on stderr
  if (!p) undefined.count(t, line);
  *out++ = p ? p->x() : 0.0;
  *out++ = p ? p->y() : 0.0;
  return out;
}

void CentroidalRows::finish(const Notes& notes, const std::string& file) const {
  const auto say = [&](const RowTally& tally, const char* what) {
    if (tally.rows == 0) return;
    notes.warning(file + ": " + what + " is undefined in " + std::to_string(tally.rows) +
                  (tally.rows == 1 ? " row" : " rows") +
                  " (nothing presses on the ground: the vertical force is not positive), "
                  "written as 0, 0: first at t=" +
                  number_text(tally.first_t) + " (line " + std::to_string(tally.first_line) + ")");
  };
  say(no_zmp_, "zmp");
  say(no_cop_, "cop");
}

}  // namespace eom::rows
