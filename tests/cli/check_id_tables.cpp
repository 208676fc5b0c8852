// Properties of eom id's output tables on real inputs, checked by reading them back: the --terms
// columns sum to tau, and v, a derived from q alone agree with the exact columns.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fstream>
#include <functional>
#include <sstream>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"
#include "scratch.hpp"

using namespace eom;

namespace {

// run eom with arguments (relative to the source tree), return its output table
Table run_eom(const std::string& args, const std::string& name) {
  const std::string out = test::scratch_path(name + ".csv");
  const std::string command =
      "cd '" + test::kSourceDir + "' && '" EOM_BINARY "' " + args + " -o '" + out + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  Table table = read_table(out, Format::csv);
  std::filesystem::remove(out);
  return table;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// the columns of a table that `keep` selects, written to a temporary file
std::string write_subset(const std::string& input_path, const std::string& name,
                         const std::function<bool(const std::string&)>& keep) {
  const Table input = read_table(input_path, Format::csv);
  Table reduced;
  std::vector<int> kept;
  for (int c = 0; c < input.header.size(); ++c) {
    if (!keep(input.header.names[c])) continue;
    kept.push_back(c);
    reduced.header.names.push_back(input.header.names[c]);
  }
  for (int r = 0; r < input.rows(); ++r) {
    for (int c : kept) reduced.values.push_back(input.at(r, c));
  }
  const std::string path = test::scratch_path(name + ".csv");
  write_table(reduced, path, Format::csv);
  return path;
}

// eom's stdout for arguments
std::string eom_output(const std::string& args) {
  const std::string out = test::scratch_path("output.csv");
  const std::string command = "cd '" + test::kSourceDir + "' && '" EOM_BINARY "' " + args +
                              " -o '" + out + "' 2> /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string text = file_text(out);
  std::filesystem::remove(out);
  return text;
}

double column(const Table& t, int row, const std::string& name) {
  const int c = t.header.index(name);
  REQUIRE(c >= 0);
  return t.at(row, c);
}

}  // namespace

TEST_CASE("eom id --terms: the terms sum to tau", "[cli][id]") {
  struct Case {
    const char* name;
    const char* args;
  };
  const Case cases[] = {
      {"iiwa", "id robots/iiwa14.urdf trajectories/iiwa14_wave.csv --terms --friction"},
      {"solo12",
       "id robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base --terms"},
      {"block", "id robots/block.urdf tests/data/id/block_push.csv --terms --friction"},
      {"mixed", "id tests/data/robots/mixed_joints.urdf tests/data/id/mixed_joints.csv --terms"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Table t = run_eom(c.args, c.name);
    REQUIRE(t.rows() > 0);
    for (const auto& name : t.header.names) {
      if (name.rfind("tau.", 0) != 0) continue;
      const std::string coordinate = name.substr(4);
      for (int r = 0; r < t.rows(); r += 97) {
        double sum = 0, scale = 1;
        for (const char* term :
             {"tau_inertial.", "tau_coriolis.", "tau_gravity.", "tau_friction.", "tau_external."}) {
          const int k = t.header.index(term + coordinate);
          if (k < 0) continue;
          sum += t.at(r, k);
          scale += std::abs(t.at(r, k));
        }
        CHECK(sum == Approx(column(t, r, name)).margin(1e-12 * scale));
      }
    }
  }
}

TEST_CASE("eom id derives v and a from q: close to the exact columns", "[cli][id]") {
  // the same trajectory with and without its v and a columns (1 kHz, smooth)
  const Table exact = run_eom("id robots/ur5.urdf trajectories/ur5_wave.csv", "exact");
  const std::string q_only =
      write_subset(test::kSourceDir + "/trajectories/ur5_wave.csv", "q_only",
                   [](const std::string& n) { return n == "t" || n.rfind("q.", 0) == 0; });
  const std::string command = "'" EOM_BINARY "' id '" + test::kSourceDir + "/robots/ur5.urdf' '" +
                              q_only + "' -o '" + q_only + ".tau.csv' 2> /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  const Table derived = read_table(q_only + ".tau.csv", Format::csv);
  std::filesystem::remove(q_only);
  std::filesystem::remove(q_only + ".tau.csv");
  REQUIRE(derived.rows() == exact.rows());
  // every row, ends included: fits of degree 4 over the window chosen from the data (9 rows at
  // h = 1 ms), limited by round-off
  double worst = 0;
  for (int r = 0; r < exact.rows(); ++r) {
    for (int c = 1; c < exact.header.size(); ++c) {
      worst = std::max(worst, std::abs(derived.at(r, c) - exact.at(r, c)));
    }
  }
  INFO("worst " << worst);
  CHECK(worst <
        1e-6);  // measured 2.0e-7 N m (1.7e-6 over 17 rows; three-point: 1.6e-6 inside the ends)
  CHECK(worst > 0);  // it did derive, rather than find the columns
}

// The row engine adds nothing to the numbers: eom id and eom fk give, byte for byte, what a plain
// loop over the library gives (rnea per row, pose of every frame per row) on every shipped
// trajectory.
TEST_CASE("eom id and eom fk equal a plain library loop, byte for byte", "[cli][engine]") {
  struct Case {
    const char* robot;
    const char* table;
    bool floating;
  };
  const Case cases[] = {
      {"block", "block_oscillate", false},      {"iiwa14", "iiwa14_wave", false},
      {"panda", "panda_wave", false},           {"planar_2r", "planar_2r_swing", false},
      {"planar_3r", "planar_3r_wave", false},   {"solo12", "solo12_legs", false},
      {"solo12", "solo12_floating_walk", true}, {"ur5", "ur5_wave", false},
  };
  for (const Case& c : cases) {
    INFO(c.table);
    LoadOptions options;
    options.floating_base = c.floating;
    const std::string robot = "robots/" + std::string(c.robot) + ".urdf";
    const std::string table = "trajectories/" + std::string(c.table) + ".csv";
    const Model model = load_urdf(test::kSourceDir + "/" + robot, options);
    const Table input = read_table(test::kSourceDir + "/" + table, Format::csv);
    auto bind = [&](const char* prefix, const std::vector<std::string>& names) {
      std::vector<int> index;
      for (const auto& n : names) index.push_back(input.header.index(prefix + n));
      return index;
    };
    const auto iq = bind("q.", model.q_names), iv = bind("v.", model.v_names),
               ia = bind("a.", model.v_names);
    Data data(model);
    Eigen::VectorXd q(model.nq), v(model.nv), a(model.nv);

    Header tau_header, pose_header;
    tau_header.names = {"t"};
    pose_header.names = {"t"};
    for (auto& n : coordinate_columns(model, "tau", Space::tau)) tau_header.names.push_back(n);
    for (const auto& f : model.frames) {
      for (auto& n : pose_columns(f.name)) pose_header.names.push_back(n);
    }
    std::ostringstream tau_text, pose_text;
    auto tau_out = TableWriter::to_stream(tau_text, Format::csv, tau_header);
    auto pose_out = TableWriter::to_stream(pose_text, Format::csv, pose_header);
    std::vector<double> tau_row(tau_header.names.size()), pose_row(pose_header.names.size());
    for (int r = 0; r < input.rows(); ++r) {
      for (int k = 0; k < model.nq; ++k) q[k] = input.at(r, iq[k]);
      for (int k = 0; k < model.nv; ++k) {
        v[k] = input.at(r, iv[k]);
        a[k] = input.at(r, ia[k]);
      }
      normalize(model, q);
      tau_row[0] = pose_row[0] = input.at(r, input.header.index("t"));
      const Eigen::VectorXd& tau = rnea(model, data, q, v, a);
      for (int k = 0; k < model.nv; ++k) tau_row[k + 1] = tau[k];
      tau_out->write_row(tau_row.data());
      frame_placements(model, data, q);
      size_t k = 1;
      for (size_t f = 0; f < model.frames.size(); ++f) {
        const PoseVector pose = pose_vector(data.oMf[f]);
        for (int i = 0; i < 7; ++i) pose_row[k++] = pose[i];
      }
      pose_out->write_row(pose_row.data());
    }
    tau_out->commit();
    pose_out->commit();
    const std::string base = c.floating ? " --floating-base" : "";
    CHECK(eom_output("id " + robot + " " + table + base) == tau_text.str());
    CHECK(eom_output("fk " + robot + " " + table + base) == pose_text.str());
  }
}

TEST_CASE("a mimic joint without columns follows its leader", "[cli][engine]") {
  // panda_finger_joint2 mimics panda_finger_joint1 (multiplier 1, offset 0), and the shipped
  // trajectory gives it exactly its leader's values
  const std::string without = write_subset(
      test::kSourceDir + "/trajectories/panda_wave.csv", "panda_no_mimic",
      [](const std::string& n) { return n.find("panda_finger_joint2") == std::string::npos; });
  CHECK(eom_output("id robots/panda.urdf " + without) ==
        eom_output("id robots/panda.urdf trajectories/panda_wave.csv"));
  std::filesystem::remove(without);
}

TEST_CASE("eom fk --frames reads only the joints that move the frames", "[cli][engine]") {
  // the UR5's upper arm moves with the shoulder joints only
  const std::string shoulders = write_subset(
      test::kSourceDir + "/trajectories/ur5_wave.csv", "ur5_shoulders", [](const std::string& n) {
        return n == "t" || n == "q.shoulder_pan_joint" || n == "q.shoulder_lift_joint";
      });
  CHECK(eom_output("fk robots/ur5.urdf " + shoulders + " --frames upper_arm_link") ==
        eom_output("fk robots/ur5.urdf trajectories/ur5_wave.csv --frames upper_arm_link"));
  std::filesystem::remove(shoulders);
}

// eom fd inverts eom id: on every shipped trajectory, the accelerations come back to round-off,
// and eom id of eom fd's output gives the torques back
TEST_CASE("eom fd after eom id gives the accelerations back, and eom id the torques", "[cli][fd]") {
  const std::pair<const char*, const char*> cases[] = {
      {"robots/iiwa14.urdf", "trajectories/iiwa14_wave.csv"},
      {"robots/panda.urdf", "trajectories/panda_wave.csv"},
      {"robots/planar_3r.urdf", "trajectories/planar_3r_wave.csv"},
      {"robots/solo12.urdf --floating-base", "trajectories/solo12_floating_walk.csv"},
      {"robots/ur5.urdf", "trajectories/ur5_wave.csv"},
      {"tests/data/robots/mixed_joints.urdf", "tests/data/id/mixed_joints.csv"},
  };
  for (const auto& [robot, table] : cases) {
    INFO(table);
    const Table tau = run_eom(std::string("id ") + robot + " " + table + " --keep-input", "fd_tau");
    const std::string tau_path = test::scratch_path("fd_tau.csv");
    write_table(tau, tau_path, Format::csv);
    const Table acc = run_eom(std::string("fd ") + robot + " " + tau_path, "fd_acc");
    const std::string acc_path = test::scratch_path("fd_acc.csv");
    write_table(acc, acc_path, Format::csv);
    const Table back = run_eom(std::string("id ") + robot + " " + acc_path, "fd_back");
    // the independent path: M by CRBA, the bias by RNEA, a Cholesky solve
    const Table crba =
        run_eom(std::string("fd --method crba ") + robot + " " + tau_path, "fd_crba");
    REQUIRE(acc.rows() == tau.rows());
    REQUIRE(crba.header.names == acc.header.names);
    for (size_t k = 0; k < acc.values.size(); ++k) {
      CHECK(crba.values[k] == Approx(acc.values[k]).epsilon(1e-10).margin(1e-10));
    }
    for (const auto& name : acc.header.names) {
      if (name.rfind("a.", 0) != 0) continue;
      for (int r = 0; r < acc.rows(); r += 7) {
        CHECK(column(acc, r, name) == Approx(column(tau, r, name)).epsilon(1e-9).margin(1e-9));
      }
    }
    for (const auto& name : back.header.names) {
      if (name.rfind("tau.", 0) != 0) continue;
      for (int r = 0; r < back.rows(); r += 7) {
        CHECK(column(back, r, name) == Approx(column(tau, r, name)).epsilon(1e-9).margin(1e-9));
      }
    }
    std::filesystem::remove(tau_path);
    std::filesystem::remove(acc_path);
  }
}

// eom fd --partials --minv writes, under the documented names, what aba_derivatives computes (which
// the reference tests check), and M^-1 inverts crba's M
TEST_CASE("eom fd --partials --minv: the derivative matrices under their names", "[cli][fd]") {
  const std::pair<const char*, const char*> cases[] = {
      {"robots/ur5.urdf", "trajectories/ur5_wave.csv"},
      {"robots/solo12.urdf --floating-base", "trajectories/solo12_floating_walk.csv"},
  };
  for (const auto& [robot, table] : cases) {
    INFO(table);
    const Table tau = run_eom(std::string("id ") + robot + " " + table + " --keep-input", "pd_tau");
    const std::string tau_path = test::scratch_path("pd_tau.csv");
    write_table(tau, tau_path, Format::csv);
    const Table out = run_eom(std::string("fd --partials --minv ") + robot + " " + tau_path, "pd");
    std::filesystem::remove(tau_path);
    LoadOptions options;
    options.floating_base = std::string(robot).find("floating") != std::string::npos;
    const std::string robot_file = std::string(robot).substr(0, std::string(robot).find(' '));
    const Model model = load_urdf(test::kSourceDir + "/" + robot_file, options);
    Data data(model);
    Eigen::VectorXd q(model.nq), v(model.nv), t(model.nv);
    const std::vector<std::string> q_names = coordinate_columns(model, "q", Space::q),
                                   v_names = coordinate_columns(model, "v", Space::v),
                                   tau_names = coordinate_columns(model, "tau", Space::tau);
    for (int r = 0; r < out.rows(); r += 37) {
      for (int i = 0; i < model.nq; ++i) q[i] = column(out, r, q_names[i]);
      for (int i = 0; i < model.nv; ++i) {
        v[i] = column(out, r, v_names[i]);
        t[i] = column(tau, r, tau_names[i]);
      }
      aba_derivatives(model, data, q, v, t);
      const Eigen::MatrixXd M = crba(model, data, q);
      for (int i = 0; i < model.nv; ++i) {
        for (int j = 0; j < model.nv; ++j) {
          const auto cell = [&](const char* matrix) {
            return matrix_column(matrix, model.v_names[i], model.v_names[j]);
          };
          CHECK(column(out, r, cell("dqdd_dq")) == Approx(data.dqdd_dq(i, j)).margin(1e-12));
          CHECK(column(out, r, cell("dqdd_dv")) == Approx(data.dqdd_dv(i, j)).margin(1e-12));
          double identity = 0;  // (M^-1 M)(i, j)
          for (int k = 0; k < model.nv; ++k) {
            identity +=
                column(out, r, matrix_column("Minv", model.v_names[i], model.v_names[k])) * M(k, j);
          }
          CHECK(identity == Approx(i == j ? 1.0 : 0.0).margin(1e-9));
        }
      }
    }
  }
}

// eom deriv's two methods, the recursion and Mueller & Kumar's closed form, agree on tau, its first
// two derivatives, M, g and their first two time derivatives along the shipped trajectories of
// the serial robots (C may differ: only dM/dt - 2C skew-symmetric is required of it), and with the
// Gaz trajectory's
// end-effector wrench and its derivative columns (Mueller & Kumar's iiwa example)
TEST_CASE("eom deriv --method closed-form agrees with the recursive method", "[cli][deriv]") {
  struct Case {
    const char *robot, *table, *options;
  };
  const Case cases[] = {
      {"robots/iiwa14.urdf", "trajectories/iiwa14_wave.csv", ""},
      {"robots/ur5.urdf", "trajectories/ur5_wave.csv", ""},
      {"robots/planar_3r.urdf", "trajectories/planar_3r_wave.csv", ""},
      {"robots/iiwa14.urdf", "trajectories/iiwa_gaz.csv", " --gravity 0,0,-9.80665 --no-derive"},
  };
  for (const auto& [robot, table, options] : cases) {
    INFO(table);
    const std::string args =
        std::string(robot) + " " + table + options + " --order 2 --matrices -q";
    const Table recursive = run_eom("deriv " + args, "deriv_recursive");
    const Table closed = run_eom("deriv --method closed-form " + args, "deriv_closed");
    REQUIRE(recursive.rows() == closed.rows());
    int compared = 0;
    for (const std::string& name : recursive.header.names) {
      bool same = false;
      for (const char* prefix :
           {"tau.", "d1tau.", "d2tau.", "M.", "d1M.", "d2M.", "g.", "d1g.", "d2g."}) {
        same = same || name.rfind(prefix, 0) == 0;
      }
      if (!same) continue;
      ++compared;
      for (int r = 0; r < recursive.rows(); r += 11) {
        CHECK(column(closed, r, name) ==
              Approx(column(recursive, r, name)).epsilon(1e-9).margin(1e-9));
      }
    }
    CHECK(compared > 0);
  }
}
