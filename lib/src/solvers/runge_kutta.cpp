#include "solvers/runge_kutta.hpp"

#include <algorithm>
#include <cmath>

#include "eom/multibody/configuration.hpp"

namespace eom {

const ButcherTableau kEulerTableau = [] {
  ButcherTableau t;
  t.stages = 1;
  t.b = {1};
  return t;
}();

const ButcherTableau kRk4Tableau = [] {
  ButcherTableau t;
  t.stages = 4;
  t.c = {0, 0.5, 0.5, 1};
  t.a[1] = {0.5};
  t.a[2] = {0, 0.5};
  t.a[3] = {0, 0, 1};
  t.b = {1, 2, 2, 1};
  t.b_denominator = 6;
  return t;
}();

const ButcherTableau kDormandPrinceTableau = [] {
  ButcherTableau t;
  t.stages = 7;
  t.c = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
  t.a[1] = {1.0 / 5};
  t.a[2] = {3.0 / 40, 9.0 / 40};
  t.a[3] = {44.0 / 45, -56.0 / 15, 32.0 / 9};
  t.a[4] = {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729};
  t.a[5] = {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656};
  t.a[6] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84};
  t.fsal = true;
  t.embedded = true;
  t.error = {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
  t.dense = true;
  t.dense_output = {-12715105075.0 / 11282082432.0,  0,
                    87487479700.0 / 32700410799.0,   -10690763975.0 / 1880347072.0,
                    701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                    69997945.0 / 29380423.0};
  return t;
}();

void dexp_inv(const Model& model, ConstVec delta, ConstVec v, VecRef out) {
  out = v;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    if (j.nv == 1) continue;
    const Motion th = Motion::from(j.S * delta.segment(j.idx_v, j.nv));
    const Motion xi = Motion::from(j.S * v.segment(j.idx_v, j.nv));
    const Motion a1 = cross(th, xi);
    const Motion a2 = cross(th, a1);
    const Motion r = xi + a1 * 0.5 + a2 * (1.0 / 12);
    // S has orthonormal columns and the brackets stay in its span
    out.segment(j.idx_v, j.nv).noalias() = j.S.transpose() * r.vector();
  }
}

RungeKutta::RungeKutta(const Model& model) : model_(model) {
  q_s_.setZero(model.nq);
  for (Eigen::VectorXd* x : {&delta_s_, &v_s_, &err_d_, &err_v_}) x->setZero(model.nv);
  for (int s = 0; s < ButcherTableau::kMaxStages; ++s) {
    kd_[s].setZero(model.nv);
    kv_[s].setZero(model.nv);
  }
}

void RungeKutta::stage(StageDynamics& dynamics, double t, ConstVec q0, ConstVec delta, ConstVec v,
                       VecRef kd, VecRef kv) {
  integrate(model_, q0, delta, q_s_);
  dexp_inv(model_, delta, v, kd);
  dynamics.acceleration(t, q_s_, v, kv);
}

void RungeKutta::start(StageDynamics& dynamics, double t, ConstVec q0, ConstVec v0) {
  stage(dynamics, t, q0, delta_s_.setZero(), v0, kd_[0], kv_[0]);
}

void RungeKutta::reuse_last_stage(const ButcherTableau& tableau, ConstVec v1) {
  kd_[0] = v1;
  kv_[0] = kv_[tableau.stages - 1];
}

void RungeKutta::stage_state(const ButcherTableau& tableau, int s, double h, ConstVec v0) {
  // the first term assigned, not added to zero: one pass fewer, and RK4's stages to the bit
  bool first = true;
  for (int j = 0; j < s; ++j) {
    const double w = h * tableau.a[s][j];
    if (w == 0) continue;
    if (first) {
      delta_s_ = w * kd_[j];
      v_s_ = v0 + w * kv_[j];
      first = false;
    } else {
      delta_s_ += w * kd_[j];
      v_s_ += w * kv_[j];
    }
  }
  if (first) {  // a stage at the step's start (c_s = 0)
    delta_s_.setZero();
    v_s_ = v0;
  }
}

void RungeKutta::solution(const ButcherTableau& tableau, double h, ConstVec v0, VecRef delta1,
                          VecRef v1) const {
  // x1 = x0 + (h / d) sum_j b_j k_j with the sum taken first, left to right, in one pass over
  // the coordinates: RK4's h/6 (k1 + 2 k2 + 2 k3 + k4)
  const double scale = h / tableau.b_denominator;
  for (Eigen::Index i = 0; i < v0.size(); ++i) {
    double sum_d = tableau.b[0] * kd_[0][i], sum_v = tableau.b[0] * kv_[0][i];
    for (int j = 1; j < tableau.stages; ++j) {
      if (tableau.b[j] == 0) continue;
      sum_d += tableau.b[j] * kd_[j][i];
      sum_v += tableau.b[j] * kv_[j][i];
    }
    delta1[i] = scale * sum_d;
    v1[i] = v0[i] + scale * sum_v;
  }
}

void RungeKutta::step(const ButcherTableau& tableau, StageDynamics& dynamics, double t, double h,
                      ConstVec q0, ConstVec v0, VecRef delta1, VecRef v1) {
  for (int s = 1; s < tableau.stages; ++s) {
    stage_state(tableau, s, h, v0);
    stage(dynamics, t + tableau.c[s] * h, q0, delta_s_, v_s_, kd_[s], kv_[s]);
  }
  if (tableau.fsal) {
    delta1 = delta_s_;
    v1 = v_s_;
  } else {
    solution(tableau, h, v0, delta1, v1);
  }
  if (!tableau.embedded) return;
  err_d_.setZero();
  err_v_.setZero();
  for (int s = 0; s < tableau.stages; ++s) {
    if (tableau.error[s] == 0) continue;
    err_d_ += (h * tableau.error[s]) * kd_[s];
    err_v_ += (h * tableau.error[s]) * kv_[s];
  }
}

void RungeKutta::symplectic_euler_step(double h, ConstVec v0, VecRef delta1, VecRef v1) const {
  v1 = v0 + h * kv_[0];
  delta1 = h * v1;
}

double RungeKutta::error_norm(ConstVec q0, ConstVec q1, ConstVec v0, ConstVec v1, double atol,
                              double rtol) const {
  double sum = 0;
  for (int i = 1; i < model_.njoints; ++i) {
    const Joint& j = model_.joints[i];
    for (int k = 0; k < j.nv; ++k) {
      const int iv = j.idx_v + k;
      const double x = j.nv == 1 ? std::max(std::abs(q0[j.idx_q]), std::abs(q1[j.idx_q])) : 1.0;
      const double sd = err_d_[iv] / (atol + rtol * x);
      const double sv = err_v_[iv] / (atol + rtol * std::max(std::abs(v0[iv]), std::abs(v1[iv])));
      sum += sd * sd + sv * sv;
    }
  }
  return std::sqrt(sum / (2.0 * std::max(1, model_.nv)));
}

Eigen::Index RungeKutta::largest_error() const {
  Eigen::Index k = 0;
  (err_d_.cwiseAbs() + err_v_.cwiseAbs()).maxCoeff(&k);
  return k;
}

void RungeKutta::dense(const ButcherTableau& tableau, double theta, double h, ConstVec v0,
                       ConstVec delta1, ConstVec v1, VecRef delta_out, VecRef v_out) const {
  const int last = tableau.stages - 1;
  const double t1 = 1 - theta;
  for (int k = 0; k < model_.nv; ++k) {
    auto one = [&](double y0, double y1,
                   const std::array<Eigen::VectorXd, ButcherTableau::kMaxStages>& K) {
      const double r2 = y1 - y0;
      const double r3 = h * K[0][k] - r2;
      const double r4 = r2 - h * K[last][k] - r3;
      double r5 = 0;
      for (int s = 0; s < tableau.stages; ++s) r5 += tableau.dense_output[s] * K[s][k];
      r5 *= h;
      return y0 + theta * (r2 + t1 * (r3 + theta * (r4 + t1 * r5)));
    };
    delta_out[k] = one(0.0, delta1[k], kd_);
    v_out[k] = one(v0[k], v1[k], kv_);
  }
}

}  // namespace eom
