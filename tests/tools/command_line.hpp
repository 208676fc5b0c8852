// eom's command line in-process: every subcommand registered as the binary registers them.
#pragma once

#include <string>
#include <vector>

namespace eom::test {

/// What eom prints after "eom <command>: error: " when it refuses `args` (the words after
/// "eom"); empty when they parse.
std::string refusal(const std::vector<std::string>& args);

/// The --help of `command`.
std::string help(const std::string& command);

}  // namespace eom::test
