// Options for reporting, grouping, logs and unit interpretation.
#include <time.h>

#include <algorithm>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

constexpr std::size_t kMaxPercentiles = 20;

void apply_percentile_list(JobSpec& job, std::string_view value, const SourcePos& where) {
  std::vector<double> list;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t colon = std::min(value.find(':', start), value.size());
    const std::string_view item = value.substr(start, colon - start);
    start = colon + 1;
    const auto number = parse_double(item);
    if (!number) value_error(where, "percentile_list", value, "entries are numbers separated by ':', e.g. 50:99:99.9");
    if (*number < 0.0 || *number > 100.0) {
      value_error(where, "percentile_list", value, "each percentile must be from 0 to 100");
    }
    list.push_back(*number);
  }
  if (list.size() > kMaxPercentiles) value_error(where, "percentile_list", value, "at most 20 percentiles");
  std::sort(list.begin(), list.end());
  job.report.percentile_list = std::move(list);
}

OptionDef log_option(std::string name, const JobField<std::string>& member, const std::string& what,
                     const std::string& detail) {
  return {
      .name = std::move(name),
      .type = OptionType::kString,
      .help = "Write a fio-format " + what + " log to PREFIX_" + what.substr(0, what.find(' ')) +
              ".N.log (N: the clone's number from 1); given without a value the prefix is the job name. " + detail,
      .flag = true,
      .reason = "no log is written unless asked for",
      // Without a value fio names the log after the job; the name known at this point is used.
      .apply =
          [member](JobSpec& job, std::string_view value, const SourcePos&) {
            member(job) = value.empty() ? (job.name.empty() ? std::string("sluice") : job.name) : std::string(value);
          },
  };
}

void add_grouping(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {bool_option("group_reporting", &ReportOptions::group_reporting, "0",
                   {.help = "Report each group as a whole instead of each job (and each numjobs clone) separately."}),
       bool_option(
           "stats", &ReportOptions::stats, "1",
           {.help = "0: the job runs but is left out of the report and of its group's totals (fio's stats=0)."}),
       bool_option("disk_util", &ReportOptions::disk_util, "1",
                   {.help = "0: the devices under this job's files are not in the report's disk utilization (fio's "
                            "disk_util); with 0 in every job, no disk_util at all."}),
       bool_option("stonewall", &JobControlOptions::stonewall, "0",
                   {.aliases = {"wait_for_previous"},
                    .help = "Wait for all earlier jobs to finish before starting; also starts a new reporting group."}),
       bool_option("new_group", &JobControlOptions::new_group, "0",
                   {.help = "Start a new reporting group with this job."})});
}

void add_percentiles(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "percentile_list",
           .type = OptionType::kFloatList,
           .default_text = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
           .unit = "percent",
           .range = "up to 20 values 0-100, ':'-separated",
           .help = "Latency percentiles to report.",
           .apply = apply_percentile_list,
       },
       bool_option(
           "block_error_percentiles", &ReportOptions::block_error_percentiles, "0",
           {.help = "Count the trims each trim-sized block of the job's file goes through until a trim or write of it "
                    "fails, and report their percentiles (percentile_list) and the blocks per state (fio's \"block "
                    "lifetime percentiles\"; JSON \"block\"). One file per job."}),
       bool_option("clat_percentiles", &ReportOptions::clat_percentiles, "1",
                   {.help = "Report completion-latency (clat) percentiles."}),
       bool_option("lat_percentiles", &ReportOptions::lat_percentiles, "0",
                   {.help = "Report total-latency (lat) percentiles."}),
       bool_option("slat_percentiles", &ReportOptions::slat_percentiles, "0",
                   {.help = "Report submission-latency (slat) percentiles."})});
}

void add_units_and_logs(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "kb_base",
           .type = OptionType::kChoice,
           .default_text = "1024",
           .range = "1000|1024",
           .help = "Meaning of k/m/g in sizes given after it: 1024 (default: k = 1024, and kB, KiB too) or 1000 (k and "
                   "kB = 1000, KiB = 1024). Unlike fio, KiB/MiB always mean powers of 1024.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"1000", "1024"};
                 job.report.kb_base = choice_value("kb_base", value, where, kChoices) == 0 ? 1000 : 1024;
               },
       },
       log_option("write_lat_log", &LogOptions::write_lat_log, "lat (latency)",
                  "Also writes PREFIX_clat.N.log and PREFIX_slat.N.log (slat lines only with libaio and io_uring, as "
                  "fio). Values in nanoseconds."),
       log_option("write_iops_log", &LogOptions::write_iops_log, "iops",
                  "Without log_avg_msec each io is a line of value 1 (as fio); with it each line is the true rate of "
                  "the window in ios per second."),
       log_option("write_bw_log", &LogOptions::write_bw_log, "bw (bandwidth)",
                  "Without log_avg_msec each io's line is its bytes over its clat in bytes per millisecond (as fio); "
                  "with it each line is the window's KiB/s."),
       u32_option("log_avg_msec", &LogOptions::log_avg_msec, 0, UINT32_MAX, "0",
                  {.unit = "milliseconds",
                   .help = "Log one line per window of this many milliseconds and direction instead of one per io (0): "
                           "the mean latency of the window's ios, and for iops and bw the true rate over the window, 0 "
                           "for an idle window (fio logs 1 per io without averaging). Windows are aligned on the job's "
                           "measured start; a line's time is its window's end."}),
       bool_option(
           "log_max_value", &LogOptions::log_max_value, "0",
           {.help = "With log_avg_msec, a latency log's line is the window's largest latency instead of its mean."}),
       bool_option("log_unix_epoch", &LogOptions::log_unix_epoch, "0",
                   {.help = "Log times are Unix times in milliseconds instead of milliseconds since the job's start."}),
       bool_option(
           "log_alternate_epoch", &LogOptions::log_alternate_epoch, "0",
           {.help = "Log times are milliseconds since the epoch of the clock log_alternate_epoch_clock_id names."}),
       {
           .name = "log_alternate_epoch_clock_id",
           .type = OptionType::kUnsigned,
           .default_text = "0",
           .range = "a clock_gettime clock id: 0 realtime, 1 monotonic, 4 monotonic_raw, 7 boottime, 11 tai, ...",
           .help = "The clock of log_unix_epoch and log_alternate_epoch (0: CLOCK_REALTIME).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 const auto id = unsigned_value("log_alternate_epoch_clock_id", value, where, 0, 1023);
                 timespec probe{};
                 if (clock_gettime(static_cast<clockid_t>(id), &probe) != 0) {
                   value_error(where, "log_alternate_epoch_clock_id", value,
                               "this machine has no such clock (clock_gettime fails); 0 is CLOCK_REALTIME");
                 }
                 job.logs.log_alternate_epoch_clock_id = static_cast<int>(id);
               },
       },
       bool_option(
           "log_offset", &LogOptions::log_offset, "0",
           {.help = "Add each io's offset in bytes as a column of the per-io logs, before the priority column."}),
       u32_option("bwavgtime", &ReportOptions::bw_avg_msec, 1, UINT32_MAX, "500",
                  {.unit = "milliseconds",
                   .help = "The window of each bandwidth sample behind the JSON's bw_min, bw_max, bw_mean, bw_dev and "
                           "bw_samples (and the normal output's bw line), as fio: a sample per window for each "
                           "direction that moved."}),
       u32_option(
           "iopsavgtime", &ReportOptions::iops_avg_msec, 1, UINT32_MAX, "500",
           {.unit = "milliseconds",
            .help = "The same for the IOPS samples (iops_min, iops_max, iops_mean, iops_stddev, iops_samples)."}),
       // fio keeps logs in memory and compresses them in chunks of log_compression bytes as they fill, then
       // inflates them into the text file at the end (the same text as without it); sluice writes logs as it goes,
       // so the chunk size only matters with log_store_compressed.
       {
           .name = "log_compression",
           .type = OptionType::kSize,
           .default_text = std::string(1, '0'),
           .unit = "bytes",
           .range = "1024-512m",
           .help = "fio compresses its in-memory logs in chunks of this size; the text logs are the same either way "
                   "(sluice writes its logs as it goes). With log_store_compressed, the samples per zlib stream.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 const std::uint64_t bytes = size_value("log_compression", value, where, job.report.kb_base);
                 if (bytes != 0 && (bytes < 1024 || bytes > (std::uint64_t{512} << 20))) {
                   value_error(where, "log_compression", value, "between 1024 and 512m (fio's bounds)");
                 }
                 job.logs.log_compression = bytes;
               },
       },
       bool_option("log_store_compressed", &LogOptions::log_store_compressed, "0",
                   {.help = "Write the latency, bandwidth and IOPS logs as NAME.log.fz: zlib streams of fio's binary "
                            "samples, which `fio --inflate-log=FILE` (or `sluice fio --inflate-log=FILE`) prints as "
                            "the text log. Histogram logs stay text."})});
}

}  // namespace

void add_report_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  add_grouping(table);
  add_percentiles(table);
  add_units_and_logs(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "report";
}

void finish_parsed_job(JobSpec& job) {
  name_unnamed_logs(job);
  apply_bs_is_seq_rand(job);
  apply_zone_counts(job);
  // fio's allrandrepeat=1 seeds every stream from its default seed, over randrepeat=0 and randseed.
  const auto all = job.given_options.find("allrandrepeat");
  if (all != job.given_options.end() && (all->second.empty() || all->second == "1" || all->second == "true" ||
                                         all->second == "on" || all->second == "yes")) {
    job.workload.randrepeat = true;
    static const JobSpec kDefaults;  // a static, not a temporary: GCC 12 warns of the temporary's parts
    job.workload.randseed = kDefaults.workload.randseed;
  }
}

void name_unnamed_logs(JobSpec& job) {
  const std::pair<const char*, std::string LogOptions::*> kLogs[] = {{"write_lat_log", &LogOptions::write_lat_log},
                                                                     {"write_iops_log", &LogOptions::write_iops_log},
                                                                     {"write_bw_log", &LogOptions::write_bw_log}};
  for (const auto& [option, member] : kLogs) {
    const auto it = job.given_options.find(option);
    if (it != job.given_options.end() && it->second.empty()) job.logs.*member = job.name;
  }
}

}  // namespace sluice::detail
