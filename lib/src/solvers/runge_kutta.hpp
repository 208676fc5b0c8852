// Explicit Runge-Kutta steps on the configuration manifold (private to libeom): every scheme is a
// Butcher tableau run by one stage loop (MuJoCo's mj_RungeKutta runs any tableau the same way),
// with Hairer's dense output where the tableau has one, plus symplectic Euler, which is no single
// tableau (a partitioned scheme: MuJoCo keeps its Euler apart from its RK too).
//
// The state is (q, v) with q on a Lie group: inside a step the stages are q0 (+) delta with delta
// in the tangent space at q0, and d delta/dt = dexp^-1_{-delta}(v) (Munthe-Kaas, "High order
// Runge-Kutta methods on manifolds", 1999: RK methods keep their order that way).
#pragma once

#include <array>

#include <Eigen/Core>

#include "eom/multibody/model.hpp"

namespace eom {

/// An explicit Runge-Kutta scheme of at most kMaxStages stages (Hairer, Norsett, Wanner, Solving
/// ODEs I, II.1). The solution's weights are b / b_denominator, summed before the division so
/// that RK4's h/6 (k1 + 2 k2 + 2 k3 + k4) is that expression to the bit; a scheme whose last
/// stage is its solution (first same as last, FSAL) leaves b empty. Zero coefficients are skipped.
struct ButcherTableau {
  static constexpr int kMaxStages = 7;
  using Row = std::array<double, kMaxStages>;
  int stages = 1;
  Row c{};                          // nodes
  std::array<Row, kMaxStages> a{};  // stage coefficients, a[s][j] for j < s
  Row b{};                          // the solution's weights (times b_denominator)
  double b_denominator = 1;
  bool fsal = false;      // the last stage is the solution (b unused)
  bool embedded = false;  // error holds the weights b - b* of an error estimate
  Row error{};
  bool dense = false;  // dense_output holds the CONTD5 coefficients
  Row dense_output{};
};

/// Explicit Euler: q += h v0, v += h a0 (order 1).
extern const ButcherTableau kEulerTableau;
/// The classical Runge-Kutta method (order 4).
extern const ButcherTableau kRk4Tableau;
/// Dormand and Prince 5(4) (Hairer et al. I, Table II.5.2), FSAL, with the error weights b - b*
/// and the dense-output coefficients of Hairer's DOPRI5 (CONTD5).
extern const ButcherTableau kDormandPrinceTableau;

/// d delta / dt = dexp^-1_{-delta}(v) = v + 1/2 [delta, v] + 1/12 [delta, [delta, v]] + O(delta^4)
/// (Bernoulli numbers; B3 = 0, so this keeps order 5) for the joints of several dofs, whose
/// groups (SE(3), SE(2), SO(3)) do not commute; [x, y] is the spatial cross product (ad). The
/// 1-DoF joints' groups commute: there out = v.
void dexp_inv(const Model& model, ConstVec delta, ConstVec v, VecRef out);

/// The dynamics the steps integrate: the acceleration at the stage (t, q, v).
class StageDynamics {
 public:
  virtual ~StageDynamics() = default;
  virtual void acceleration(double t, ConstVec q, ConstVec v, VecRef a) = 0;
};

/// A step's workspace, sized for one model at construction: a step allocates nothing.
class RungeKutta {
 public:
  explicit RungeKutta(const Model& model);

  /// The derivatives at the step's start (t, q0, v0), its stage 0 (delta = 0).
  void start(StageDynamics& dynamics, double t, ConstVec q0, ConstVec v0);
  /// FSAL (tableau.fsal): the step to (q1, v1) evaluated its last stage there, which is the next
  /// step's first (delta = 0 there, so d delta/dt = v1).
  void reuse_last_stage(const ButcherTableau& tableau, ConstVec v1);

  /// One step of `tableau` of size h from (t, q0, v0), stage 0 filled by start() or
  /// reuse_last_stage(): the result as delta1 (tangent at q0: q1 = q0 (+) delta1) and v1.
  void step(const ButcherTableau& tableau, StageDynamics& dynamics, double t, double h, ConstVec q0,
            ConstVec v0, VecRef delta1, VecRef v1);
  /// Symplectic Euler: v1 = v0 + h a0, then delta1 = h v1 (stage 0 only).
  void symplectic_euler_step(double h, ConstVec v0, VecRef delta1, VecRef v1) const;

  /// The embedded error estimate of the last step (tableau.embedded) as a norm: the RMS over
  /// the coordinates of delta and v of the error over atol + rtol |x| (Hairer et al. I, II.4
  /// (4.11)), with |x| the larger of the step's ends (a 1-DoF joint's position relative to its
  /// coordinate; other positions, rotations and metres, relative to 1).
  double error_norm(ConstVec q0, ConstVec q1, ConstVec v0, ConstVec v1, double atol,
                    double rtol) const;
  /// The coordinate (index into v) with the largest error of the last step.
  Eigen::Index largest_error() const;

  /// The dense-output state at theta in [0, 1] of the last step (tableau.dense) of size h from
  /// v0 to (delta1, v1), into delta_out, v_out (Hairer's CONTD5).
  void dense(const ButcherTableau& tableau, double theta, double h, ConstVec v0, ConstVec delta1,
             ConstVec v1, VecRef delta_out, VecRef v_out) const;

 private:
  // the derivatives at the stage q0 (+) delta, v into kd, kv
  void stage(StageDynamics& dynamics, double t, ConstVec q0, ConstVec delta, ConstVec v, VecRef kd,
             VecRef kv);
  // stage s: delta_s = h sum_j a_sj kd_j, v_s = v0 + h sum_j a_sj kv_j
  void stage_state(const ButcherTableau& tableau, int s, double h, ConstVec v0);
  // the step's end from the weights b: delta1 = h / d sum_j b_j kd_j, v1 = v0 + the same of kv
  void solution(const ButcherTableau& tableau, double h, ConstVec v0, VecRef delta1,
                VecRef v1) const;

  const Model& model_;
  Eigen::VectorXd delta_s_, v_s_, q_s_, err_d_, err_v_;
  // stage derivatives: kd = d delta / dt, kv = dv / dt
  std::array<Eigen::VectorXd, ButcherTableau::kMaxStages> kd_, kv_;
};

}  // namespace eom
