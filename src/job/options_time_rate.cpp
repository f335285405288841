// Options for time spans and termination, rate limits and think time.
// (std::string(1, '0') below sidesteps GCC 12's false -Wrestrict on assigning one-character literals.)
#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

using std::chrono::microseconds;
using std::chrono::seconds;

void add_time(std::vector<OptionDef>& table) {
  OptionDef runtime = duration_option("runtime", &JobSpec::runtime, seconds(1), "0");
  runtime.aliases = {"timeout"};
  runtime.help =
      "Stop the job after this long (bare number in seconds); 0 means no limit. With time_based the "
      "job runs exactly this long.";
  table.push_back(std::move(runtime));

  OptionDef time_based = bool_option("time_based", &JobSpec::time_based, "0");
  time_based.help = "Run for the whole runtime, repeating the workload when size or io_size is done.";
  table.push_back(std::move(time_based));

  OptionDef ramp = duration_option("ramp_time", &JobSpec::ramp_time, seconds(1), "0");
  ramp.help = "Run this long before measuring (bare number in seconds); results exclude the ramp.";
  table.push_back(std::move(ramp));

  OptionDef startdelay = duration_option("startdelay", &JobSpec::startdelay, seconds(1), "0");
  startdelay.help = "Wait this long before starting the job (bare number in seconds).";
  table.push_back(std::move(startdelay));

  OptionDef loops = u32_option("loops", &JobSpec::loops, 1, UINT32_MAX, "1", "passes");
  loops.help = "Repeat the job's workload this many times.";
  table.push_back(std::move(loops));

  OptionDef io_size = size_option("io_size", &JobSpec::io_size, "0");
  io_size.aliases = {"io_limit"};
  io_size.help = "Bytes of I/O to do before stopping; 0 means size. May exceed size (the region is reused).";
  table.push_back(std::move(io_size));

  OptionDef number_ios = u64_option("number_ios", &JobSpec::number_ios, "0");
  number_ios.unit = "ios";
  number_ios.help = "Stop after this many ios; 0 means no limit.";
  table.push_back(std::move(number_ios));

  OptionDef coe;
  coe.name = "continue_on_error";
  coe.type = OptionType::kChoice;
  coe.default_text = "none";
  coe.range = "none|0|false|read|write|io|verify|all|1|true";
  coe.help =
      "Keep going after I/O errors (counting them) instead of stopping the job; none stops. sluice does "
      "not distinguish fio's error classes: any value but none/0/false continues on every error.";
  coe.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"none", "0",      "false", "read", "write",
                                                      "io",   "verify", "all",   "1",    "true"};
    job.continue_on_error = choice_value("continue_on_error", value, where, kChoices) >= 3;
  };
  table.push_back(std::move(coe));
}

void add_rate(std::vector<OptionDef>& table) {
  OptionDef rate;
  rate.name = "rate";
  rate.type = OptionType::kSizeList;
  rate.default_text = std::string(1, '0');
  rate.unit = "bytes/s";
  rate.range = "read[,write[,trim]]";
  rate.help = "Bandwidth cap per direction, like bs: '10m' for all, ',5m,' for writes only; 0 means no cap.";
  rate.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    apply_per_direction(job.rate, "rate", value, where,
                        [&](std::string_view part) { return size_part("rate", part, value, where, job.kb_base); });
  };
  table.push_back(std::move(rate));

  OptionDef rate_iops;
  rate_iops.name = "rate_iops";
  rate_iops.type = OptionType::kSizeList;
  rate_iops.default_text = std::string(1, '0');
  rate_iops.unit = "ios/s";
  rate_iops.range = "read[,write[,trim]]";
  rate_iops.help = "Ios per second cap per direction, like bs; 0 means no cap.";
  rate_iops.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    apply_per_direction(job.rate_iops, "rate_iops", value, where,
                        [&](std::string_view part) { return unsigned_value("rate_iops", part, where, 0, UINT64_MAX); });
  };
  table.push_back(std::move(rate_iops));

  OptionDef process;
  process.name = "rate_process";
  process.type = OptionType::kChoice;
  process.default_text = "linear";
  process.range = "linear|poisson";
  process.help = "Arrival process of rate-limited ios: evenly spaced (linear) or exponential gaps (poisson).";
  process.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"linear", "poisson"};
    job.rate_process =
        choice_value("rate_process", value, where, kChoices) == 0 ? RateProcess::kLinear : RateProcess::kPoisson;
  };
  table.push_back(std::move(process));
}

void add_thinktime(std::vector<OptionDef>& table) {
  OptionDef thinktime = duration_option("thinktime", &JobSpec::thinktime, microseconds(1), "0");
  thinktime.help = "Pause between ios (bare number in microseconds); 0 means none.";
  table.push_back(std::move(thinktime));

  OptionDef blocks = u32_option("thinktime_blocks", &JobSpec::thinktime_blocks, 1, UINT32_MAX, "1", "ios");
  blocks.help = "Issue this many ios between think times.";
  table.push_back(std::move(blocks));

  OptionDef spin;
  spin.name = "thinktime_spin";
  spin.type = OptionType::kDuration;
  spin.default_text = std::string(1, '0');
  spin.unit = "microseconds";
  spin.help = "Part of thinktime spent busy-waiting (bare number in microseconds); the rest is slept.";
  spin.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.thinktime_spin = duration_value("thinktime_spin", value, where, microseconds(1));
    job.thinktime_spin_set = true;
  };
  table.push_back(std::move(spin));
}

}  // namespace

void add_time_rate_options(std::vector<OptionDef>& table) {
  std::size_t first = table.size();
  add_time(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "time";
  first = table.size();
  add_rate(table);
  add_thinktime(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "rate";
}

}  // namespace sluice::detail
