#include "command_line.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace eom::test {

std::string refusal(const std::vector<std::string>& args) {
  CLI::App app;
  cli::Dispatch dispatch;
  cli::register_commands(app, dispatch);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return cli::usage_message(e, app);
  }
  return "";
}

std::string help(const std::string& command) {
  CLI::App app;
  cli::Dispatch dispatch;
  cli::register_commands(app, dispatch);
  return app.get_subcommand(command)->help("eom");
}

}  // namespace eom::test
