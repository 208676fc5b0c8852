// eom: equations of motion for robots described in URDF, MJCF or JSON models. One subcommand per tools/<name>/cmd_<name>.cpp;
// errors and exit codes are mapped here, once.

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <eom/core/errors.hpp>
#include <eom/io/output_file.hpp>
#include <eom/multibody/model.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace {

// The signals whose default action ends the process (POSIX "T" and "A"), but for those that
// report a bug (SIGSEGV, SIGABRT, ...): on each, remove the temporaries of unfinished outputs,
// then exit 128 + signal (130 for SIGINT, 143 for SIGTERM, 153 for SIGXFSZ: a file size limit).
constexpr int kEndingSignals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGPIPE, SIGALRM,   SIGTERM,
                                  SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};

extern "C" void on_signal(int signal) {
  eom::remove_pending_outputs();
  ::_exit(128 + signal);
}

void handle_ending_signals() {
  for (const int signal : kEndingSignals) {
    // a signal ignored by whoever started eom (nohup, trap '' PIPE) stays ignored
    if (std::signal(signal, on_signal) == SIG_IGN) std::signal(signal, SIG_IGN);
  }
}

// The first word that is not an option, if it names no subcommand.
const char* unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  for (int k = 1; k < argc; ++k) {
    if (argv[k][0] == '-') continue;
    if (k == 1 && std::string(argv[k]) == "help") {
      if (argc == 2) return nullptr;
      k = 2;
    }
    for (const CLI::App* command : app.get_subcommands({})) {
      if (command->check_name(argv[k])) return nullptr;
    }
    return argv[k];
  }
  return nullptr;
}

// What needs no parse: bare `eom` (the listing, exit 2), `eom help [SUBCOMMAND]` (as --help), and
// a first word that names no subcommand (with the closest ones).
std::optional<int> answer_before_parsing(const CLI::App& app, int argc, char** argv) {
  using namespace eom::cli;
  if (argc == 1) {
    std::cerr << app.help();
    return kExitUsage;
  }
  if (argc >= 2 && std::string(argv[1]) == "help") {
    if (argc == 2) {
      std::cout << app.help();
      return kExitOk;
    }
    for (const CLI::App* command : app.get_subcommands({})) {
      if (command->check_name(argv[2])) {
        std::cout << command->help("eom");
        return kExitOk;
      }
    }
  }
  if (const char* word = unknown_subcommand(app, argc, argv)) {
    std::vector<std::string> names;
    std::string commands;
    for (const CLI::App* command : app.get_subcommands({})) {
      names.push_back(command->get_name());
      commands += (commands.empty() ? "" : ", ") + command->get_name();
    }
    std::cerr << "eom: error: unknown subcommand " << eom::quote_input(word)
              << eom::did_you_mean(names, word) << "; the subcommands are " << commands << '\n';
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace eom::cli;
  std::ios::sync_with_stdio(false);
  handle_ending_signals();

  CLI::App app{"eom: equations of motion for robots described in URDF, MJCF or JSON models", "eom"};
  Dispatch dispatch;
  register_commands(app, dispatch);
  if (const std::optional<int> rc = answer_before_parsing(app, argc, argv)) return *rc;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // a usage error reads like every other error: "eom <command>: error: ...", naming the option
    std::string name;
    for (const CLI::App* command : app.get_subcommands({})) {
      if (command->parsed()) name = " " + command->get_name();
    }
    std::cerr << "eom" << name << ": error: " << usage_message(e, app);
    return kExitUsage;
  }

  Streams io{std::cout, std::cerr, {}, option_name};
  std::string name = "eom";
  auto fail = [&](const char* kind, const std::string& what) {
    std::cout.flush();
    std::cerr << "eom " << name << ": " << kind << what << '\n';
    return kExitUsage;
  };
  try {
    const int rc = dispatch.run_selected(io, name);
    // what went to stdout (the reports of info and check) is the result: a write that failed
    // (a full disk, a closed pipe) is an error, not a truncated report with exit 0
    errno = 0;
    if (!std::cout.flush()) {
      const std::string why = errno ? std::string(": ") + std::strerror(errno) : "";
      return fail("error: ", "cannot write to stdout" + why);
    }
    return rc;
  } catch (const eom::InputError& e) {
    return fail("error: ", e.text(option_name));
  } catch (const eom::NumericalError& e) {
    return fail("error: ", e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    return fail("error: ", e.what());
  } catch (const std::bad_alloc&) {
    // the input asked for more memory than the process may have (a header of millions of
    // columns under a memory limit): the input's size, not a defect of eom
    return fail("error: ",
                "out of memory: the input needs more memory than this process may use (ulimit -v, "
                "cgroup limits); no output was written");
  } catch (const std::exception& e) {
    return fail("internal error: ", e.what());
  }
}
