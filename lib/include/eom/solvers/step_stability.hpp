// Which fixed step integrates a controlled robot stably, and the default PD gains that follow
// from it.
//
// Near a state, joint-space feedback tau = -K dq - D dv and viscous joint damping make the
// error dynamics M(q) x'' + D x' + K x = 0 (gravity and velocity products left out: their modes
// are the slow ones of a robot, sqrt(g / l)). An explicit scheme with step h multiplies the state
// [x; x'] by a step matrix S(h) each step (explicit Euler: I + hA; RK4: the degree-4 Taylor
// polynomial of e^(hA); symplectic Euler: v += h(-Px - Qv), x += h v with P = M^-1 K,
// Q = M^-1 D), and stays bounded when the spectral radius of S(h) is at most 1 (Hairer and
// Wanner, Solving ODEs II, Section IV.2: the region |R(z)| <= 1 of the test equation y' = λy,
// z = hλ, for A = [0 I; -P -Q]). For one critically damped mode, λ = -ω twice, that is hω <= 2
// (Euler, R(z) = 1 + z), hω <= 2.785 (RK4, R(z) = 1 + z + z²/2 + z³/6 + z⁴/24) and
// hω <= 2(√2 - 1) = 0.828 (symplectic Euler, by the Jury conditions on its 2x2 step matrix).
#pragma once

#include <limits>

#include <Eigen/Core>

#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"
#include "eom/solvers/simulate.hpp"

namespace eom {

/// The largest stable fixed step of M x'' + D x' + K x = 0 and the mode that sets it.
struct StepLimit {
  double max_step = std::numeric_limits<double>::infinity();  // infinity: nothing limits it
  double rate = 0;      // |λ| of the fastest mode (1/s); 0 when there is none
  int coordinate = -1;  // the velocity coordinate that mode moves most (-1: none)
};

/// The stable steps of `integrator` for M x'' + D x' + K x = 0 (nv x nv each): the largest h with
/// the spectral radius of the step matrix S(h) at most 1 (to 1e-6, the accuracy of eigenvalues of
/// a defective matrix), found by a geometric scan from below and bisection. rk45 chooses its own
/// steps: its limit is infinite. Allocates (once per run, and on a failure).
StepLimit stable_step(Integrator integrator, const Eigen::MatrixXd& M, const Eigen::MatrixXd& K,
                      const Eigen::MatrixXd& D);

/// The scheme whose stability bounds a run's step: with time-stepped contacts (a ground, or a
/// schedule's that slip), the contact steps' semi-implicit Euler (time_stepping_contacts.hpp; a
/// robot standing is in them throughout), else the integrator.
Integrator stepping_scheme(const SimulationOptions& options);

/// The stable step of a run at state q (of stepping_scheme): K and D of the controller's feedback (Controller::
/// feedback) plus the viscous friction of `options` (not Coulomb friction, which is bounded and
/// cannot make the state diverge). Uses data.M.
StepLimit closed_loop_step_limit(const Model& model, Data& data, Controller& controller, double t,
                                 ConstVec q, const SimulationOptions& options);

/// PD gains scaled to the model: per velocity coordinate i a bandwidth ω and damping ratio 1 on
/// M's diagonal at q, kp_i = M_ii ω², kd_i = 2 M_ii ω (computed torque, which multiplies by M
/// itself: kp = ω², kd = 2ω), with ω chosen so that `dt` is kStepMargin times shorter than the
/// largest stable step of the linearised closed loop (stable_step; rk45 uses rk4's rule with its
/// first trial step) at q, at the neutral configuration and at kSampledConfigurations random
/// configurations (fixed seed), for M changes along the motion. The closed loop's modes scale with ω, so one analysis at ω = 1
/// per configuration fixes it.
struct PDGains {
  Eigen::VectorXd kp, kd;
  double bandwidth = 0;  // ω (rad/s)
};
constexpr double kStepMargin = 4;
constexpr int kSampledConfigurations = 16;
/// With effort_error > 0 (saturated torques), ω is also at most the bandwidth at which an error of
/// effort_error (rad or m) on any actuated coordinate asks for its effort limit, M_kk(q) ω²
/// effort_error = effort_k (coordinates without a finite positive limit aside): gains the
/// actuators can deliver, where stiffer ones only saturate.
PDGains default_gains(const Model& model, Data& data, ConstVec q, Integrator integrator, double dt,
                      bool computed_torque, double effort_error = 0);

}  // namespace eom
