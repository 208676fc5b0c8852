#include "eom/trajectory/identification.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/SVD>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "eom/multibody/configuration.hpp"
#include "eom/multibody/data.hpp"

namespace eom {
BaseParameters base_parameters(const Model& model, const DriveParameters& drive, int states,
                               std::uint64_t seed, double tolerance) {
  std::vector<int> every(regressor_columns(model, drive));
  for (size_t c = 0; c < every.size(); ++c) every[c] = static_cast<int>(c);
  return base_parameters(model, drive, every, states, seed, tolerance);
}

BaseParameters base_parameters(const Model& model, const DriveParameters& drive,
                               const std::vector<int>& unknowns, int states, std::uint64_t seed,
                               double tolerance, int equations) {
  const int all = regressor_columns(model, drive), columns = static_cast<int>(unknowns.size());
  const int rows = equations > 0 ? std::min(equations, model.nv) : model.nv;
  // twice as many rows as columns at least: a generic stack then has the regressor's rank
  if (states <= 0) states = std::max(20, 2 * columns / std::max(1, rows) + 1);
  Eigen::MatrixXd stack(static_cast<Eigen::Index>(states) * rows, columns);
  Eigen::MatrixXd Y(model.nv, all);
  Data data(model);
  Rng rng(seed);
  for (int s = 0; s < states; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    const Eigen::VectorXd a = random_tangent(model, rng);
    joint_torque_regressor(model, data, q, v, a, Y, drive);
    for (int c = 0; c < columns; ++c)
      stack.block(s * rows, c, rows, 1) = Y.col(unknowns[c]).head(rows);
  }
  BaseParameters base;
  base.tolerance = tolerance;
  for (int c = 0; c < columns; ++c) {
    if (stack.col(c).isZero(0)) base.unaffecting.push_back(unknowns[c]);
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(stack);
  const Eigen::MatrixXd R = qr.matrixR().topRows(std::min<Eigen::Index>(stack.rows(), columns));
  const double largest = R.rows() ? std::abs(R(0, 0)) : 0;
  int rank = 0;
  while (rank < R.rows() && std::abs(R(rank, rank)) > tolerance * largest) ++rank;
  // K = R1^-1 R2: the dependent columns in terms of the independent ones, in pivot order (none
  // when every column is independent: no solve with an empty right-hand side)
  Eigen::MatrixXd K(rank, columns - rank);
  if (columns > rank) {
    K = R.topLeftCorner(rank, rank)
            .triangularView<Eigen::Upper>()
            .solve(R.topRightCorner(rank, columns - rank));
  }
  const auto& p = qr.colsPermutation().indices();
  std::vector<int> order(rank);  // pivot positions sorted by column
  for (int k = 0; k < rank; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](int x, int y) { return p[x] < p[y]; });
  base.combination = Eigen::MatrixXd::Zero(rank, all);
  for (int k = 0; k < rank; ++k) {
    base.independent.push_back(unknowns[p[order[k]]]);
    base.combination(k, unknowns[p[order[k]]]) = 1;
    for (int d = 0; d < columns - rank; ++d) {
      base.combination(k, unknowns[p[rank + d]]) = K(order[k], d);
    }
  }
  for (int d = rank; d < columns; ++d) base.dependent.push_back(unknowns[p[d]]);
  std::sort(base.dependent.begin(), base.dependent.end());
  return base;
}

std::vector<int> identified_columns(const Model& model, const DriveParameters& drive,
                                    const std::vector<std::string>& links) {
  const int all = regressor_columns(model, drive), bodies = model.njoints - 1;
  std::vector<int> columns;
  if (links.empty()) {
    for (int c = 0; c < all; ++c) columns.push_back(c);
    return columns;
  }
  // the bodies' links, as the parameters name them ("<link>.m")
  const std::vector<std::string> names = regressor_parameter_names(model, drive);
  std::vector<std::string> body_links;
  for (int b = 0; b < bodies; ++b) {
    const std::string& m = names[kInertialParameterCount * b];
    body_links.push_back(m.substr(0, m.size() - 2));
  }
  std::vector<bool> chosen(bodies, false);
  for (const std::string& link : links) {
    const auto at = std::find(body_links.begin(), body_links.end(), link);
    if (at == body_links.end()) {
      const int frame = model.frame_index(link);
      if (frame < 0) {
        throw InputError("no link " + quote_input(link) + " in the robot" +
                         did_you_mean(body_links, link));
      }
      const int carrier = model.frames[frame].parent;
      if (carrier == 0) {
        throw InputError("link " + quote_input(link) +
                         " is welded to the fixed base: no torque depends on it");
      }
      throw InputError("link " + quote_input(link) + " is welded by fixed joints to " +
                       quote_input(body_links[carrier - 1]) +
                       ", whose body it is part of: identify that body");
    }
    const int b = static_cast<int>(at - body_links.begin());
    if (model.inertia[b + 1].m == 0) {
      throw InputError("link " + quote_input(link) +
                       " has no mass in the robot file (a massless link by design): there is "
                       "nothing to identify it from; give it a mass to identify it");
    }
    chosen[b] = true;
  }
  for (int b = 0; b < bodies; ++b) {
    for (int k = 0; chosen[b] && k < kInertialParameterCount; ++k) {
      columns.push_back(kInertialParameterCount * b + k);
    }
  }
  for (int c = kInertialParameterCount * bodies; c < all; ++c) columns.push_back(c);
  return columns;
}

std::string base_parameter_expression(const BaseParameters& base, int k,
                                      const std::vector<std::string>& names) {
  std::string text = names[base.independent[k]];
  for (const int c : base.dependent) {
    const double coefficient = base.combination(k, c);
    if (std::abs(coefficient) < kNegligibleCoefficient) continue;
    text += coefficient < 0 ? " - " : " + ";
    // 12 digits: the coefficients are lengths and their products, found to round-off
    const std::string magnitude = number_text(std::abs(coefficient), 12);
    if (magnitude != "1") text += magnitude + " ";
    text += names[c];
  }
  return text;
}

Eigen::VectorXd standard_from_base(const BaseParameters& base, const Eigen::VectorXd& b,
                                   const Eigen::VectorXd& prior) {
  // the least change of the prior that gives b: prior + C^T (C C^T)^-1 (b - C prior), C the
  // combination (full row rank); it spreads each combination's change over its parameters
  const Eigen::MatrixXd& C = base.combination;
  const Eigen::MatrixXd gram = C * C.transpose();
  return prior + C.transpose() * gram.ldlt().solve(b - C * prior);
}

bool alone(const BaseParameters& base, int k) {
  for (const int d : base.dependent) {
    if (std::abs(base.combination(k, d)) >= kNegligibleCoefficient) return false;
  }
  return true;
}

StreamingLeastSquares::StreamingLeastSquares(int groups, int unknowns)
    : unknowns_(unknowns),
      factors_(groups, Eigen::MatrixXd::Zero(unknowns + 1, unknowns + 1)),
      // a buffer of twice the factor's rows: the QR's cost per row is then within 1.5 times that
      // of folding rows in one at a time, in Eigen's blocked kernels
      buffers_(groups, Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Zero(
                           2 * (unknowns + 1), unknowns + 1)),
      touched_(groups, std::vector<char>(unknowns, 0)),
      new_touches_(groups, 1),
      columns_(groups),
      stacks_(groups),
      qrs_(groups) {
  for (auto& columns : columns_) columns.reserve(unknowns + 1);
}

void StreamingLeastSquares::add(const Eigen::Ref<const Eigen::MatrixXd>& A,
                                const Eigen::Ref<const Eigen::VectorXd>& y) {
  for (int g = 0; g < groups(); ++g) {
    buffers_[g].row(buffered_).head(unknowns_) = A.row(g);
    buffers_[g](buffered_, unknowns_) = y[g];
    for (int c = 0; c < unknowns_; ++c) {
      if (!touched_[g][c] && A(g, c) != 0) {
        touched_[g][c] = 1;
        new_touches_[g] = 1;
      }
    }
  }
  ++rows_;
  if (++buffered_ == buffers_.front().rows()) flush();
}

void StreamingLeastSquares::update_columns(int g) {
  if (!new_touches_[g]) return;
  new_touches_[g] = 0;
  std::vector<int>& columns = columns_[g];
  columns.clear();
  for (int c = 0; c < unknowns_; ++c) {
    if (touched_[g][c]) columns.push_back(c);
  }
  columns.push_back(unknowns_);
  const Eigen::Index k = static_cast<Eigen::Index>(columns.size());
  const Eigen::Index rows = k + buffers_[g].rows();
  stacks_[g].resize(rows, k);
  qrs_[g] = Eigen::HouseholderQR<Eigen::MatrixXd>(rows, k);
}

namespace {

// rows r = 0 .. count - 1 of `rows` on `columns` into stack rows offset + r
template <class Rows>
void gather_rows(const Rows& rows, Eigen::Index count, const std::vector<int>& columns,
                 Eigen::MatrixXd& stack, Eigen::Index offset) {
  const Eigen::Index k = static_cast<Eigen::Index>(columns.size());
  for (Eigen::Index r = 0; r < count; ++r) {
    for (Eigen::Index b = 0; b < k; ++b) stack(offset + r, b) = rows(r, columns[b]);
  }
}

}  // namespace

template <class Rows>
void StreamingLeastSquares::fold(int g, const Rows& rows, Eigen::Index count) {
  update_columns(g);
  const std::vector<int>& columns = columns_[g];
  const Eigen::Index k = static_cast<Eigen::Index>(columns.size());
  Eigen::MatrixXd& T = factors_[g];
  Eigen::MatrixXd& stack = stacks_[g];
  // T_g holds nothing off its touched columns (every fold writes only those), and is upper
  // triangular in them; the rows below are the new ones, then zero rows, which change no R
  stack.setZero();
  for (Eigen::Index a = 0; a < k; ++a) {
    for (Eigen::Index b = a; b < k; ++b) stack(a, b) = T(columns[a], columns[b]);
  }
  gather_rows(rows, count, columns, stack, k);
  qrs_[g].compute(stack);
  const Eigen::MatrixXd& R = qrs_[g].matrixQR();
  for (Eigen::Index a = 0; a < k; ++a) {
    for (Eigen::Index b = a; b < k; ++b) T(columns[a], columns[b]) = R(a, b);
  }
}

void StreamingLeastSquares::flush() {
  if (buffered_ == 0) return;
  for (int g = 0; g < groups(); ++g) fold(g, buffers_[g], buffered_);
  buffered_ = 0;
}

void StreamingLeastSquares::merge(StreamingLeastSquares& other) {
  flush();
  other.flush();
  for (int g = 0; g < groups(); ++g) {
    // [T_g; T_g'] has the R of all the rows the two stand for; T_g' lives on its own touched
    // columns, which become this group's too
    for (int c = 0; c < unknowns_; ++c) {
      if (other.touched_[g][c] && !touched_[g][c]) {
        touched_[g][c] = 1;
        new_touches_[g] = 1;
      }
    }
    fold(g, other.factors_[g], other.factors_[g].rows());
  }
  rows_ += other.rows_;
}

void StreamingLeastSquares::set_factor(int g, const Eigen::MatrixXd& T, long rows) {
  factors_[g] = T;
  // a row of T with data where its column has none (a factor not folded here) counts as well
  for (int c = 0; c < unknowns_; ++c) touched_[g][c] = T.col(c).any() || T.row(c).any();
  new_touches_[g] = 1;
  rows_ = rows;
}

double StreamingLeastSquares::residual_squares(int g,
                                               const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const Eigen::MatrixXd& T = factors_[g];
  const int n = unknowns_;
  const double fitted =
      (T.topLeftCorner(n, n).triangularView<Eigen::Upper>() * x - T.col(n).head(n)).squaredNorm();
  return fitted + T(n, n) * T(n, n);
}

Eigen::MatrixXd StreamingLeastSquares::combined(const Eigen::VectorXd& weights) const {
  const int n = unknowns_ + 1;
  Eigen::MatrixXd stack(static_cast<Eigen::Index>(groups()) * n, n);
  for (int g = 0; g < groups(); ++g) stack.middleRows(g * n, n) = weights[g] * factors_[g];
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(stack);
  return qr.matrixQR().topRows(n).triangularView<Eigen::Upper>();
}

StreamingLeastSquares::Solution StreamingLeastSquares::solve(const Eigen::VectorXd& weights,
                                                             double max_condition) const {
  const Eigen::MatrixXd T = combined(weights);
  const int m = unknowns_;
  const Eigen::MatrixXd R = T.topLeftCorner(m, m);
  Solution s;
  s.weights = weights;
  s.singular_values = Eigen::JacobiSVD<Eigen::MatrixXd>(R).singularValues();
  const double smallest = m ? s.singular_values[m - 1] : 1;
  s.condition = smallest > 0 ? s.singular_values[0] / smallest : INFINITY;
  if (!(s.condition <= max_condition)) return s;
  const auto upper = R.triangularView<Eigen::Upper>();
  s.x = upper.solve(T.col(m).head(m));
  const long freedom = rows_ * groups() - m;
  s.sigma = freedom > 0 ? std::abs(T(m, m)) / std::sqrt(static_cast<double>(freedom)) : 0;
  // diag((R^T R)^-1) = squared row norms of R^-1
  const Eigen::MatrixXd inverse = upper.solve(Eigen::MatrixXd::Identity(m, m));
  s.std = s.sigma * inverse.rowwise().norm();
  return s;
}

StreamingLeastSquares::Solution StreamingLeastSquares::solve_two_step(double max_condition) const {
  Solution s = solve(Eigen::VectorXd::Ones(groups()), max_condition);
  if (s.x.size() == 0 && unknowns_ > 0) return s;
  Eigen::VectorXd sigma(groups());
  const double freedom = std::max(1.0, static_cast<double>(rows_ - unknowns_));
  bool noise_free = groups() == 0;
  for (int g = 0; g < groups(); ++g) {
    sigma[g] = std::sqrt(residual_squares(g, s.x) / freedom);
    // a residual of round-off weights by nothing but the round-off
    const double measured = factors_[g].col(unknowns_).norm() / std::sqrt(std::max(1L, rows_));
    noise_free = noise_free || !(sigma[g] > kRoundOffResidual * measured);
  }
  if (noise_free) return s;
  return solve(sigma.cwiseInverse(), max_condition);
}

ParameterResiduals::ParameterResiduals(const Model& model, const DriveParameters& drive,
                                       std::vector<Eigen::VectorXd> sets)
    : model_(model),
      drive_(drive),
      sets_(std::move(sets)),
      data_(model),
      Y_(model.nv, regressor_columns(model, drive)),
      tau_(model.nv),
      residual_(model.nv),
      scans_(sets_.size(), TorqueResidualScan(model.nv)) {}

void ParameterResiduals::observe(ConstVec q, ConstVec v, ConstVec a, ConstVec measured, double t,
                                 int line) {
  joint_torque_regressor(model_, data_, q, v, a, Y_, drive_);
  for (size_t k = 0; k < sets_.size(); ++k) {
    tau_.noalias() = Y_ * sets_[k];
    scans_[k].observe(measured, tau_, t, line, residual_);
  }
}

}  // namespace eom
