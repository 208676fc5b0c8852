// The Runge-Kutta module against closed forms: the tableaux's row sums (Hairer, Norsett, Wanner,
// Solving ODEs I, II.1), each scheme's order of convergence on q'' = q (q = e^t) and on the
// harmonic oscillator q'' = -q (q = cos t), DOPRI5's dense output and error estimate against
// cos t, and dexp^-1 against the body velocity of a free-flyer taken by finite differences.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"
#include "solvers/runge_kutta.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// q'' = sign q: e^t (sign = 1, q0 = v0 = 1) or cos t (sign = -1, q0 = 1, v0 = 0)
class Linear : public StageDynamics {
 public:
  explicit Linear(double sign) : sign_(sign) {}
  void acceleration(double, ConstVec q, ConstVec, VecRef a) override { a = sign_ * q; }

 private:
  double sign_;
};

// the block: one prismatic coordinate, whose group (R) commutes
Model block() { return load_urdf(kRobotsDir + "/block.urdf"); }

enum class Scheme { euler, symplectic_euler, rk4, dopri5 };

// |q(1) - closed form| after n steps of q'' = sign q from its closed form's start
double error_at_one(const Model& model, Scheme scheme, double sign, int n) {
  RungeKutta rk(model);
  Linear dynamics(sign);
  Eigen::VectorXd q = Eigen::VectorXd::Ones(1), v = Eigen::VectorXd::Constant(1, sign > 0 ? 1 : 0);
  Eigen::VectorXd delta1(1), v1(1), q1(1);
  const double h = 1.0 / n;
  for (int k = 0; k < n; ++k) {
    rk.start(dynamics, k * h, q, v);
    switch (scheme) {
      case Scheme::euler:
        rk.step(kEulerTableau, dynamics, k * h, h, q, v, delta1, v1);
        break;
      case Scheme::symplectic_euler:
        rk.symplectic_euler_step(h, v, delta1, v1);
        break;
      case Scheme::rk4:
        rk.step(kRk4Tableau, dynamics, k * h, h, q, v, delta1, v1);
        break;
      case Scheme::dopri5:
        rk.step(kDormandPrinceTableau, dynamics, k * h, h, q, v, delta1, v1);
    }
    integrate(model, q, delta1, q1);
    q = q1;
    v = v1;
  }
  return std::abs(q[0] - (sign > 0 ? std::exp(1.0) : std::cos(1.0)));
}

// log2 of the error's ratio when the step halves: the order
double observed_order(Scheme scheme, double sign, int n) {
  const Model model = block();
  return std::log2(error_at_one(model, scheme, sign, n) / error_at_one(model, scheme, sign, 2 * n));
}

}  // namespace

TEST_CASE("each tableau's rows sum to its nodes and its weights to one", "[runge_kutta]") {
  for (const ButcherTableau* tableau : {&kEulerTableau, &kRk4Tableau, &kDormandPrinceTableau}) {
    CAPTURE(tableau->stages);
    for (int s = 0; s < tableau->stages; ++s) {
      double row = 0;
      for (int j = 0; j < s; ++j) row += tableau->a[s][j];
      CHECK(row == Approx(tableau->c[s]).margin(1e-15));
    }
    // the solution's weights: b / d, or the last stage's row (FSAL)
    double weights = 0, error = 0;
    for (int j = 0; j < tableau->stages; ++j) {
      weights += tableau->fsal ? tableau->a[tableau->stages - 1][j]
                               : tableau->b[j] / tableau->b_denominator;
      error += tableau->error[j];
    }
    CHECK(weights == Approx(1).epsilon(1e-15));
    // b - b*: both sum to one
    CHECK(error == Approx(0).margin(1e-15));
  }
}

TEST_CASE("each scheme converges at its order", "[runge_kutta]") {
  for (const double sign : {1.0, -1.0}) {
    CAPTURE(sign);
    CHECK(observed_order(Scheme::euler, sign, 200) == Approx(1).margin(0.05));
    CHECK(observed_order(Scheme::symplectic_euler, sign, 200) == Approx(1).margin(0.05));
    CHECK(observed_order(Scheme::rk4, sign, 20) == Approx(4).margin(0.1));
    CHECK(observed_order(Scheme::dopri5, sign, 10) == Approx(5).margin(0.2));
  }
}

TEST_CASE("DOPRI5's dense output and error estimate follow cos t", "[runge_kutta]") {
  const Model model = block();
  RungeKutta rk(model);
  Linear oscillator(-1);
  const Eigen::VectorXd q0 = Eigen::VectorXd::Ones(1), v0 = Eigen::VectorXd::Zero(1);
  Eigen::VectorXd delta1(1), v1(1), q1(1), delta(1), v(1);
  const double h = 0.1;
  rk.start(oscillator, 0, q0, v0);
  rk.step(kDormandPrinceTableau, oscillator, 0, h, q0, v0, delta1, v1);
  // the ends are the step's ends
  rk.dense(kDormandPrinceTableau, 0, h, v0, delta1, v1, delta, v);
  CHECK(delta[0] == 0);
  CHECK(v[0] == v0[0]);
  rk.dense(kDormandPrinceTableau, 1, h, v0, delta1, v1, delta, v);
  CHECK(delta[0] == Approx(delta1[0]).margin(1e-16));
  CHECK(v[0] == Approx(v1[0]).margin(1e-16));
  // inside: the continuous extension is of order 4, an error of about h^5 / 5! = 1e-7 at most
  for (const double theta : {0.25, 0.5, 0.75}) {
    rk.dense(kDormandPrinceTableau, theta, h, v0, delta1, v1, delta, v);
    CHECK(1 + delta[0] == Approx(std::cos(theta * h)).margin(1e-8));
    CHECK(v[0] == Approx(-std::sin(theta * h)).margin(1e-8));
  }
  // the error estimate of the embedded 4th-order solution is of the local error's size, h^5 / 5!
  // = 8e-8, far above the 5th-order solution's own error
  integrate(model, q0, delta1, q1);
  CHECK(std::abs(q1[0] - std::cos(h)) < 1e-9);
  const double estimate = rk.error_norm(q0, q1, v0, v1, 1, 0);
  CHECK(estimate > 1e-10);
  CHECK(estimate < 1e-6);
}

TEST_CASE("dexp^-1 turns a free-flyer's body velocity into d delta / dt", "[runge_kutta]") {
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating);
  REQUIRE(model.nv == 6);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  q0 << 0.1, -0.2, 0.3, 0.2, -0.1, 0.3, 0;
  q0.segment<4>(3).normalize();
  Eigen::VectorXd delta(6), w(6);
  delta << 0.05, 0.1, -0.08, 0.15, -0.1, 0.2;  // a rotation of 0.27 rad
  w << 0.3, -0.5, 0.2, 1.0, 0.4, -0.7;
  // the body velocity of q(t) = q0 (+) (delta + t w) at t = 0 by central differences
  const double eps = 1e-6;
  const Eigen::VectorXd q = integrate(model, q0, delta);
  const Eigen::VectorXd ahead = integrate(model, q0, delta + eps * w);
  const Eigen::VectorXd behind = integrate(model, q0, delta - eps * w);
  const Eigen::VectorXd v =
      (difference(model, q, ahead) - difference(model, q, behind)) / (2 * eps);
  Eigen::VectorXd rate(6);
  dexp_inv(model, delta, v, rate);
  // the series stops before its ad^4 term, B4 / 4! |delta|^4 |w| = 1e-5 |w| here
  CHECK((rate - w).norm() < 1e-5 * w.norm());
  // the brackets matter: v itself is off by about |delta| |w| / 2
  CHECK((v - w).norm() > 1e-2 * w.norm());
  // a 1-DoF joint's group commutes: the rate is v
  const Model line = block();
  Eigen::VectorXd one(1);
  dexp_inv(line, Eigen::VectorXd::Constant(1, 0.7), Eigen::VectorXd::Constant(1, 2.5), one);
  CHECK(one[0] == 2.5);
}
