// Data: the per-thread workspace for the algorithms of one Model. All memory is allocated at
// construction; no algorithm allocates afterwards.
#pragma once

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "eom/model.hpp"
#include "eom/spatial.hpp"

namespace eom {

struct Data {
  explicit Data(const Model& model);

  // position dependent                                                                (njoints)
  std::vector<SE3> liMi;       // joint i in its parent joint's frame
  std::vector<SE3> oMi;        // joint i in the world
  std::vector<SE3> oMf;        // frames in the world                                  (nframes)
  // velocity and acceleration dependent, in each joint's own frame                    (njoints)
  std::vector<Motion> v;       // body twists
  std::vector<Motion> a;       // body spatial accelerations (gravity included where stated)
  std::vector<Force> f;        // net body forces (RNEA), then joint forces after the backward pass
  std::vector<InertiaMoments> oYcrb;  // composite rigid-body inertias in world axes (CRBA)
  // joint space
  Eigen::VectorXd tau;         // (nv) result of rnea / nonlinear_effects / gravity_torque
  Eigen::VectorXd g;           // (nv) generalized gravity, when computed separately
  Eigen::VectorXd qdd;         // (nv) result of aba
  Eigen::MatrixXd M;           // (nv x nv) joint-space inertia, full symmetric
  Eigen::LLT<Eigen::MatrixXd> M_llt;  // factor of M
  Eigen::Matrix<double, 6, Eigen::Dynamic> J;  // (6 x nv) frame Jacobian
  std::vector<Motion> oS;      // (nv) columns of the motion subspaces in world axes (CRBA)
  // centre of mass and energy                                                         
  Vec3 com = Vec3::Zero();     // world centre of mass of the moving bodies
  double mass = 0;             // mass of the moving bodies
  double kinetic_energy = 0;
  double potential_energy = 0;
};

}  // namespace eom
