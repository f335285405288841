// sluice help [COMMAND] and sluice version.
#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "build_info.h"
#include "cli/command_options.h"
#include "cli/command_registry.h"
#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/man_page.h"
#include "common/error.h"
#include "lab/lab_daemon.h"
#include "mpi/world.h"
#include "revision.h"
#include "version.h"

namespace sluice {
namespace {

constexpr const char* kClosing = R"(
Examples:
  sluice quick /mnt/data
  sluice capacity --filename=/dev/nvme0n1 --slo=2ms --slo-stat=p99
  sluice run --name=rr --filename=/tmp/f --size=1g --rw=randread --bs=4k --direct=1 \
             --ioengine=io_uring --iodepth=32 --runtime=10 --time_based --output-format=json
  mpirun -n 4 --host h1,h2,h3,h4 sluice run JOBFILE   (many hosts, one test: docs/multi-host.md;
             sluice's own --mpi joins MPI when not started by mpirun, --mpi-timeout=T bounds the run,
             --mpi-wearout evens out the ranks' work after the deadline, as IOR's stonewall wear-out)

sluice reads fio's options with fio's meaning and writes fio's JSON key for key, so scripts written for fio
read it unchanged. Writes go only to files sluice creates or that the user names; block devices that carry a
filesystem or partition table are refused unless --allow-destructive is given.
)";

std::string overview() {
  std::string out = fmt::format(
      "sluice {}: a storage benchmark that measures what a storage system can really do.\n\n"
      "usage: sluice COMMAND [options]      (sluice COMMAND --help, or sluice help COMMAND, for its options)\n\n"
      "Commands:\n",
      SLUICE_VERSION);
  for (const CommandEntry& e : command_registry())
    out += fmt::format("  {:<14}", e.name) + wrap_help(e.summary, 16, 16);
  return out + kClosing;
}

struct HelpArgs {
  std::string man_dir;     // --man=DIR
  std::string completion;  // --completion=bash|zsh
};

CommandTable<HelpArgs> make_help_table() {
  CommandInfo info = command_info("help", "this text, or the help of one command",
                                  "Lists the commands, or shows the help of one. The build also writes the man "
                                  "pages and the shell completion with it, from the same tables as --help.\n");
  info.positionals = {{"COMMAND", "the command whose help to show", false}};
  CommandTable<HelpArgs> t(std::move(info));
  t.add(text_arg("man", "DIR", "", "write the man pages, sluice.1 and sluice-COMMAND.1 for every command, into DIR"),
        [](HelpArgs& a, const OptionValue& v) { a.man_dir = v.text; });
  t.add(choice_arg("completion", {"bash", "zsh"}, "", "print the shell's completion script for sluice"),
        [](HelpArgs& a, const OptionValue& v) { a.completion = v.text; });
  return t;
}

const CommandTable<HelpArgs>& help_table() {
  static const CommandTable<HelpArgs> kTable = make_help_table();
  return kTable;
}

struct VersionArgs {
  bool json = false;
};

CommandTable<VersionArgs> make_version_table() {
  CommandTable<VersionArgs> t(command_info(
      "version", "print the version (also --version)",
      "Prints sluice's version, the git revision it was built from, and what the build has: io_uring (liburing), "
      "libaio, MPI (many hosts), the FUSE lab daemon (sluice lab, selftest), the compiler.\n"));
  t.add(choice_arg("output-format", {"normal", "json"}, "normal", "json: the same under \"sluice\""),
        [](VersionArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<VersionArgs>& version_table() {
  static const CommandTable<VersionArgs> kTable = make_version_table();
  return kTable;
}

nlohmann::json version_json() {
  return {{"version", SLUICE_VERSION},
          {"revision", SLUICE_REVISION},
          {"build_type", SLUICE_BUILD_TYPE},
          {"compiler", SLUICE_COMPILER},
          {"features",
           {{"io_uring", {{"liburing", SLUICE_LIBURING_VERSION}}},
            {"libaio", true},
            {"mpi", mpi::built_with_mpi()},
            {"fuse_lab",
             lab_daemon_available() ? nlohmann::json{{"libfuse3", SLUICE_LIBFUSE3_VERSION}} : nlohmann::json(false)}}}};
}

std::string version_text() {
  return fmt::format("sluice {} (git {})\nfeatures: io_uring (liburing {}), libaio, {}, {}\nbuilt by {} ({})\n",
                     SLUICE_VERSION, SLUICE_REVISION, SLUICE_LIBURING_VERSION,
                     mpi::built_with_mpi() ? "MPI" : "no MPI (built without it)",
                     lab_daemon_available() ? fmt::format("FUSE lab (libfuse3 {})", SLUICE_LIBFUSE3_VERSION)
                                            : std::string("no FUSE lab (built without libfuse3)"),
                     SLUICE_COMPILER, SLUICE_BUILD_TYPE);
}

}  // namespace

const CommandInfo& help_command_info() { return help_table().info(); }

const CommandInfo& version_command_info() { return version_table().info(); }

int help_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(help_command_info(), args);
  HelpArgs a;
  help_table().apply(parsed, a, nullptr);
  if (!a.man_dir.empty()) {
    const std::vector<std::string> written = write_man_pages(a.man_dir);
    std::printf("sluice help: %zu man pages in %s\n", written.size(), a.man_dir.c_str());
    return kExitOk;
  }
  if (!a.completion.empty()) {
    std::fputs((a.completion == "bash" ? render_bash_completion() : render_zsh_completion()).c_str(), stdout);
    return kExitOk;
  }
  if (parsed.positionals.empty()) {
    std::fputs(overview().c_str(), stdout);
    return kExitOk;
  }
  const std::string& name = parsed.positionals.front();
  const CommandEntry* command = find_command(name);
  if (command == nullptr) {
    const std::string nearest = nearest_command(name);
    throw UserError(fmt::format("{}: no such command{} (sluice help lists the commands)", name,
                                nearest.empty() ? "" : "; did you mean " + nearest + "?"));
  }
  std::fputs(command->help().c_str(), stdout);
  return kExitOk;
}

int version_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(version_command_info(), args);
  VersionArgs a;
  version_table().apply(parsed, a, nullptr);
  const std::string text = a.json ? nlohmann::json{{"sluice", version_json()}}.dump(2) + "\n" : version_text();
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace sluice
