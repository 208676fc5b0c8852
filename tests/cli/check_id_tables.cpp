// Properties of eom id's output tables on real inputs, checked by reading them back: the --terms
// columns sum to tau, and v, a derived from q alone agree with the exact columns.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <eom/table.hpp>

#include "paths.hpp"

using namespace eom;

namespace {

// run eom with arguments (relative to the source tree), return its output table
Table run_eom(const std::string& args, const std::string& name) {
  const std::string out = (std::filesystem::temp_directory_path() / ("eom_check_" + name + ".csv")).string();
  const std::string command = "cd '" + test::kSourceDir + "' && '" EOM_BINARY "' " + args + " -o '" + out + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  Table table = read_table(out, Format::csv);
  std::filesystem::remove(out);
  return table;
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
      {"solo12", "id robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base --terms"},
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
        for (const char* term : {"tau_inertial.", "tau_coriolis.", "tau_gravity.", "tau_friction.", "tau_external."}) {
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
  const std::string q_only = (std::filesystem::temp_directory_path() / "eom_check_q_only.csv").string();
  {
    const Table input = read_table(test::kSourceDir + "/trajectories/ur5_wave.csv", Format::csv);
    Table reduced;
    std::vector<int> keep;
    for (int c = 0; c < input.header.size(); ++c) {
      const std::string& n = input.header.names[c];
      if (n == "t" || n.rfind("q.", 0) == 0) {
        keep.push_back(c);
        reduced.header.names.push_back(n);
      }
    }
    for (int r = 0; r < input.rows(); ++r) {
      for (int c : keep) reduced.values.push_back(input.at(r, c));
    }
    write_table(reduced, q_only, Format::csv);
  }
  const std::string command = "'" EOM_BINARY "' id '" + test::kSourceDir + "/robots/ur5.urdf' '" + q_only +
                              "' -o '" + q_only + ".tau.csv' 2> /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  const Table derived = read_table(q_only + ".tau.csv", Format::csv);
  std::filesystem::remove(q_only);
  std::filesystem::remove(q_only + ".tau.csv");
  REQUIRE(derived.rows() == exact.rows());
  // interior rows: second-order differences at h = 1 ms (O(h^2) ~ 1e-6); the ends are first-order in a
  double worst = 0;
  for (int r = 1; r + 1 < exact.rows(); ++r) {
    for (int c = 1; c < exact.header.size(); ++c) {
      worst = std::max(worst, std::abs(derived.at(r, c) - exact.at(r, c)));
    }
  }
  INFO("worst " << worst);
  CHECK(worst < 1e-5);  // measured 1.6e-6 N m
  CHECK(worst > 0);  // it did derive, rather than find the columns
}
