#include "cli/cli_main.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_registry.h"
#include "cli/commands.h"
#include "common/created_files.h"
#include "common/error.h"
#include "job/units.h"
#include "mpi/world.h"

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
    return find_command("run")->run(args);  // the registry's entry answers --help
  }
  const std::string nearest = nearest_command(name);
  std::string names;
  for (const CommandEntry& e : command_registry()) names += (names.empty() ? "" : ", ") + e.name;
  throw UserError(fmt::format("unknown command '{}'{} (commands: {}; sluice help describes them)", name,
                              nearest.empty() ? "" : "; did you mean '" + nearest + "'?", names));
}

// --mpi, --mpi-timeout=T and --mpi-wearout, wherever they are, are sluice's own (not a command's): they are
// taken out of `args`. Joins the MPI world when asked or when started by mpirun; then only `sluice run` may follow.
void join_mpi_if_asked(std::vector<std::string>& args) {
  bool asked = false;
  bool wearout = false;
  std::vector<std::string> rest;
  for (const std::string& a : args) {
    if (a == "--mpi") {
      asked = true;
    } else if (a == "--mpi-wearout") {
      wearout = true;
    } else if (a.rfind("--mpi-timeout=", 0) == 0) {
      const auto limit = parse_duration(a.substr(14), std::chrono::seconds(1));
      if (!limit || limit->count() <= 0) {
        throw UserError("--mpi-timeout=" + a.substr(14) + ": not a duration; durations look like 90s, 10m, 1h");
      }
      mpi::set_time_limit(*limit);
    } else {
      rest.push_back(a);
    }
  }
  args = std::move(rest);
  const bool launched = mpi::launched_by_mpi([](const char* name) { return std::getenv(name); });
  if (!asked && !launched) {
    if (wearout)
      throw UserError("--mpi-wearout is for runs under mpirun (or with --mpi): it evens out the ranks' work");
    return;
  }
  mpi::init();
  mpi::set_wearout(wearout);
  const std::string first = args.empty() ? "" : args.front();
  if (first != "run" && first != "fio" && first != "capacity" && first != "metadata" && first.rfind("--", 0) != 0) {
    throw UserError(
        "under MPI only `sluice run` (or its fio form), `sluice capacity` and `sluice metadata` run on "
        "every rank; '" +
        (first.empty() ? std::string("(no command)") : first) + "' does not");
  }
}

// True when the program was started through a link or copy named fio (scripts written for fio call it).
bool called_as_fio(const char* argv0) {
  const std::string_view path = argv0 == nullptr ? "" : argv0;
  const std::size_t slash = path.rfind('/');
  return path.substr(slash == std::string_view::npos ? 0 : slash + 1) == "fio";
}

// The classic tools whose name, as the program's (a link build/sysbench -> sluice), runs the matching sluice
// command, so that a script written for the tool runs unchanged with build/ first in PATH.
struct ToolLink {
  std::string_view tool;
  std::string_view command;
};
constexpr ToolLink kToolLinks[] = {{"sysbench", "sysbench"},
                                   {"bonnie++", "bonnie"},
                                   {"postmark", "postmark"},
                                   {"iozone", "iozone"},
                                   {"mdtest", "metadata"}};

// The sluice command a link named after a classic tool stands for; "" when argv0 is no such name.
std::string_view tool_link_command(const char* argv0) {
  const std::string_view path = argv0 == nullptr ? "" : argv0;
  const std::size_t slash = path.rfind('/');
  const std::string_view name = path.substr(slash == std::string_view::npos ? 0 : slash + 1);
  for (const ToolLink& link : kToolLinks) {
    if (link.tool == name) return link.command;
  }
  return "";
}

// Under MPI an error that escapes the command leaves the other ranks waiting in a collective: this rank says
// what went wrong, prefixed with its host and rank, and ends them all.
void fail_rank(const std::string& message) {
  if (!mpi::active()) return;
  std::fprintf(stderr, "sluice[%s]: %s\n", mpi::where().c_str(), message.c_str());
  mpi::abort(kExitError);
}

}  // namespace

int cli_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    join_mpi_if_asked(args);
    if (argc > 0 && called_as_fio(argv[0])) {
      if (args.size() == 1 && args.front() == "--version") return version_command({});
      replay_knob_journal_at_start();
      const int code = find_command("run")->run(args);  // the registry's entry answers --help
      mpi::finalize();
      return code;
    }
    if (const std::string_view command = argc > 0 ? tool_link_command(argv[0]) : ""; !command.empty()) {
      args.insert(args.begin(), std::string(command));
    }
    if (args.empty()) return help_command({});
    const int code = dispatch(args);
    end_created_files_journal();  // a normal end: what is still listed was kept on purpose
    mpi::finalize();
    return code;
  } catch (const UserError& e) {
    end_created_files_journal();
    fail_rank(e.what());
    std::fprintf(stderr, "sluice: %s\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    end_created_files_journal();
    fail_rank(std::string("internal error: ") + e.what());
    std::fprintf(stderr, "sluice: internal error: %s\n", e.what());
    return kExitError;
  }
}

}  // namespace sluice
