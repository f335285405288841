// sluice restore [--journal=FILE]: writes back the kernel knobs a killed run left changed, from its journal.
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/error.h"
#include "observe/knob_journal.h"

namespace sluice {
namespace {

constexpr const char* kRestoreUsage = R"(usage: sluice restore [--journal=FILE]

Writes back the original values of kernel knobs (vm.dirty_*, queue settings) that a sluice run changed
and could not restore because it was killed. sluice records every original in a journal before it changes
a knob; every sluice start replays a journal left behind, and this command does it on demand.
Needs root when there is something to restore.

Options:
  --journal=FILE   the journal (default $SLUICE_STATE_DIR/knobs.journal, else /var/lib/sluice/knobs.journal)
)";

}  // namespace

int restore_command(const std::vector<std::string>& args) {
  std::string journal = default_knob_journal_path();
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::fputs(kRestoreUsage, stdout);
      return kExitOk;
    }
    if (arg.rfind("--journal=", 0) == 0 && arg.size() > 10) {
      journal = arg.substr(10);
    } else {
      throw UserError(fmt::format("{}: unknown option for restore (see sluice restore --help)", arg));
    }
  }
  const ReplayResult result = replay_journal(journal);
  const std::string text = describe_replay(result, journal);
  std::fputs(text.c_str(), result.failures.empty() ? stdout : stderr);
  return result.failures.empty() && !result.busy ? kExitOk : kExitError;
}

// At every start: a journal left by a killed run means knobs are still changed. One stat when there is none.
void replay_knob_journal_at_start() {
  const std::string journal = default_knob_journal_path();
  if (!knob_journal_exists(journal)) return;
  try {
    const ReplayResult result = replay_journal(journal);
    if (result.busy || !result.found) return;
    std::fprintf(stderr, "sluice: a previous run left kernel knobs changed; restoring them from %s\n%s",
                 journal.c_str(), describe_replay(result, journal).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice: cannot replay the knob journal %s: %s\n", journal.c_str(), e.what());
  }
}

}  // namespace sluice
