// Physically consistent standard parameters for identification (eom identify --method
// consistent): every body's pseudo-inertia positive definite (Wensing, Kim and Slotine 2017),
// friction and armature non-negative, fitted to the accumulated least-squares factor of the logs
// by Levenberg-Marquardt in the log-Cholesky parameters of Rucker and Wensing 2022.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "eom/algorithm/regressor.hpp"

namespace eom {

/// The pseudo-inertia J = [[S, h], [h^T, m]] of inertial parameters (m, h = m c, I_o), with
/// S = tr(I_o)/2 1 - I_o the second moment of the mass about the body frame's origin. J is
/// positive definite exactly when the body is a physical one: positive mass, and a density whose
/// inertia satisfies the triangle inequalities (Wensing, Kim and Slotine 2017, Theorem 1).
Eigen::Matrix4d pseudo_inertia(const InertialParameters& pi);
/// Its inverse: m = J_33, h = J_{0:3,3}, I_o = tr(S) 1 - S.
InertialParameters parameters_from_pseudo_inertia(const Eigen::Matrix4d& J);

/// The log-Cholesky parameters of Rucker and Wensing 2022 (eq. 10):
/// theta = (alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3) with J = U U^T,
/// U = e^alpha [[e^d1, s12, s13, t1], [0, e^d2, s23, t2], [0, 0, e^d3, t3], [0, 0, 0, 1]].
/// Every theta gives a positive definite J and every positive definite J has one theta.
using LogCholesky = Eigen::Matrix<double, 10, 1>;
/// J of theta, and (when `jacobian` is given) d pi / d theta (10 x 10).
InertialParameters parameters_from_log_cholesky(const LogCholesky& theta,
                                                Eigen::Matrix<double, 10, 10>* jacobian = nullptr);
/// theta of a positive definite J (U by the Cholesky factor of J with its rows and columns
/// reversed).
LogCholesky log_cholesky(const Eigen::Matrix4d& J);

/// The fit's setting: the prior (the model file's parameters, in the regressor's column order
/// for `drive` with `bodies` bodies first), and the weight of the pull toward it.
struct ConsistentFitSettings {
  int bodies = 0;             // inertial parameters are the first 10 * bodies
  DriveParameters drive;      // the drive columns after them, per coordinate fv, fc, fo, ia
  double prior_weight = 0;    // W (below)
  int max_iterations = 2000;  // Levenberg-Marquardt steps per stage
};

struct ConsistentFit {
  Eigen::VectorXd pi;  // the consistent standard parameters
  double cost = 0;     // ||A pi - z||^2 + prior term at pi
  int iterations = 0;  // Levenberg-Marquardt steps taken
};

/// The physically consistent parameters that minimise
///   ||A pi - z||^2 + (W s)^2 (||theta - theta_prior||^2 + ||d - d_prior||^2),
///   s^2 = ||A||_F^2 / columns,
/// over pi with every body's pseudo-inertia positive definite and fv, fc, ia >= 0 (fo free):
/// theta the bodies' log-Cholesky parameters, d the drive parameters. A and z are the least-squares
/// problem reduced to its triangular factor (A = R C, z = Q^T y for the base regressor's factor R
/// and the base parameters' combination C), so the cost does not depend on the rows. s makes W
/// relative to the data (the root mean square column norm of A): the same W is the same pull
/// whatever the row count and the torque units. The pull acts in the log-Cholesky coordinates
/// (logarithms of the mass and of the body's principal lengths, and lengths), where the boundary
/// of the consistent set is at infinity: it keeps what the torques cannot tell at the prior and the
/// fit inside the set. W = 0, a pure fit, is taken as 1e-7 (its change of the fit is of order
/// 1e-14). Bodies are parameterised by log_cholesky, fv, fc and ia by their logarithms; the start
/// is the prior, made strictly consistent (a body whose prior pseudo-inertia is not positive
/// definite starts with its eigenvalues raised to 1e-6 of its largest, a zero friction from 1e-6).
/// A W under 1e-3 is reached by continuation: W = 1e-3 first, then ten times less per stage, each
/// stage from the last one's result (a pure fit from afar converges in hundreds of steps so, and
/// crawls without); max_iterations is per stage.
ConsistentFit consistent_parameters(const Eigen::MatrixXd& A, const Eigen::VectorXd& z,
                                    const Eigen::VectorXd& prior,
                                    const ConsistentFitSettings& settings);
/// The same over the parameters `unknowns` alone (identified_columns: whole bodies, then every
/// drive column; settings.bodies counts every body), the others staying at the prior exactly: z
/// must already be free of their torques (the rows' known torques taken off the measured ones).
ConsistentFit consistent_parameters(const Eigen::MatrixXd& A, const Eigen::VectorXd& z,
                                    const Eigen::VectorXd& prior,
                                    const ConsistentFitSettings& settings,
                                    const std::vector<int>& unknowns);

}  // namespace eom
