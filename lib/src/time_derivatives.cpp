#include "eom/time_derivatives.hpp"

#include <string>

#include "eom/errors.hpp"
#include "sizes.hpp"

namespace eom {

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
  // Pascal's triangle
  binomial.assign(static_cast<size_t>(stride) * stride, 0.0);
  for (int n = 0; n < stride; ++n) {
    binomial[n * stride] = 1;
    for (int k = 1; k <= n; ++k) {
      binomial[n * stride + k] = binomial[(n - 1) * stride + k - 1] +
                                 (k < n ? binomial[(n - 1) * stride + k] : 0.0);
    }
  }
}

void rnea_time_derivatives(const Model& model, TimeDerivativeData& data, ConstVec q,
                           const Eigen::Ref<const Eigen::MatrixXd>& dq, int order,
                           Eigen::Ref<Eigen::MatrixXd> out) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(dq.rows(), model.nv, "each derivative column of q");
  detail::check_size(out.rows(), model.nv, "each column of the output");
  if (order < 0 || order > data.max_order) {
    throw InputError("order " + std::to_string(order) + " of time derivatives is outside 0.." +
                     std::to_string(data.max_order) + " (the workspace's)");
  }
  if (dq.cols() < order + 2) {
    throw InputError("order " + std::to_string(order) + " needs " + std::to_string(order + 2) +
                     " derivative columns of q, got " + std::to_string(dq.cols()));
  }
  if (out.cols() < order + 1) {
    throw InputError("order " + std::to_string(order) + " needs " + std::to_string(order + 1) +
                     " output columns, got " + std::to_string(out.cols()));
  }
  const int K = order, n = data.stride;
  Motion* V = data.V.data();
  Force* F = data.F.data();
  Vec3* c = data.c.data();
  Mat3* J = data.J.data();
  Vec3* L = data.L.data();
  // the world does not move
  for (int k = 0; k <= K + 1; ++k) V[k] = Motion::Zero();

  // forward pass: twist series, then each body's wrench series
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& joint = model.joints[i];
    const int parent = model.parent[i];
    data.oMi[i] = data.oMi[parent] * joint_placement(joint, model.placement[i], q);
    const SE3& oMi = data.oMi[i];
    Motion* Vi = V + i * n;
    const Motion* Vp = V + parent * n;
    Motion* Si = data.S.data() + joint.idx_v * n;  // column r of the joint at Si[r * n + k]
    for (int r = 0; r < joint.nv; ++r) joint_column(joint, r, oMi, Si[r * n]);
    for (int k = 0; k <= K + 1; ++k) {
      // V_i = V_parent + S qd, so V_i^(k) = V_parent^(k) + sum_m C(k, m) S^(m) qd^(k - m)
      Motion Vk = Vp[k];
      for (int r = 0; r < joint.nv; ++r) {
        const auto qd = dq.row(joint.idx_v + r);
        for (int m = 0; m <= k; ++m) Vk += Si[r * n + m] * (data.choose(k, m) * qd[k - m]);
      }
      Vi[k] = Vk;
      if (k == K + 1) break;
      // S is fixed in the body: dS/dt = V_i x S, so S^(k+1) = sum_m C(k, m) V_i^(m) x S^(k - m)
      for (int r = 0; r < joint.nv; ++r) {
        Motion next = Motion::Zero();
        for (int m = 0; m <= k; ++m) next += cross(Vi[m], Si[r * n + k - m]) * data.choose(k, m);
        Si[r * n + k + 1] = next;
      }
    }

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
    Force* Fi = F + i * n;
    for (int k = 0; k <= K; ++k) Fi[k].lin = I.m * c[k + 2];
    Fi[0].lin -= I.m * model.gravity;
    for (int k = 0; k <= K; ++k) {
      Vec3 moment = L[k + 1];
      for (int m = 0; m <= k; ++m) moment += data.choose(k, m) * c[m].cross(Fi[k - m].lin);
      Fi[k].ang = moment;
    }
  }

  // backward pass: tau = S^T F, so tau^(k) = sum_m C(k, m) S^(m) . F^(k - m); subtree wrenches
  // add up without transforms at the world origin
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

}  // namespace eom
