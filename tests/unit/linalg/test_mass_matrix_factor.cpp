// The tree-sparse factor M = L^T L: its solve inverts crba's M (M x = b) on a branching floating
// robot and on chains, and a joint that moves no mass is found.

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>

#include "linalg/mass_matrix_factor.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("mass matrix factor: the solve inverts M on trees and chains", "[linalg]") {
  LoadOptions floating;
  floating.floating_base = true;
  for (const auto& [path, options] : {std::pair{kRobotsDir + "/solo12.urdf", floating},
                                      std::pair{kRobotsDir + "/panda.urdf", LoadOptions{}},
                                      std::pair{kRobotsDir + "/planar_2r.urdf", LoadOptions{}}}) {
    INFO(path);
    const Model model = load_urdf(path, options);
    Data data(model);
    Rng rng(11);
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::MatrixXd M = crba(model, data, q);
    REQUIRE(linalg::factor_mass_matrix(model, data) == -1);
    // x = M^-1 b for b = M x0: x0 again, to the condition of M
    Eigen::VectorXd x0(model.nv);
    for (int k = 0; k < model.nv; ++k) x0[k] = 1.0 - 0.3 * k;
    Eigen::VectorXd x = M * x0;
    linalg::solve_factored(data, x);
    CHECK_THAT(x, AllClose(x0, 1e-9, 1e-9));
    // and the columns: M^-1 M = I
    Eigen::MatrixXd product(model.nv, model.nv);
    for (int k = 0; k < model.nv; ++k) {
      Eigen::VectorXd column = M.col(k);
      linalg::solve_factored(data, column);
      product.col(k) = column;
    }
    CHECK_THAT(product, AllClose(Eigen::MatrixXd::Identity(model.nv, model.nv), 1e-9));
  }
}

TEST_CASE("mass matrix factor: a joint that moves no mass is the failing pivot", "[linalg]") {
  // the finger slides, and carries no mass: M's pivot of finger_slide is zero
  const Model model = load_urdf(kDataDir + "/urdf/massless_leaf.urdf");
  Data data(model);
  crba(model, data, neutral(model));
  CHECK(linalg::factor_mass_matrix(model, data) == model.joint_index("finger_slide"));
}
