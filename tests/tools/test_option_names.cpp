// The tool's side of the library's messages: each setting the library names is spelt as the
// option that sets it, an option every user can give (registered by a subcommand), and a library
// error comes out with that option in it.

#include <catch2/catch.hpp>

#include <string>

#include <CLI/CLI.hpp>

#include <eom/core/errors.hpp>

#include "cli.hpp"
#include "options.hpp"

using namespace eom;

namespace {

// whether some subcommand of the eom application has an option of that name
bool registered(const CLI::App& app, std::string_view name) {
  for (const CLI::App* command : app.get_subcommands({})) {
    for (const CLI::Option* option : command->get_options()) {
      if (option->check_name(std::string(name))) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("every setting the library names is an option of eom", "[tool]") {
  CLI::App app;
  cli::Dispatch dispatch;
  cli::register_commands(app, dispatch);
  for (const Setting setting :
       {Setting::floating_base, Setting::lock, Setting::gravity, Setting::separator,
        Setting::time_column, Setting::keep, Setting::derive, Setting::derive_window,
        Setting::no_derive, Setting::gaps, Setting::duplicates, Setting::time_scale,
        Setting::output, Setting::output_dir, Setting::summary, Setting::keep_truncated,
        Setting::mask, Setting::contacts}) {
    const std::string_view name = cli::option_name(setting);
    INFO(setting_name(setting) << ": " << name);
    CHECK(registered(app, name));
    // the library's words are its own, no option's
    CHECK(setting_name(setting).find('-') == std::string_view::npos);
    CHECK(setting_name(setting) != name);
  }
}

TEST_CASE("a library error comes out with the option that sets what it names", "[tool]") {
  const InputError e("walk.csv", 1, 0,
                     "column root.x: missing (add " + Setting::floating_base + ")");
  CHECK(std::string(e.what()) == "walk.csv:1: column root.x: missing (add floating base)");
  CHECK(e.text(cli::option_name) == "walk.csv:1: column root.x: missing (add --floating-base)");
  CHECK(InputError(Setting::output + " and " + Setting::output_dir + " exclude each other")
            .text(cli::option_name) == "-o and --output-dir exclude each other");
}
