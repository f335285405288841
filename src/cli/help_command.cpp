#include <cstdio>

#include "cli/commands.h"
#include "version.h"

namespace sluice {

int help_command(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() == "run") {
    const std::vector<std::string> help = {"--help"};
    return run_command(help);
  }
  if (!args.empty() && args.front() == "quick") return quick_command({"--help"});
  if (!args.empty() && args.front() == "precondition") return precondition_command({"--help"});
  if (!args.empty() && args.front() == "interfere") return interfere_command({"--help"});
  std::printf(R"(sluice %s: a storage benchmark that measures what a storage system can really do.

usage: sluice COMMAND [options]

Commands:
  quick [DIR]   the main job, in about 2 minutes (--budget): sequential bandwidth, random read and write
                capacity within a latency limit, depth-1 latency and fsync'd write IOPS of the storage under
                DIR (default: the current directory), on a test file removed afterwards (sluice quick --help)
  capacity      the highest IOPS within a latency limit (--slo=10ms): searches the concurrency, reports the
                curve, the knee and the thrashing point (sluice capacity --help)
  interfere     does a bulk buffered writer starve fsync'd small writes? idle vs loaded, a per-second
                writeback timeline, why (dirty limits), and --try kernel knobs safely (sluice interfere --help)
  precondition  write the area twice sequentially (SNIA preconditioning), then --until-steady runs the test
                workload in rounds until its IOPS are steady (sluice precondition --help)
  run           run jobs given in fio's command-line form (sluice run --help lists every option)
  restore       write back kernel knobs a killed sluice run left changed (from its journal)
  help [CMD]    this text, or the options of run or quick
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
