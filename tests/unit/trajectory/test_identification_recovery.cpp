// Identification recovers a known robot: torques of a "true" UR5 (tests/data/identify/
// ur5_true.urdf: heavier links, moved centres of mass, damping and friction on every joint)
// computed by rnea and friction_torque (not by the regressor) along Fourier trajectories, fitted
// with the shipped UR5 as the prior. Noise-free: the true base parameters, held-out torques and
// consistent parameters whose own rnea gives the torques. Noisy: estimates within three of their
// standard deviations, and a consistent fit as close to the data as the unconstrained one.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/regressor.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/trajectory/consistent_parameters.hpp>
#include <eom/trajectory/identification.hpp>

#include "paths.hpp"

using namespace eom;
using eom::test::kDataDir;
using eom::test::kRobotsDir;

namespace {

// A standard normal draw (Box-Muller)
double normal(Rng& rng) {
  const double u = 1 - rng.uniform(0, 1), v = rng.uniform(0, 1);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

struct Sample {
  Eigen::VectorXd q, v, a;
};

// Row k of a five-harmonic Fourier trajectory per joint (Swevers et al. 1997) with exact
// derivatives; `phase` makes another trajectory of the same kind (held-out rows).
Sample fourier_row(int nv, int k, double phase) {
  const double w = 2 * M_PI / 8.0, t = k / 100.0;
  Sample s{Eigen::VectorXd::Zero(nv), Eigen::VectorXd::Zero(nv), Eigen::VectorXd::Zero(nv)};
  for (int j = 0; j < nv; ++j) {
    for (int h = 1; h <= 5; ++h) {
      const double sa = 0.6 / h * std::cos(0.7 * j + h + phase);
      const double ca = 0.5 / h * std::sin(1.3 * j + 2 * h + phase);
      const double x = h * w * t;
      s.q[j] += (sa * std::sin(x) - ca * std::cos(x)) / (h * w);
      s.v[j] += sa * std::cos(x) + ca * std::sin(x);
      s.a[j] += h * w * (-sa * std::sin(x) + ca * std::cos(x));
    }
    s.q[j] += 0.3 * (j % 3 - 1);
  }
  return s;
}

// The torques the true robot needs: rnea plus its friction (eom id --friction's)
Eigen::VectorXd true_torque(const Model& truth, Data& data, const Sample& s) {
  Eigen::VectorXd tau = rnea(truth, data, s.q, s.v, s.a);
  Eigen::VectorXd friction(truth.nv);
  friction_torque(Friction::from_model(truth), s.v, friction);
  return tau + friction;
}

struct Problem {
  Model truth = load_model(kDataDir + "/identify/ur5_true.urdf");
  Model prior_model = load_model(kRobotsDir + "/ur5.urdf");
  DriveParameters drive = [] {
    DriveParameters d;
    d.viscous = d.coulomb = true;
    return d;
  }();
  BaseParameters base = base_parameters(prior_model, drive);
  int r = static_cast<int>(base.independent.size());
  Eigen::VectorXd b_true = base.combination * regressor_parameters(truth, drive);
  Eigen::VectorXd prior = regressor_parameters(prior_model, drive);

  // the rows of the fit: white noise of standard deviations q_noise on q and tau_noise on tau
  StreamingLeastSquares accumulate(int rows, Rng* rng, double q_noise, double tau_noise) {
    StreamingLeastSquares fit(prior_model.nv, r);
    Data truth_data(truth), data(prior_model);
    Eigen::MatrixXd Y(prior_model.nv, regressor_columns(prior_model, drive));
    Eigen::MatrixXd base_Y(prior_model.nv, r);
    for (int k = 0; k < rows; ++k) {
      Sample s = fourier_row(prior_model.nv, k, 0.0);
      Eigen::VectorXd tau = true_torque(truth, truth_data, s);
      if (rng) {
        for (int j = 0; j < prior_model.nv; ++j) {
          s.q[j] += q_noise * normal(*rng);
          tau[j] += tau_noise * normal(*rng);
        }
      }
      joint_torque_regressor(prior_model, data, s.q, s.v, s.a, Y, drive);
      for (int c = 0; c < r; ++c) base_Y.col(c) = Y.col(base.independent[c]);
      fit.add(base_Y, tau);
    }
    fit.flush();
    return fit;
  }

  ConsistentFit consistent(const StreamingLeastSquares& fit, const Eigen::VectorXd& weights,
                           double prior_weight) const {
    const Eigen::MatrixXd T = fit.combined(weights);
    ConsistentFitSettings settings;
    settings.bodies = prior_model.njoints - 1;
    settings.drive = drive;
    settings.prior_weight = prior_weight;
    return consistent_parameters(T.topLeftCorner(r, r) * base.combination, T.col(r).head(r), prior,
                                 settings);
  }
};

}  // namespace

TEST_CASE(
    "Identification, noise-free: the true base parameters, held-out torques, a consistent "
    "robot that gives them",
    "[identification]") {
  Problem p;
  const StreamingLeastSquares fit = p.accumulate(800, nullptr, 0, 0);
  const StreamingLeastSquares::Solution lsq = fit.solve_two_step(1e8);
  REQUIRE(lsq.x.size() == p.r);
  CHECK((lsq.x - p.b_true).norm() <= 1e-8 * p.b_true.norm());

  const Eigen::VectorXd pi = p.consistent(fit, lsq.weights, 0.0).pi;
  const Model identified = model_with_parameters(p.prior_model, p.drive, pi);
  Data truth_data(p.truth), data(identified), regressor_data(p.prior_model);
  Eigen::MatrixXd Y(p.prior_model.nv, regressor_columns(p.prior_model, p.drive));
  double error_lsq = 0, error_consistent = 0, norm = 0;
  for (int k = 0; k < 500; ++k) {  // held-out rows: another trajectory
    const Sample s = fourier_row(p.prior_model.nv, k, 1.9);
    const Eigen::VectorXd tau = true_torque(p.truth, truth_data, s);
    joint_torque_regressor(p.prior_model, regressor_data, s.q, s.v, s.a, Y, p.drive);
    Eigen::VectorXd base_tau = Eigen::VectorXd::Zero(tau.size());
    for (int c = 0; c < p.r; ++c) base_tau += Y.col(p.base.independent[c]) * lsq.x[c];
    error_lsq += (base_tau - tau).squaredNorm();
    // the consistent robot's torques by its own rnea and friction, not by the regressor
    error_consistent += (true_torque(identified, data, s) - tau).squaredNorm();
    norm += tau.squaredNorm();
  }
  CHECK(std::sqrt(error_lsq / norm) <= 1e-9);
  CHECK(std::sqrt(error_consistent / norm) <= 1e-8);
}

TEST_CASE(
    "Identification, noisy: estimates within 3 standard deviations, the consistent fit's "
    "residual near the unconstrained one's",
    "[identification]") {
  Problem p;
  int within = 0, total = 0;
  for (const std::uint64_t seed : {1, 2, 3, 4, 5, 6, 7, 8}) {
    Rng rng(seed);
    // 0.05 N m on the torques, 1e-5 rad on the positions
    const StreamingLeastSquares fit = p.accumulate(1600, &rng, 1e-5, 0.05);
    const StreamingLeastSquares::Solution lsq = fit.solve_two_step(1e8);
    REQUIRE(lsq.x.size() == p.r);
    for (int k = 0; k < p.r; ++k, ++total) {
      if (std::abs(lsq.x[k] - p.b_true[k]) <= 3 * lsq.std[k]) ++within;
    }
    const ConsistentFit consistent = p.consistent(fit, lsq.weights, 1e-3);
    const Eigen::MatrixXd T = fit.combined(lsq.weights);
    const auto residual = [&](const Eigen::VectorXd& b) {
      return std::sqrt((T.topLeftCorner(p.r, p.r) * b - T.col(p.r).head(p.r)).squaredNorm() +
                       T(p.r, p.r) * T(p.r, p.r));
    };
    CHECK(residual(p.base.combination * consistent.pi) <= 1.05 * residual(lsq.x));
  }
  CHECK(within >= 0.95 * total);
}
