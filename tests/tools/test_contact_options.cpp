// The contact options of id, fd, sim, jac and impact (tools/contact_options.cpp) and the
// combinations id, fd and ik declare: parsed into the library's values, refused in eom's words.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "command_line.hpp"
#include "contact_options.hpp"
#include "models.hpp"
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

TEST_CASE("contacts: the texts FRAME[:1d|:3d|:6d] and FRAME=WEIGHT, and what is refused",
          "[tools][contacts]") {
  using namespace eom;
  const Model box = test::load_floating_test_urdf("box_corners_centred.urdf");
  const Vec3 tilted(0, 0.6, 0.8);
  ContactSet set;
  for (const char* text : {"front_left", "front_right:1d", "rear_left:6d", "rear_right:3d"}) {
    cli::parse_contact(box, text, tilted, set);
  }
  REQUIRE(set.contacts.size() == 4);
  CHECK(set.contacts[0].kind == ContactKind::point);
  CHECK(set.contacts[1].kind == ContactKind::normal);
  CHECK(set.contacts[1].normal.isApprox(tilted));
  CHECK(set.contacts[2].kind == ContactKind::frame);
  CHECK(set.contacts[3].kind == ContactKind::point);
  CHECK(set.find(box.require_frame("rear_left")) == 2);

  auto refused = [&](const std::vector<std::string>& texts, const Vec3& normal) {
    ContactSet contacts;
    try {
      for (const auto& text : texts) cli::parse_contact(box, text, normal, contacts);
    } catch (const InputError& e) {
      return e.message();
    }
    return std::string();
  };
  CHECK_THAT(refused({"front_lft"}, Vec3::UnitZ()), Catch::Contains("did you mean 'front_left'"));
  CHECK(refused({"front_left:2d"}, Vec3::UnitZ()) ==
        "'front_left:2d': unknown contact kind '2d' (expected FRAME, FRAME:1d, FRAME:3d or "
        "FRAME:6d)");
  CHECK(refused({"front_left:1d"}, Vec3(0, 0, 2)) ==
        "'front_left:1d': its normal: expected a unit vector (its norm is 2)");
  CHECK(refused({"front_left", "front_left:6d"}, Vec3::UnitZ()) ==
        "'front_left:6d': frame 'front_left' is given twice");
  // the normal matters only to 1d contacts
  CHECK(refused({"front_left"}, Vec3::Zero()).empty());

  ContactSet weighted = point_contacts(box, {"front_left", "rear_right"});
  cli::parse_contact_weight(box, "rear_right=2.5", weighted);
  CHECK(weighted.contacts[1].weight == 2.5);
  for (const char* bad : {"rear_right=0", "rear_right=x", "rear_right=", "rear_right=inf"}) {
    CHECK_THROWS_WITH(cli::parse_contact_weight(box, bad, weighted),
                      Catch::EndsWith(": expected a finite weight > 0"));
  }
  CHECK_THROWS_WITH(cli::parse_contact_weight(box, "rear_right", weighted),
                    Catch::Equals("'rear_right': expected FRAME=WEIGHT"));
  CHECK_THROWS_WITH(cli::parse_contact_weight(box, "box=1", weighted),
                    Catch::Equals("'box=1': 'box' is not one of the --contacts"));
}
