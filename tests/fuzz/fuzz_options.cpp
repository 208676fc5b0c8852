// Fuzz target: eom's command line. The input is split at newlines into arguments and parsed by
// the real application (every subcommand registered); nothing runs. Parse errors are expected;
// anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string arg; std::getline(in, arg);) args.push_back(arg);
  std::vector<char*> argv{const_cast<char*>("eom")};
  for (auto& arg : args) argv.push_back(arg.data());
  CLI::App app{"eom", "eom"};
  eom::cli::Dispatch dispatch;
  eom::cli::register_commands(app, dispatch);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
  }
  return 0;
}
