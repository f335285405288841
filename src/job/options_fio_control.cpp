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
  OptionDef wait_for = string_option("wait_for", &JobSpec::wait_for, "");
  wait_for.help =
      "Start this job only when every clone of the named earlier job of the same group has finished "
      "(fio: the waitee must be defined before the waiter).";
  wait_for.reason = "the job starts with its group";
  table.push_back(std::move(wait_for));

  OptionDef exitall = bool_option("exitall", &JobSpec::exitall, "0");
  exitall.help = "When this job ends, stop every other job of its group (they keep what they measured).";
  table.push_back(std::move(exitall));

  OptionDef flow;
  flow.name = "flow";
  flow.type = OptionType::kUnsigned;
  flow.default_text = "0";
  flow.range = "-1000000..1000000";
  flow.help =
      "Weight in fio's token-based flow control: jobs with the same flow_id complete ios in the ratio of "
      "their |flow| weights; a job ahead of its share sleeps flow_sleep microseconds (default 1000 in "
      "sluice). 0: not regulated.";
  flow.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    const bool negative = !value.empty() && value.front() == '-';
    const auto magnitude = unsigned_value("flow", negative ? value.substr(1) : value, where, 0, 1'000'000);
    job.flow = static_cast<std::int32_t>(negative ? -static_cast<std::int64_t>(magnitude)
                                                  : static_cast<std::int64_t>(magnitude));
  };
  table.push_back(std::move(flow));

  OptionDef flow_id = u32_option("flow_id", &JobSpec::flow_id, 0, UINT32_MAX, "0");
  flow_id.help = "Flow-control group of this job (jobs with the same flow_id regulate each other).";
  table.push_back(std::move(flow_id));

  // Without a field: sluice runs one group at a time, so fio's three scopes stop the same jobs.
  OptionDef exit_what;
  exit_what.name = "exit_what";
  exit_what.type = OptionType::kChoice;
  exit_what.default_text = "group";
  exit_what.range = "group|stonewall|all";
  exit_what.help =
      "What exitall stops. sluice runs one group at a time, so group, stonewall and all stop the same jobs: "
      "the running group's.";
  exit_what.apply = [](JobSpec&, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"group", "stonewall", "all"};
    choice_value("exit_what", value, where, kChoices);
  };
  table.push_back(std::move(exit_what));

  // fio parses its tiobench profile's options in every job; without profile=tiobench they do nothing.
  OptionDef threads;
  threads.name = "threads";
  threads.type = OptionType::kUnsigned;
  threads.default_text = "1";
  threads.help =
      "Option of fio's tiobench profile (given on the command line with --profile=tiobench, where it sets the "
      "profile's numjobs); in a job it is accepted and ignored, as fio does. For threads instead of processes "
      "see 'thread'.";
  threads.apply = [](JobSpec&, std::string_view value, const SourcePos& where) {
    unsigned_value("threads", value, where, 0, UINT32_MAX);
  };
  table.push_back(std::move(threads));

  // fio keeps profile= of a job file and does nothing with it: a profile runs from the command line only.
  OptionDef profile;
  profile.name = "profile";
  profile.type = OptionType::kChoice;
  profile.range = "tiobench|act";
  profile.reason = "no profile";
  profile.help =
      "fio's built-in job sets run from the command line: sluice run --profile=tiobench [--size=MiB --block=BYTES "
      "--numruns=N --dir=DIR --threads=N]. In a job file, as in fio, the option is accepted and does nothing "
      "(validation says so).";
  profile.apply = [](JobSpec&, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"tiobench", "act"};
    choice_value("profile", value, where, kChoices);
  };
  table.push_back(std::move(profile));

  // No JobSpec field: the value stays in given_options, where the flow controller reads it.
  OptionDef flow_sleep;
  flow_sleep.name = "flow_sleep";
  flow_sleep.type = OptionType::kUnsigned;
  flow_sleep.default_text = "1000";
  flow_sleep.unit = "microseconds";
  flow_sleep.help = "How long a job ahead of its flow share sleeps before checking again.";
  flow_sleep.apply = [](JobSpec&, std::string_view value, const SourcePos& where) {
    unsigned_value("flow_sleep", value, where, 0, 10'000'000);
  };
  table.push_back(std::move(flow_sleep));
}

void add_limits(std::vector<OptionDef>& table) {
  OptionDef max_latency = duration_option("max_latency", &JobSpec::max_latency, microseconds(1), "0");
  max_latency.help =
      "Stop the job with error ETIMEDOUT (110) when one io's total latency (lat) exceeds this (bare number "
      "in microseconds); 0: no limit.";
  table.push_back(std::move(max_latency));

  OptionDef serialize = bool_option("serialize_overlap", &JobSpec::serialize_overlap, "0");
  serialize.help =
      "An io that shares bytes with an io in flight waits until that one completes, as fio's serialize_overlap: "
      "two overlapping writes in flight may land in either order, which verification would report as lost or "
      "torn writes. Costs a scan of the queue per io.";
  table.push_back(std::move(serialize));

  // fio's latency_target family (io_u.c lat_target_*); run/latency_target.h has the search.
  OptionDef target = duration_option("latency_target", &JobSpec::latency_target, microseconds(1), "0");
  target.help =
      "fio's latency-bounded depth search: start at depth 1 and find the largest iodepth at which "
      "latency_percentile percent of ios complete within this total latency over each latency_window (bare "
      "number in microseconds); the JSON's latency_depth is the depth found. `sluice capacity` is the better "
      "method (an open-loop search of the offered rate with confidence intervals). 0: off.";
  table.push_back(std::move(target));

  OptionDef window = duration_option("latency_window", &JobSpec::latency_window, microseconds(1), "0");
  window.help = "latency_target: how long each depth is tried before it is judged (bare number in microseconds).";
  table.push_back(std::move(window));

  OptionDef percentile;
  percentile.name = "latency_percentile";
  percentile.type = OptionType::kPercent;
  percentile.default_text = "100";
  percentile.unit = "percent";
  percentile.range = "0-100";
  percentile.help =
      "latency_target: the share of a window's ios that must stay within the target. 100: one io over it lowers "
      "the depth at once (and at depth 1 fails the job, as fio).";
  percentile.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    double p = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), p);
    if (ec != std::errc() || end != value.data() + value.size() || p < 0.0 || p > 100.0) {
      value_error(where, "latency_percentile", value, "a percentage from 0 to 100 (e.g. 99.9)");
    }
    job.latency_percentile = p;
  };
  table.push_back(std::move(percentile));

  OptionDef keep = bool_option("latency_run", &JobSpec::latency_run, "0");
  keep.help = "latency_target: keep adjusting the depth until the job's size or runtime ends it, instead of "
              "ending the job once the depth is found.";
  table.push_back(std::move(keep));

  OptionDef rate_min;
  rate_min.name = "rate_min";
  rate_min.aliases = {"ratemin"};
  rate_min.type = OptionType::kSizeList;
  rate_min.default_text = "0";
  rate_min.unit = "bytes/s";
  rate_min.range = "read[,write[,trim]]";
  rate_min.help =
      "Fail the job (error EIO, as fio) when its bandwidth over a rate_cycle window (1000 ms) drops below this; "
      "per direction like bs; 0: no check.";
  rate_min.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    apply_per_direction(job.rate_min, "rate_min", value, where,
                        [&](std::string_view part) { return size_part("rate_min", part, value, where, job.kb_base); });
  };
  table.push_back(std::move(rate_min));

  OptionDef rate_iops_min;
  rate_iops_min.name = "rate_iops_min";
  rate_iops_min.type = OptionType::kSizeList;
  rate_iops_min.default_text = "0";
  rate_iops_min.unit = "ios/s";
  rate_iops_min.range = "read[,write[,trim]]";
  rate_iops_min.help =
      "Fail the job (error EIO) when its ios per second over a rate_cycle window (1000 ms) drop below this.";
  rate_iops_min.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    apply_per_direction(job.rate_iops_min, "rate_iops_min", value, where, [&](std::string_view part) {
      return unsigned_value("rate_iops_min", part, where, 0, UINT64_MAX);
    });
  };
  table.push_back(std::move(rate_iops_min));

  OptionDef cycle = duration_option("rate_cycle", &JobSpec::rate_cycle, std::chrono::milliseconds(1), "1000");
  cycle.aliases = {"ratecycle"};
  cycle.help = "The window rate_min and rate_iops_min are averaged over (a bare number is milliseconds, as fio).";
  table.push_back(std::move(cycle));
}

void add_workload_details(std::vector<OptionDef>& table) {
  OptionDef percentage_random;
  percentage_random.name = "percentage_random";
  percentage_random.type = OptionType::kPercent;
  percentage_random.default_text = "100";
  percentage_random.unit = "percent";
  percentage_random.range = "0-100";
  percentage_random.help =
      "Random modes: share of ios at a new random offset; the others continue sequentially after the "
      "previous io. One value for all directions (fio's per-direction list must repeat one value).";
  percentage_random.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    PerDirection<std::uint64_t> parts = {job.percentage_random, job.percentage_random, job.percentage_random};
    apply_per_direction(parts, "percentage_random", value, where,
                        [&](std::string_view part) { return unsigned_value("percentage_random", part, where, 0, 100); });
    if (parts[0] != parts[1] || parts[1] != parts[2]) {
      value_error(where, "percentage_random", value, "different percentages per direction are not supported");
    }
    job.percentage_random = static_cast<std::uint32_t>(parts[0]);
  };
  table.push_back(std::move(percentage_random));

  OptionDef generator;
  generator.name = "random_generator";
  generator.type = OptionType::kChoice;
  generator.default_text = "tausworthe";
  generator.range = "tausworthe|lfsr|tausworthe64";
  generator.help =
      "Accepted for compatibility: sluice always draws offsets with xoshiro256** (seeded by splitmix64) and "
      "keeps a coverage map unless norandommap, so every block is touched once per pass as with fio's lfsr.";
  generator.apply = [](JobSpec&, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"tausworthe", "lfsr", "tausworthe64"};
    choice_value("random_generator", value, where, kChoices);
  };
  table.push_back(std::move(generator));

  OptionDef clock;
  clock.name = "clocksource";
  clock.type = OptionType::kChoice;
  clock.default_text = "cpu";
  clock.range = "gettimeofday|clock_gettime|cpu";
  clock.help =
      "The clock of the whole run (the last job that sets it wins, as in fio). clock_gettime and gettimeofday: "
      "clock_gettime(CLOCK_MONOTONIC), never a wall clock that can step. cpu: the TSC calibrated against it, "
      "sluice's default where the CPU has an invariant TSC; without one sluice says so and uses "
      "CLOCK_MONOTONIC. Results name the clock (clock_source).";
  clock.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"gettimeofday", "clock_gettime", "cpu"};
    job.clocksource = kChoices[choice_value("clocksource", value, where, kChoices)];
  };
  table.push_back(std::move(clock));

  OptionDef format = string_option("filename_format", &JobSpec::filename_format, kDefaultFilenameFormat);
  format.help =
      "Names of the files a job creates when no filename is given: $jobname, $jobnum (clone number from 0) "
      "and $filenum (file number from 0) are replaced; $clientuid is not supported.";
  format.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    if (value.find("$clientuid") != std::string_view::npos) {
      value_error(where, "filename_format", value, "$clientuid is not supported by sluice (it has no client/server mode)");
    }
    // fio's default names are sluice's own: keeping the field empty says "no custom format".
    job.filename_format = value == kDefaultFilenameFormat ? std::string() : std::string(value);
  };
  table.push_back(std::move(format));

  OptionDef increment = size_option("offset_increment", &JobSpec::offset_increment, "0");
  increment.help = "Clone N of a job (numjobs) starts at offset + N * offset_increment.";
  accept_zone_counts(increment);
  table.push_back(std::move(increment));
}

void add_reporting(std::vector<OptionDef>& table) {
  OptionDef unified;
  unified.name = "unified_rw_reporting";
  unified.type = OptionType::kChoice;
  unified.default_text = "none";
  unified.range = "none|0|mixed|1|both|2";
  unified.help =
      "Report reads, writes and trims together as fio's \"mixed\" direction (mixed/1), or per direction and "
      "mixed (both/2).";
  unified.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"none", "0", "mixed", "1", "both", "2"};
    job.unified_rw_reporting = choice_value("unified_rw_reporting", value, where, kChoices) >= 2;
  };
  table.push_back(std::move(unified));

  OptionDef figures = u32_option("significant_figures", &JobSpec::significant_figures, 1, 10, "4");
  figures.help =
      "Digits of IOPS, bandwidth and sizes in the normal output (fio's num2str width; the decimal point counts). "
      "A group's status lines use its first job's.";
  table.push_back(std::move(figures));

  OptionDef unit_base;
  unit_base.name = "unit_base";
  unit_base.type = OptionType::kChoice;
  unit_base.default_text = "0";
  unit_base.range = "0|8|1";
  unit_base.help =
      "Bandwidths of the normal output in bytes (0: automatic, 8) or bits (1: Mibit/s, Mbit/s); sizes stay in "
      "bytes, JSON and terse output are not affected (as fio).";
  unit_base.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"0", "8", "1"};
    job.unit_base_bits = choice_value("unit_base", value, where, kChoices) == 2;
  };
  table.push_back(std::move(unit_base));

  OptionDef gtod;
  gtod.name = "gtod_reduce";
  gtod.type = OptionType::kBool;
  gtod.flag = true;
  gtod.default_text = "0";
  gtod.help =
      "fio's shorthand for disable_lat, disable_clat, disable_slat and disable_bw (latency statistics reported "
      "as zero, no latency logs, no per-io bandwidth or iops log lines); sluice keeps its clock, which costs it "
      "little, and the bandwidth samples of the report.";
  gtod.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    const bool on = value.empty() || bool_value("gtod_reduce", value, where);
    job.disable_lat = job.disable_clat = job.disable_slat = job.disable_bw = on;
  };
  table.push_back(std::move(gtod));

  OptionDef disable_lat = bool_option("disable_lat", &JobSpec::disable_lat, "0");
  disable_lat.help =
      "Do not report total latency (lat): its statistics are zero and write_lat_log writes no lat log, as fio's.";
  table.push_back(std::move(disable_lat));
  OptionDef disable_clat = bool_option("disable_clat", &JobSpec::disable_clat, "0");
  disable_clat.help = "Do not report completion latency (clat) nor its percentiles: zero, and no clat log, as fio's.";
  table.push_back(std::move(disable_clat));
  OptionDef disable_slat = bool_option("disable_slat", &JobSpec::disable_slat, "0");
  disable_slat.help = "Do not report submission latency (slat): zero, and no slat log, as fio's.";
  table.push_back(std::move(disable_slat));
  OptionDef disable_bw = bool_option("disable_bw_measurement", &JobSpec::disable_bw, "0");
  disable_bw.aliases = {"disable_bw"};
  disable_bw.help =
      "No per-io lines in the bandwidth log (write_bw_log with log_avg_msec=0), as fio 3.33; the report's "
      "bandwidth and its samples, and averaged log windows, stay.";
  table.push_back(std::move(disable_bw));
}

void add_logs(std::vector<OptionDef>& table) {
  OptionDef hist;
  hist.name = "write_hist_log";
  hist.type = OptionType::kString;
  hist.flag = true;
  hist.help =
      "Write fio's completion-latency histogram log to PREFIX_clat_hist.N.log: per log_hist_msec window and "
      "direction 'msec, ddir, bs, ' then fio's 1856 bins (ns); fiologparser_hist.py reads it. Without a "
      "value the prefix is the job name.";
  hist.reason = "no log is written unless asked for";
  hist.apply = [](JobSpec& job, std::string_view value, const SourcePos&) {
    job.write_hist_log = value.empty() ? (job.name.empty() ? std::string("sluice") : job.name) : std::string(value);
  };
  table.push_back(std::move(hist));

  OptionDef hist_msec = u32_option("log_hist_msec", &JobSpec::log_hist_msec, 0, UINT32_MAX, "0", "milliseconds");
  hist_msec.help =
      "Window of the histogram log. 0: one entry per direction for the whole run (fio writes none).";
  table.push_back(std::move(hist_msec));

  OptionDef coarseness = u32_option("log_hist_coarseness", &JobSpec::log_hist_coarseness, 0, 6, "0", "");
  coarseness.help =
      "Histogram log resolution: each value sums 2^N neighbouring bins, so a line has 1856 >> N bins (1856, "
      "928, ..., 29), as fio writes them.";
  table.push_back(std::move(coarseness));

  OptionDef per_job = bool_option("per_job_logs", &JobSpec::per_job_logs, "1");
  per_job.help = "0: all jobs write one shared file per log kind, named PREFIX_KIND.log without the job number.";
  table.push_back(std::move(per_job));
}

SteadyStateCriterion criterion_of(std::string_view name) {
  if (name == "iops") return SteadyStateCriterion::kIops;
  if (name == "iops_slope") return SteadyStateCriterion::kIopsSlope;
  if (name == "bw") return SteadyStateCriterion::kBw;
  if (name == "bw_slope") return SteadyStateCriterion::kBwSlope;
  return SteadyStateCriterion::kNone;
}

// fio's "ss=CRITERION:LIMIT[%]": iops|iops_slope|bw|bw_slope; a bw limit may carry a size suffix.
void apply_steadystate(JobSpec& job, std::string_view value, const SourcePos& where) {
  if (value == "none") {
    job.ss_criterion = SteadyStateCriterion::kNone;
    return;
  }
  const std::size_t colon = value.find(':');
  const std::string_view name = value.substr(0, colon);
  const SteadyStateCriterion criterion = criterion_of(name);
  if (criterion == SteadyStateCriterion::kNone || colon == std::string_view::npos) {
    value_error(where, "steadystate", value, "use iops|iops_slope|bw|bw_slope:LIMIT[%], e.g. iops:10%");
  }
  std::string_view limit = value.substr(colon + 1);
  const bool percent = !limit.empty() && limit.back() == '%';
  if (percent) limit.remove_suffix(1);
  std::optional<double> number = parse_double(limit);
  if (!number && !percent && (criterion == SteadyStateCriterion::kBw || criterion == SteadyStateCriterion::kBwSlope)) {
    number = static_cast<double>(size_value("steadystate", limit, where, job.kb_base));
  }
  if (!number || *number < 0.0 || !std::isfinite(*number)) {
    value_error(where, "steadystate", value, "the limit must be a number >= 0, optionally with %");
  }
  job.ss_criterion = criterion;
  job.ss_limit = *number;
  job.ss_limit_is_percent = percent;
}

void add_steady_state_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  OptionDef ss;
  ss.name = "steadystate";
  ss.aliases = {"ss"};
  ss.type = OptionType::kCustom;
  ss.default_text = "none";
  ss.range = "none|iops|iops_slope|bw|bw_slope:LIMIT[%]";
  ss.help =
      "End the job early once it is steady over the last ss_dur: iops/bw: every sample within LIMIT of the "
      "mean (LIMIT% of the mean); *_slope: the least-squares slope (per second) within LIMIT (LIMIT% of the "
      "mean). The job's JSON gets fio's \"steadystate\" block.";
  ss.apply = apply_steadystate;
  table.push_back(std::move(ss));

  OptionDef dur = duration_option("steadystate_duration", &JobSpec::ss_duration, seconds(1), "0");
  dur.aliases = {"ss_dur"};
  dur.help = "Length of the steady-state window (bare number in seconds); 0 disables the check.";
  table.push_back(std::move(dur));

  OptionDef ramp = duration_option("steadystate_ramp_time", &JobSpec::ss_ramp, seconds(1), "0");
  ramp.aliases = {"ss_ramp"};
  ramp.help = "Collect no steady-state samples during this first part of the job (bare number in seconds).";
  table.push_back(std::move(ramp));

  OptionDef interval = duration_option("steadystate_check_interval", &JobSpec::ss_interval, seconds(1), "1");
  interval.aliases = {"ss_interval"};
  interval.help =
      "Steady-state sampling step (bare number in seconds; newer fio's option, 3.33 always uses 1 s). "
      "ss_dur must be a multiple of it.";
  table.push_back(std::move(interval));
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
