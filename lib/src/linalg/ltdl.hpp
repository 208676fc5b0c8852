// Featherstone's LTDL factorisation of the joint-space inertia matrix of a branched kinematic tree
// (private to libeom): R. Featherstone, "Efficient factorization of the joint-space inertia matrix
// for branched kinematic trees", IJRR 24(6), 2005; Rigid Body Dynamics Algorithms, 2008, Section
// 6.5, Tables 6.3 and 6.4. H = L^T D L with L unit lower triangular and L_ki != 0 only when i is
// an ancestor of k on its branch: eliminating from the leaves up makes no fill-in, so the factor
// costs O(n d^2) and each solve with L or L^T O(n d) (d the depth of the tree) instead of the
// O(n^3) and O(n^2) of a dense Cholesky factor. The contact problems solve with it
// (algorithm/constrained_dynamics.cpp): M^-1 (tau - h), M^-1 J_c^T and J_c M^-1 J_c^T =
// (J_c L^-1) D^-1 (J_c L^-1)^T.
//
// lambda is the parent array of the coordinates (Data::dof_parent: the coordinate before k on its
// branch, -1 at a root, lambda[k] < k). The factor is stored in H in place: D on the diagonal and
// L^T in the upper triangle, H(i, k) = L_ki for the ancestors i of k (the lower triangle's mirror,
// so that a coordinate's branch is read down its column); the other entries are left as they were
// and never read.
#pragma once

#include <vector>

#include <Eigen/Core>

namespace eom::linalg {

/// H = L^T D L in place (Table 6.3, from H's upper triangle). Returns -1, or the first coordinate
/// (from the leaves) whose pivot D_k is not positive (H not positive definite, or not finite).
int ltdl(const std::vector<int>& lambda, Eigen::MatrixXd& H);

/// x := L^-T x (Table 6.4: from the leaves up). A zero x_k is skipped, so a right-hand side that is
/// zero off one branch (a row of a contact Jacobian) costs the length of that branch only.
void solve_lt(const std::vector<int>& lambda, const Eigen::MatrixXd& H,
              Eigen::Ref<Eigen::VectorXd> x);

/// x := L^-1 x (Table 6.4: from the root down).
void solve_l(const std::vector<int>& lambda, const Eigen::MatrixXd& H,
             Eigen::Ref<Eigen::VectorXd> x);

/// x := D^-1 x.
void solve_d(const Eigen::MatrixXd& H, Eigen::Ref<Eigen::VectorXd> x);

/// x := H^-1 x = L^-1 D^-1 L^-T x with the factor of ltdl().
void solve_ltdl(const std::vector<int>& lambda, const Eigen::MatrixXd& H,
                Eigen::Ref<Eigen::VectorXd> x);

}  // namespace eom::linalg
