// The one reader of the contact.<frame> columns (rows/contacts.hpp ContactActivity), which the
// tables of id, fd, jac and impact and sim's contact schedule share: which contacts hold on a
// row, the columns it lets pass, and the place (file, line, column) of every bad cell.

#include <catch2/catch.hpp>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <eom/algorithm/contact_set.hpp>
#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
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

// the error of building a reader of `names` (starting at the character positions `at` of their
// header line, when known), if any
std::optional<InputError> activity_error(const std::vector<std::string>& names,
                                         const std::vector<int>& at = {}) {
  const TwoCornersOfTheBox box;
  const Header header{names, at};
  try {
    ContactActivity(box.model, box.contacts, header, "stance.csv");
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
  CHECK_FALSE(activity.active(0, lifted));
  CHECK(activity.active(0, standing));
  CHECK(activity.active(1, lifted));
}

TEST_CASE("contact activity: a value other than 0 and 1 is refused at its cell, line:column",
          "[rows][contacts]") {
  // the reader refuses it as the columns' flags say (TableReader::read_columns), at the cell's
  // character position: 'é' is one character of two bytes
  for (const char* bad : {"0.5", "-1", "2"}) {
    INFO(bad);
    std::istringstream text(std::string("t,label,contact.rear_right\n0,a,1\n0.1,é,") + bad + "\n");
    const auto reader = TableReader::from_stream(text, "stance.csv", Format::csv);
    reader->read_columns({true, false, true}, {"", "", kContactActivityMeaning},
                         {false, false, true});
    std::vector<double> row;
    REQUIRE(reader->next(row));
    CHECK(row[2] == 1);
    try {
      reader->next(row);
      FAIL("no error for " << bad);
    } catch (const InputError& e) {
      CHECK(e.file() == "stance.csv");
      CHECK(e.line() == 3);
      CHECK(e.column() == 7);
      CHECK(e.message() == "column contact.rear_right: '" + std::string(bad) +
                               "' is neither 1 nor 0 (1: the contact holds, 0: it does not)");
    }
  }
}

TEST_CASE("contact activity: a contact.<name> column of no contact is refused on line 1",
          "[rows][contacts]") {
  // a frame that is not one of the contacts, and a name that is no frame
  for (const char* name : {"contact.front_right", "contact.nose"}) {
    INFO(name);
    const std::optional<InputError> e =
        activity_error({"t", "contact.front_left", name}, {1, 3, 22});
    REQUIRE(e);
    CHECK(e->file() == "stance.csv");
    CHECK(e->line() == 1);
    CHECK(e->column() == 22);
    CHECK(e->message() == "column " + std::string(name) + ": '" + std::string(name).substr(8) +
                              "' is not one of the contacts");
  }
  // no position where the header does not know it (a header built in memory, JSON)
  const std::optional<InputError> unknown = activity_error({"t", "contact.nose"});
  REQUIRE(unknown);
  CHECK(unknown->column() == 0);
  // the rank columns eom jac writes pass, so that its table can be read again
  CHECK_FALSE(activity_error({"t", "contact.front_left", "contact.rank", "contact.full"}));
}
