// eom: equations of motion for robots described in URDF. One subcommand per tools/cmd_<name>.cpp;
// errors and exit codes are mapped here, once.

#include <iostream>

#include <eom/errors.hpp>

#include "cli.hpp"

int main(int argc, char** argv) {
  using namespace eom::cli;
  std::ios::sync_with_stdio(false);

  CLI::App app{"eom: equations of motion for robots described in URDF", "eom"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "eom 0.1.0");
  Dispatch dispatch;
  register_info(app, dispatch);
  register_check(app, dispatch);
  register_fk(app, dispatch);
  register_convert(app, dispatch);
  register_id(app, dispatch);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help or the usage error
    return rc == 0 ? kExitOk : kExitUsage;
  }

  Streams io{std::cout, std::cerr};
  std::string name = "eom";
  try {
    return dispatch.run_selected(io, name);
  } catch (const eom::InputError& e) {
    std::cout.flush();
    std::cerr << "eom " << name << ": error: " << e.what() << '\n';
    return kExitUsage;
  } catch (const eom::NumericalError& e) {
    std::cout.flush();
    std::cerr << "eom " << name << ": error: " << e.what() << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "eom " << name << ": internal error: " << e.what() << '\n';
    return kExitUsage;
  }
}
