// eom jac's output tables read back and checked independently of the code under test: the three
// reference frames of --jacobian against the reference Jacobians (Pinocchio's jacobian_world,
// local-world-aligned) moved with the reference frame poses, and against eom fk's poses; the
// --nullspace basis against the printed Jacobian and a fresh SVD of it; --dynamics (truncated
// and damped inverses) against Lambda, Jbar and p computed here from the reference M and g, or
// from eom deriv's M at known singular configurations. Expected values use Eigen only.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SVD>

#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"
#include "reference.hpp"
#include "scratch.hpp"

using namespace eom;

namespace {

std::string temp_path(const std::string& name) { return test::scratch_path(name); }

struct Run {
  Table table;
  std::string err;
};

// eom with arguments (paths relative to the source tree); its output table and stderr
Run run_eom(const std::string& args, const std::string& name) {
  const std::string out = temp_path(name + ".csv"), err = temp_path(name + ".err");
  const std::string command = "cd '" + test::kSourceDir + "' && '" EOM_BINARY "' " + args +
                              " -o '" + out + "' 2> '" + err + "'";
  INFO(command);
  const int status = std::system(command.c_str());
  REQUIRE(WEXITSTATUS(status) == 0);
  Run run{read_table(out, Format::csv), {}};
  std::ifstream in(err);
  std::ostringstream text;
  text << in.rdbuf();
  run.err = text.str();
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return run;
}

double at(const Table& t, int row, const std::string& name) {
  const int c = t.header.index(name);
  INFO("column " << name);
  REQUIRE(c >= 0);
  return t.at(row, c);
}

// the m x nv block <prefix>.<row>.<coordinate> of a row (row names `rows`)
Eigen::MatrixXd task_matrix(const Table& t, int row, const std::string& prefix,
                            const std::vector<std::string>& rows,
                            const std::vector<std::string>& coordinates) {
  Eigen::MatrixXd out(rows.size(), coordinates.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t c = 0; c < coordinates.size(); ++c) {
      out(r, c) = at(t, row, matrix_column(prefix, rows[r], coordinates[c]));
    }
  }
  return out;
}

std::vector<std::string> all_rows() { return {kTwistComponents.begin(), kTwistComponents.end()}; }

Eigen::Matrix3d skew(const Eigen::Vector3d& p) {
  Eigen::Matrix3d S;
  S << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
  return S;
}

// A local-world-aligned Jacobian [v of the origin; w] (world axes) in another reference frame of
// a frame at (R, p): world = the velocity of the body point at the world origin, v - w x p =
// v + p x w (Featherstone's Plücker transform to the world origin); local = both parts in the
// frame's axes, R^T v and R^T w.
Eigen::MatrixXd to_world(const Eigen::MatrixXd& lwa, const Eigen::Vector3d& p) {
  Eigen::MatrixXd out = lwa;
  out.topRows(3) += skew(p) * lwa.bottomRows(3);
  return out;
}
Eigen::MatrixXd to_local(const Eigen::MatrixXd& lwa, const Eigen::Matrix3d& R) {
  Eigen::MatrixXd out(6, lwa.cols());
  out.topRows(3) = R.transpose() * lwa.topRows(3);
  out.bottomRows(3) = R.transpose() * lwa.bottomRows(3);
  return out;
}

// the reference samples' q (and v) as an input table, eom's column names
std::string reference_table(const test::Reference& ref, bool with_v) {
  Table t;
  t.header.names.push_back("t");
  for (auto& n : coordinate_columns(ref.model, "q", Space::q)) t.header.names.push_back(n);
  if (with_v) {
    for (auto& n : coordinate_columns(ref.model, "v", Space::v)) t.header.names.push_back(n);
  }
  int k = 0;
  for (const auto& sample : ref.json["samples"]) {
    t.values.push_back(k++);
    const Eigen::VectorXd q = ref.q(sample["q"]);
    t.values.insert(t.values.end(), q.data(), q.data() + q.size());
    if (with_v) {
      const Eigen::VectorXd v = ref.tangent(sample["v"]);
      t.values.insert(t.values.end(), v.data(), v.data() + v.size());
    }
  }
  const std::string path = temp_path(ref.name + (with_v ? "_qv.csv" : "_q.csv"));
  write_table(t, path, Format::csv);
  return path;
}

std::string robot_args(const test::Reference& ref) {
  return "tests/data/robots/" + ref.json["robot"].get<std::string>() +
         (ref.json["floating_base"].get<bool>() ? " --floating-base" : "");
}

struct Pose {
  Eigen::Matrix3d R;
  Eigen::Vector3d p;
};

// eom fk's pose columns <frame>.x .. .qw
Pose fk_pose(const Table& t, int row, const std::string& frame) {
  Pose pose;
  const std::vector<std::string> c = pose_columns(frame);  // x y z qx qy qz qw
  pose.p = {at(t, row, c[0]), at(t, row, c[1]), at(t, row, c[2])};
  pose.R =
      Eigen::Quaterniond(at(t, row, c[6]), at(t, row, c[3]), at(t, row, c[4]), at(t, row, c[5]))
          .normalized()
          .toRotationMatrix();
  return pose;
}

// ||A - B||_max <= tol * (1 + ||B||_max) + allowance
void check_close(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double tol,
                 double allowance = 0) {
  REQUIRE(A.rows() == B.rows());
  REQUIRE(A.cols() == B.cols());
  const double scale = 1 + B.cwiseAbs().maxCoeff();
  INFO("eom:\n" << A << "\nexpected:\n" << B);
  CHECK((A - B).cwiseAbs().maxCoeff() <= tol * scale + allowance);
}

}  // namespace

TEST_CASE("eom jac --jacobian: world, local and local-world-aligned against the reference",
          "[cli][jac]") {
  for (const std::string& name : test::kReferenceFiles) {
    const test::Reference ref = test::load_reference(name);
    const std::string input = reference_table(ref, false);
    const std::string robot = robot_args(ref);
    const Run fk = run_eom("fk " + robot + " " + input, name + "_fk");
    for (const auto& frame_json : ref.json["jacobian_frames"]) {
      const std::string frame = frame_json;
      INFO(name << " " << frame);
      const std::string args = "jac " + robot + " " + input + " --frame " + frame + " --jacobian";
      const Table lwa = run_eom(args, "lwa").table;
      const Table world = run_eom(args + " --reference world", "world").table;
      const Table local = run_eom(args + " --reference local", "local").table;
      const Table aligned = run_eom(args + " --reference local-world-aligned", "aligned").table;
      int row = 0;
      for (const auto& sample : ref.json["samples"]) {
        INFO("sample " << row);
        const Eigen::MatrixXd J = ref.columns(sample["jacobian_world"][frame]);
        const auto& pose = sample["frames"][frame];
        const Eigen::Vector3d p = test::vector_of(pose["p"]);
        const Eigen::Matrix3d R = test::matrix3_of(pose["R"]);
        const auto& v = ref.model.v_names;
        // kinematics: about 1e-12 relative (the reference README)
        check_close(task_matrix(lwa, row, "J", all_rows(), v), J, 1e-11);
        check_close(task_matrix(aligned, row, "J", all_rows(), v), J, 1e-11);
        check_close(task_matrix(world, row, "J", all_rows(), v), to_world(J, p), 1e-11);
        check_close(task_matrix(local, row, "J", all_rows(), v), to_local(J, R), 1e-11);
        // eom's own poses (eom fk) take its world and local Jacobians to its default one
        const Pose f = fk_pose(fk.table, row, frame);
        const Eigen::MatrixXd eom_lwa = task_matrix(lwa, row, "J", all_rows(), v);
        Eigen::MatrixXd from_local(6, v.size());
        from_local.topRows(3) = f.R * task_matrix(local, row, "J", all_rows(), v).topRows(3);
        from_local.bottomRows(3) = f.R * task_matrix(local, row, "J", all_rows(), v).bottomRows(3);
        check_close(from_local, eom_lwa, 1e-12);
        check_close(to_world(eom_lwa, f.p), task_matrix(world, row, "J", all_rows(), v), 1e-12);
        ++row;
      }
    }
  }
}

namespace {

// the printed null space of every row: nullity columns of unit vectors, zeros after them,
// orthonormal, J N = 0, and the same subspace as the null space of an independent SVD of the
// printed J (rank rule sigma_i > 1e-6 sigma_1, the documented default), whose singular values
// the printed sigma.k match
void check_null_space(const Table& t, const std::vector<std::string>& task,
                      const std::vector<std::string>& coordinates,
                      const std::vector<int>& expected_nullity = {}) {
  const int nv = static_cast<int>(coordinates.size()), m = static_cast<int>(task.size());
  const int p = std::min(m, nv);
  REQUIRE(t.rows() > 0);
  for (int row = 0; row < t.rows(); ++row) {
    INFO("row " << row);
    const Eigen::MatrixXd J = task_matrix(t, row, "J", task, coordinates);
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeFullV);
    const Eigen::VectorXd sigma = svd.singularValues();
    const double sigma1 = sigma[0];
    int rank = 0;
    for (int k = 0; k < p; ++k) {
      CHECK(std::abs(at(t, row, "sigma." + std::to_string(k + 1)) - sigma[k]) <= 1e-10 * sigma1);
      rank += sigma[k] > 1e-6 * sigma1;
    }
    CHECK(at(t, row, "rank") == rank);
    const int nullity = nv - rank;
    CHECK(at(t, row, "nullity") == nullity);
    if (!expected_nullity.empty()) CHECK(nullity == expected_nullity.at(row));
    Eigen::MatrixXd N(nv, nullity);
    for (int k = 0; k < nv; ++k) {
      for (int c = 0; c < nv; ++c) {
        const double x = at(t, row, "null." + std::to_string(k + 1) + "." + coordinates[c]);
        if (k < nullity) {
          N(c, k) = x;
        } else {
          CHECK(x == 0);
        }
      }
    }
    if (nullity == 0) continue;
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(nullity, nullity);
    CHECK((N.transpose() * N - I).cwiseAbs().maxCoeff() <= 1e-12);
    // J N = 0 to round-off, the discarded singular values included (below 1e-6 sigma_1)
    const double dropped = rank < p ? sigma[rank] : 0;
    CHECK((J * N).cwiseAbs().maxCoeff() <= 1e-12 * sigma1 + dropped);
    // the same subspace: equal orthogonal projectors
    const Eigen::MatrixXd V0 = svd.matrixV().rightCols(nullity);
    CHECK((N * N.transpose() - V0 * V0.transpose()).cwiseAbs().maxCoeff() <= 1e-9);
  }
}

}  // namespace

TEST_CASE("eom jac --nullspace: orthonormal, annihilated by J, the full null space", "[cli][jac]") {
  SECTION("7-DoF arms on a trajectory and random samples") {
    const Model iiwa = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
    check_null_space(run_eom("jac robots/iiwa14.urdf trajectories/iiwa14_wave.csv --frame "
                             "iiwa_link_ee --jacobian --nullspace",
                             "iiwa_null")
                         .table,
                     all_rows(), iiwa.v_names, std::vector<int>(3001, 1));
    const test::Reference z1 = test::load_reference("z1");
    check_null_space(run_eom("jac " + robot_args(z1) + " " + reference_table(z1, false) +
                                 " --frame gripperMover --jacobian --nullspace",
                             "z1_null")
                         .table,
                     all_rows(), z1.model.v_names, std::vector<int>(10, 1));
  }
  SECTION("known singular configurations") {
    // the iiwa stretched (q = 0: joints 1, 3, 5, 7 on the vertical through the tip turn it only
    // about z, joints 2, 4, 6 about parallel y axes move it along x only: rank 3 of 6), the
    // Panda's zero pose (rank 5), the UR5's elbow, wrist and shoulder singularities (rank 5)
    const Model iiwa = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
    check_null_space(run_eom("jac robots/iiwa14.urdf tests/data/jac/iiwa_zero.csv --frame "
                             "iiwa_link_ee --jacobian --nullspace",
                             "iiwa_zero")
                         .table,
                     all_rows(), iiwa.v_names, {4, 1, 4});
    const Model panda = load_urdf(test::kRobotsDir + "/panda.urdf");
    check_null_space(run_eom("jac robots/panda.urdf tests/data/jac/panda_zero.csv --frame "
                             "panda_hand_tcp --jacobian --nullspace",
                             "panda_zero")
                         .table,
                     all_rows(), panda.v_names, {4});
    const Model ur5 = load_urdf(test::kRobotsDir + "/ur5.urdf");
    const Table t = run_eom(
                        "jac robots/ur5.urdf tests/data/jac/ur5_singular.csv --frame tool0 "
                        "--jacobian --nullspace",
                        "ur5_singular")
                        .table;
    check_null_space(t, all_rows(), ur5.v_names, {0, 1, 0, 1, 0, 1, 0});
    // a task of three rows of a planar arm: stretched, the null space has dimension 1
    const Model planar = load_urdf(test::kRobotsDir + "/planar_3r.urdf");
    check_null_space(run_eom("jac robots/planar_3r.urdf tests/data/jac/planar_3r_stretched.csv "
                             "--frame ee --task vx,vz,wy --jacobian --nullspace",
                             "planar_null")
                         .table,
                     {"vx", "vz", "wy"}, planar.v_names, {1, 0, 1});
  }
}

namespace {

// Lambda = (J M^-1 J^T)^-1 as --help documents it: with the eigen-decomposition J M^-1 J^T =
// sum lambda_i u_i u_i^T and threshold t = 1e-12 lambda_max, truncated: sum over lambda_i > t of
// u_i u_i^T / lambda_i; damped: sum of lambda_i / (lambda_i^2 + t^2) u_i u_i^T. The lambda_i and
// u_i are taken from the SVD of C = L^-1 J^T (M = L L^T, J M^-1 J^T = C^T C), which gives the
// small eigenvalues to ~eps sigma_1 sigma_i rather than eps lambda_max: at an exact singularity
// an eigen-solver on J M^-1 J^T returns round-off noise there, which the damped formula
// multiplies by 1 / t^2 (eom's output was such noise before it took the same route).
struct TaskDynamics {
  Eigen::MatrixXd Lambda, Jbar;
  Eigen::VectorXd p;
  int rank = 0;
  double condition = 0;  // lambda_max / the smallest kept lambda
  // damped: max_i |d lambda_i| |f'(lambda_i)| per unit relative error of C, f = lambda / (lambda^2
  // + t^2), |d lambda_i| = 2 sigma_i |d sigma_i| <= 2 sigma_i sigma_1 (Weyl): how much the
  // damped values of the small eigenvalues move with the inputs' round-off
  double damped_sensitivity = 0;
  // bounds of |Jbar| and |p| changes per unit change of |Lambda| (max norms): Jbar = (M^-1 J^T)
  // Lambda and p = Lambda (J M^-1 g), so m max|M^-1 J^T| and m max|J M^-1 g|
  double jbar_gain = 0, p_gain = 0;
};

TaskDynamics task_dynamics(const Eigen::MatrixXd& M, const Eigen::MatrixXd& J,
                           const Eigen::VectorXd& g, bool damped) {
  const Eigen::LLT<Eigen::MatrixXd> llt(M);
  const Eigen::MatrixXd C = llt.matrixL().solve(J.transpose());
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeFullV);
  const Eigen::VectorXd sigma = svd.singularValues();
  const int m = static_cast<int>(J.rows());
  const double lambda_max = sigma[0] * sigma[0], t = 1e-12 * lambda_max;
  Eigen::VectorXd inverse(m);
  TaskDynamics out;
  double smallest_kept = lambda_max;
  for (int k = 0; k < m; ++k) {
    const double lambda = k < sigma.size() ? sigma[k] * sigma[k] : 0;
    const bool kept = lambda > t;
    out.rank += kept;
    if (kept) smallest_kept = std::min(smallest_kept, lambda);
    inverse[k] = damped ? lambda / (lambda * lambda + t * t) : kept ? 1 / lambda : 0;
    if (damped && k < sigma.size()) {
      const double slope = std::abs(t * t - lambda * lambda) / std::pow(lambda * lambda + t * t, 2);
      out.damped_sensitivity = std::max(out.damped_sensitivity, 2 * sigma[k] * sigma[0] * slope);
    }
  }
  out.condition = lambda_max / smallest_kept;
  const Eigen::MatrixXd U = svd.matrixV();
  out.Lambda = U * inverse.asDiagonal() * U.transpose();
  const Eigen::MatrixXd MinvJt = llt.solve(J.transpose());
  const Eigen::VectorXd task_gravity = J * llt.solve(g);
  out.Jbar = MinvJt * out.Lambda;
  out.p = out.Lambda * task_gravity;
  out.jbar_gain = m * MinvJt.cwiseAbs().maxCoeff();
  out.p_gain = m * task_gravity.cwiseAbs().maxCoeff();
  return out;
}

Eigen::MatrixXd printed_lambda(const Table& t, int row) {
  return task_matrix(t, row, "Lambda", all_rows(), all_rows());
}
Eigen::MatrixXd printed_jbar(const Table& t, int row, const std::vector<std::string>& v) {
  return task_matrix(t, row, "Jbar", v, all_rows());
}
Eigen::VectorXd printed_p(const Table& t, int row) {
  Eigen::VectorXd p(6);
  for (int r = 0; r < 6; ++r) p[r] = at(t, row, column_name("p", kTwistComponents[r]));
  return p;
}

}  // namespace

TEST_CASE("eom jac --dynamics: Lambda, Jbar and p from the reference M, J and g", "[cli][jac]") {
  for (const char* name : {"ur5_robot", "panda", "kinova", "z1"}) {
    const test::Reference ref = test::load_reference(name);
    const std::string input = reference_table(ref, true);
    const std::string frame = ref.json["jacobian_frames"][0];
    for (const char* inverse : {"", " --inverse truncated", " --inverse damped"}) {
      INFO(name << " " << frame << inverse);
      const bool damped = std::string(inverse) == " --inverse damped";
      const Table t = run_eom("jac " + robot_args(ref) + " " + input + " --frame " + frame +
                                  " --dynamics" + inverse,
                              "dynamics")
                          .table;
      int row = 0;
      for (const auto& sample : ref.json["samples"]) {
        INFO("sample " << row);
        const TaskDynamics expected =
            task_dynamics(ref.matrix(sample["M"]), ref.columns(sample["jacobian_world"][frame]),
                          ref.tangent(sample["g"]), damped);
        // first-order perturbation bound of an inverse: relative error <= condition * the
        // inputs' relative error (M, J and g to 17 digits, eom's crba and Jacobian within
        // ~1e-14 of them) plus the 1e-9 the reference README suggests
        const double tol = 1e-9 + 1e-14 * expected.condition;
        const double allowance = 1e-14 * expected.damped_sensitivity;
        CHECK(at(t, row, "Lambda_rank") == expected.rank);
        check_close(printed_lambda(t, row), expected.Lambda, tol, allowance);
        check_close(printed_jbar(t, row, ref.model.v_names), expected.Jbar, tol,
                    allowance * expected.jbar_gain);
        check_close(printed_p(t, row), expected.p, tol, allowance * expected.p_gain);
        ++row;
      }
    }
  }
}

TEST_CASE("eom jac --dynamics at singular configurations: said so, and the documented inverse",
          "[cli][jac]") {
  // M from eom deriv --matrices --order 0 (crba, checked against the reference in its own
  // tests), J from the same run's --jacobian columns; the tables have as few as three rows, from
  // which the three-point rule derives v
  struct Case {
    const char* robot;
    const char* table;
    const char* frame;
    std::vector<int> singular_rows;
  };
  const Case cases[] = {
      {"robots/ur5.urdf", "tests/data/jac/ur5_singular.csv", "tool0", {1, 3, 5}},
      {"robots/iiwa14.urdf", "tests/data/jac/iiwa_zero.csv", "iiwa_link_ee", {0, 2}},
      // two joints, six task rows: J M^-1 J^T has rank 2 on every row
      {"tests/data/robots/double_pendulum.urdf",
       "tests/data/jac/double_pendulum.static.csv",
       "link2",
       {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
  };
  for (const Case& c : cases) {
    const Model model = load_urdf(test::kSourceDir + "/" + c.robot);
    const Table deriv = run_eom(std::string("deriv ") + c.robot + " " + c.table +
                                    " --matrices --order 0 --derive three-point",
                                "deriv")
                            .table;
    for (const char* inverse : {"truncated", "damped"}) {
      INFO(c.robot << " --inverse " << inverse);
      const Run run =
          run_eom(std::string("jac ") + c.robot + " " + c.table + " --frame " + c.frame +
                      " --jacobian --dynamics --derive three-point --inverse " + inverse,
                  "singular");
      const Table& t = run.table;
      CHECK_THAT(run.err, Catch::Contains("J M^-1 J^T is singular in " +
                                          std::to_string(c.singular_rows.size()) + " rows"));
      CHECK_THAT(run.err, Catch::Contains(std::string("use the ") + inverse + " inverse"));
      const bool damped = std::string(inverse) == "damped";
      for (int row = 0; row < t.rows(); ++row) {
        INFO("row " << row);
        const Eigen::MatrixXd J = task_matrix(t, row, "J", all_rows(), model.v_names);
        const Eigen::MatrixXd M = task_matrix(deriv, row, "M", model.v_names, model.v_names);
        Eigen::VectorXd g(model.nv);
        for (int k = 0; k < model.nv; ++k) {
          g[k] = at(deriv, row, column_name("g", model.v_names[k]));
        }
        const TaskDynamics expected = task_dynamics(M, J, g, damped);
        const bool singular =
            std::find(c.singular_rows.begin(), c.singular_rows.end(), row) != c.singular_rows.end();
        CHECK((at(t, row, "Lambda_rank") < 6) == singular);
        CHECK(at(t, row, "Lambda_rank") == expected.rank);
        const double tol = 1e-9 + 1e-14 * expected.condition;
        const double allowance = 1e-14 * expected.damped_sensitivity;
        check_close(printed_lambda(t, row), expected.Lambda, tol, allowance);
        check_close(printed_jbar(t, row, model.v_names), expected.Jbar, tol,
                    allowance * expected.jbar_gain);
        check_close(printed_p(t, row), expected.p, tol, allowance * expected.p_gain);
      }
    }
  }
}
