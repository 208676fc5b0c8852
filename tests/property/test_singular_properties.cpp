// The singularity analysis on every model: singular values against an independent
// decomposition, and the identities U, S, V, null space and lost directions must satisfy.

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/singular.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("singular values match an independent decomposition", "[property][singular]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  Rng rng(robot.seed + 500);
  const TaskRows tasks[] = {TaskRows::full(), TaskRows::position(), TaskRows::orientation(),
                            TaskRows::named({"vx", "vz", "wy"})};
  for (const TaskRows& task : tasks) {
    SingularityAnalysis analysis(model.nv, task);
    for (int s = 0; s < 3; ++s) {
      const Eigen::VectorXd q = s == 0 ? neutral(model) : random_configuration(model, rng);
      const int frame = std::max(0, static_cast<int>(model.frames.size()) - 1 - s);
      for (ReferenceFrame reference :
           {ReferenceFrame::local_world_aligned, ReferenceFrame::local}) {
        frame_jacobian(model, data, q, frame, reference);
        analysis.compute(data.J, reference, data.oMf[frame]);
        const Eigen::MatrixXd& J = analysis.task_jacobian();
        const int m = task.size, n = model.nv, p = std::min(m, n);
        // the eigenvalues of [0 J; J^T 0] are +-sigma_i and zeros (symmetric tridiagonal QR,
        // not one-sided Jacobi: an independent algorithm, accurate to eps ||J|| absolutely)
        Eigen::MatrixXd A = Eigen::MatrixXd::Zero(m + n, m + n);
        A.topRightCorner(m, n) = J;
        A.bottomLeftCorner(n, m) = J.transpose();
        Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A).eigenvalues();
        const Eigen::VectorXd expected = eig.reverse().head(p);
        const double scale = 1 + expected[0];
        CHECK_THAT(Eigen::MatrixXd(analysis.singular_values()),
                   AllClose(expected, 1e-10 * scale, 0));
        // Yoshikawa: sqrt(det(J J^T))
        if (m <= n) {
          const double det = (J * J.transpose()).determinant();
          // compared squared: near a singularity det is round-off (~eps sigma_1^2m) and its
          // square root would amplify it
          const double w = analysis.manipulability();
          CHECK(w * w == Approx(det).epsilon(1e-9).margin(1e-13 * std::pow(scale, 2 * m)));
        }
        // the null space is orthonormal and moves nothing
        const Eigen::MatrixXd N = analysis.null_space();
        CHECK(N.cols() == n - analysis.rank());
        CHECK((J * N).norm() <= 1e-10 * scale);
        // (AllClose reads entry (0, 0) even of an empty matrix)
        if (N.cols() > 0) {
          CHECK_THAT(Eigen::MatrixXd(N.transpose() * N),
                     AllClose(Eigen::MatrixXd::Identity(N.cols(), N.cols()), 1e-12, 0));
        }
        // lost directions: orthonormal, unreachable
        Eigen::MatrixXd L(m, analysis.lost_count());
        for (int k = 0; k < analysis.lost_count(); ++k) L.col(k) = analysis.lost_direction(k);
        CHECK((L.transpose() * J).norm() <= 1e-10 * scale);
        if (L.cols() > 0) {
          CHECK_THAT(Eigen::MatrixXd(L.transpose() * L),
                     AllClose(Eigen::MatrixXd::Identity(L.cols(), L.cols()), 1e-12, 0));
        }
        // the rank rule
        int rank = 0;
        for (int i = 0; i < p; ++i) rank += analysis.singular_values()[i] > analysis.threshold();
        CHECK(rank == analysis.rank());
      }
    }
  }
}
