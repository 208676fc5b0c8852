// The terms of the equations of motion M(q) a + C(q, v) v + g(q) = tau at one state, in the fewest
// passes over the joints (Pinocchio's computeAllTerms): what eom id --terms writes per row.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// tau = rnea(q, v, a), the nonlinear effects C(q, v) v + g(q), the gravity g(q) and M(q). The
/// joints are placed once for the three Newton-Euler recursions (with v and a, with v, at rest),
/// which run side by side in one forward and one backward pass, then crba. Each result has the
/// same bits as rnea, nonlinear_effects, gravity_torque and crba called on their own: the same
/// operations in the same order, only fewer joint placements and passes. Sized at construction;
/// compute() allocates nothing.
class DynamicsTerms {
 public:
  explicit DynamicsTerms(const Model& model);

  /// Fills data.tau (rnea), data.g (gravity), data.M (crba, with its fields), data.liMi, data.oMi,
  /// data.v, data.a and data.f (of rnea), and nonlinear_effects(); returns data.tau.
  const Eigen::VectorXd& compute(const Model& model, Data& data, ConstVec q, ConstVec v,
                                 ConstVec a);

  /// C(q, v) v + g(q) at the state of the last compute().
  const Eigen::VectorXd& nonlinear_effects() const { return nle_; }

 private:
  // the forward pass: placements, twists, the accelerations and body forces of the three
  void forward(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a);
  // the backward pass: the body forces projected on the joints and passed to the parents
  void backward(const Model& model, Data& data, ConstVec a);

  std::vector<Motion> a_bias_, a_gravity_;  // body accelerations with a = 0, with v = a = 0
  std::vector<Force> f_bias_, f_gravity_;   // and their body forces
  Eigen::VectorXd nle_;
};

}  // namespace eom
