// eom excite's tables read back: every row within the file's (or the options') limits, v and a
// the derivatives of q by central differences over the rows, at rest at the ends, the cycles
// repeating, and the same bytes for the same seed.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
#include <eom/parsers/load_model.hpp>

#include "paths.hpp"
#include "scratch.hpp"

using namespace eom;

namespace {

// runs eom excite with arguments (relative to the source tree) into `name`; its path
std::string run_excite(const std::string& args, const std::string& name) {
  const std::string out = test::scratch_path(name);
  const std::string command =
      "cd '" + test::kSourceDir + "' && '" EOM_BINARY "' excite " + args + " -q -o '" + out + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  return out;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

double cell(const Table& t, int row, const std::string& column) {
  const int c = t.header.index(column);
  REQUIRE(c >= 0);
  return t.at(row, c);
}

}  // namespace

TEST_CASE("eom excite: every row within the limits, v and a the derivatives of q",
          "[cli][excite]") {
  const Model model = load_model(test::kSourceDir + "/robots/iiwa14.urdf");
  const double period = 4, rate = 200, scale = 0.5, acceleration = 3;
  const std::string path = run_excite(
      "robots/iiwa14.urdf --period 4 --harmonics 4 --rate 200 --cycles 2 "
      "--velocity-scale 0.5 --max-acceleration 3 --evaluations 200 "
      "--limits iiwa_joint_1=-1:0.5",
      "excite_iiwa.csv");
  const Table t = read_table(path, Format::csv);
  REQUIRE(t.rows() == 2 * 4 * 200 + 1);
  const double h = 1 / rate;
  for (int k = 0; k < model.nv; ++k) {
    const std::string& joint = model.v_names[k];
    const double lower = joint == "iiwa_joint_1" ? -1 : model.lower_limit[k];
    const double upper = joint == "iiwa_joint_1" ? 0.5 : model.upper_limit[k];
    const std::string q = column_name("q", joint), v = column_name("v", joint),
                      a = column_name("a", joint);
    double jerk = 0;  // the largest |da/dt| between rows, by differences
    for (int r = 0; r + 1 < t.rows(); ++r) {
      jerk = std::max(jerk, std::abs(cell(t, r + 1, a) - cell(t, r, a)) / h);
    }
    for (int r = 0; r < t.rows(); ++r) {
      INFO(joint << " at t = " << cell(t, r, "t"));
      REQUIRE(cell(t, r, "t") == Approx(r / rate).epsilon(1e-15));
      REQUIRE(cell(t, r, q) >= lower);
      REQUIRE(cell(t, r, q) <= upper);
      REQUIRE(std::abs(cell(t, r, v)) <= scale * model.velocity_limit[k]);
      REQUIRE(std::abs(cell(t, r, a)) <= acceleration);
      if (r > 0 && r + 1 < t.rows()) {
        // central differences: error at most h^2 / 6 |q'''| (jerk above, with 10 % for its
        // own difference estimate), plus the round-off of q over 2 h
        const double dq = (cell(t, r + 1, q) - cell(t, r - 1, q)) / (2 * h);
        CHECK(std::abs(dq - cell(t, r, v)) <= 1.1 * h * h / 6 * jerk + 1e-13 / h);
      }
    }
    // at rest at both ends (rest-to-rest, the default), and the second period repeats the first
    CHECK(std::abs(cell(t, 0, v)) < 1e-12);
    CHECK(std::abs(cell(t, 0, a)) < 1e-12);
    CHECK(std::abs(cell(t, t.rows() - 1, v)) < 1e-12);
    CHECK(std::abs(cell(t, t.rows() - 1, a)) < 1e-12);
    const int per_period = static_cast<int>(period * rate);
    for (int r = 0; r < per_period; r += 37) {
      CHECK(cell(t, r + per_period, q) == Approx(cell(t, r, q)).margin(1e-12));
    }
  }
  std::filesystem::remove(path);
}

TEST_CASE("eom excite: the same seed gives the same bytes", "[cli][excite]") {
  const std::string args = "robots/ur5.urdf --period 5 --harmonics 3 --rate 50 --evaluations 100";
  const std::string a = run_excite(args + " --seed 11", "excite_a.csv");
  const std::string b = run_excite(args + " --seed 11", "excite_b.csv");
  const std::string c = run_excite(args + " --seed 12", "excite_c.csv");
  CHECK(bytes_of(a) == bytes_of(b));
  CHECK(bytes_of(a) != bytes_of(c));
  for (const auto& path : {a, b, c}) std::filesystem::remove(path);
}
