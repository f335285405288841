#include <cstdio>

#include "cli/commands.h"
#include "version.h"

namespace sluice {

int help_command(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() == "run") {
    const std::vector<std::string> help = {"--help"};
    return run_command(help);
  }
  std::printf(R"(sluice %s: a storage benchmark that measures what a storage system can really do.

usage: sluice COMMAND [options]

Commands:
  quick [DIR]   the main job: sequential and random bandwidth, IOPS and latency of the storage under DIR
                (default: the current directory), on a test file that is removed afterwards
  run           run jobs given in fio's command-line form (sluice run --help lists every option)
  restore       write back kernel knobs a killed sluice run left changed (from its journal)
  help [run]    this text, or the run options
  version       print the version (also --version)

Examples:
  sluice quick /mnt/data
  sluice run --name=rr --filename=/tmp/f --size=1g --rw=randread --bs=4k --direct=1 \
             --ioengine=io_uring --iodepth=32 --runtime=10 --time_based --output-format=json

sluice reads fio's options with fio's meaning and writes fio's JSON key for key, so scripts written for fio
read it unchanged. Writes go only to files sluice creates or that the user names; block devices that carry a
filesystem or partition table are refused unless --allow-destructive is given.
)",
              SLUICE_VERSION);
  return kExitOk;
}

}  // namespace sluice
