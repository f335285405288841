// sluice quick: the main job in about two minutes (method/quick.h), from the command line.
#include <cstdio>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "engine/engine_traits.h"
#include "report/reporters.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(The main job: what you want to know of a disk, in about two minutes. On the filesystem under DIR (default:
the current directory) it creates a temporary directory with a test file of random data, measures, prints one
table and removes what it created (also when interrupted with Ctrl-C; --keep keeps the file):
  1 MiB sequential write and read bandwidth (iodepth 16)
  4 KiB random read and write capacity: the highest IOPS whose mean latency stays within --slo, with the
    concurrency (I/Os in flight) and the latency found, by a capacity search
  4 KiB random read and write latency at depth 1 (mean, p99, p99.9)
  16 KiB random writes each followed by fsync (psync): the database case
  which reference class the device behaves like: the nearest of ramdisk (200k IOPS, 0.1 ms), ssd (40k,
    0.8 ms), sas15k (180, 9 ms) and sata7k (100, 12 ms) by random read IOPS and depth-1 latency, in decades,
    latency counting double; it says when the match is poor (docs/guide.md has the rule)
All with direct I/O (where the filesystem allows it) and io_uring (libaio or psync where it is unavailable).

The test file is sized by the methodology's rules: at least 10x the caches that can hold it (with direct I/O
the page cache is bypassed, but a few GiB are preferred so the device's caches do not flatter it), at most half
of the free space, and small enough that laying it out fits the budget. The table says when it had to shrink.
The budget is shared: layout 15%, sequential write 10%, sequential read 10%, random read capacity 20%, random
write capacity 20%, depth-1 read 5%, depth-1 write 5%, fsync writes 15%; what the layout does not use goes to
the tests.
)";

// The engines quick may use, by their names in the engine table.
const std::vector<ChoiceOf<EngineKind>> kEngines = {
    {"io_uring", EngineKind::kIoUring}, {"libaio", EngineKind::kLibaio}, {"psync", EngineKind::kPsync}};

CommandTable<QuickArgs> make_table() {
  CommandInfo info = command_info("quick",
                                  "the main job, in about 2 minutes (--budget): sequential bandwidth, random read and "
                                  "write capacity within a latency limit, depth-1 latency and fsync'd write IOPS of "
                                  "the storage under DIR, on a test file removed afterwards",
                                  kDescription);
  info.positionals = {{"DIR", "the filesystem to test (default: the current directory)", false}};
  CommandTable<QuickArgs> t(std::move(info));
  t.add(duration_arg("budget", "120s", "total time"),
        [](QuickArgs& a, const OptionValue& v) { a.options.budget = v.duration; });
  t.add(size_arg("size", 1 << 20, "", "test file size, instead of the sizing rules"),
        [](QuickArgs& a, const OptionValue& v) { a.options.size = v.number; });
  t.add(duration_arg("slo", "10ms", "mean latency limit of the capacity rows"),
        [](QuickArgs& a, const OptionValue& v) { a.options.slo = v.duration; });
  TypedChoice<EngineKind> engine = choice_arg<EngineKind>(
      "ioengine", kEngines, "io_uring", "the I/O engine; io_uring falls back to libaio, then psync, where unavailable");
  engine.info.value_name = "E";
  t.add(std::move(engine), [](QuickArgs& a, EngineKind kind) { a.options.engine = kind; });
  add_output_options(t, &QuickArgs::output);
  add_history_options(t, &QuickArgs::history);
  t.add(flag_arg("keep", "keep the temporary directory and the test file"),
        [](QuickArgs& a, const OptionValue&) { a.options.keep = true; });
  t.add(flag_arg("no-status", "no live status line"),
        [](QuickArgs& a, const OptionValue&) { a.options.status_line = false; });
  return t;
}

const CommandTable<QuickArgs>& table() {
  static const CommandTable<QuickArgs> kTable = make_table();
  return kTable;
}

}  // namespace

const CommandInfo& quick_command_info() { return table().info(); }

QuickArgs parse_quick_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  QuickArgs out;
  table().apply(parsed, out, nullptr);
  if (!parsed.positionals.empty()) out.options.directory = parsed.positionals.front();
  return out;
}

int quick_command(const std::vector<std::string>& args) {
  const QuickArgs cli = parse_quick_args(args);
  return run_measured({"quick", args, ""}, cli.history, cli.output, [&](bool json_plus) {
    const QuickReport report = run_quick(cli.options, find_capacity);
    // The table carries the warnings, JSON keeps them under "sluice.warnings"; never on stderr.
    return Measurement{render_quick_table(report), render_json_text(report.run, json_plus),
                       report.run.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace sluice
