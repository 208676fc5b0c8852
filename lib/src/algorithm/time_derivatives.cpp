#include "eom/algorithm/time_derivatives.hpp"

#include <string>

#include "eom/core/errors.hpp"
#include "core/sizes.hpp"

namespace eom {
namespace {

// 6x6 matrix of v x (motion cross product, linear first)
Mat6 motion_cross_matrix(const Motion& v) {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = skew(v.ang);
  X.topRightCorner<3, 3>() = skew(v.lin);
  X.bottomRightCorner<3, 3>() = skew(v.ang);
  return X;
}

// 6x6 matrix of m -> m x* h for a force h (skew-symmetric)
Mat6 force_cross_bar_matrix(const Force& h) {
  Mat6 X = Mat6::Zero();
  X.topRightCorner<3, 3>() = -skew(h.lin);
  X.bottomLeftCorner<3, 3>() = -skew(h.lin);
  X.bottomRightCorner<3, 3>() = -skew(h.ang);
  return X;
}

// the spatial inertia of a body at placement oMi as a 6x6 matrix in world axes at the origin
Mat6 world_inertia(const Inertia& I, const SE3& oMi) {
  InertiaMoments Y;
  I.moments(oMi, Y);
  Mat6 out;
  out << Y.m * Mat3::Identity(), -skew(Y.h), skew(Y.h), Y.I_o;
  return out;
}

// Joint i's world placement, the derivatives 0..column_order of its world columns of S and
// 0..twist_order of its body's world twist (column_order <= twist_order + 1; dq has at least
// twist_order + 1 columns). V_i = V_parent + S qd, so V_i^(k) = V_parent^(k) + sum_m C(k, m)
// S^(m) qd^(k - m); S is fixed in the body, dS/dt = V_i x S, so S^(k+1) = sum_m C(k, m) V_i^(m)
// x S^(k - m).
void propagate_motion(const Model& model, TimeDerivativeData& data, int i, ConstVec q,
                      const Eigen::Ref<const Eigen::MatrixXd>& dq, int twist_order,
                      int column_order) {
  const int n = data.stride;
  const Joint& joint = model.joints[i];
  const int parent = model.parent[i];
  data.oMi[i] = data.oMi[parent] * joint_placement(joint, model.placement[i], q);
  Motion* Vi = data.V.data() + i * n;
  const Motion* Vp = data.V.data() + parent * n;
  Motion* Si = data.S.data() + joint.idx_v * n;  // column r of the joint at Si[r * n + k]
  for (int r = 0; r < joint.nv; ++r) joint_column(joint, r, data.oMi[i], Si[r * n]);
  for (int k = 0; k <= twist_order; ++k) {
    Motion Vk = Vp[k];
    for (int r = 0; r < joint.nv; ++r) {
      const auto qd = dq.row(joint.idx_v + r);
      for (int m = 0; m <= k; ++m) Vk += Si[r * n + m] * (data.choose(k, m) * qd[k - m]);
    }
    Vi[k] = Vk;
    if (k + 1 > column_order) continue;
    for (int r = 0; r < joint.nv; ++r) {
      Motion next = Motion::Zero();
      for (int m = 0; m <= k; ++m) next += cross(Vi[m], Si[r * n + k - m]) * data.choose(k, m);
      Si[r * n + k + 1] = next;
    }
  }
}

void check_order(int order, const TimeDerivativeData& data) {
  if (order < 0 || order > data.max_order) {
    throw InputError("order " + std::to_string(order) + " of time derivatives is outside 0.." +
                     std::to_string(data.max_order) + " (the workspace's)");
  }
}

}  // namespace

TimeDerivativeData::TimeDerivativeData(const Model& model, int max_order_)
    : max_order(max_order_), stride(max_order_ + 2) {
  if (max_order < 0) throw InputError("the order of time derivatives must be 0 or more");
  oMi.assign(model.njoints, SE3::Identity());
  S.assign(static_cast<size_t>(model.nv) * stride, Motion::Zero());
  V.assign(static_cast<size_t>(model.njoints) * stride, Motion::Zero());
  F.assign(static_cast<size_t>(model.njoints) * stride, Force::Zero());
  c.assign(max_order + 3, Vec3::Zero());
  J.assign(max_order + 1, Mat3::Zero());
  L.assign(max_order + 2, Vec3::Zero());
  p.assign(max_order + 1, Vec3::Zero());
  R.assign(max_order + 1, Mat3::Zero());
  W.assign(max_order + 1, Force::Zero());
  Ycrb.assign(static_cast<size_t>(model.njoints) * stride, Mat6::Zero());
  Bcrb.assign(static_cast<size_t>(model.njoints) * stride, Mat6::Zero());
  Vcross.assign(max_order + 1, Mat6::Zero());
  column.assign(4 * static_cast<size_t>(stride), Vec6::Zero());
  M.assign(max_order + 1, Eigen::MatrixXd::Zero(model.nv, model.nv));
  C.assign(max_order + 1, Eigen::MatrixXd::Zero(model.nv, model.nv));
  g = Eigen::MatrixXd::Zero(model.nv, max_order + 1);
  // Pascal's triangle
  binomial.assign(static_cast<size_t>(stride) * stride, 0.0);
  for (int n = 0; n < stride; ++n) {
    binomial[n * stride] = 1;
    for (int k = 1; k <= n; ++k) {
      binomial[n * stride + k] =
          binomial[(n - 1) * stride + k - 1] + (k < n ? binomial[(n - 1) * stride + k] : 0.0);
    }
  }
}

namespace {
// at namespace scope, not a function's static: the first call registering its destructor with
// atexit could allocate (glibc grows its list of exit functions by 32 at a time)
const std::vector<int> no_frames;
}  // namespace

void rnea_time_derivatives(const Model& model, TimeDerivativeData& data, ConstVec q,
                           const Eigen::Ref<const Eigen::MatrixXd>& dq, int order,
                           Eigen::Ref<Eigen::MatrixXd> out) {
  rnea_time_derivatives(model, data, q, dq, order, no_frames, Eigen::MatrixXd(),
                        ReferenceFrame::local, out);
}

namespace {

void check_rnea_time_derivative_arguments(const Model& model, const TimeDerivativeData& data,
                                          ConstVec q, const Eigen::Ref<const Eigen::MatrixXd>& dq,
                                          int order, const std::vector<int>& frames,
                                          const Eigen::Ref<const Eigen::MatrixXd>& wrenches,
                                          ReferenceFrame reference,
                                          const Eigen::Ref<Eigen::MatrixXd>& out) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(dq.rows(), model.nv, "each derivative column of q");
  detail::check_size(out.rows(), model.nv, "each column of the output");
  check_order(order, data);
  if (dq.cols() < order + 2) {
    throw InputError("order " + std::to_string(order) + " needs " + std::to_string(order + 2) +
                     " derivative columns of q, got " + std::to_string(dq.cols()));
  }
  if (out.cols() < order + 1) {
    throw InputError("order " + std::to_string(order) + " needs " + std::to_string(order + 1) +
                     " output columns, got " + std::to_string(out.cols()));
  }
  if (!frames.empty()) {
    detail::check_size(wrenches.rows(), 6 * static_cast<Eigen::Index>(frames.size()),
                       "the rows of the external wrenches");
    if (wrenches.cols() < order + 1) {
      throw InputError("order " + std::to_string(order) + " needs " + std::to_string(order + 1) +
                       " derivative columns of the external wrenches, got " +
                       std::to_string(wrenches.cols()));
    }
    if (reference == ReferenceFrame::world) {
      throw InputError(
          "external wrenches in time derivatives act at their frame's origin: "
          "reference local or local_world_aligned");
    }
    for (const int f : frames) {
      if (f < 0 || f >= static_cast<int>(model.frames.size())) {
        throw InputError("external wrench on frame " + std::to_string(f) + ": no such frame");
      }
    }
  }
}

// Derivatives 0..K of body i's wrench at the world origin (its twists' 0..K+1 filled by
// propagate_motion), from the derivatives of its centre of mass c, its rotational inertia J
// about c in world axes and its angular momentum L = J w about c.
void body_wrench_series(const Model& model, TimeDerivativeData& data, int i, int K) {
  const int n = data.stride;
  const SE3& oMi = data.oMi[i];
  const Motion* Vi = data.V.data() + i * n;
  Vec3* c = data.c.data();
  Mat3* J = data.J.data();
  Vec3* L = data.L.data();

  // the body's centre of mass moves with the body's point there: c' = V.lin + w x c
  const Inertia& I = model.inertia[i];
  c[0] = oMi.act(I.c);
  for (int k = 0; k <= K + 1; ++k) {
    Vec3 next = Vi[k].lin;
    for (int m = 0; m <= k; ++m) next += data.choose(k, m) * Vi[m].ang.cross(c[k - m]);
    c[k + 1] = next;
  }
  // rotational inertia about the centre of mass, world axes: J' = [w] J - J [w] = P + P^T
  // with P = [w] J, as J is symmetric
  J[0].noalias() = oMi.R * I.I_c * oMi.R.transpose();
  for (int k = 0; k < K; ++k) {
    Mat3 next = Mat3::Zero();
    for (int m = 0; m <= k; ++m) {
      Mat3 P;
      for (int col = 0; col < 3; ++col) P.col(col) = Vi[m].ang.cross(J[k - m].col(col));
      next += data.choose(k, m) * (P + P.transpose());
    }
    J[k + 1] = next;
  }
  // angular momentum about the centre of mass L = J w: L' = J w' + w x L (J' w = w x J w)
  L[0].noalias() = J[0] * Vi[0].ang;
  for (int k = 0; k <= K; ++k) {
    Vec3 next = Vec3::Zero();
    for (int m = 0; m <= k; ++m) {
      next += data.choose(k, m) * (J[m] * Vi[k + 1 - m].ang + Vi[m].ang.cross(L[k - m]));
    }
    L[k + 1] = next;
  }
  // joint wrench at the world origin: Newton's f = m (c'' - g) through the centre of mass and
  // Euler's moment L' about it, so n = c x f + L'
  Force* Fi = data.F.data() + i * n;
  for (int k = 0; k <= K; ++k) Fi[k].lin = I.m * c[k + 2];
  Fi[0].lin -= I.m * model.gravity;
  for (int k = 0; k <= K; ++k) {
    Vec3 moment = L[k + 1];
    for (int m = 0; m <= k; ++m) moment += data.choose(k, m) * c[m].cross(Fi[k - m].lin);
    Fi[k].ang = moment;
  }
}

// External wrenches, subtracted from their body's: at the world origin n_o = n + p x f, where
// the frame origin moves with the body, p' = V.lin + w x p; a wrench in the frame's axes is
// first rotated to world axes, (R x)^(k) = sum_m C(k, m) R^(m) x^(k - m) with R' = [w] R.
void subtract_external_wrenches(const Model& model, TimeDerivativeData& data, int K,
                                const std::vector<int>& frames,
                                const Eigen::Ref<const Eigen::MatrixXd>& wrenches,
                                ReferenceFrame reference) {
  const int n = data.stride;
  const Motion* V = data.V.data();
  Force* F = data.F.data();
  Vec3* p = data.p.data();
  Mat3* R = data.R.data();
  for (size_t j = 0; j < frames.size(); ++j) {
    const Frame& frame = model.frames[frames[j]];
    if (frame.parent == 0) continue;  // on the world: no joint feels it
    const Motion* Vi = V + frame.parent * n;
    const SE3 oMf = data.oMi[frame.parent] * frame.placement;
    p[0] = oMf.p;
    for (int k = 0; k < K; ++k) {
      Vec3 next = Vi[k].lin;
      for (int m = 0; m <= k; ++m) next += data.choose(k, m) * Vi[m].ang.cross(p[k - m]);
      p[k + 1] = next;
    }
    const bool local = reference == ReferenceFrame::local;
    if (local) {
      R[0] = oMf.R;
      for (int k = 0; k < K; ++k) {
        Mat3 next = Mat3::Zero();
        for (int m = 0; m <= k; ++m) {
          for (int col = 0; col < 3; ++col) {
            next.col(col) += data.choose(k, m) * Vi[m].ang.cross(R[k - m].col(col));
          }
        }
        R[k + 1] = next;
      }
    }
    // the wrench's derivatives in world axes at the frame origin
    Force* Wk = data.W.data();
    const auto Wj = wrenches.middleRows<6>(6 * static_cast<Eigen::Index>(j));
    for (int k = 0; k <= K; ++k) {
      if (local) {
        Wk[k] = Force::Zero();
        for (int m = 0; m <= k; ++m) {
          Wk[k].lin.noalias() += data.choose(k, m) * (R[m] * Wj.col(k - m).head<3>());
          Wk[k].ang.noalias() += data.choose(k, m) * (R[m] * Wj.col(k - m).tail<3>());
        }
      } else {
        Wk[k] = Force::from(Wj.col(k));
      }
    }
    Force* Fi = F + frame.parent * n;
    for (int k = 0; k <= K; ++k) {
      Vec3 moment = Wk[k].ang;
      for (int m = 0; m <= k; ++m) moment += data.choose(k, m) * p[m].cross(Wk[k - m].lin);
      Fi[k].lin -= Wk[k].lin;
      Fi[k].ang -= moment;
    }
  }
}

// Backward pass: tau = S^T F, so tau^(k) = sum_m C(k, m) S^(m) . F^(k - m); subtree wrenches
// add up without transforms at the world origin.
void project_wrench_series(const Model& model, TimeDerivativeData& data, int K,
                           Eigen::Ref<Eigen::MatrixXd> out) {
  const int n = data.stride;
  Force* F = data.F.data();
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& joint = model.joints[i];
    const Force* Fi = F + i * n;
    const Motion* Si = data.S.data() + joint.idx_v * n;
    for (int r = 0; r < joint.nv; ++r) {
      for (int k = 0; k <= K; ++k) {
        double tau = 0;
        for (int m = 0; m <= k; ++m) tau += data.choose(k, m) * Fi[k - m].dot(Si[r * n + m]);
        out(joint.idx_v + r, k) = tau;
      }
    }
    const int parent = model.parent[i];
    if (parent > 0) {
      Force* Fp = F + parent * n;
      for (int k = 0; k <= K; ++k) Fp[k] += Fi[k];
    }
  }
}

}  // namespace

void rnea_time_derivatives(const Model& model, TimeDerivativeData& data, ConstVec q,
                           const Eigen::Ref<const Eigen::MatrixXd>& dq, int order,
                           const std::vector<int>& frames,
                           const Eigen::Ref<const Eigen::MatrixXd>& wrenches,
                           ReferenceFrame reference, Eigen::Ref<Eigen::MatrixXd> out) {
  check_rnea_time_derivative_arguments(model, data, q, dq, order, frames, wrenches, reference, out);
  const int K = order;
  // the world does not move
  for (int k = 0; k <= K + 1; ++k) data.V[k] = Motion::Zero();
  // forward pass: twist series, then each body's wrench series
  for (int i = 1; i < model.njoints; ++i) {
    propagate_motion(model, data, i, q, dq, K + 1, K + 1);
    body_wrench_series(model, data, i, K);
  }
  subtract_external_wrenches(model, data, K, frames, wrenches, reference);
  project_wrench_series(model, data, K, out);
  // the armature's torque A qdd: its k-th derivative is A d^(k+2)q (column k + 1 of dq)
  for (int k = 0; k <= K; ++k) out.col(k).noalias() += model.armature.cwiseProduct(dq.col(k + 1));
}

namespace {

// Body i's inertia in world axes Y and B(Y, V) = (V x* Y - Y V x + (Y V) x-bar*) / 2 to order K,
// from its twist series (dY/dt = V x* Y - Y V x, with V x* = -(V x)^T; B is bilinear in Y and V,
// so both follow by Leibniz's rule)
void body_inertia_series(const Model& model, TimeDerivativeData& data, int i, int K) {
  const int n = data.stride;
  const Motion* Vi = data.V.data() + i * n;
  Mat6* X = data.Vcross.data();
  Mat6* Y = data.Ycrb.data() + i * n;
  Mat6* B = data.Bcrb.data() + i * n;
  for (int k = 0; k <= K; ++k) X[k] = motion_cross_matrix(Vi[k]);
  Y[0] = world_inertia(model.inertia[i], data.oMi[i]);
  for (int k = 0; k < K; ++k) {
    Mat6 next = Mat6::Zero();
    for (int m = 0; m <= k; ++m) {
      next.noalias() -= data.choose(k, m) * (X[m].transpose() * Y[k - m] + Y[k - m] * X[m]);
    }
    Y[k + 1] = next;
  }
  for (int k = 0; k <= K; ++k) {
    Mat6 P = Mat6::Zero();
    Vec6 h = Vec6::Zero();
    for (int m = 0; m <= k; ++m) {
      P.noalias() += data.choose(k, m) * (Y[m] * X[k - m]);
      h.noalias() += data.choose(k, m) * (Y[m] * Vi[k - m].vector());
    }
    B[k] = 0.5 * (-P.transpose() - P + force_cross_bar_matrix(Force::from(h)));
  }
}

// For column `col` of joint i, with Y and B of i's subtree: the series of F = Y dS_c/dt + B S_c,
// G1 = Y S_c and G2 = B^T S_c (into data.column) and of g_c = S_c . (Y (-a_g)) (into data.g)
void column_series(TimeDerivativeData& data, int i, int col, int K) {
  const int n = data.stride;
  const Mat6* Y = data.Ycrb.data() + i * n;
  const Mat6* B = data.Bcrb.data() + i * n;
  const Motion* Sc = data.S.data() + col * n;
  Vec6* F = data.column.data();
  Vec6* G1 = F + n;
  Vec6* G2 = F + 2 * n;
  const Vec6* weight = F + 3 * n;
  for (int k = 0; k <= K; ++k) {
    F[k].setZero();
    G1[k].setZero();
    G2[k].setZero();
    double gravity = 0;
    for (int m = 0; m <= k; ++m) {
      const double w = data.choose(k, m);
      F[k].noalias() += w * (Y[m] * Sc[k - m + 1].vector() + B[m] * Sc[k - m].vector());
      G1[k].noalias() += w * (Y[m] * Sc[k - m].vector());
      G2[k].noalias() += w * (B[m].transpose() * Sc[k - m].vector());
      gravity += w * Sc[m].vector().dot(weight[k - m]);
    }
    data.g(col, k) = gravity;
  }
}

// M_rc, C_rc and, for r of a strict ancestor (`ancestor`), C_cr to order K, from column_series
void matrix_entry_series(TimeDerivativeData& data, int row, int col, bool ancestor, int K) {
  const int n = data.stride;
  const Motion* Sr = data.S.data() + row * n;
  const Vec6* F = data.column.data();
  const Vec6* G1 = F + n;
  const Vec6* G2 = F + 2 * n;
  for (int k = 0; k <= K; ++k) {
    double mass = 0, coriolis = 0, transposed = 0;
    for (int m = 0; m <= k; ++m) {
      const double w = data.choose(k, m);
      mass += w * Sr[m].vector().dot(G1[k - m]);
      coriolis += w * Sr[m].vector().dot(F[k - m]);
      transposed += w * (G1[m].dot(Sr[k - m + 1].vector()) + G2[m].dot(Sr[k - m].vector()));
    }
    data.M[k](row, col) = data.M[k](col, row) = mass;
    data.C[k](row, col) = coriolis;
    if (ancestor) data.C[k](col, row) = transposed;
  }
}

}  // namespace

void mass_coriolis_gravity_time_derivatives(const Model& model, TimeDerivativeData& data,
                                            ConstVec q, const Eigen::Ref<const Eigen::MatrixXd>& dq,
                                            int order) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(dq.rows(), model.nv, "each derivative column of q");
  check_order(order, data);
  if (dq.cols() < order + 1) {
    throw InputError("order " + std::to_string(order) + " of the matrices needs " +
                     std::to_string(order + 1) + " derivative columns of q, got " +
                     std::to_string(dq.cols()));
  }
  const int K = order, n = data.stride;
  Motion* V = data.V.data();
  for (int k = 0; k <= K; ++k) V[k] = Motion::Zero();
  // forward pass: twists to order K, columns of S to K + 1 (C has dS/dt), and each body's
  // inertia Y (dY/dt = V x* Y - Y V x, with V x* = -(V x)^T) and B(Y, V) = (V x* Y - Y V x +
  // (Y V) x-bar*) / 2, bilinear in Y and V, to order K
  for (int i = 1; i < model.njoints; ++i) {
    propagate_motion(model, data, i, q, dq, K, K + 1);
    body_inertia_series(model, data, i, K);
  }
  // backward pass over subtrees: for each column c of joint i and each column r of i or an
  // ancestor, the Leibniz sums of M_rc = S_r . (Y S_c), C_rc = S_r . (Y dS_c/dt + B S_c) and,
  // r of a strict ancestor, C_cr = (Y S_c) . dS_r/dt + (B^T S_c) . S_r; g_c = S_c . (Y (-a_g))
  Vec6* weight = data.column.data() + 3 * n;  // of Y (-a_g), the subtree's weight at the origin
  const Vec6 lift = (Vec6() << -model.gravity, Vec3::Zero()).finished();
  for (int k = 0; k <= K; ++k) {
    data.M[k].setZero();
    data.C[k].setZero();
  }
  for (int i = model.njoints - 1; i > 0; --i) {
    const Joint& joint = model.joints[i];
    const Mat6* Y = data.Ycrb.data() + i * n;
    const Mat6* B = data.Bcrb.data() + i * n;
    for (int k = 0; k <= K; ++k) weight[k].noalias() = Y[k] * lift;
    for (int c = 0; c < joint.nv; ++c) {
      const int col = joint.idx_v + c;
      column_series(data, i, col, K);
      for (int up = i; up > 0; up = model.parent[up]) {
        const Joint& ancestor = model.joints[up];
        for (int r = 0; r < ancestor.nv; ++r) {
          matrix_entry_series(data, ancestor.idx_v + r, col, up != i, K);
        }
      }
    }
    const int parent = model.parent[i];
    if (parent > 0) {
      Mat6* Yp = data.Ycrb.data() + parent * n;
      Mat6* Bp = data.Bcrb.data() + parent * n;
      for (int k = 0; k <= K; ++k) {
        Yp[k] += Y[k];
        Bp[k] += B[k];
      }
    }
  }
  // the armature is constant: it adds to M only, not to its derivatives
  data.M[0].diagonal() += model.armature;
}

const Eigen::MatrixXd& coriolis_matrix(const Model& model, TimeDerivativeData& data, ConstVec q,
                                       ConstVec v) {
  detail::check_size(v.size(), model.nv, "v");
  mass_coriolis_gravity_time_derivatives(
      model, data, q, Eigen::Map<const Eigen::MatrixXd>(v.data(), model.nv, 1), 0);
  return data.C[0];
}

}  // namespace eom
