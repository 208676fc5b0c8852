// Task-space dynamics at singular configurations: flagged, finite, with the tolerance reported;
// and no allocation per row.

#include <catch2/catch.hpp>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/task_space.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "paths.hpp"
#include "vectors.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("task-space inertia at a singular configuration is truncated and flagged",
          "[task_space]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Data data(model);
  const int frame = model.require_frame("tool0");
  const Eigen::VectorXd q = vec({0.3, -1.0, 0.0, -0.7, 1.1, 0.4});  // elbow stretched
  const Eigen::VectorXd v = vec({0.1, -0.2, 0.3, 0.1, 0.2, -0.1});
  TaskSpaceDynamics truncated(model);
  truncated.compute(model, data, q, v, frame, ReferenceFrame::local_world_aligned);
  CHECK(truncated.singular());
  CHECK(truncated.rank() == 5);
  CHECK(truncated.threshold() == Approx(1e-12 * truncated.eigenvalues()[5]));
  CHECK(truncated.eigenvalues()[0] <= truncated.threshold());
  const Eigen::MatrixXd& L = truncated.inertia();
  CHECK(L.allFinite());
  CHECK(truncated.coriolis().allFinite());
  CHECK(truncated.gravity().allFinite());
  CHECK(truncated.pseudo_inverse().allFinite());
  // the truncated inverse is the Moore-Penrose pseudo-inverse of J M^-1 J^T
  const Eigen::MatrixXd& Linv = truncated.inverse_inertia();
  const double scale = L.norm() * Linv.norm();
  CHECK((L * Linv * L - L).norm() <= 1e-9 * L.norm() * scale);
  CHECK((Linv * L * Linv - Linv).norm() <= 1e-9 * Linv.norm() * scale);
  // no inertia along the lost direction: the null vector of J M^-1 J^T
  const Eigen::VectorXd lost =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Linv).eigenvectors().col(0);
  CHECK((L * lost).norm() <= 1e-9 * L.norm());

  TaskSpaceOptions options;
  options.inverse = TaskInverse::damped;
  options.tolerance = {1e-3, 0};
  TaskSpaceDynamics damped(model, options);
  damped.compute(model, data, q, v, frame, ReferenceFrame::local_world_aligned);
  CHECK(damped.singular());
  CHECK(damped.threshold() == 1e-3);
  CHECK(damped.inertia().allFinite());
  // lambda / (lambda^2 + t^2) <= 1 / (2 t)
  const Eigen::VectorXd ev =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(damped.inertia()).eigenvalues();
  CHECK(ev.maxCoeff() <= 1 / (2 * 1e-3) * (1 + 1e-12));

  // away from the singularity both agree with the plain inverse within the damping
  const Eigen::VectorXd q_ok = vec({0.3, -1.0, 1.0, -0.7, 1.1, 0.4});
  truncated.compute(model, data, q_ok, v, frame, ReferenceFrame::local_world_aligned);
  CHECK_FALSE(truncated.singular());
  CHECK(
      (truncated.inertia() * truncated.inverse_inertia() - Eigen::MatrixXd::Identity(6, 6)).norm() <
      1e-9);
}

TEST_CASE("task-space dynamics allocates nothing", "[task_space]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/panda.urdf");
  Data data(model);
  const int frame = model.require_frame("panda_hand_tcp");
  Rng rng(3);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  TaskSpaceDynamics full(model);
  TaskSpaceOptions options;
  options.task = TaskRows::position();
  options.inverse = TaskInverse::damped;
  TaskSpaceDynamics position(model, options);
  const long n = allocations_during([&] {
    full.compute(model, data, q, v, frame, ReferenceFrame::local_world_aligned);
    position.compute(model, data, q, v, frame, ReferenceFrame::local);
  });
  CHECK(n == 0);
}
