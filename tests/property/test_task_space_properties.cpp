// Task-space dynamics on every model: against the direct formulas with dense inverses, and
// against forward dynamics (tau = J^T F makes Lambda w_dot + mu + p = F).

#include <catch2/catch.hpp>

#include <Eigen/LU>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/task_space.hpp>

#include "matchers.hpp"
#include "models.hpp"

using namespace eom;
using namespace eom::test;

namespace {
// the deepest frame: the last one whose joint has the most ancestors
int deepest_frame(const Model& model) {
  int best = 0, best_depth = -1;
  for (int f = 0; f < static_cast<int>(model.frames.size()); ++f) {
    int depth = 0;
    for (int i = model.frames[f].parent; i > 0; i = model.parent[i]) ++depth;
    if (depth >= best_depth) {
      best = f;
      best_depth = depth;
    }
  }
  return best;
}
}  // namespace

TEST_CASE("task-space dynamics: direct formulas and forward dynamics", "[property][task_space]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), direct(model);
  const int frame = deepest_frame(model);
  Rng rng(robot.seed + 600);
  int checked = 0;
  for (const TaskRows& task : {TaskRows::full(), TaskRows::position(), TaskRows::orientation(),
                               TaskRows::named({"vx", "vz", "wy"})}) {
    if (task.size > model.nv) continue;
    for (ReferenceFrame reference :
         {ReferenceFrame::local_world_aligned, ReferenceFrame::local, ReferenceFrame::world}) {
      TaskSpaceDynamics tsd(model, {task});
      const Eigen::VectorXd q = random_configuration(model, rng);
      const Eigen::VectorXd v = random_tangent(model, rng);
      tsd.compute(model, data, q, v, frame, reference);
      if (tsd.singular()) continue;  // a random pose of a short chain may not reach every row
      INFO("task rows " << task.size << " reference " << static_cast<int>(reference));
      const Eigen::MatrixXd M = crba(model, direct, q);
      const Eigen::MatrixXd Minv = M.inverse();
      Eigen::MatrixXd J(task.size, model.nv), dJ(task.size, model.nv);
      frame_jacobian_time_variation(model, direct, q, v, frame, reference);
      for (int k = 0; k < task.size; ++k) {
        J.row(k) = direct.J.row(task.rows[k]);
        dJ.row(k) = direct.dJ.row(task.rows[k]);
      }
      const Eigen::MatrixXd Linv = J * Minv * J.transpose();
      const Eigen::MatrixXd Lambda = Linv.inverse();
      const Eigen::VectorXd g = gravity_torque(model, direct, q);
      const Eigen::VectorXd b = nonlinear_effects(model, direct, q, v) - g;
      const Eigen::VectorXd mu = Lambda * (J * Minv * b - dJ * v);
      const Eigen::VectorXd p = Lambda * J * Minv * g;
      // the inverses lose up to cond digits
      const double cond = tsd.eigenvalues()[task.size - 1] / tsd.eigenvalues()[0];
      const double tol = 1e-13 * cond;
      CHECK_THAT(tsd.inverse_inertia(), AllClose(Linv, 1e-12 * Linv.norm(), 0));
      CHECK_THAT(tsd.inertia(), AllClose(Lambda, tol * Lambda.norm(), 0));
      CHECK_THAT(tsd.coriolis(), AllClose(mu, tol * (1 + mu.norm()), 0));
      CHECK_THAT(tsd.gravity(), AllClose(p, tol * (1 + p.norm()), 0));
      CHECK_THAT(tsd.pseudo_inverse(), AllClose(Minv * J.transpose() * Lambda,
                                                tol * (Minv * J.transpose() * Lambda).norm(), 0));
      // J Jbar = 1 and M Jbar = J^T Lambda
      CHECK_THAT(Eigen::MatrixXd(J * tsd.pseudo_inverse()),
                 AllClose(Eigen::MatrixXd::Identity(task.size, task.size), tol, 0));
      // tau = J^T F drives the frame so that Lambda w_dot + mu + p = F, w_dot = J qdd + dJ v
      Eigen::VectorXd F(task.size);
      for (int k = 0; k < task.size; ++k) F[k] = rng.uniform(-10, 10);
      const Eigen::VectorXd tau = J.transpose() * F;
      const Eigen::VectorXd qdd = aba(model, direct, q, v, tau);
      const Eigen::VectorXd w_dot = J * qdd + dJ * v;
      const Eigen::VectorXd lhs = tsd.inertia() * w_dot + tsd.coriolis() + tsd.gravity();
      CHECK_THAT(lhs, AllClose(F, tol * (F.norm() + lhs.norm() + p.norm()), 0));
      ++checked;
    }
  }
  if (model.nv >= 3) CHECK(checked > 0);
}
