// sluice restore [--journal=FILE]: writes back the kernel knobs a killed run left changed, from its journal,
// removes the files a killed run left behind, from the journals of created files, and takes apart the labs whose
// lab up or daemon was killed, from their records (lab/lab_device.h).
#include <cstdio>
#include <filesystem>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "common/created_files.h"
#include "lab/lab_device.h"
#include "observe/knob_journal.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Writes back the original values of kernel knobs (vm.dirty_*, queue settings) that a sluice run changed
and could not restore because it was killed. sluice records every original in a journal before it changes
a knob; every sluice start replays a journal left behind, and this command does it on demand.
It also removes the files and directories a killed run created and left behind (test files, interfere's
background file, quick's temporary directory), listed in per-process journals of created files kept in the
same directory; a file that is no longer the one sluice created (replaced since) is kept. It says what it
removed. Knobs need root; files need the permissions of the user who ran sluice.
And it takes apart the labs (sluice lab up) whose daemon is gone or whose lab up was killed, from their records
in the same directory's labs/: the dead daemon's FUSE connection aborted (so nothing waits on it), the
filesystem unmounted, the loop device detached, a daemon left by a killed lab up stopped (only the very process
recorded, checked by its start time), the backing file removed. Labs that are up are left alone.
)";

CommandTable<RestoreArgs> make_table() {
  CommandTable<RestoreArgs> t(command_info(
      "restore", "write back kernel knobs and remove files a killed sluice run left behind (from its journals)",
      kDescription));
  t.add(text_arg("journal", "FILE", "$SLUICE_STATE_DIR/knobs.journal, else /var/lib/sluice/knobs.journal",
                 "the knob journal; the created-files journals are looked for in its directory"),
        [](RestoreArgs& a, const OptionValue& v) { a.journal = v.text; });
  return t;
}

const CommandTable<RestoreArgs>& table() {
  static const CommandTable<RestoreArgs> kTable = make_table();
  return kTable;
}

}  // namespace

const CommandInfo& restore_command_info() { return table().info(); }

RestoreArgs parse_restore_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  RestoreArgs out;
  out.journal = default_knob_journal_path();
  table().apply(parsed, out, nullptr);
  return out;
}

int restore_command(const std::vector<std::string>& args) {
  const RestoreArgs cli = parse_restore_args(args);
  const ReplayResult result = replay_journal(cli.journal);
  const std::string text = describe_replay(result, cli.journal);
  std::fputs(text.c_str(), result.failures.empty() ? stdout : stderr);
  const bool default_place = cli.journal == default_knob_journal_path();
  const LeftoverReport files = remove_leftovers(
      default_place ? created_files_dirs()
                    : std::vector<std::string>{std::filesystem::path(cli.journal).parent_path().string()});
  const std::string files_text = describe_leftovers(files);
  std::fputs(files_text.c_str(), files.failures.empty() ? stdout : stderr);
  std::vector<std::string> lab_dirs = lab_registry_dirs();
  if (!default_place) lab_dirs = {std::filesystem::path(cli.journal).parent_path().string() + "/labs"};
  const LabRestoreReport labs = restore_dead_labs(lab_dirs);
  for (const std::string& line : labs.removed) std::fprintf(stdout, "%s\n", line.c_str());
  for (const std::string& line : labs.failures) std::fprintf(stderr, "sluice: restore: %s\n", line.c_str());
  return result.failures.empty() && !result.busy && files.failures.empty() && labs.failures.empty() ? kExitOk
                                                                                                    : kExitError;
}

// At every start: a journal left by a killed run means knobs are still changed, or files left behind.
// One stat and a directory listing or two when there is none.
void replay_knob_journal_at_start() {
  const LeftoverReport files = remove_leftovers();
  if (!files.removed.empty() || !files.kept.empty() || !files.failures.empty()) {
    std::fprintf(stderr, "sluice: a previous run was killed and left files behind:\n%s",
                 describe_leftovers(files).c_str());
  }
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
