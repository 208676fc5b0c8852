// Operations on whole configurations: q (nq) lives on a manifold, v (nv) in its tangent space.
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// q (+) v: move every joint along its velocity block for unit time (joint_integrate). (nq)
Eigen::VectorXd integrate(const Model& model, ConstVec q, ConstVec v);
void integrate(const Model& model, ConstVec q, ConstVec v, VecRef q_out);
/// q1 (-) q0: the velocity that integrate takes from q0 to q1. (nv)
Eigen::VectorXd difference(const Model& model, ConstVec q0, ConstVec q1);
void difference(const Model& model, ConstVec q0, ConstVec q1, VecRef v_out);
/// The neutral configuration: zero angles and displacements, identity quaternions. (nq)
Eigen::VectorXd neutral(const Model& model);
/// Renormalise the quaternions of q in place; throws InputError naming the joint if one is zero.
/// Returns the largest |norm - 1| found, for callers that warn about far-from-unit input.
double normalize(const Model& model, VecRef q);

/// A small deterministic random generator (splitmix64), so tests and --seed runs are reproducible
/// across platforms and standard libraries.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi);

 private:
  std::uint64_t state_;
};

/// A uniformly random rotation as a unit quaternion (x, y, z, w): Shoemake's method, exact.
Eigen::Vector4d random_unit_quaternion(Rng& rng);
/// A random configuration: bounded joints uniform within their limits, unbounded angles in
/// [-pi, pi], floating positions in [-1, 1]^3, uniformly random orientations of floating and ball
/// joints. (nq)
Eigen::VectorXd random_configuration(const Model& model, Rng& rng);
/// A vector of nv entries uniform in [-scale, scale].
Eigen::VectorXd random_tangent(const Model& model, Rng& rng, double scale = 1.0);

}  // namespace eom
