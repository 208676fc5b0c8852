#include "eom/trajectory/verify.hpp"

#include <algorithm>

#include "eom/trajectory/finite_difference.hpp"

namespace eom {

TimeDerivativeCheck::TimeDerivativeCheck(const Model& model, int order)
    : order_(order),
      llt_(model.nv),
      workspace_(model.nv, model.nv),
      residual_(order + 2),
      scale_(order + 2, 0.0) {
  for (auto& r : rows_) {
    r = {0, 0, Eigen::MatrixXd(model.nv, order + 1), Eigen::MatrixXd(model.nv, model.nv),
         Eigen::MatrixXd(model.nv, model.nv)};
  }
}

void TimeDerivativeCheck::observe(const Model& model, TimeDerivativeData& series, bool swept,
                                  double t, int line, ConstVec q,
                                  const Eigen::Ref<const Eigen::MatrixXd>& dq,
                                  const Eigen::Ref<const Eigen::MatrixXd>& tau, ConstVec external) {
  Row& row = rows_[count_ % 3];
  row.t = t;
  row.line = line;
  row.tau = tau;
  // one sweep gives C and, with it, M and g (series.M[0], series.g)
  const Eigen::MatrixXd& C = swept ? series.C[0] : coriolis_matrix(model, series, q, dq.col(0));
  row.M = series.M[0];
  llt_.compute(row.M);
  if (llt_.info() != Eigen::Success) not_spd_.count(t, line);
  row.Mdot = C + C.transpose();
  // tau - (M a + C v + g + external), into the workspace's first column
  auto residual = workspace_.col(0);
  residual.noalias() = row.M * dq.col(1);
  residual.noalias() += C * dq.col(0);
  residual += series.g.col(0);
  residual += external;
  residual -= tau.col(0);
  record(0, residual.cwiseAbs().maxCoeff(), tau.col(0).cwiseAbs().maxCoeff(), t, line);
  if (++count_ < 3) return;
  // central row: the derivative of each order against the three-point one of the order below
  const Row& a = rows_[(count_ - 3) % 3];
  const Row& b = rows_[(count_ - 2) % 3];
  const Row& c = rows_[(count_ - 1) % 3];
  const auto w = three_point_weights({a.t, b.t, c.t}, 1).d1;
  for (int k = 1; k <= order_; ++k) {
    const double worst =
        (w[0] * a.tau.col(k - 1) + w[1] * b.tau.col(k - 1) + w[2] * c.tau.col(k - 1) - b.tau.col(k))
            .cwiseAbs()
            .maxCoeff();
    record(k, worst, b.tau.col(k).cwiseAbs().maxCoeff(), b.t, b.line);
  }
  workspace_ = w[0] * a.M + w[1] * b.M + w[2] * c.M - b.Mdot;
  record(order_ + 1, workspace_.cwiseAbs().maxCoeff(), b.Mdot.cwiseAbs().maxCoeff(), b.t, b.line);
}

TimeDerivativeCheck::Result TimeDerivativeCheck::result(int quantity, double tolerance) const {
  Result r;
  if (quantity > 0 && count_ < 3) {
    r.checked = false;
    return r;
  }
  const double worst = residual_[quantity].worst;
  r.relative = worst / std::max(scale_[quantity], 1e-300);
  r.pass = worst == 0 || r.relative <= tolerance;
  return r;
}

void TimeDerivativeCheck::record(int quantity, double residual, double scale, double t, int line) {
  scale_[quantity] = std::max(scale_[quantity], scale);
  residual_[quantity].extreme(residual, t, line);
}

}  // namespace eom
