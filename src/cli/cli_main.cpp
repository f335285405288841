#include "cli/cli_main.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/command_registry.h"
#include "cli/commands.h"
#include "common/created_files.h"
#include "common/error.h"

namespace sluice {
namespace {

int dispatch(const std::vector<std::string>& args) {
  const std::string& name = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (const CommandEntry* command = find_command(name)) {
    if (command->replays_journal) replay_knob_journal_at_start();
    return command->run(rest);
  }
  // fio habit: "sluice --name=x ..." means "sluice run --name=x ...".
  if (name.rfind("--", 0) == 0) {
    replay_knob_journal_at_start();
    return run_command(args);
  }
  const std::string nearest = nearest_command(name);
  std::string names;
  for (const CommandEntry& e : command_registry()) names += (names.empty() ? "" : ", ") + e.name;
  throw UserError(fmt::format("unknown command '{}'{} (commands: {}; sluice help describes them)", name,
                              nearest.empty() ? "" : "; did you mean '" + nearest + "'?", names));
}

// True when the program was started through a link or copy named fio (scripts written for fio call it).
bool called_as_fio(const char* argv0) {
  const std::string_view path = argv0 == nullptr ? "" : argv0;
  const std::size_t slash = path.rfind('/');
  return path.substr(slash == std::string_view::npos ? 0 : slash + 1) == "fio";
}

}  // namespace

int cli_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (argc > 0 && called_as_fio(argv[0])) {
      if (args.size() == 1 && args.front() == "--version") return version_command({});
      replay_knob_journal_at_start();
      return run_command(args);
    }
    if (args.empty()) return help_command({});
    const int code = dispatch(args);
    end_created_files_journal();  // a normal end: what is still listed was kept on purpose
    return code;
  } catch (const UserError& e) {
    end_created_files_journal();
    std::fprintf(stderr, "sluice: %s\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    end_created_files_journal();
    std::fprintf(stderr, "sluice: internal error: %s\n", e.what());
    return kExitError;
  }
}

}  // namespace sluice
