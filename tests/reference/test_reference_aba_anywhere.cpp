// Forward dynamics anywhere in the world: on every sample of every reference
// robot, eom's aba is as accurate as the reference (Pinocchio 3.7's default, local-frame aba), and
// on the floating-base ones it gives the same accelerations with the base moved up to 10,000 km
// away and the whole scene turned. The frame Jacobians at the frame (jac, ik) and the task-space
// dynamics (jac --dynamics) give the same bits with the base moved.
//
// Accuracy is the backward error ||M qdd - (tau - nle)|| / ||tau - nle|| (the relative residual of
// the equations of motion), with M by crba and nle by rnea: both work in the base frame (crba) or
// in each joint's own frame (rnea), so they do not see the base's position, which is checked here
// bit for bit. The residual itself is summed in long double so that its own round-off does not
// blur the comparison.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/frame_jacobian.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/task_space.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/multibody/data.hpp>

#include "reference.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// The backward error ||M qdd - (tau - nle)|| / ||tau - nle|| (summed in long double) of qdd at one
// state, and the resolution of that figure: M and nle carry round-off of their own, of the size of
// the backward error of any stable method, so the residual is also evaluated as rnea(q, v, qdd) -
// tau (other round-off) and the two evaluations' difference is what a comparison can resolve.
struct Residual {
  const Model& model;
  Data& data;
  const Eigen::VectorXd &q, &v, &tau;
  Eigen::MatrixXd M;
  Eigen::VectorXd nle;
  double scale;  // ||tau - nle||

  Residual(const Model& m, Data& d, const Eigen::VectorXd& q_, const Eigen::VectorXd& v_,
           const Eigen::VectorXd& tau_)
      : model(m), data(d), q(q_), v(v_), tau(tau_) {
    M = crba(model, data, q);
    nle = nonlinear_effects(model, data, q, v);
    scale = (tau - nle).norm();
  }
  double backward_error(const Eigen::VectorXd& qdd) const { return misfit(qdd, tau); }
  double resolution(const Eigen::VectorXd& qdd) const {
    return misfit(qdd, rnea(model, data, q, v, qdd));
  }
  // ||M qdd + nle - generalized_force|| / ||tau - nle||, summed in long double
  double misfit(const Eigen::VectorXd& qdd, const Eigen::VectorXd& generalized_force) const {
    long double sum = 0;
    for (int r = 0; r < M.rows(); ++r) {
      long double x = static_cast<long double>(nle[r]) - generalized_force[r];
      for (int c = 0; c < M.cols(); ++c) x += static_cast<long double>(M(r, c)) * qdd[c];
      sum += x * x;
    }
    return static_cast<double>(std::sqrt(sum)) / scale;
  }
};

struct Sums {
  double error = 0, reference = 0, resolution = 0;
};

constexpr double kOffsets[] = {0.0, 1e3, 1e5, 1e7};  // m

// The scene turned by `turn` and the base moved by `offset` (world axes): the base placement
// becomes (turn p + offset, turn R); gravity turns with it. The base's body twist and every joint
// coordinate are unchanged, so the physics is: qdd must be too.
Eigen::VectorXd moved(const Eigen::VectorXd& q, const Eigen::Quaterniond& turn,
                      const Eigen::Vector3d& offset) {
  Eigen::VectorXd out = q;
  out.head<3>() = turn * q.head<3>() + offset;
  const Eigen::Quaterniond base(q[6], q[3], q[4], q[5]);
  const Eigen::Quaterniond turned = turn * base;
  out.segment<4>(3) << turned.x(), turned.y(), turned.z(), turned.w();
  return out;
}

}  // namespace

TEST_CASE("reference: aba is as accurate as the reference, wherever the base stands",
          "[reference][forward_dynamics][anywhere]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  REQUIRE(ref.json["forward_dynamics_defined"].get<bool>());
  const Model& model = ref.model;
  Data data(model);
  // the sums at the original placement, then with the scene turned and the base moved by each offset
  std::vector<Sums> sums(5);
  int index = 0;
  for (const auto& s : ref.json["samples"]) {
    INFO(name << " sample " << index++);
    const Eigen::VectorXd q = ref.q(s["q"]), v = ref.tangent(s["v"]);
    const Eigen::VectorXd tau = ref.tangent(s["tau_in"]), qdd_ref = ref.tangent(s["qdd"]);
    const Residual residual(model, data, q, v, tau);
    const Eigen::MatrixXd& M = residual.M;
    const Eigen::VectorXd& nle = residual.nle;
    const double reference = residual.backward_error(qdd_ref);
    // eom's backward errors, summed over the robot's samples (one sum per placement of the base),
    // are at most the reference's, within what the residuals resolve: at the level of round-off
    // (1e-16 to 1e-13 here) one sample's comparison is a coin toss, the sums are not
    const auto as_accurate = [&](const Eigen::VectorXd& qdd, Sums& sums) {
      const double error = residual.backward_error(qdd);
      sums.error += error;
      sums.reference += reference;
      sums.resolution += residual.resolution(qdd_ref) + residual.resolution(qdd);
      return error;
    };
    const Eigen::VectorXd qdd = aba(model, data, q, v, tau);
    const double at_origin = as_accurate(qdd, sums[0]);
    if (!model.floating_base) continue;

    const Eigen::Vector3d direction = Eigen::Vector3d(0.48, -0.6, 0.64);  // unit
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(2.0, Eigen::Vector3d(1, 2, 3).normalized()));
    Model turned_model = model;
    turned_model.gravity = turn * model.gravity;
    Data turned_data(turned_model);
    // ||qdd_a - qdd_b|| <= ||M^-1|| (||r_a|| + ||r_b||), r the residuals: the agreement that the
    // two backward errors allow
    const double minv_norm = 1 / Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues()[0];
    for (int k = 0; k < 4; ++k) {
      const double offset = kOffsets[k];
      INFO("base moved by " << offset << " m");
      const Eigen::VectorXd qt = moved(q, Eigen::Quaterniond::Identity(), offset * direction);
      // M and nle do not see the base's position at all, and neither does aba
      CHECK(crba(model, data, qt) == M);
      CHECK(nonlinear_effects(model, data, qt, v) == nle);
      CHECK(aba(model, data, qt, v, tau) == qdd);
      // nor do the partials (fd --partials, --minv), which work about the base's origin
      aba_derivatives(model, data, q, v, tau);
      const Eigen::MatrixXd dqdd_dq = data.dqdd_dq, dqdd_dv = data.dqdd_dv, Minv = data.Minv;
      aba_derivatives(model, data, qt, v, tau);
      CHECK(data.dqdd_dq == dqdd_dq);
      CHECK(data.dqdd_dv == dqdd_dv);
      CHECK(data.Minv == Minv);

      // the scene turned as well: round-off differs, the accuracy does not
      const Eigen::VectorXd qr = moved(q, turn, offset * direction);
      const Eigen::VectorXd qdd_turned = aba(turned_model, turned_data, qr, v, tau);
      const double turned = as_accurate(qdd_turned, sums[1 + k]);
      CHECK((qdd_turned - qdd).norm() <=
            minv_norm * (turned + at_origin) * residual.scale * (1 + 1e-12));
    }
  }
  for (size_t k = 0; k < sums.size(); ++k) {
    if (k > 0 && !model.floating_base) break;
    INFO(name << (k == 0 ? ", as given"
                         : ", turned and moved by " + std::to_string(kOffsets[k - 1]) + " m")
              << ": backward errors summed " << sums[k].error << ", reference " << sums[k].reference
              << ", resolved to " << sums[k].resolution);
    CHECK(sums[k].error <= sums[k].reference + sums[k].resolution);
  }
}

TEST_CASE("reference: frame Jacobians and task-space dynamics do not see where the base stands",
          "[reference][frame_jacobian][task_space][anywhere]") {
  const std::string name = GENERATE(from_range(kReferenceFiles));
  const Reference ref = load_reference(name);
  const Model& model = ref.model;
  if (!model.floating_base) return;
  Data data(model);
  TaskSpaceDynamics dynamics(model);
  const int frame = static_cast<int>(model.frames.size()) - 1;  // a leaf: the longest path
  const Eigen::Vector3d direction = Eigen::Vector3d(0.48, -0.6, 0.64);
  int index = 0;
  for (const auto& s : ref.json["samples"]) {
    INFO(name << " sample " << index++);
    const Eigen::VectorXd q = ref.q(s["q"]), v = ref.tangent(s["v"]);
    for (const ReferenceFrame reference :
         {ReferenceFrame::local_world_aligned, ReferenceFrame::local}) {
      frame_jacobian_time_variation(model, data, q, v, frame, reference);
      const Eigen::MatrixXd J = data.J, dJ = data.dJ;
      const SE3 oMf = data.oMf[frame];
      REQUIRE(frame_jacobian(model, data, q, frame, reference) == J);
      dynamics.compute(model, data, q, v, frame, reference);
      const Eigen::MatrixXd Lambda = dynamics.inertia(), Jbar = dynamics.pseudo_inverse();
      const Eigen::VectorXd mu = dynamics.coriolis(), p = dynamics.gravity();
      for (const double offset : kOffsets) {
        INFO("base moved by " << offset << " m, reference " << reference_frame_name(reference));
        const Eigen::VectorXd qt = moved(q, Eigen::Quaterniond::Identity(), offset * direction);
        // the same bits, and the frame's placement moved by exactly the offset's rounding
        CHECK(frame_jacobian(model, data, qt, frame, reference) == J);
        CHECK(data.oMf[frame].R == oMf.R);
        CHECK((data.oMf[frame].p - (oMf.p + offset * direction)).norm() <=
              4e-16 * (offset + oMf.p.norm()));
        frame_jacobian_time_variation(model, data, qt, v, frame, reference);
        CHECK(data.J == J);
        CHECK(data.dJ == dJ);
        dynamics.compute(model, data, qt, v, frame, reference);
        CHECK(dynamics.inertia() == Lambda);
        CHECK(dynamics.coriolis() == mu);
        CHECK(dynamics.gravity() == p);
        CHECK(dynamics.pseudo_inverse() == Jbar);
      }
    }
  }
}
