// fio's job-control, steady-state, histogram-log and reporting-detail options: wait_for, exitall, flow,
// max_latency, latency_target (window, percentile, run), serialize_overlap, rate_min, percentage_random,
// filename_format, offset_increment, unified_rw_reporting, disable_*lat, random_generator, write_hist_log,
// log_hist_msec, log_hist_coarseness, per_job_logs, steadystate (ss).
#include <charconv>
#include <cmath>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

using std::chrono::microseconds;
using std::chrono::seconds;

constexpr const char* kDefaultFilenameFormat = "$jobname.$jobnum.$filenum";

void set_category(std::vector<OptionDef>& table, std::size_t first, const char* category) {
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = category;
}

void add_dependencies(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {string_option(
           "wait_for", &JobControlOptions::wait_for, "",
           {.help = "Start this job only when every clone of the named earlier job of the same group has finished "
                    "(fio: the waitee must be defined before the waiter).",
            .reason = "the job starts with its group"}),
       bool_option("exitall", &JobControlOptions::exitall, "0",
                   {.help = "When this job ends, stop every other job of its group (they keep what they measured)."}),
       i32_option("flow", &JobControlOptions::flow, -1'000'000, 1'000'000, "0",
                  {.help = "Weight in fio's token-based flow control: jobs with the same flow_id complete ios in the "
                           "ratio of their |flow| weights; a job ahead of its share sleeps flow_sleep microseconds "
                           "(default 1000 in sluice). 0: not regulated."}),
       u32_option("flow_id", &JobControlOptions::flow_id, 0, UINT32_MAX, "0",
                  {.help = "Flow-control group of this job (jobs with the same flow_id regulate each other)."}),
       // Without a field: sluice runs one group at a time, so fio's three scopes stop the same jobs.
       {
           .name = "exit_what",
           .type = OptionType::kChoice,
           .default_text = "group",
           .range = "group|stonewall|all",
           .help =
               "What exitall stops. sluice runs one group at a time, so group, stonewall and all stop the same jobs: "
               "the running group's.",
           .apply =
               [](JobSpec&, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"group", "stonewall", "all"};
                 choice_value("exit_what", value, where, kChoices);
               },
       },
       // fio parses its tiobench profile's options in every job; without profile=tiobench they do nothing.
       {
           .name = "threads",
           .type = OptionType::kUnsigned,
           .default_text = "1",
           .help =
               "Option of fio's tiobench profile (given on the command line with --profile=tiobench, where it sets the "
               "profile's numjobs); in a job it is accepted and ignored, as fio does. For threads instead of processes "
               "see 'thread'.",
           .apply = [](JobSpec&, std::string_view value,
                       const SourcePos& where) { unsigned_value("threads", value, where, 0, UINT32_MAX); },
       },
       // fio keeps profile= of a job file and does nothing with it: a profile runs from the command line only.
       {
           .name = "profile",
           .type = OptionType::kChoice,
           .range = "tiobench|act",
           .help =
               "fio's built-in job sets run from the command line: sluice run --profile=tiobench [--size=MiB "
               "--block=BYTES --numruns=N --dir=DIR --threads=N]. In a job file, as in fio, the option is accepted and "
               "does nothing (validation says so).",
           .reason = "no profile",
           .apply =
               [](JobSpec&, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"tiobench", "act"};
                 choice_value("profile", value, where, kChoices);
               },
       },
       {
           .name = "flow_sleep",
           .type = OptionType::kUnsigned,
           .default_text = "1000",
           .unit = "microseconds",
           .help = "How long a job ahead of its flow share sleeps before checking again.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.control.flow_sleep =
                     std::chrono::microseconds(unsigned_value("flow_sleep", value, where, 0, 10'000'000));
               },
       }});
}

void add_limits(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {duration_option(
           "max_latency", &LatencyOptions::max_latency, microseconds(1), "0",
           {.help =
                "Stop the job with error ETIMEDOUT (110) when one io's total latency (lat) exceeds this (bare number "
                "in microseconds); 0: no limit."}),
       bool_option(
           "serialize_overlap", &QueueOptions::serialize_overlap, "0",
           {.help = "An io that shares bytes with an io in flight waits until that one completes, as fio's "
                    "serialize_overlap: two overlapping writes in flight may land in either order, which verification "
                    "would report as lost or torn writes. Costs a scan of the queue per io."}),
       // fio's latency_target family (io_u.c lat_target_*); run/latency_target.h has the search.
       duration_option(
           "latency_target", &LatencyOptions::latency_target, microseconds(1), "0",
           {.help =
                "fio's latency-bounded depth search: start at depth 1 and find the largest iodepth at which "
                "latency_percentile percent of ios complete within this total latency over each latency_window (bare "
                "number in microseconds); the JSON's latency_depth is the depth found. `sluice capacity` is the better "
                "method (an open-loop search of the offered rate with confidence intervals). 0: off."}),
       duration_option(
           "latency_window", &LatencyOptions::latency_window, microseconds(1), "0",
           {.help = "latency_target: how long each depth is tried before it is judged (bare number in microseconds)."}),
       {
           .name = "latency_percentile",
           .type = OptionType::kPercent,
           .default_text = "100",
           .unit = "percent",
           .range = "0-100",
           .help = "latency_target: the share of a window's ios that must stay within the target. 100: one io over it "
                   "lowers the depth at once (and at depth 1 fails the job, as fio).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 double p = 0;
                 const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), p);
                 if (ec != std::errc() || end != value.data() + value.size() || p < 0.0 || p > 100.0) {
                   value_error(where, "latency_percentile", value, "a percentage from 0 to 100 (e.g. 99.9)");
                 }
                 job.latency.latency_percentile = p;
               },
       },
       bool_option(
           "latency_run", &LatencyOptions::latency_run, "0",
           {.help = "latency_target: keep adjusting the depth until the job's size or runtime ends it, instead of "
                    "ending the job once the depth is found."}),
       {
           .name = "rate_min",
           .aliases = {"ratemin"},
           .type = OptionType::kSizeList,
           .default_text = "0",
           .unit = "bytes/s",
           .range = "read[,write[,trim]]",
           .help = "Fail the job (error EIO, as fio) when its bandwidth over a rate_cycle window (1000 ms) drops below "
                   "this; per direction like bs; 0: no check.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.pacing.rate_min, "rate_min", value, where, [&](std::string_view part) {
                   return size_part("rate_min", part, value, where, job.report.kb_base);
                 });
               },
       },
       {
           .name = "rate_iops_min",
           .type = OptionType::kSizeList,
           .default_text = "0",
           .unit = "ios/s",
           .range = "read[,write[,trim]]",
           .help =
               "Fail the job (error EIO) when its ios per second over a rate_cycle window (1000 ms) drop below this.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.pacing.rate_iops_min, "rate_iops_min", value, where,
                                     [&](std::string_view part) {
                                       return unsigned_value("rate_iops_min", part, where, 0, UINT64_MAX);
                                     });
               },
       },
       duration_option(
           "rate_cycle", &PacingOptions::rate_cycle, std::chrono::milliseconds(1), "1000",
           {.aliases = {"ratecycle"},
            .help =
                "The window rate_min and rate_iops_min are averaged over (a bare number is milliseconds, as fio)."})});
}

void add_workload_details(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "percentage_random",
           .type = OptionType::kPercent,
           .default_text = "100",
           .unit = "percent",
           .range = "0-100",
           .help = "Random modes: share of ios at a new random offset; the others continue sequentially after the "
                   "previous io. One value for all directions (fio's per-direction list must repeat one value).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 PerDirection<std::uint64_t> parts = {job.workload.percentage_random, job.workload.percentage_random,
                                                      job.workload.percentage_random};
                 apply_per_direction(parts, "percentage_random", value, where, [&](std::string_view part) {
                   return unsigned_value("percentage_random", part, where, 0, 100);
                 });
                 if (parts[0] != parts[1] || parts[1] != parts[2]) {
                   value_error(where, "percentage_random", value,
                               "different percentages per direction are not supported");
                 }
                 job.workload.percentage_random = static_cast<std::uint32_t>(parts[0]);
               },
       },
       {
           .name = "random_generator",
           .type = OptionType::kChoice,
           .default_text = "tausworthe",
           .range = "tausworthe|lfsr|tausworthe64",
           .help = "How uniform random offsets are drawn. tausworthe, tausworthe64: sluice's xoshiro256** (seeded by "
                   "splitmix64), with a coverage map unless norandommap. lfsr: as fio, a full-period linear feedback "
                   "shift register over the blocks (size / smallest block size), so every block is touched exactly "
                   "once per pass in a scrambled order, norandommap or not, with no map to keep.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"tausworthe", "lfsr", "tausworthe64"};
                 job.workload.lfsr_offsets = choice_value("random_generator", value, where, kChoices) == 1;
               },
           .given_flag = &JobSpec::GivenOptions::random_generator,
       },
       {
           .name = "clocksource",
           .type = OptionType::kChoice,
           .default_text = "cpu",
           .range = "gettimeofday|clock_gettime|cpu",
           .help =
               "The clock of the whole run (the last job that sets it wins, as in fio). clock_gettime and "
               "gettimeofday: clock_gettime(CLOCK_MONOTONIC), never a wall clock that can step. cpu: the TSC "
               "calibrated against it, sluice's default where the CPU has an invariant TSC; without one sluice says so "
               "and uses CLOCK_MONOTONIC. Results name the clock (clock_source).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"gettimeofday", "clock_gettime", "cpu"};
                 job.report.clocksource = kChoices[choice_value("clocksource", value, where, kChoices)];
               },
       },
       {
           .name = "filename_format",
           .type = OptionType::kString,
           .default_text = kDefaultFilenameFormat,
           .help =
               "Names of the files a job creates when no filename is given: $jobname, $jobnum (clone number from 0) "
               "and $filenum (file number from 0) are replaced; $clientuid (the server's address) only in jobs a "
               "client sends to a sluice server.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 if (value.find("$clientuid") != std::string_view::npos) {
                   value_error(where, "filename_format", value,
                               "$clientuid (the server's address in fio's client/server mode) is not supported by "
                               "sluice in a local run: it is replaced only in jobs a client sends to a sluice "
                               "server (sluice --server)");
                 }
                 // fio's default names are sluice's own: keeping the field empty says "no custom format".
                 job.target.filename_format = value == kDefaultFilenameFormat ? std::string() : std::string(value);
               },
       },
       accept_zone_counts(
           size_option("offset_increment", &TargetOptions::offset_increment, "0",
                       {.help = "Clone N of a job (numjobs) starts at offset + N * offset_increment."}))});
}

void add_reporting(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "unified_rw_reporting",
           .type = OptionType::kChoice,
           .default_text = "none",
           .range = "none|0|mixed|1|both|2",
           .help =
               "Report reads, writes and trims together as fio's \"mixed\" direction (mixed/1), or per direction and "
               "mixed (both/2).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "0", "mixed", "1", "both", "2"};
                 job.report.unified_rw_reporting = choice_value("unified_rw_reporting", value, where, kChoices) >= 2;
               },
       },
       u32_option("significant_figures", &ReportOptions::significant_figures, 1, 10, "4",
                  {.help = "Digits of IOPS, bandwidth and sizes in the normal output (fio's num2str width; the decimal "
                           "point counts). A group's status lines use its first job's."}),
       {
           .name = "unit_base",
           .type = OptionType::kChoice,
           .default_text = "0",
           .range = "0|8|1",
           .help =
               "Bandwidths of the normal output in bytes (0: automatic, 8) or bits (1: Mibit/s, Mbit/s); sizes stay in "
               "bytes, JSON and terse output are not affected (as fio).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"0", "8", "1"};
                 job.report.unit_base_bits = choice_value("unit_base", value, where, kChoices) == 2;
               },
       },
       {
           .name = "gtod_reduce",
           .type = OptionType::kBool,
           .default_text = "0",
           .help = "fio's shorthand for disable_lat, disable_clat, disable_slat and disable_bw (latency statistics "
                   "reported as zero, no latency logs, no per-io bandwidth or iops log lines); sluice keeps its clock, "
                   "which costs it little, and the bandwidth samples of the report.",
           .flag = true,
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 const bool on = value.empty() || bool_value("gtod_reduce", value, where);
                 job.report.disable_lat = job.report.disable_clat = job.report.disable_slat = job.report.disable_bw =
                     on;
               },
       },
       bool_option("disable_lat", &ReportOptions::disable_lat, "0",
                   {.help = "Do not report total latency (lat): its statistics are zero and write_lat_log writes no "
                            "lat log, as fio's."}),
       bool_option(
           "disable_clat", &ReportOptions::disable_clat, "0",
           {.help = "Do not report completion latency (clat) nor its percentiles: zero, and no clat log, as fio's."}),
       bool_option("disable_slat", &ReportOptions::disable_slat, "0",
                   {.help = "Do not report submission latency (slat): zero, and no slat log, as fio's."}),
       bool_option(
           "disable_bw_measurement", &ReportOptions::disable_bw, "0",
           {.aliases = {"disable_bw"},
            .help =
                "No per-io lines in the bandwidth log (write_bw_log with log_avg_msec=0), as fio 3.33; the report's "
                "bandwidth and its samples, and averaged log windows, stay."})});
}

void add_logs(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "write_hist_log",
           .type = OptionType::kString,
           .help =
               "Write fio's completion-latency histogram log to PREFIX_clat_hist.N.log: per log_hist_msec window and "
               "direction 'msec, ddir, bs, ' then fio's 1856 bins (ns); fiologparser_hist.py reads it. Without a value "
               "the prefix is the job name.",
           .flag = true,
           .reason = "no log is written unless asked for",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos&) {
                 job.logs.write_hist_log =
                     value.empty() ? (job.name.empty() ? std::string("sluice") : job.name) : std::string(value);
               },
       },
       u32_option(
           "log_hist_msec", &LogOptions::log_hist_msec, 0, UINT32_MAX, "0",
           {.unit = "milliseconds",
            .help = "Window of the histogram log. 0: one entry per direction for the whole run (fio writes none)."}),
       u32_option(
           "log_hist_coarseness", &LogOptions::log_hist_coarseness, 0, 6, "0",
           {.unit = "",
            .help =
                "Histogram log resolution: each value sums 2^N neighbouring bins, so a line has 1856 >> N bins (1856, "
                "928, ..., 29), as fio writes them."}),
       bool_option(
           "per_job_logs", &LogOptions::per_job_logs, "1",
           {.help = "0: all jobs write one shared file per log kind, named PREFIX_KIND.log without the job number."})});
}

SteadyStateCriterion criterion_of(std::string_view name) {
  if (name == "iops") return SteadyStateCriterion::kIops;
  if (name == "iops_slope") return SteadyStateCriterion::kIopsSlope;
  if (name == "bw") return SteadyStateCriterion::kBw;
  if (name == "bw_slope") return SteadyStateCriterion::kBwSlope;
  if (name == "lat") return SteadyStateCriterion::kLat;
  if (name == "lat_slope") return SteadyStateCriterion::kLatSlope;
  return SteadyStateCriterion::kNone;
}

// fio's "ss=CRITERION:LIMIT[%]": iops|iops_slope|bw|bw_slope|lat|lat_slope; a bw limit may carry a size
// suffix, a lat limit is a time (a bare number in nanoseconds, fio 3.42's unit for it).
void apply_steadystate(JobSpec& job, std::string_view value, const SourcePos& where) {
  if (value == "none") {
    job.steady_state.ss_criterion = SteadyStateCriterion::kNone;
    return;
  }
  const std::size_t colon = value.find(':');
  const std::string_view name = value.substr(0, colon);
  const SteadyStateCriterion criterion = criterion_of(name);
  if (criterion == SteadyStateCriterion::kNone || colon == std::string_view::npos) {
    value_error(where, "steadystate", value,
                "use iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%], e.g. iops:10% or lat:50us");
  }
  std::string_view limit = value.substr(colon + 1);
  const bool percent = !limit.empty() && limit.back() == '%';
  if (percent) limit.remove_suffix(1);
  const bool lat = criterion == SteadyStateCriterion::kLat || criterion == SteadyStateCriterion::kLatSlope;
  std::optional<double> number = parse_double(limit);
  if (!number && !percent && (criterion == SteadyStateCriterion::kBw || criterion == SteadyStateCriterion::kBwSlope)) {
    number = static_cast<double>(size_value("steadystate", limit, where, job.report.kb_base));
  }
  if (!number && !percent && lat) {
    const std::optional<std::chrono::nanoseconds> time = parse_duration(limit, std::chrono::nanoseconds(1));
    if (!time) {
      value_error(where, "steadystate", value,
                  "a latency limit is a time: a bare number in nanoseconds or with a unit (500, 50us, 2ms), or a %");
    }
    number = static_cast<double>(time->count());
  }
  if (!number || *number < 0.0 || !std::isfinite(*number)) {
    value_error(where, "steadystate", value, "the limit must be a number >= 0, optionally with %");
  }
  job.steady_state.ss_criterion = criterion;
  job.steady_state.ss_limit = *number;
  job.steady_state.ss_limit_is_percent = percent;
}

void add_steady_state_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  table.insert(
      table.end(),
      {{
           .name = "steadystate",
           .aliases = {"ss"},
           .type = OptionType::kCustom,
           .default_text = "none",
           .range = "none|iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%]",
           .help =
               "End the job early once it is steady over the last ss_dur: iops/bw/lat: every sample within LIMIT of "
               "the mean (LIMIT% of the mean); *_slope: the least-squares slope (per second) within LIMIT (LIMIT% of "
               "the mean). lat samples the mean completion latency of each ss_interval; its LIMIT is a time, a bare "
               "number in nanoseconds (lat:50us, lat_slope:1%). The job's JSON gets fio's \"steadystate\" block.",
           .apply = apply_steadystate,
       },
       duration_option("steadystate_duration", &SteadyStateOptions::ss_duration, seconds(1), "0",
                       {.aliases = {"ss_dur"},
                        .help = "Length of the steady-state window (bare number in seconds); 0 disables the check."}),
       duration_option(
           "steadystate_ramp_time", &SteadyStateOptions::ss_ramp, seconds(1), "0",
           {.aliases = {"ss_ramp"},
            .help = "Collect no steady-state samples during this first part of the job (bare number in seconds)."}),
       duration_option(
           "steadystate_check_interval", &SteadyStateOptions::ss_interval, seconds(1), "1",
           {.aliases = {"ss_interval"},
            .help = "Steady-state sampling step (bare number in seconds; newer fio's option, 3.33 always uses 1 s). "
                    "ss_dur must be a multiple of it."})});
  set_category(table, first, "steady state");
}

}  // namespace

void add_fio_control_options(std::vector<OptionDef>& table) {
  std::size_t first = table.size();
  add_dependencies(table);
  add_limits(table);
  set_category(table, first, "job control");
  first = table.size();
  add_workload_details(table);
  set_category(table, first, "workload");
  first = table.size();
  add_reporting(table);
  add_logs(table);
  set_category(table, first, "report");
  add_steady_state_options(table);
}

}  // namespace sluice::detail
