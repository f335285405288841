// sluice help [COMMAND] and sluice version.
#include <cstdio>

#include <fmt/format.h>

#include "cli/command_registry.h"
#include "cli/commands.h"
#include "common/error.h"
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
  for (const CommandEntry& e : command_registry()) out += fmt::format("  {:<14}", e.name) + wrap_help(e.summary, 16, 16);
  return out + kClosing;
}

CommandInfo make_help_info() {
  CommandInfo info = command_info("help", "this text, or the help of one command",
                                  "Lists the commands, or shows the help of one.\n");
  info.positionals = {{"COMMAND", "the command whose help to show", false}};
  return info;
}

CommandInfo make_version_info() {
  return command_info("version", "print the version (also --version)", "Prints sluice's version.\n");
}

}  // namespace

const CommandInfo& help_command_info() {
  static const CommandInfo kInfo = make_help_info();
  return kInfo;
}

const CommandInfo& version_command_info() {
  static const CommandInfo kInfo = make_version_info();
  return kInfo;
}

int help_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(help_command_info(), args);
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
  std::printf("sluice %s\n", SLUICE_VERSION);
  return kExitOk;
}

}  // namespace sluice
