// The contact options of id, fd, sim, jac and impact (tools/contact_options.cpp) and the
// combinations id, fd and ik declare: parsed into the library's values, refused in eom's words.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "command_line.hpp"
#include "contact_options.hpp"
#include "paths.hpp"

using eom::test::refusal;

TEST_CASE("contacts: the options of the inverse dynamics need --contacts", "[tools][contacts]") {
  const std::vector<std::string> id{"id", "robot.urdf", "table.csv"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), id.begin(), id.end());
    return refusal(extra);
  };
  CHECK(with({"--contact-weights", "tip=2"}) == "--contact-weights needs --contacts\n");
  CHECK(with({"--fail-on-residual", "0"}) == "--fail-on-residual needs --contacts\n");
  CHECK(with({"--contact-forces", "measured"}) == "--contact-forces needs --contacts\n");
  CHECK(with({"--friction-coefficient", "1"}) == "--friction-coefficient needs --contacts\n");
  CHECK(with({"--contacts", "tip", "--terms"}) ==
        "--terms is not available with --contacts (tau there is the actuated joints' only)\n");
  CHECK(with({"--contacts", "tip", "--power"}) ==
        "--power is not available with --contacts (tau there is the actuated joints' only)\n");
  CHECK(with({"--contacts", "tip", "--contact-forces", "min-torque"}).empty());
}

TEST_CASE("contacts: fd refuses the derivatives and Baumgarte's gains alone", "[tools][contacts]") {
  const std::string kNotWith =
      " is not available with --contacts (which solves with M from CRBA and a Cholesky factor)\n";
  CHECK(refusal({"fd", "robot.urdf", "t.csv", "--contacts", "tip", "--partials"}) ==
        "--partials" + kNotWith);
  CHECK(refusal({"fd", "robot.urdf", "t.csv", "--minv", "--contacts", "tip"}) ==
        "--minv" + kNotWith);
  CHECK(refusal({"fd", "robot.urdf", "t.csv", "--baumgarte", "0,0"}) ==
        "--baumgarte needs --contacts\n");
}

TEST_CASE("ik: --task needs --velocity; jac keeps CLI11's words", "[tools]") {
  CHECK(refusal({"ik", "robot.urdf", "t.csv", "--task", "frame:tip"}) ==
        "--task needs --velocity\n");
  CHECK(refusal({"ik", "robot.urdf", "t.csv", "--velocity", "--task", "frame:tip", "--priority",
                 "strict"})
            .empty());
  CHECK(refusal({"jac", "robot.urdf", "t.csv", "--jacobian"}) ==
        "--jacobian requires --frame\nRun 'eom jac --help' for the options.\n");
  CHECK(refusal({"jac", "robot.urdf", "t.csv", "--frame", "tip", "--measure", "manipulability",
                 "--inverse", "damped"})
            .empty());
}

TEST_CASE("contacts: --contact-forces names a rule, the set is the library's",
          "[tools][contacts]") {
  using namespace eom;
  CLI::App app;
  cli::ContactOptions opt;
  cli::add_contact_options(app, opt, true);
  CHECK(opt.rule == ContactForceRule::min_norm);
  app.parse(std::vector<std::string>{"2", "--fail-on-residual", "tip=3", "--contact-weights",
                                     "min-torque", "--contact-forces", "tip:1d", "--contacts"});
  CHECK(opt.rule == ContactForceRule::min_torque);
  CHECK(opt.fail_on_residual == 2);

  const Model model = load_urdf(test::kRobotsDir + "/planar_2r.urdf");
  // the weights weigh the min-norm distribution only
  CHECK_THROWS_WITH(cli::load_contacts(model, opt),
                    "--contact-weights weigh the min-norm distribution, not --contact-forces "
                    "min-torque");
  opt.rule = ContactForceRule::min_norm;
  const ContactSet contacts = cli::load_contacts(model, opt);
  REQUIRE(contacts.contacts.size() == 1);
  CHECK(contacts.contacts[0].kind == ContactKind::normal);
  CHECK(contacts.contacts[0].frame == model.frame_index("tip"));
  opt.specs = {"nowhere"};
  CHECK_THROWS_AS(cli::load_contacts(model, opt), InputError);
  CHECK(cli::load_contacts(model, cli::ContactOptions{}).contacts.empty());
}
