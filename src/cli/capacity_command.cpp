// sluice capacity: the highest IOPS within a latency limit (method/capacity.h), from the command line.
#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "cli/capacity_mpi.h"
#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "job/command_line.h"
#include "job/job_spec.h"
#include "job/option_table.h"
#include "mpi/world.h"
#include "net/http_capacity.h"
#include "report/reporters.h"
#include "report/result_document.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Finds the highest IOPS the target serves while a latency statistic stays within a limit, by searching the
concurrency (iodepth x numjobs): 1, 2, 4, ... until the limit is exceeded, IOPS drop (thrashing) or stop
growing, then bisection between the last concurrency within the limit and the first above it. Each point
runs until its per-interval IOPS series is steady (SNIA's rule: 5 samples within 20% of their mean, trend
under 10%) or its share of the budget is spent. A slow I/O is a sample, never a reason to stop.
The target is a job option: --filename=F (a file or a device) and --size=S for a new file.
With --target=http --url=URL the points are closed-loop HTTP load (sluice http) and the concurrency is the
number of connections: the highest requests/s whose latency stays within the limit.
)";

constexpr const char* kNotes =
    R"(Defaults differing from sluice run: --direct=1 --ioengine=io_uring --rw=randread --bs=4k; iodepth and
numjobs are what the search varies. The knee is the point of most IOPS per latency (Kleinrock's power, IOPS /
mean latency): where the curve's asymptotes meet, beyond which concurrency adds more latency than IOPS;
thrashing is the first concurrency whose IOPS fall more than 5% below the best at lower concurrency.
Under mpirun every rank runs each point in step and the concurrency is iodepth x numjobs x hosts: the
capacity of the shared storage, with each host's share (docs/multi-host.md).
)";

CommandTable<CapacityArgs> make_table() {
  CommandInfo info = command_info("capacity",
                                  "the highest IOPS within a latency limit (--slo=10ms): searches the concurrency, "
                                  "reports the curve, the knee and the thrashing point",
                                  kDescription);
  info.passes_job_options = true;
  info.notes = kNotes;
  CommandTable<CapacityArgs> t(std::move(info));
  t.add(duration_arg("slo", "10ms", "the latency limit"),
        [](CapacityArgs& a, const OptionValue& v) { a.request.slo = v.duration; });
  OptionInfo stat =
      choice_arg("slo-stat", {"mean", "p50", "p95", "p99", "p99.9"}, "mean", "the latency statistic held to the limit");
  stat.value_name = "STAT";
  t.add(std::move(stat), [](CapacityArgs& a, const OptionValue& v) { a.request.slo_stat = parse_slo_stat(v.text); });
  OptionInfo scale = choice_arg("scale", {"iodepth", "numjobs", "both"}, "iodepth", "what grows");
  scale.value_name = "HOW";
  t.add(std::move(scale), [](CapacityArgs& a, const OptionValue& v) { a.request.scale = parse_scale(v.text); });
  t.add(duration_arg("budget", "120s", "total time for the search"),
        [](CapacityArgs& a, const OptionValue& v) { a.request.budget = v.duration; });
  t.add(
      count_arg("max-concurrency", 1, 65536, "1024", "highest concurrency tried"),
      [](CapacityArgs& a, const OptionValue& v) { a.request.max_concurrency = static_cast<std::uint32_t>(v.number); });
  t.add(list_arg("rw", "A,B", ValueType::kString, "randread",
                 "the workload (fio's rw); several give independent streams side by side (one job each, scaled "
                 "together): --rw=randread,randwrite is a reader and a writer, not randrw"),
        [](CapacityArgs& a, const OptionValue& v) {
          if (v.list.size() == 1) {
            a.job_args.push_back("--rw=" + v.text);  // one workload: an ordinary job option
            return;
          }
          for (const std::string& mode : v.list) {
            JobSpec probe;
            apply_option(probe, "rw", mode, SourcePos{});  // names the option and the valid modes on error
          }
          a.rw_modes = v.list;
        });
  add_output_options(t, &CapacityArgs::output);
  add_history_options(t, &CapacityArgs::history);
  t.add(flag_arg("allow-destructive", "allow writing a block device that carries a signature (as for sluice run)"),
        [](CapacityArgs& a, const OptionValue&) { a.request.allow_destructive = true; });
  t.add(choice_arg<bool>("target", {{"storage", false}, {"http", true}}, "storage",
                         "what is loaded: storage (job options name the file or device) or http (--url)"),
        [](CapacityArgs& a, bool http) { a.http = http; });
  OptionInfo url = text_arg("url", "URL", "", "--target=http: a URL to fetch (http:// only); repeatable");
  url.repeatable = true;
  t.add(std::move(url),
        [](CapacityArgs& a, const OptionValue& v) { a.http_load.urls.push_back(parse_http_url(v.text, "--url")); });
  t.add(text_arg("urls", "FILE", "", "--target=http: a file of URLs, one per line"),
        [](CapacityArgs& a, const OptionValue& v) {
          for (HttpUrl& u : read_url_file(v.text)) a.http_load.urls.push_back(std::move(u));
        });
  t.add(flag_arg("no-keepalive", "--target=http: one connection per request"),
        [](CapacityArgs& a, const OptionValue&) { a.http_load.keepalive = false; });
  t.add(flag_arg("no-status", "no live status line"),
        [](CapacityArgs& a, const OptionValue&) { a.request.status_line = false; });
  t.add(flag_arg("parse-only", "check the options and exit"),
        [](CapacityArgs& a, const OptionValue&) { a.parse_only = true; });
  return t;
}

const CommandTable<CapacityArgs>& table() {
  static const CommandTable<CapacityArgs> kTable = make_table();
  return kTable;
}

// One stream per job given (usually one), times one per --rw=A,B mode.
std::vector<JobSpec> make_streams(const JobCommandLine& parsed, const std::vector<std::string>& rw_modes) {
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
    if (s.target.filenames.empty() && s.target.directory.empty() && engine_traits(s.engine.ioengine).uses_files) {
      throw UserError("capacity needs a target: --filename=FILE (a file or a device) and --size=S for a new file");
    }
  }
  return streams;
}

constexpr std::size_t kDefaultJobArgs = 4;  // parse_capacity_args's defaults

// capacity --target=http: the search over HTTP connections; the document holds "sluice"."capacity".
int http_capacity(CapacityArgs& cli, const std::vector<std::string>& args) {
  if (cli.http_load.urls.empty()) {
    throw UserError("capacity --target=http needs a URL: --url=http://HOST[:PORT]/PATH or --urls=FILE");
  }
  if (cli.job_args.size() > kDefaultJobArgs || !cli.rw_modes.empty()) {
    throw UserError(fmt::format("capacity --target=http: {} is a storage job option; with --target=http give --url",
                                cli.rw_modes.empty() ? cli.job_args[kDefaultJobArgs] : "--rw"));
  }
  CapacityRequest& request = cli.request;
  request.status_line = false;
  request.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  std::string urls;
  for (const HttpUrl& u : cli.http_load.urls) urls += (urls.empty() ? "" : " ") + u.text;
  request.workload = fmt::format(
      "sluice capacity: HTTP {} {}, keep-alive {}; IOPS = responses/s, concurrency = "
      "connections (closed loop), lat = request start to the last response byte",
      cli.http_load.method, urls, cli.http_load.keepalive ? "on" : "off");
  install_stop_signal_handlers();
  return run_measured({"capacity", args, ""}, cli.history, cli.output, [&](bool) {
    const std::uint64_t started_ms = wall_clock_ms();
    const CapacityResult result = find_http_capacity(request, cli.http_load);
    const nlohmann::json doc = result_document(ResultEnvelope{"capacity", started_ms, "", clock_source_name()},
                                               {{"jobs", nlohmann::json::array()}},
                                               {{"target", "http"},
                                                {"urls", urls},
                                                {"interrupted", result.interrupted},
                                                {"capacity", capacity_json(request, result)}});
    return Measurement{render_capacity_table(request, result), doc.dump(2) + "\n",
                       result.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace

const CommandInfo& capacity_command_info() { return table().info(); }

CapacityArgs parse_capacity_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  CapacityArgs out;
  out.job_args = {"--direct=1", "--ioengine=io_uring", "--rw=randread", "--bs=4k"};
  table().apply(parsed, out, &out.job_args);
  return out;
}

int capacity_command(const std::vector<std::string>& args) {
  CapacityArgs cli = parse_capacity_args(args);
  if (cli.http) return http_capacity(cli, args);
  if (!cli.http_load.urls.empty()) throw UserError("--url is for --target=http; add --target=http");
  const JobCommandLine parsed = parse_job_command_line(cli.job_args);
  CapacityRequest& request = cli.request;
  request.streams = make_streams(parsed, cli.rw_modes);
  request.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };

  std::vector<Problem> warnings;
  if (!check_jobs(request.streams, warnings, cli.parse_only ? WarningSink::kStderr : WarningSink::kReport)) {
    return kExitError;
  }
  if (cli.parse_only) return kExitOk;

  if (mpi::active() && mpi::rank() != 0) return follow_capacity(request);
  std::optional<CapacityLeader> leader;  // under MPI: the search runs every segment on all ranks
  if (mpi::active()) leader.emplace(request);
  return run_measured({"capacity", args, ""}, cli.history, cli.output, [&](bool json_plus) {
    if (leader) leader->start_search();
    CapacityResult result = find_capacity(request);
    for (const Problem& p : warnings) result.final_run.warnings.push_back(p);
    std::string text = render_capacity_table(request, result);
    if (leader) {
      text += leader->render_text(result);
      leader->add_to_document(result);
    }
    return Measurement{std::move(text), render_json_text(result.final_run, json_plus),
                       result.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace sluice
