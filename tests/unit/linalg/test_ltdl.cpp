// Featherstone's LTDL factorisation H = L^T D L on branched trees: random trees (revolute,
// prismatic and fixed joints, branching anywhere), with and without a floating base and with
// joints locked, against the dense Cholesky factor of the same M (taken from the leaves up, it is
// the same factor: unique for a positive definite M), the property M = L^T D L, the solves against
// the dense ones, the solve inverting crba's M on shipped robots (a floating quadruped, an arm, a
// planar chain), and a joint that moves no mass as the failing pivot.

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/reduced_model.hpp>
#include <eom/parsers/urdf.hpp>

#include "linalg/ltdl.hpp"
#include "matchers.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// A URDF of `links` bodies, each hung from a random earlier one by a revolute, prismatic or
// (one in six) fixed joint with a random axis and origin; masses in [0.5, 2] kg with their
// centres off the joint and inertias of a few cm.
std::string random_tree_urdf(Rng& rng, int links) {
  std::ostringstream out;
  out << "<robot name=\"tree\">\n";
  auto link = [&](int k) {
    const double m = rng.uniform(0.5, 2);
    out << "<link name=\"l" << k << "\"><inertial><mass value=\"" << m << "\"/><origin xyz=\""
        << rng.uniform(-0.1, 0.1) << ' ' << rng.uniform(-0.1, 0.1) << ' ' << rng.uniform(-0.1, 0.1)
        << "\"/><inertia ixx=\"" << rng.uniform(0.01, 0.03) << "\" iyy=\""
        << rng.uniform(0.01, 0.03) << "\" izz=\"" << rng.uniform(0.01, 0.03)
        << "\" ixy=\"0.001\" ixz=\"0\" iyz=\"-0.002\"/></inertial></link>\n";
  };
  link(0);
  for (int k = 1; k < links; ++k) {
    link(k);
    const int parent = static_cast<int>(rng.next() % static_cast<std::uint64_t>(k));
    const std::uint64_t kind = rng.next() % 6;
    const char* type = kind == 0 ? "fixed" : kind < 4 ? "continuous" : "prismatic";
    out << "<joint name=\"j" << k << "\" type=\"" << type << "\"><parent link=\"l" << parent
        << "\"/><child link=\"l" << k << "\"/><origin xyz=\"" << rng.uniform(-0.3, 0.3) << ' '
        << rng.uniform(-0.3, 0.3) << ' ' << rng.uniform(-0.3, 0.3) << "\" rpy=\""
        << rng.uniform(-3, 3) << ' ' << rng.uniform(-1.5, 1.5) << ' ' << rng.uniform(-3, 3)
        << "\"/><axis xyz=\"" << rng.uniform(-1, 1) << ' ' << rng.uniform(-1, 1) << " 1\"/>";
    if (kind >= 4) out << "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>";
    out << "</joint>\n";
  }
  out << "</robot>\n";
  return out.str();
}

// The random trees of the tests: fixed and floating, and each with about a third of its moving
// joints locked at a random configuration.
std::vector<Model> random_trees() {
  std::vector<Model> models;
  Rng rng(37);
  for (int t = 0; t < 12; ++t) {
    LoadOptions options;
    options.floating_base = t % 2 == 1;
    const Model model = build_model(parse_urdf(random_tree_urdf(rng, 4 + t)), options, nullptr);
    models.push_back(model);
    std::vector<int> locked;
    for (int i = options.floating_base ? 2 : 1; i < model.njoints; ++i) {
      if (model.joints[i].nv > 0 && rng.next() % 3 == 0) locked.push_back(i);
    }
    if (!locked.empty()) {
      models.push_back(build_reduced_model(model, locked, random_configuration(model, rng)));
    }
  }
  return models;
}

// The dense unit lower triangular L of the factor stored in H (its ancestors' entries only).
Eigen::MatrixXd unit_lower(const std::vector<int>& lambda, const Eigen::MatrixXd& H) {
  const Eigen::Index n = H.rows();
  Eigen::MatrixXd L = Eigen::MatrixXd::Identity(n, n);
  for (int k = 0; k < n; ++k) {
    for (int i = lambda[k]; i >= 0; i = lambda[i]) L(k, i) = H(i, k);
  }
  return L;
}

}  // namespace

TEST_CASE("ltdl: the dense Cholesky factor from the leaves up, on random branched trees",
          "[linalg]") {
  int index = 0;
  for (const Model& model : random_trees()) {
    INFO("tree " << index++ << ", nv " << model.nv << (model.floating_base ? ", floating" : ""));
    Data data(model);
    Rng rng(5 + index);
    const Eigen::MatrixXd M = crba(model, data, random_configuration(model, rng));
    Eigen::MatrixXd H = M;
    REQUIRE(linalg::ltdl(data.dof_parent, H) == -1);
    const Eigen::MatrixXd L = unit_lower(data.dof_parent, H);
    const Eigen::VectorXd D = H.diagonal();
    // the dense Cholesky factor of M with its coordinates reversed, P M P = C C^T, is
    // M = U U^T with U = P C P upper triangular; then L^T = U diag(U)^-1 and D = diag(U)^2
    const Eigen::Index n = M.rows();
    const Eigen::MatrixXd reversed = M.reverse();
    Eigen::LLT<Eigen::MatrixXd> llt(reversed);
    REQUIRE(llt.info() == Eigen::Success);
    const Eigen::MatrixXd U = Eigen::MatrixXd(llt.matrixL()).reverse();
    const Eigen::VectorXd u = U.diagonal();
    const Eigen::MatrixXd dense_Lt = U * u.cwiseInverse().asDiagonal();
    CHECK_THAT(D, AllClose(u.cwiseAbs2(), 0, 1e-10));
    CHECK_THAT(L.transpose(), AllClose(dense_Lt, 1e-10 * dense_Lt.cwiseAbs().maxCoeff()));
    // M = L^T D L, to round-off in M's own scale
    const Eigen::MatrixXd product = L.transpose() * D.asDiagonal() * L;
    CHECK_THAT(product, AllClose(M, 1e-13 * M.cwiseAbs().maxCoeff()));
    // the solves: L^-T, L^-1 and M^-1 against dense triangular and Cholesky solves
    Eigen::VectorXd b(n);
    for (Eigen::Index k = 0; k < n; ++k) b[k] = 1.0 - 0.37 * static_cast<double>(k);
    Eigen::VectorXd x = b;
    linalg::solve_lt(data.dof_parent, H, x);
    const Eigen::VectorXd lt_inv_b = L.transpose().triangularView<Eigen::UnitUpper>().solve(b);
    CHECK_THAT(x, AllClose(lt_inv_b, 1e-12 * lt_inv_b.cwiseAbs().maxCoeff()));
    x = b;
    linalg::solve_l(data.dof_parent, H, x);
    const Eigen::VectorXd l_inv_b = L.triangularView<Eigen::UnitLower>().solve(b);
    CHECK_THAT(x, AllClose(l_inv_b, 1e-12 * l_inv_b.cwiseAbs().maxCoeff()));
    x = b;
    linalg::solve_ltdl(data.dof_parent, H, x);
    const Eigen::VectorXd m_inv_b = M.llt().solve(b);
    CHECK_THAT(x, AllClose(m_inv_b, 1e-10 * m_inv_b.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("ltdl: the solve inverts M on shipped trees and chains", "[linalg]") {
  LoadOptions floating;
  floating.floating_base = true;
  for (const auto& [path, options] : {std::pair{kRobotsDir + "/solo12.urdf", floating},
                                      std::pair{kRobotsDir + "/panda.urdf", LoadOptions{}},
                                      std::pair{kRobotsDir + "/planar_2r.urdf", LoadOptions{}}}) {
    INFO(path);
    const Model model = load_urdf(path, options);
    Data data(model);
    Rng rng(11);
    const Eigen::MatrixXd M = crba(model, data, random_configuration(model, rng));
    Eigen::MatrixXd H = M;
    REQUIRE(linalg::ltdl(data.dof_parent, H) == -1);
    // x = M^-1 b for b = M x0: x0 again, to the condition of M
    Eigen::VectorXd x0(model.nv);
    for (int k = 0; k < model.nv; ++k) x0[k] = 1.0 - 0.3 * k;
    Eigen::VectorXd x = M * x0;
    linalg::solve_ltdl(data.dof_parent, H, x);
    CHECK_THAT(x, AllClose(x0, 1e-9, 1e-9));
    // and the columns: M^-1 M = I
    Eigen::MatrixXd product = M;
    for (int k = 0; k < model.nv; ++k) linalg::solve_ltdl(data.dof_parent, H, product.col(k));
    CHECK_THAT(product, AllClose(Eigen::MatrixXd::Identity(model.nv, model.nv), 1e-9));
  }
}

TEST_CASE("ltdl: a joint that moves no mass is the failing pivot", "[linalg]") {
  // the finger slides, and carries no mass: M's pivot of finger_slide is zero
  const Model model = load_urdf(kDataDir + "/urdf/massless_leaf.urdf");
  Data data(model);
  Eigen::MatrixXd H = crba(model, data, neutral(model));
  CHECK(linalg::ltdl(data.dof_parent, H) == model.joints[model.joint_index("finger_slide")].idx_v);
}
