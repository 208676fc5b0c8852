// A self-check of the equations of motion and their time derivatives along a table (eom deriv
// --verify).
#pragma once

#include <array>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "eom/algorithm/time_derivatives.hpp"
#include "eom/multibody/model.hpp"
#include "eom/trajectory/scan.hpp"

namespace eom {

/// Checks, row by row, of tau and its first K time derivatives: on every row M symmetric positive
/// definite and tau = M a + C v + g + external; at each row between two others every derivative
/// (d1tau ... dKtau, and dM/dt = C + C^T) against the three-point derivative of the order below
/// over t (exact for quadratics, non-uniform t). Quantity 0 is the residual of tau, 1..K those of
/// d1tau ... dKtau, K + 1 that of dM/dt; each is judged relative to the largest value of the
/// quantity over the table. Allocates nothing after construction.
class TimeDerivativeCheck {
 public:
  TimeDerivativeCheck(const Model& model, int order);

  /// One row at time t, line `line` of its input: q (nq), dq (nv x at least 2: v, a, ...), tau
  /// (nv x order + 1: tau and its derivatives), external the joint forces of external wrenches
  /// (-J^T F, zero without). `swept`: series already holds this row's M, C and g (from
  /// mass_coriolis_gravity_time_derivatives); otherwise one coriolis_matrix sweep computes them.
  void observe(const Model& model, TimeDerivativeData& series, bool swept, double t, int line,
               ConstVec q, const Eigen::Ref<const Eigen::MatrixXd>& dq,
               const Eigen::Ref<const Eigen::MatrixXd>& tau, ConstVec external);

  /// A quantity against a relative tolerance: a derivative needs three rows to be checked.
  struct Result {
    bool checked = true, pass = true;
    double relative = 0;  // the worst residual over the quantity's largest value
  };
  Result result(int quantity, double tolerance) const;

  int order() const { return order_; }
  long rows() const { return count_; }
  /// A quantity's worst residual (absolute, its sign dropped) and where.
  const RowTally& residual(int quantity) const { return residual_[quantity]; }
  /// The rows where M is not positive definite.
  const RowTally& not_positive_definite() const { return not_spd_; }

 private:
  struct Row {
    double t;
    int line;
    Eigen::MatrixXd tau, M, Mdot;
  };
  void record(int quantity, double residual, double scale, double t, int line);

  int order_;
  std::array<Row, 3> rows_;  // the last three rows, by count modulo 3
  long count_ = 0;
  RowTally not_spd_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::MatrixXd workspace_;       // (nv x nv)
  std::vector<RowTally> residual_;  // (order + 2)
  std::vector<double> scale_;       // (order + 2): each quantity's largest value
};

}  // namespace eom
