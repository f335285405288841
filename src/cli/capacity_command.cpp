// sluice capacity --filename=F [--slo=10ms] [--slo-stat=mean] [--scale=iodepth] [--budget=120s] [job options]
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/error.h"
#include "method/capacity.h"
#include "report/reporters.h"
#include "job/command_line.h"
#include "job/option_table.h"
#include "job/units.h"
#include "job/validate.h"

namespace sluice {
namespace {

constexpr const char* kCapacityUsage = R"(usage: sluice capacity --filename=F [--size=S] [options] [job options]

Finds the highest IOPS the target serves while a latency statistic stays within a limit, by searching the
concurrency (iodepth x numjobs): 1, 2, 4, ... until the limit is exceeded, IOPS drop (thrashing) or stop
growing, then bisection between the last concurrency within the limit and the first above it. Each point
runs until its per-interval IOPS series is steady (SNIA's rule: 5 samples within 20% of their mean, trend
under 10%) or its share of the budget is spent. A slow I/O is a sample, never a reason to stop.

Options:
  --slo=T               the latency limit (default 10ms; a bare number is microseconds, as fio's latency_target)
  --slo-stat=STAT       the statistic held to the limit: mean (default), p50, p95, p99, p99.9
  --scale=HOW           what grows: iodepth (default), numjobs, both
  --budget=T            total time for the search (default 120s; a bare number is seconds)
  --max-concurrency=N   highest concurrency tried (default 1024)
  --rw=A,B              several workloads give independent streams side by side (one job each, scaled
                        together): --rw=randread,randwrite is a reader and a writer, not randrw
  --output-format=FMT   normal (the curve table, default) or json (fio's JSON of the answer's point plus
                        "sluice.capacity"); json+ adds histogram bins
  --output=FILE         write the report to FILE
  --allow-destructive   as for sluice run

Defaults differing from sluice run: --direct=1 --ioengine=io_uring --rw=randread --bs=4k. Every job option
of sluice run is accepted (sluice run --help lists them); iodepth and numjobs are what the search varies.
The knee is the lowest concurrency whose doubling adds < 10% IOPS with more latency; thrashing is the first
concurrency whose IOPS fall more than 5% below the best at lower concurrency.
)";

struct CapacityArgs {
  CapacityRequest request;
  std::vector<std::string> rw_modes;      // from --rw=A,B (several streams); empty = the job's own rw
  std::vector<std::string> job_args;      // everything else, for the run command-line parser
};

std::optional<std::string> value_of(const std::string& arg, std::string_view name) {
  const std::string prefix = "--" + std::string(name);
  if (arg == prefix) throw UserError(fmt::format("{}: needs a value; use {}=VALUE", prefix, prefix));
  if (arg.rfind(prefix + "=", 0) != 0) return std::nullopt;
  std::string v = arg.substr(prefix.size() + 1);
  if (v.empty()) throw UserError(fmt::format("{}=: needs a value", prefix));
  return v;
}

std::chrono::nanoseconds positive_duration(const std::string& name, const std::string& v,
                                           std::chrono::nanoseconds bare_unit, std::string_view example) {
  const auto d = parse_duration(v, bare_unit);
  if (!d || d->count() <= 0) throw UserError(fmt::format("--{}={}: not a positive duration; e.g. {}", name, v, example));
  return *d;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool take_capacity_option(const std::string& arg, CapacityArgs& out) {
  CapacityRequest& r = out.request;
  if (auto v = value_of(arg, "slo")) {
    r.slo = positive_duration("slo", *v, std::chrono::microseconds(1), "10ms, 500us");
  } else if (auto v = value_of(arg, "slo-stat")) {
    r.slo_stat = parse_slo_stat(*v);
  } else if (auto v = value_of(arg, "scale")) {
    r.scale = parse_scale(*v);
  } else if (auto v = value_of(arg, "budget")) {
    r.budget = positive_duration("budget", *v, std::chrono::seconds(1), "120s, 2m");
  } else if (auto v = value_of(arg, "max-concurrency")) {
    const auto n = parse_unsigned(*v);
    if (!n || *n == 0 || *n > 65536) throw UserError(fmt::format("--max-concurrency={}: not a number in 1-65536", *v));
    r.max_concurrency = static_cast<std::uint32_t>(*n);
  } else if (auto v = value_of(arg, "rw"); v && v->find(',') != std::string::npos) {
    out.rw_modes = split_commas(*v);
    for (const std::string& mode : out.rw_modes) {
      JobSpec probe;
      apply_option(probe, "rw", mode, SourcePos{});  // names the option and the valid modes on error
    }
  } else {
    return false;
  }
  return true;
}

CapacityArgs parse_capacity_args(const std::vector<std::string>& args) {
  CapacityArgs out;
  out.job_args = {"--direct=1", "--ioengine=io_uring", "--rw=randread", "--bs=4k"};
  for (const std::string& arg : args) {
    if (!take_capacity_option(arg, out)) out.job_args.push_back(arg);
  }
  return out;
}

// One stream per job given (usually one), times one per --rw=A,B mode.
std::vector<JobSpec> make_streams(const ParsedCommandLine& parsed, const std::vector<std::string>& rw_modes) {
  std::vector<JobSpec> streams;
  for (const JobSpec& job : parsed.jobs) {
    if (rw_modes.empty()) {
      streams.push_back(job);
      continue;
    }
    for (const std::string& mode : rw_modes) {
      JobSpec stream = job;
      apply_option(stream, "rw", mode, SourcePos{});
      stream.name = job.name + "-" + mode;
      streams.push_back(std::move(stream));
    }
  }
  for (const JobSpec& s : streams) {
    if (s.filenames.empty() && s.directory.empty() && engine_traits(s.ioengine).needs_fd) {
      throw UserError("capacity needs a target: --filename=FILE (a file or a device) and --size=S for a new file");
    }
  }
  return streams;
}

void write_text(const std::string& text, const std::string& path, bool append) {
  if (path.empty()) {
    std::fputs(text.c_str(), stdout);
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), append ? "a" : "w");
  if (!f || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
    throw UserError(fmt::format("--output={}: cannot write the file", path));
  }
}

void write_reports(const CapacityRequest& request, const CapacityResult& result, const RunOptions& run) {
  bool first = true;
  for (RunOptions::OutputFormat format : run.output_formats) {
    const bool json = format == RunOptions::OutputFormat::kJson || format == RunOptions::OutputFormat::kJsonPlus;
    const std::string text = json ? render_json_text(result.final_run, format == RunOptions::OutputFormat::kJsonPlus)
                                  : render_capacity_table(request, result);
    write_text(text, run.output_path, !first);
    first = false;
  }
}

}  // namespace

int capacity_command(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::fputs(kCapacityUsage, stdout);
      return kExitOk;
    }
  }
  CapacityArgs parsed_args = parse_capacity_args(args);
  ParsedCommandLine parsed = parse_run_command_line(parsed_args.job_args);
  if (!parsed.job_files.empty()) {
    throw UserError(fmt::format("{}: capacity takes job options (--name=value), not job files", parsed.job_files.front()));
  }
  CapacityRequest& request = parsed_args.request;
  request.streams = make_streams(parsed, parsed_args.rw_modes);
  request.allow_destructive = parsed.run.allow_destructive;
  request.status_line = parsed.run.status_line;
  request.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };

  std::vector<Problem> warnings;
  bool failed = false;
  for (const JobSpec& job : request.streams) {
    for (Problem& p : validate(job)) {
      failed = failed || p.severity == Problem::Severity::kError;
      warnings.push_back(std::move(p));
    }
  }
  print_warnings(warnings);
  if (failed) return kExitError;
  if (parsed.parse_only) return kExitOk;

  CapacityResult result = find_capacity(request);  // prints the lint block itself
  for (Problem& p : warnings) result.final_run.warnings.push_back(std::move(p));
  write_reports(request, result, parsed.run);
  return result.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace sluice
