// rnea_time_derivatives and mass_coriolis_gravity_time_derivatives: argument checks and no
// allocation (the malloc counter of
// test_no_allocation.cpp).

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/time_derivatives.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;

TEST_CASE("rnea_time_derivatives and the matrices allocate nothing, fixed and floating base",
          "[time_derivatives]" EOM_ALLOCATION_TAG) {
  for (const bool floating : {false, true}) {
    LoadOptions options;
    options.floating_base = floating;
    const Model model = load_urdf(test::kRobotsDir + "/solo12.urdf", options);
    TimeDerivativeData series(model, 6);
    Rng rng(3);
    const Eigen::VectorXd q = random_configuration(model, rng);
    Eigen::MatrixXd dq(model.nv, 8);
    for (int k = 0; k < 8; ++k) dq.col(k) = random_tangent(model, rng);
    Eigen::MatrixXd tau(model.nv, 7);
    const std::vector<int> frames = {static_cast<int>(model.frames.size()) - 1};
    const Eigen::MatrixXd wrenches = Eigen::MatrixXd::Ones(6, 7);
    const long n = test::allocations_during([&] {
      for (int order = 0; order <= 6; ++order) {
        rnea_time_derivatives(model, series, q, dq, order, tau);
        for (const ReferenceFrame rf :
             {ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
          rnea_time_derivatives(model, series, q, dq, order, frames, wrenches, rf, tau);
        }
        mass_coriolis_gravity_time_derivatives(model, series, q, dq, order);
      }
      coriolis_matrix(model, series, q, dq.col(0));
    });
    CHECK(n == 0);
  }
}

TEST_CASE("rnea_time_derivatives refuses wrong sizes and orders", "[time_derivatives]") {
  const Model model = load_urdf(test::kRobotsDir + "/ur5.urdf");
  TimeDerivativeData series(model, 2);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  Eigen::MatrixXd dq = Eigen::MatrixXd::Zero(model.nv, 4), tau(model.nv, 3);
  CHECK_NOTHROW(rnea_time_derivatives(model, series, q, dq, 2, tau));
  CHECK_THROWS_AS(rnea_time_derivatives(model, series, q, dq, 3, tau), InputError);
  CHECK_THROWS_AS(rnea_time_derivatives(model, series, q, dq, -1, tau), InputError);
  Eigen::MatrixXd few(model.nv, 3);
  CHECK_THROWS_WITH(rnea_time_derivatives(model, series, q, few, 2, tau),
                    Catch::Contains("needs 4 derivative columns"));
  Eigen::MatrixXd narrow(model.nv, 2);
  CHECK_THROWS_AS(rnea_time_derivatives(model, series, q, dq, 2, narrow), InputError);
  CHECK_THROWS_AS(rnea_time_derivatives(model, series, Eigen::VectorXd::Zero(3), dq, 2, tau),
                  InputError);
  CHECK_THROWS_AS(TimeDerivativeData(model, -1), InputError);
  const std::vector<int> frames = {static_cast<int>(model.frames.size()) - 1};
  const Eigen::MatrixXd wrenches = Eigen::MatrixXd::Zero(6, 3);
  CHECK_NOTHROW(
      rnea_time_derivatives(model, series, q, dq, 2, frames, wrenches, ReferenceFrame::local, tau));
  CHECK_THROWS_WITH(rnea_time_derivatives(model, series, q, dq, 2, frames, wrenches.leftCols(2),
                                          ReferenceFrame::local, tau),
                    Catch::Contains("needs 3 derivative columns of the external wrenches"));
  CHECK_THROWS_AS(rnea_time_derivatives(model, series, q, dq, 2, frames, wrenches.topRows(5),
                                        ReferenceFrame::local, tau),
                  InputError);
  CHECK_THROWS_AS(
      rnea_time_derivatives(model, series, q, dq, 2, frames, wrenches, ReferenceFrame::world, tau),
      InputError);
  CHECK_THROWS_AS(
      rnea_time_derivatives(model, series, q, dq, 2, {-1}, wrenches, ReferenceFrame::local, tau),
      InputError);
}

TEST_CASE("mass_coriolis_gravity_time_derivatives refuses wrong sizes and orders",
          "[time_derivatives]") {
  const Model model = load_urdf(test::kRobotsDir + "/ur5.urdf");
  TimeDerivativeData series(model, 2);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  const Eigen::MatrixXd dq = Eigen::MatrixXd::Zero(model.nv, 3);
  CHECK_NOTHROW(mass_coriolis_gravity_time_derivatives(model, series, q, dq, 2));
  CHECK_THROWS_AS(mass_coriolis_gravity_time_derivatives(model, series, q, dq, 3), InputError);
  CHECK_THROWS_AS(mass_coriolis_gravity_time_derivatives(model, series, q, dq, -1), InputError);
  CHECK_THROWS_WITH(mass_coriolis_gravity_time_derivatives(model, series, q, dq.leftCols(2), 2),
                    Catch::Contains("needs 3 derivative columns"));
  CHECK_THROWS_AS(
      mass_coriolis_gravity_time_derivatives(model, series, q, dq.topRows(model.nv - 1), 1),
      InputError);
  CHECK_THROWS_AS(coriolis_matrix(model, series, q, Eigen::VectorXd::Zero(3)), InputError);
}
