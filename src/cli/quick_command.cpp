// sluice quick [DIR] [--budget=T] [--size=S] [--slo=T] [--ioengine=E] [--output-format=F] [--output=FILE] [--keep]
#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/error.h"
#include "method/capacity.h"
#include "method/quick.h"
#include "report/reporters.h"
#include "job/option_builders.h"
#include "job/units.h"

namespace sluice {
namespace {

constexpr const char* kQuickUsage = R"(usage: sluice quick [DIR] [options]

The main job: what you want to know of a disk, in about two minutes. On the filesystem under DIR (default:
the current directory) it creates a temporary directory with a test file of random data, measures, prints one
table and removes what it created (also when interrupted with Ctrl-C; --keep keeps the file):
  1 MiB sequential write and read bandwidth (iodepth 16)
  4 KiB random read and write capacity: the highest IOPS whose mean latency stays within --slo, with the
    concurrency (I/Os in flight) and the latency found, by a capacity search
  4 KiB random read and write latency at depth 1 (mean, p99, p99.9)
  16 KiB random writes each followed by fsync (psync): the database case
All with direct I/O (where the filesystem allows it) and io_uring (libaio or psync where it is unavailable).

The test file is sized by the methodology's rules: at least 10x the caches that can hold it (with direct I/O
the page cache is bypassed, but a few GiB are preferred so the device's caches do not flatter it), at most half
of the free space, and small enough that laying it out fits the budget. The table says when it had to shrink.
The budget is shared: layout 15%, sequential write 10%, sequential read 10%, random read capacity 20%, random
write capacity 20%, depth-1 read 5%, depth-1 write 5%, fsync writes 15%; what the layout does not use goes to
the tests.

Options:
  --budget=T            total time (default 120s; a bare number is seconds)
  --size=S              test file size, instead of the sizing rules (e.g. 1g)
  --slo=T               mean latency limit of the capacity rows (default 10ms; a bare number is ms)
  --ioengine=E          io_uring (default), libaio or psync
  --output-format=FMT   normal (the table, default) or json (fio's JSON with "sluice.quick")
  --output=FILE         write the report to FILE instead of stdout
  --keep                keep the temporary directory and the test file
  --no-status           no live status line
  -h, --help            this text
)";

constexpr std::array<std::string_view, 10> kOptionNames = {"--budget", "--size",      "--slo",   "--ioengine",
                                                           "--output-format", "--output", "--keep", "--no-status",
                                                           "--help",   "-h"};

template <typename Names>
std::string_view nearest(std::string_view word, const Names& names) {
  std::string_view best = names.front();
  for (std::string_view n : names) {
    if (detail::edit_distance(word, n) < detail::edit_distance(word, best)) best = n;
  }
  return best;
}

struct QuickCli {
  QuickOptions options;
  bool json = false;
  std::string output_path;
  bool help = false;
};

EngineKind parse_engine(const std::string& v) {
  static constexpr std::array<std::string_view, 3> kEngines = {"io_uring", "libaio", "psync"};
  static_assert(std::all_of(kEngines.begin(), kEngines.end(), [](std::string_view n) { return engine_by_name(n); }));
  if (std::find(kEngines.begin(), kEngines.end(), v) != kEngines.end()) return *engine_by_name(v);
  throw UserError(fmt::format("--ioengine={}: quick uses io_uring, libaio or psync; did you mean {}?", v,
                              nearest(v, kEngines)));
}

void apply_option(QuickCli& cli, const std::string& name, const std::string& v) {
  if (name == "--budget") {
    const auto d = parse_duration(v, std::chrono::seconds(1));
    if (!d || d->count() <= 0) throw UserError(fmt::format("--budget={}: not a duration; e.g. 120s, 2m, 30", v));
    cli.options.budget = *d;
  } else if (name == "--size") {
    const auto size = parse_size(v);
    if (!size || *size < (1u << 20)) throw UserError(fmt::format("--size={}: not a size of at least 1m", v));
    cli.options.size = *size;
  } else if (name == "--slo") {
    const auto d = parse_duration(v, std::chrono::milliseconds(1));
    if (!d || d->count() <= 0) throw UserError(fmt::format("--slo={}: not a latency; e.g. 10ms, 500us", v));
    cli.options.slo = *d;
  } else if (name == "--ioengine") {
    cli.options.engine = parse_engine(v);
  } else if (name == "--output-format") {
    static constexpr std::array<std::string_view, 2> kFormats = {"normal", "json"};
    if (v != "normal" && v != "json") {
      throw UserError(fmt::format("--output-format={}: quick writes normal or json; did you mean {}?", v,
                                  nearest(v, kFormats)));
    }
    cli.json = v == "json";
  } else if (name == "--output") {
    cli.output_path = v;
  }
}

QuickCli parse_quick_args(const std::vector<std::string>& args) {
  QuickCli cli;
  bool directory_given = false;
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      cli.help = true;
      return cli;
    }
    if (arg == "--keep") {
      cli.options.keep = true;
      continue;
    }
    if (arg == "--no-status") {
      cli.options.status_line = false;
      continue;
    }
    if (arg.rfind("-", 0) == 0) {
      const std::size_t eq = arg.find('=');
      const std::string name = arg.substr(0, eq);
      if (std::find(kOptionNames.begin(), kOptionNames.end(), name) == kOptionNames.end()) {
        throw UserError(fmt::format("{}: unknown option for quick; did you mean {}? (see sluice quick --help)", name,
                                    nearest(name, kOptionNames)));
      }
      if (eq == std::string::npos || eq + 1 == arg.size()) {
        throw UserError(fmt::format("{}: needs a value ({}=...)", name, name));
      }
      apply_option(cli, name, arg.substr(eq + 1));
    } else if (!directory_given) {
      cli.options.directory = arg;
      directory_given = true;
    } else {
      throw UserError(fmt::format("{}: quick takes one directory (already given: {})", arg, cli.options.directory));
    }
  }
  return cli;
}

void write_text(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::fputs(text.c_str(), stdout);
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
    throw UserError(fmt::format("--output={}: cannot write the file", path));
  }
}

}  // namespace

int quick_command(const std::vector<std::string>& args) {
  const QuickCli cli = parse_quick_args(args);
  if (cli.help) {
    std::fputs(kQuickUsage, stdout);
    return kExitOk;
  }
  const QuickReport report = run_quick(cli.options, find_capacity);
  if (cli.json) {
    print_warnings(report.run.warnings);  // the table carries them; JSON keeps them under "sluice.warnings"
    write_text(render_json_text(report.run, false), cli.output_path);
  } else {
    write_text(render_quick_table(report), cli.output_path);
  }
  return report.run.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace sluice
