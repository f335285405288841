// sluice precondition --filename=F [--size=S] [--bs=128k] [--passes=2] [--until-steady [job options]]
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/error.h"
#include "method/precondition.h"
#include "report/reporters.h"
#include "job/command_line.h"
#include "job/units.h"
#include "job/validate.h"

namespace sluice {
namespace {

constexpr const char* kPreconditionUsage = R"(usage: sluice precondition --filename=F [options] [--until-steady [job options]]

Brings a target to a known state before measuring it, as SNIA's Performance Test Specification does:
writes the whole area sequentially, twice (--passes), in 128 KiB blocks with direct I/O (workload-
independent preconditioning), showing progress on stderr. A missing file is created (give --size).
With --until-steady, it then runs the test workload in rounds (--round, default 60s) until SNIA's steady
state holds over the last 5 rounds: IOPS range within 20% and the fitted line's excursion within 10% of
their mean; it reports each round's IOPS and mean latency and the round where steady state was reached.

Options:
  --filename=F          the file or block device to write (it is overwritten: block devices holding a
                        filesystem, partition table, RAID or LVM signature are refused unless
                        --allow-destructive; mounted devices always)
  --size=S              bytes to write per pass (default: the file's or device's size; needed for a new file)
  --bs=S                block size of the passes (default 128k)
  --passes=N            sequential passes (default 2)
  --until-steady        then run the test workload in rounds; the job options after it describe the
                        workload (default: --rw=randwrite --bs=4k --ioengine=io_uring --iodepth=32
                        --direct=1; filename and size come from above)
  --round=T             measured time of one round (default 60s)
  --max-rounds=N        give up after N rounds (default 25)
  --allow-destructive   allow writing a block device that carries a signature (see --filename)
  --output-format=FMT   normal (a table, default) or json (fio's JSON of the last run plus "sluice.precondition")
  --output=FILE         write the report to FILE
  --no-status           no live status line
)";

std::string value_of(const std::string& arg, const std::string& name) {
  const std::string prefix = name + "=";
  if (arg.rfind(prefix, 0) != 0) return {};
  std::string v = arg.substr(prefix.size());
  if (v.empty()) throw UserError(fmt::format("{}: needs a value", name));
  return v;
}

std::uint64_t size_value(const std::string& name, const std::string& v) {
  const auto size = parse_size(v);
  if (!size || *size == 0) throw UserError(fmt::format("{}={}: not a size; sizes look like 4k, 1m, 10g", name, v));
  return *size;
}

std::uint32_t count_value(const std::string& name, const std::string& v) {
  std::size_t used = 0;
  unsigned long n = 0;
  try {
    n = std::stoul(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || n == 0 || n > 1'000'000) throw UserError(fmt::format("{}={}: not a positive count", name, v));
  return static_cast<std::uint32_t>(n);
}

struct CommandLine {
  PreconditionRequest request;
  bool until_steady = false;
  std::vector<std::string> workload_args;
  bool json = false;
  std::string output_path;
  bool help = false;
};

// Options of the command itself, wherever they appear; false when `arg` is not one of them.
bool parse_common(const std::string& arg, CommandLine& c) {
  if (auto v = value_of(arg, "--round"); !v.empty()) {
    const auto d = parse_duration(v, std::chrono::seconds(1));
    if (!d || d->count() <= 0) throw UserError(fmt::format("--round={}: not a duration; durations look like 60s, 500ms", v));
    c.request.round = *d;
  } else if (auto v = value_of(arg, "--max-rounds"); !v.empty()) {
    c.request.max_rounds = count_value("--max-rounds", v);
  } else if (auto v = value_of(arg, "--output-format"); !v.empty()) {
    if (v != "normal" && v != "json") throw UserError(fmt::format("--output-format={}: choose normal or json", v));
    c.json = v == "json";
  } else if (auto v = value_of(arg, "--output"); !v.empty()) {
    c.output_path = v;
  } else if (arg == "--allow-destructive") {
    c.request.allow_destructive = true;
  } else if (arg == "--no-status") {
    c.request.status_line = false;
  } else if (arg == "--help" || arg == "-h") {
    c.help = true;
  } else {
    return false;
  }
  return true;
}

CommandLine parse(const std::vector<std::string>& args) {
  CommandLine c;
  for (const std::string& arg : args) {
    if (parse_common(arg, c)) continue;
    if (c.until_steady) {
      c.workload_args.push_back(arg);
    } else if (arg == "--until-steady") {
      c.until_steady = true;
    } else if (auto v = value_of(arg, "--filename"); !v.empty()) {
      c.request.filename = v;
    } else if (auto v = value_of(arg, "--size"); !v.empty()) {
      c.request.size = size_value("--size", v);
    } else if (auto v = value_of(arg, "--bs"); !v.empty()) {
      c.request.block_size = size_value("--bs", v);
    } else if (auto v = value_of(arg, "--passes"); !v.empty()) {
      c.request.passes = count_value("--passes", v);
    } else {
      throw UserError(fmt::format("{}: unknown option for precondition (job options go after --until-steady; "
                                  "see sluice precondition --help)", arg));
    }
  }
  return c;
}

// The workload's jobs: the defaults, then the user's job options, validated.
std::vector<JobSpec> workload_jobs(const std::vector<std::string>& user_args) {
  std::vector<std::string> args = default_workload_options();
  args.insert(args.end(), user_args.begin(), user_args.end());
  ParsedCommandLine parsed = parse_run_command_line(args);
  if (!parsed.job_files.empty()) throw UserError("precondition takes job options, not job files");
  std::vector<Problem> problems;
  bool failed = false;
  for (const JobSpec& job : parsed.jobs) {
    for (Problem& p : validate(job)) {
      failed = failed || p.severity == Problem::Severity::kError;
      problems.push_back(std::move(p));
    }
  }
  print_warnings(problems);
  if (failed) throw UserError("the --until-steady workload has errors (above)");
  return parsed.jobs;
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

int precondition_command(const std::vector<std::string>& args) {
  CommandLine c = parse(args);
  if (c.help) {
    std::fputs(kPreconditionUsage, stdout);
    return kExitOk;
  }
  if (c.until_steady) c.request.workload = workload_jobs(c.workload_args);
  const PreconditionResult result = run_precondition(c.request);
  const std::string text =
      c.json ? render_json_text(result.last_run, false) : render_precondition_table(result);
  write_text(text, c.output_path);
  return result.last_run.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace sluice
