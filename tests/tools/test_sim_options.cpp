// eom sim's options as the tool declares them (tools/sim/cmd_sim.cpp, tools/contact_options.cpp):
// every combination CLI11 refuses, in eom's words, and the names of its enums.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/io/column_names.hpp>
#include <eom/parsers/load_model.hpp>

#include "command_line.hpp"
#include "paths.hpp"
#include "sim/sim_setup.hpp"

using eom::test::refusal;

namespace {

const std::string kSchedule = eom::test::kDataDir + "/sim/box_hinge_schedule.csv";

// eom sim with the options it always needs, then `extra`
std::string sim_refusal(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"sim", "robot.urdf", "--duration", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return refusal(args);
}

}  // namespace

TEST_CASE("sim: a command line of compatible options parses", "[tools][sim]") {
  CHECK(sim_refusal({}).empty());
  CHECK(sim_refusal({"--contacts", "foot", "--ground", "0", "--write-forces"}).empty());
  CHECK(sim_refusal({"--contacts", "foot", "--contact-schedule", kSchedule, "--baumgarte", "10,1",
                     "--contact-normal", "0,0,1", "--friction-coefficient", "0.5"})
            .empty());
}

TEST_CASE("sim: every option of the contacts needs --contacts", "[tools][sim]") {
  CHECK(sim_refusal({"--ground", "0"}) == "--ground needs --contacts (the points that touch it)\n");
  CHECK(sim_refusal({"--contact-schedule", kSchedule}) == "--contact-schedule needs --contacts\n");
  CHECK(sim_refusal({"--baumgarte", "1,1"}) == "--baumgarte needs --contacts\n");
  CHECK(sim_refusal({"--friction-coefficient", "0.5"}) ==
        "--friction-coefficient needs --contacts\n");
  CHECK(sim_refusal({"--write-forces"}) ==
        "--write-forces needs --contacts: the forces are the contacts'\n");
}

TEST_CASE("sim: the ground contradicts a schedule and another normal", "[tools][sim]") {
  CHECK(sim_refusal({"--contacts", "foot", "--ground", "0", "--contact-schedule", kSchedule}) ==
        "--ground and --contact-schedule contradict each other: contacts are made and broken "
        "either by the ground (touchdown, lift-off) or by the schedule; give one\n");
  // whichever comes first on the command line
  CHECK(sim_refusal({"--contacts", "foot", "--contact-schedule", kSchedule, "--ground", "0"}) ==
        sim_refusal({"--contacts", "foot", "--ground", "0", "--contact-schedule", kSchedule}));
  CHECK(sim_refusal({"--contacts", "foot", "--ground", "0", "--contact-normal", "0,0,1"}) ==
        "--ground and --contact-normal contradict each other: the ground's normal is world z "
        "(0,0,1), which its contacts and their friction use; drop --contact-normal\n");
}

TEST_CASE("sim: --help shows what each contact option needs and excludes", "[tools][sim]") {
  const std::string help = eom::test::help("sim");
  // the line naming --ground (CLI11 lists what it excludes in the order of its pointers)
  const size_t start = help.find("  --ground ");
  REQUIRE(start != std::string::npos);
  const std::string ground = help.substr(start, help.find('\n', start) - start);
  CHECK(ground.find("Needs: --contacts Excludes: --contact-") != std::string::npos);
  CHECK(ground.find("--contact-normal") != std::string::npos);
  CHECK(ground.find("--contact-schedule") != std::string::npos);
}

TEST_CASE("sim: other usage errors keep CLI11's words and the hint to --help", "[tools][sim]") {
  CHECK(sim_refusal({"--integrator", "rk5"}) ==
        "--integrator: rk5 not in {euler,semi-implicit,rk4,rk45}\n"
        "Run 'eom sim --help' for the options.\n");
  CHECK(sim_refusal({"--controller", "2"}) ==
        "--controller: 2 not in {zero,constant,table,gravity,pd,pd-gravity,computed-torque,"
        "stand}\nRun 'eom sim --help' for the options.\n");
}

TEST_CASE("sim: the names of the integrators, controllers and interpolations", "[tools][sim]") {
  using namespace eom;
  using namespace eom::cli;
  CLI::App app;
  SimOptions opt;
  add_choice(app, "--integrator", opt.integrator, kIntegrators, "");
  add_choice(app, "--controller", opt.controller, kControllers, "");
  add_choice(app, "--interpolation", opt.interpolation, kInterpolations, "");
  CHECK(opt.integrator == Integrator::rk4);
  CHECK(opt.controller == SimController::from_inputs);
  CHECK(opt.interpolation == Interpolation::hold);
  app.parse(std::vector<std::string>{"linear", "--interpolation", "pd-gravity", "--controller",
                                     "semi-implicit", "--integrator"});  // CLI11 reads backwards
  CHECK(opt.integrator == Integrator::semi_implicit_euler);
  CHECK(opt.controller == SimController::pd_gravity);
  CHECK(opt.interpolation == Interpolation::linear);
  for (const auto& [name, value] : kControllers) {
    app.parse(std::vector<std::string>{name, "--controller"});
    CHECK(opt.controller == value);
    CHECK(name_of(kControllers, value) == name);
  }
  CHECK(app.get_option("--integrator")->get_type_name() == "TEXT:{euler,semi-implicit,rk4,rk45}");
}

TEST_CASE("sim: the output's contact and energy columns are the column contract's",
          "[tools][sim]") {
  eom::LoadOptions load;
  load.floating_base = true;
  const eom::Model box =
      eom::load_model(eom::test::kDataDir + "/urdf/box_corners_centred.urdf", load);
  eom::cli::SimOptions opt;
  opt.contacts.specs = {"front_left", "rear_right"};
  opt.ground = 0;
  opt.forces_out = opt.energy = true;
  const eom::ContactSet contacts = eom::cli::load_contacts(box, opt.contacts);
  const std::vector<std::string> names = eom::cli::output_header(opt, box, contacts).names;
  // t, q (7), v (6), then the forces, the activity, the impacts' loss and the energy
  std::vector<std::string> expected = eom::rows::contact_force_columns(box, contacts);
  expected.push_back(eom::contact_activity_column("front_left"));
  expected.push_back(eom::contact_activity_column("rear_right"));
  expected.push_back(eom::kImpactEnergyLossColumn);
  for (const std::string& name : eom::energy_columns()) expected.push_back(name);
  REQUIRE(names.size() == 14 + expected.size());
  CHECK(std::vector<std::string>(names.begin() + 14, names.end()) == expected);
  // and spelled as doc/sim.md gives them
  CHECK(names[14] == "f.front_left.fx");
  CHECK(names[20] == "contact.front_left");
  CHECK(names[22] == "impact.energy_loss");
}
