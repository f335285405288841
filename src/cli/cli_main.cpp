#include "cli/cli_main.h"

#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/error.h"
#include "version.h"

namespace sluice {

int cli_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return help_command({});
  const std::string command = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (command == "--version" || command == "version") {
      std::printf("sluice %s\n", SLUICE_VERSION);
      return kExitOk;
    }
    if (command == "help" || command == "--help" || command == "-h") return help_command(rest);
    if (command == "restore") return restore_command(rest);
    replay_knob_journal_at_start();
    if (command == "run") return run_command(rest);
    if (command == "quick") return quick_command(rest);
    if (command == "precondition") return precondition_command(rest);
    if (command == "capacity") return capacity_command(rest);
    if (command == "interfere") return interfere_command(rest);
    // fio habit: "sluice --name=x ..." means "sluice run --name=x ...".
    if (command.rfind("--", 0) == 0) return run_command(args);
    std::fprintf(stderr, "sluice: unknown command '%s'; commands: run, quick, capacity, interfere, precondition, restore, help, version\n", command.c_str());
    return kExitError;
  } catch (const UserError& e) {
    std::fprintf(stderr, "sluice: %s\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice: internal error: %s\n", e.what());
    return kExitError;
  }
}

}  // namespace sluice
