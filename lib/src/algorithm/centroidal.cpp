#include "eom/algorithm/centroidal.hpp"

#include "eom/algorithm/dynamics.hpp"
#include "eom/algorithm/kinematics.hpp"

namespace eom {

Force centroidal_momentum(const Model& model, Data& data, ConstVec q, ConstVec v) {
  // kinetic_energy runs the forward pass of the twists (and the placements)
  kinetic_energy(model, data, q, v);
  const Vec3& com = center_of_mass(model, data, q);
  Force momentum = Force::Zero();
  for (int i = 1; i < model.njoints; ++i) {
    // the body's momentum in its joint's frame, about its origin, carried to the world origin
    momentum += data.oMi[i].act(model.inertia[i] * data.v[i]);
  }
  // about the centre of mass: k_c = k_o - c x l
  momentum.ang -= com.cross(momentum.lin);
  return momentum;
}

Force environment_wrench(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a) {
  rnea(model, data, q, v, a);
  // the subtrees hanging from the world carry every body's net force (gravity entered as an
  // upward acceleration of the world); carried to the world origin
  Force wrench = Force::Zero();
  for (int i = 1; i < model.njoints; ++i) {
    if (model.parent[i] == 0) wrench += data.oMi[i].act(data.f[i]);
  }
  return wrench;
}

std::optional<Eigen::Vector2d> zero_moment_point(const Force& wrench, double height) {
  const Vec3& f = wrench.lin;
  const Vec3& n = wrench.ang;
  if (!(f.z() > 0)) return std::nullopt;
  // the moment about p = (x, y, height): n - p x f, whose x and y components vanish
  return Eigen::Vector2d((height * f.x() - n.y()) / f.z(), (height * f.y() + n.x()) / f.z());
}

}  // namespace eom
