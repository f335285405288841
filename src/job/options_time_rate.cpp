// Options for time spans and termination, rate limits and think time.
// (std::string(1, '0') below sidesteps GCC 12's false -Wrestrict on assigning one-character literals.)
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

using std::chrono::microseconds;
using std::chrono::seconds;

// An errno as fio's ignore_error takes it: a name starting with 'E' ("ENOSPC") or a decimal or 0x number;
// a negative number counts as its absolute value.
int errno_value(std::string_view item, std::string_view whole, const SourcePos& where) {
  const std::string text(item);
  if (text[0] == 'E') {
    for (int e = 1; e < 4096; ++e) {
      const char* name = strerrorname_np(e);
      if (name != nullptr && text == name) return e;
    }
    value_error(where, "ignore_error", whole, "unknown error name '" + text + "' (use its number)");
  }
  const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(text.c_str(), &end, hex ? 16 : 10);
  if (end == text.c_str() || *end != '\0' || errno != 0 || n == 0 || n < -4095 || n > 4095) {
    value_error(where, "ignore_error", whole, "'" + text + "' is not an error name (EIO) or number (5)");
  }
  return static_cast<int>(n < 0 ? -n : n);
}

void apply_ignore_error(JobSpec& job, std::string_view value, const SourcePos& where) {
  std::size_t start = 0;
  for (std::size_t cls = 0;; ++cls) {
    const std::size_t comma = value.find(',', start);
    const std::string_view list =
        value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (cls >= job.errors.ignore_errors.size()) {
      value_error(where, "ignore_error", value, "at most 3 comma-separated lists (read, write, verify)");
    }
    std::vector<int> errors;
    std::size_t at = 0;
    while (at < list.size()) {  // as fio: the list ends at its first empty item
      const std::size_t colon = list.find(':', at);
      const std::string_view item =
          list.substr(at, colon == std::string_view::npos ? std::string_view::npos : colon - at);
      if (item.empty()) break;
      errors.push_back(errno_value(item, value, where));
      if (colon == std::string_view::npos) break;
      at = colon + 1;
    }
    if (!errors.empty()) {
      job.errors.continue_on_error |= 1u << cls;
      job.errors.ignore_errors[cls] = std::move(errors);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

void add_time(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {duration_option(
           "runtime", &TimeOptions::runtime, seconds(1), "0",
           {.aliases = {"timeout"},
            .help = "Stop the job after this long (bare number in seconds); 0 means no limit. With time_based the job "
                    "runs exactly this long."}),
       bool_option("time_based", &TimeOptions::time_based, "0",
                   {.help = "Run for the whole runtime, repeating the workload when size or io_size is done."}),
       duration_option("ramp_time", &TimeOptions::ramp_time, seconds(1), "0",
                       {.help = "Run this long before measuring (bare number in seconds); results exclude the ramp."}),
       {
           .name = "ramp_size",
           .type = OptionType::kSize,
           .unit = "bytes",
           .range = ">= 1",
           .help = "Do this much I/O before measuring (fio 3.42; bare number in bytes): results exclude the ramp, "
                   "and runtime starts after it. Under group_reporting the group's jobs together. As fio, checked "
                   "once a second from the job's start. Not with ramp_time.",
           .reason = "no ramp by size unless given",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 if (!value.empty() && value.back() == '%') {
                   value_error(where, "ramp_size", value,
                               "a percentage is not an amount of I/O; give a size, e.g. 64m");
                 }
                 const std::uint64_t bytes = size_value("ramp_size", value, where, job.report.kb_base);
                 if (bytes == 0) value_error(where, "ramp_size", value, "must be at least 1 byte (fio's minimum)");
                 job.time.ramp_size = bytes;
               },
       },
       duration_option("startdelay", &TimeOptions::startdelay, seconds(1), "0",
                       {.help = "Wait this long before starting the job (bare number in seconds)."}),
       u32_option("loops", &TimeOptions::loops, 1, UINT32_MAX, "1",
                  {.unit = "passes", .help = "Repeat the job's workload this many times."}),
       accept_zone_counts(size_option(
           "io_size", &TimeOptions::io_size, "0",
           {.aliases = {"io_limit"},
            .help = "Bytes of I/O to do before stopping; 0 means size. May exceed size (the region is reused)."})),
       u64_option("number_ios", &TimeOptions::number_ios, "0",
                  {.unit = "ios", .help = "Stop after this many ios; 0 means no limit."}),
       {
           .name = "continue_on_error",
           .type = OptionType::kChoice,
           .default_text = "none",
           .range = "none|0|false|read|write|io|verify|all|1|true",
           .help = "Count and pass errors of these classes instead of stopping the job: read, write (also trims and "
                   "syncs), io (both), verify (EILSEQ), all; none stops at the first error. As in fio, only the errors "
                   "in the class's ignore_error list pass (by default EIO and EILSEQ); any other error still stops the "
                   "job.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "0",      "false", "read", "write",
                                                                   "io",   "verify", "all",   "1",    "true"};
                 static const std::uint32_t kMasks[] = {
                     0, 0, 0, 1, 2, 3, 4, kContinueOnAllErrors, kContinueOnAllErrors, kContinueOnAllErrors};
                 job.errors.continue_on_error = kMasks[choice_value("continue_on_error", value, where, kChoices)];
               },
       },
       {
           .name = "ignore_error",
           .type = OptionType::kString,
           .default_text = "",
           .range = "READ_ERRS,WRITE_ERRS,VERIFY_ERRS (each E-names or numbers separated by ':')",
           .help = "The errors to count and pass, per class: 'EAGAIN,ENOSPC:122' passes EAGAIN on reads and ENOSPC or "
                   "errno 122 on writes. Sets continue_on_error for each class given, and replaces its default list "
                   "(EIO, EILSEQ).",
           .reason = "continue_on_error's default list: EIO and EILSEQ",
           .apply = [](JobSpec& job, std::string_view value,
                       const SourcePos& where) { apply_ignore_error(job, value, where); },
       },
       bool_option(
           "error_dump", &ErrorOptions::error_dump, "0",
           {.help = "Print every error as it happens, also those continue_on_error passes (fio's io_u error line)."})});
}

void add_rate(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "rate",
           .type = OptionType::kSizeList,
           .default_text = std::string(1, '0'),
           .unit = "bytes/s",
           .range = "read[,write[,trim]]",
           .help = "Bandwidth cap per direction, like bs: '10m' for all, ',5m,' for writes only; 0 means no cap.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.pacing.rate, "rate", value, where, [&](std::string_view part) {
                   return size_part("rate", part, value, where, job.report.kb_base);
                 });
               },
       },
       {
           .name = "rate_iops",
           .type = OptionType::kSizeList,
           .default_text = std::string(1, '0'),
           .unit = "ios/s",
           .range = "read[,write[,trim]]",
           .help = "Ios per second cap per direction, like bs; 0 means no cap.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.pacing.rate_iops, "rate_iops", value, where, [&](std::string_view part) {
                   return unsigned_value("rate_iops", part, where, 0, UINT64_MAX);
                 });
               },
       },
       {
           .name = "rate_process",
           .type = OptionType::kChoice,
           .default_text = "linear",
           .range = "linear|poisson",
           .help = "Arrival process of rate-limited ios: evenly spaced (linear) or exponential gaps (poisson).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"linear", "poisson"};
                 job.pacing.rate_process = choice_value("rate_process", value, where, kChoices) == 0
                                               ? RateProcess::kLinear
                                               : RateProcess::kPoisson;
               },
       }});
}

void add_thinktime(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {duration_option("thinktime", &PacingOptions::thinktime, microseconds(1), "0",
                       {.help = "Pause between ios (bare number in microseconds); 0 means none."}),
       u32_option("thinktime_blocks", &PacingOptions::thinktime_blocks, 1, UINT32_MAX, "1",
                  {.unit = "ios",
                   .help = "Think after this many ios (completed, or issued with thinktime_blocks_type=issue).",
                   .given_flag = &JobSpec::GivenOptions::thinktime_blocks}),
       {
           .name = "thinktime_blocks_type",
           .type = OptionType::kChoice,
           .default_text = "complete",
           .range = "complete|issue",
           .help = "What thinktime_blocks counts: completed ios, or issued ones. Either way the ios in flight complete "
                   "before the pause (fio's quiesce), so no io's latency includes a think time.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"complete", "issue"};
                 job.pacing.thinktime_on_issue = choice_value("thinktime_blocks_type", value, where, kChoices) == 1;
               },
       },
       bool_option(
           "rate_ignore_thinktime", &PacingOptions::rate_ignore_thinktime, "0",
           {.help = "With a rate and a thinktime: after a pause the rate's schedule moves on by the pause instead of "
                    "issuing the missed ios at once to catch up (fio's default catches up)."}),
       duration_option("thinktime_iotime", &PacingOptions::thinktime_iotime, seconds(1), "0",
                       {.help = "Think after this much I/O time (bare number in seconds): thinktime_iotime=9s "
                                "thinktime=1s repeats 9 s of I/O and a 1 s pause (as fio, the first period also counts "
                                "the thinktime). With thinktime_blocks given too, whichever comes first."}),
       {
           .name = "thinktime_spin",
           .type = OptionType::kDuration,
           .default_text = std::string(1, '0'),
           .unit = "microseconds",
           .help = "Part of thinktime spent busy-waiting (bare number in microseconds); the rest is slept.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.pacing.thinktime_spin = duration_value("thinktime_spin", value, where, microseconds(1));
                 job.pacing.thinktime_spin_set = true;
               },
       }});
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
