// The states the contact tests share: the free-flyer placed and turned, the four corners of the
// test box as point contacts, the generalized force of a static pose, and vertical corner forces.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include <eom/algorithm/contact_set.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/data.hpp>
#include <eom/multibody/model.hpp>

namespace eom::test {

inline constexpr double kG = 9.81;

// the free-flyer at (x, y, z), turned by `angle` about world x
inline Eigen::VectorXd base_pose(const Model& model, double z, double angle = 0, double x = 0) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q.head<3>() << x, 0, z;
  q.segment<4>(3) << std::sin(angle / 2), 0, 0, std::cos(angle / 2);
  return q;
}

inline ContactSet corners(const Model& model) {
  return point_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"});
}

// the generalized force a static pose needs: gravity only
inline Eigen::VectorXd static_load(const Model& model, const Eigen::VectorXd& q) {
  Data data(model);
  return gravity_torque(model, data, q);
}

inline Eigen::VectorXd vertical_forces(double a, double b, double c, double d) {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(12);
  f[2] = a;
  f[5] = b;
  f[8] = c;
  f[11] = d;
  return f;
}

}  // namespace eom::test
