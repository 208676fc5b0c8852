// The one reader of the contact.<frame> columns (rows/contacts.hpp ContactActivity), which the
// tables of id, fd, jac and impact and sim's contact schedule share: which contacts hold on a
// row, the columns it lets pass, and the place (file, line, column) of every bad cell.

#include <catch2/catch.hpp>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <eom/algorithm/contact_set.hpp>
#include <eom/core/errors.hpp>
#include <eom/rows/contacts.hpp>

#include "models.hpp"

using namespace eom;
using namespace eom::rows;

namespace {

// two of the box's corners as point contacts
struct TwoCornersOfTheBox {
  Model model = eom::test::load_floating_test_urdf("box_corners_centred.urdf");
  ContactSet contacts = point_contacts(model, {"front_left", "rear_right"});
};

// the error of building a reader of `names` (in a file whose columns are `file_columns`), if any
std::optional<InputError> activity_error(const std::vector<std::string>& names,
                                         const std::vector<int>& file_columns = {}) {
  const TwoCornersOfTheBox box;
  const Header header{names};
  try {
    ContactActivity(box.model, box.contacts, header, "stance.csv", file_columns);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("contact activity: each contact holds as its column says, or always without one",
          "[rows][contacts]") {
  const TwoCornersOfTheBox box;
  // rear_right has no column: it holds on every row
  const Header header{{"t", "contact.front_left", "q.root.z", "contact.rank"}};
  const ContactActivity activity(box.model, box.contacts, header, "stance.csv");
  CHECK(activity.inputs() == std::vector<int>{1});
  const double lifted[] = {0, 0, 0.05, 3};
  const double standing[] = {0, 1, 0.05, 3};
  CHECK_FALSE(activity.active(0, lifted, 2));
  CHECK(activity.active(0, standing, 3));
  CHECK(activity.active(1, lifted, 2));
}

TEST_CASE("contact activity: a value other than 0 and 1 is refused at its cell",
          "[rows][contacts]") {
  const TwoCornersOfTheBox box;
  const Header header{{"t", "q.root.z", "contact.rear_right"}};
  for (const double bad : {0.5, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    INFO(bad);
    // in a file whose columns are the header's, and in one where the header holds columns 0, 3
    // and 5 of the file (a time table keeps only the columns it reads)
    for (const std::vector<int>& file_columns : {std::vector<int>{}, std::vector<int>{0, 3, 5}}) {
      const ContactActivity activity(box.model, box.contacts, header, "stance.csv", file_columns);
      const double row[] = {0, 0.05, bad};
      try {
        activity.active(1, row, 7);
        FAIL("no error for " << bad);
      } catch (const InputError& e) {
        CHECK(e.file() == "stance.csv");
        CHECK(e.line() == 7);
        CHECK(e.column() == (file_columns.empty() ? 3 : 6));
        CHECK_THAT(e.message(), Catch::EndsWith("is neither 1 (active) nor 0 (inactive)"));
        CHECK_THAT(e.message(), Catch::StartsWith("column contact.rear_right: "));
      }
    }
  }
}

TEST_CASE("contact activity: a contact.<name> column of no contact is refused on line 1",
          "[rows][contacts]") {
  // a frame that is not one of the contacts, and a name that is no frame
  for (const char* name : {"contact.front_right", "contact.nose"}) {
    INFO(name);
    const std::optional<InputError> e = activity_error({"t", "contact.front_left", name});
    REQUIRE(e);
    CHECK(e->file() == "stance.csv");
    CHECK(e->line() == 1);
    CHECK(e->column() == 3);
    CHECK(e->message() == "column " + std::string(name) + ": '" + std::string(name).substr(8) +
                              "' is not one of the contacts");
  }
  const std::optional<InputError> in_file = activity_error({"t", "contact.nose"}, {2, 9});
  REQUIRE(in_file);
  CHECK(in_file->column() == 10);
  // the rank columns eom jac writes pass, so that its table can be read again
  CHECK_FALSE(activity_error({"t", "contact.front_left", "contact.rank", "contact.full"}));
}
