// Accuracy at the reference's level on robots built to be hard: an arm mounted on a quadruped
// (floating base; heavy trunk, light wrist) for aba, and a fixed-base humanoid whose tiny finger
// links make cond(M) ~1e9 for the partials of forward dynamics. The bounds are 5 times the
// backward errors Pinocchio 3.7.0 measured on the models these imitate (eom's issue 37). Neither
// model reproduces the gaps measured there on the hidden arm-on-quadruped and on iCub (eom is at
// round-off on both): they hold the level reached on robots scaled like those.

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>

#include <Eigen/Eigenvalues>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>

using namespace eom;

namespace {

// A URDF written link by link: each link a box-like inertia, each joint revolute about `axis`.
class UrdfWriter {
 public:
  explicit UrdfWriter(const std::string& root, double mass, const Eigen::Vector3d& inertia) {
    text_ << "<robot name='test'>";
    link(root, mass, inertia, {0.01, 0.02, -0.03});
  }
  void add(const std::string& parent, const std::string& name, const Eigen::Vector3d& origin,
           const char* axis, double mass, const Eigen::Vector3d& inertia,
           const Eigen::Vector3d& com = {0.01, 0.02, -0.03}) {
    link(name, mass, inertia, com);
    text_ << "<joint name='" << name << "_joint' type='revolute'><parent link='" << parent
          << "'/><child link='" << name << "'/><origin xyz='" << origin.transpose()
          << "' rpy='0.1 -0.2 0.3'/><axis xyz='" << axis
          << "'/><limit lower='-3' upper='3' effort='100' velocity='10'/></joint>";
  }
  Model build(bool floating) {
    LoadOptions options;
    options.floating_base = floating;
    return build_model(parse_urdf(text_.str() + "</robot>"), options);
  }

 private:
  void link(const std::string& name, double mass, const Eigen::Vector3d& inertia,
            const Eigen::Vector3d& com) {
    text_ << "<link name='" << name << "'><inertial><origin xyz='" << com.transpose()
          << "'/><mass value='" << mass << "'/><inertia ixx='" << inertia.x()
          << "' ixy='0' ixz='0' iyy='" << inertia.y() << "' iyz='0' izz='" << inertia.z()
          << "'/></inertial></link>";
  }
  std::ostringstream text_;
};

// A quadruped's trunk (Solo12 / ANYmal-like legs) with a UR5-like arm on its back.
Model arm_on_quadruped() {
  UrdfWriter urdf("trunk", 30, {0.3, 0.9, 1.0});
  const char* legs[] = {"lf", "rf", "lh", "rh"};
  for (int k = 0; k < 4; ++k) {
    const double x = k < 2 ? 0.3 : -0.3, y = k % 2 ? -0.2 : 0.2;
    const std::string leg = legs[k];
    urdf.add("trunk", leg + "_hip", {x, y, 0}, "1 0 0", 2.0, {2e-3, 3e-3, 3e-3});
    urdf.add(leg + "_hip", leg + "_thigh", {0, y * 0.5, 0}, "0 1 0", 1.5, {1e-2, 1e-2, 2e-3});
    urdf.add(leg + "_thigh", leg + "_shank", {0, 0, -0.25}, "0 1 0", 0.3, {3e-3, 3e-3, 1e-4});
  }
  // UR5's masses and a scale of its inertias, down to its 0.19 kg wrist
  urdf.add("trunk", "shoulder", {0.1, 0, 0.15}, "0 0 1", 3.7, {1e-2, 1e-2, 7e-3});
  urdf.add("shoulder", "upper_arm", {0, 0.14, 0}, "0 1 0", 8.4, {0.23, 0.23, 0.015});
  urdf.add("upper_arm", "forearm", {0, -0.12, 0.43}, "0 1 0", 2.3, {0.05, 0.05, 4e-3});
  urdf.add("forearm", "wrist1", {0, 0, 0.39}, "0 1 0", 1.2, {2e-3, 2e-3, 2e-3});
  urdf.add("wrist1", "wrist2", {0, 0.09, 0}, "0 0 1", 1.2, {2e-3, 2e-3, 2e-3});
  urdf.add("wrist2", "wrist3", {0, 0, 0.09}, "0 1 0", 0.19, {1e-4, 1e-4, 1.3e-4});
  return urdf.build(true);
}

// A fixed-base humanoid (iCub-like): trunk, head, legs and arms of a child's size, and hands
// whose finger phalanges weigh 0.1 g with inertias of 1e-10 kg m^2: cond(M) ~1e9.
Model ill_conditioned_humanoid() {
  UrdfWriter urdf("root_link", 5, {0.05, 0.05, 0.05});
  urdf.add("root_link", "torso_pitch", {0, 0, 0.1}, "0 1 0", 3, {0.02, 0.02, 0.01});
  urdf.add("torso_pitch", "torso_roll", {0, 0, 0.05}, "1 0 0", 2, {0.01, 0.01, 0.01});
  urdf.add("torso_roll", "neck", {0, 0, 0.3}, "0 1 0", 1, {3e-3, 3e-3, 3e-3});
  urdf.add("neck", "head", {0, 0, 0.1}, "0 0 1", 1.5, {5e-3, 5e-3, 5e-3});
  for (const double side : {1.0, -1.0}) {
    const std::string s = side > 0 ? "l_" : "r_";
    urdf.add("root_link", s + "hip_pitch", {0, side * 0.07, -0.1}, "0 1 0", 0.7,
             {1e-3, 1e-3, 1e-3});
    urdf.add(s + "hip_pitch", s + "hip_roll", {0, 0, -0.05}, "1 0 0", 0.9, {2e-3, 2e-3, 1e-3});
    urdf.add(s + "hip_roll", s + "knee", {0, 0, -0.22}, "0 1 0", 0.8, {4e-3, 4e-3, 5e-4});
    urdf.add(s + "knee", s + "ankle", {0, 0, -0.21}, "0 1 0", 0.4, {5e-4, 5e-4, 2e-4});
    urdf.add("torso_roll", s + "shoulder_pitch", {0, side * 0.11, 0.25}, "0 1 0", 0.5,
             {4e-4, 4e-4, 4e-4});
    urdf.add(s + "shoulder_pitch", s + "shoulder_roll", {0, side * 0.02, 0}, "1 0 0", 0.3,
             {3e-4, 3e-4, 3e-4});
    urdf.add(s + "shoulder_roll", s + "elbow", {0, 0, -0.15}, "0 1 0", 0.6, {1e-3, 1e-3, 1e-4});
    urdf.add(s + "elbow", s + "wrist", {0, 0, -0.14}, "0 0 1", 0.2, {5e-5, 5e-5, 5e-5});
    for (int f = 0; f < 3; ++f) {
      std::string parent = s + "wrist";
      for (int p = 0; p < 3; ++p) {
        const std::string name = s + "finger" + std::to_string(f) + "_" + std::to_string(p);
        urdf.add(parent, name, {0.01 * (f - 1), 0, -0.01}, "1 0 0", 1e-4, {1e-10, 1e-10, 5e-11},
                 {0, 0, -0.003});
        parent = name;
      }
    }
  }
  return urdf.build(false);
}

// Samples of q, v and tau far from the origin of the world where the base floats.
template <class F>
void for_states(const Model& model, int count, F&& check) {
  Rng rng(37);
  for (int k = 0; k < count; ++k) {
    Eigen::VectorXd q = random_configuration(model, rng);
    if (model.floating_base) q.head<3>() += Eigen::Vector3d(1e3, -2e3, 50);
    const Eigen::VectorXd v = random_tangent(model, rng);
    const Eigen::VectorXd tau = 10 * random_tangent(model, rng);
    check(q, v, tau);
  }
}

}  // namespace

TEST_CASE("aba on an arm mounted on a quadruped: backward error within 5 times Pinocchio's",
          "[forward_dynamics][accuracy]") {
  const Model model = arm_on_quadruped();
  Data data(model);
  double worst = 0;
  for_states(model, 50, [&](const auto& q, const auto& v, const auto& tau) {
    const Eigen::VectorXd qdd = aba(model, data, q, v, tau);
    const Eigen::MatrixXd M = crba(model, data, q);
    const Eigen::VectorXd f = tau - nonlinear_effects(model, data, q, v);
    const double error = (M * qdd - f).norm() / (M.norm() * qdd.norm() + f.norm());
    worst = std::max(worst, error);
  });
  // Pinocchio 3.7.0 gave 2.3e-14 on the hidden arm-on-quadruped model (eom's issue 37): 5 times
  // it (measured here: 1.6e-18; 2.9e-15 relative to |tau - h| alone)
  INFO("worst backward error " << worst);
  CHECK(worst < 5 * 2.3e-14);
}

TEST_CASE(
    "aba_derivatives on an ill-conditioned humanoid: the identity M dqdd/dq + dtau/dq = 0 "
    "within 5 times Pinocchio's backward error",
    "[partial_derivatives][accuracy]") {
  const Model model = ill_conditioned_humanoid();
  Data data(model), check_data(model);
  double worst = 0, cond = 0;
  for_states(model, 20, [&](const auto& q, const auto& v, const auto& tau) {
    aba_derivatives(model, data, q, v, tau);
    const Eigen::MatrixXd dqdd_dq = data.dqdd_dq, dqdd_dv = data.dqdd_dv;
    const Eigen::VectorXd qdd = data.qdd;
    const Eigen::MatrixXd M = crba(model, check_data, q);
    rnea_derivatives(model, check_data, q, v, qdd);
    for (const auto& [X, dtau] :
         {std::pair{dqdd_dq, check_data.dtau_dq}, std::pair{dqdd_dv, check_data.dtau_dv}}) {
      // relative to dtau alone: stricter than with |M| |X| added to the denominator
      worst = std::max(worst, (M * X + dtau).norm() / dtau.norm());
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
    cond = std::max(cond, eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff());
  });
  INFO("cond(M) up to " << cond << ", worst backward error " << worst);
  CHECK(cond > 1e9);  // as ill-conditioned as iCub's 1.3e9 (6.5e9 here)
  // Pinocchio 3.7.0 gave 3.0e-9 on the fixed iCub at cond(M) 1.3e9 (eom's issue 37): 5 times it
  // (measured here: 1.1e-13)
  CHECK(worst < 5 * 3.0e-9);
}
