// fio's per-io priority options of the libaio and io_uring engines (cmdprio_percentage, cmdprio_class, cmdprio,
// cmdprio_bssplit) and log_prio. Each takes a read value and a write value ("30,60"; one value for both);
// values for trims are accepted and unused, as in fio.
#include <algorithm>
#include <charconv>

#include "job/option_builders.h"

namespace sluice::detail {
namespace {

constexpr int kSplitClassShift = 13;

// A whole number in [min, max] inside a cmdprio_bssplit entry; a message quotes the whole value.
std::uint32_t entry_number(std::string_view part, std::string_view value, const SourcePos& where, std::uint32_t min,
                           std::uint32_t max, std::string_view what) {
  std::uint32_t n = 0;
  const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
  if (ec != std::errc() || end != part.data() + part.size() || n < min || n > max) {
    value_error(where, "cmdprio_bssplit", value,
                std::string(what) + " must be a whole number from " + std::to_string(min) + " to " +
                    std::to_string(max) + " (in '" + std::string(part) + "')");
  }
  return n;
}

// One direction's "bs/perc[/class/level]:..." as fio's split_parse_prio_ddir: entries of 0 percent are dropped
// and the rest sorted by size. fio clamps out-of-range numbers; sluice refuses them.
std::vector<CmdprioSplitEntry> parse_cmdprio_split(std::string_view part, std::string_view value,
                                                   const SourcePos& where, std::uint32_t kb) {
  std::vector<CmdprioSplitEntry> entries;
  std::size_t start = 0;
  while (start < part.size()) {
    const std::size_t colon = std::min(part.find(':', start), part.size());
    const std::string_view item = part.substr(start, colon - start);
    start = colon + 1;
    if (item.empty()) break;  // fio stops at an empty entry
    std::vector<std::string_view> fields;
    for (std::size_t from = 0;;) {
      const std::size_t slash = item.find('/', from);
      fields.push_back(item.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from));
      if (slash == std::string_view::npos) break;
      from = slash + 1;
    }
    if (fields.size() == 3 || fields.size() > 4) {
      value_error(where, "cmdprio_bssplit", value,
                  "an entry is size/percent or size/percent/class/level (not '" + std::string(item) + "')");
    }
    CmdprioSplitEntry entry;
    entry.size = size_part("cmdprio_bssplit", fields[0], value, where, kb);
    if (entry.size == 0) value_error(where, "cmdprio_bssplit", value, "block sizes must be at least 1 byte");
    if (fields.size() >= 2 && !fields[1].empty()) {
      entry.percent = entry_number(fields[1], value, where, 0, 100, "the percentage");
    }
    if (fields.size() == 4) {
      const std::uint32_t io_class = entry_number(fields[2], value, where, 1, 3, "the class");
      const std::uint32_t level = entry_number(fields[3], value, where, 0, 7, "the level");
      entry.ioprio = static_cast<std::int32_t>((io_class << kSplitClassShift) | level);
    }
    if (entry.percent != 0) entries.push_back(entry);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const CmdprioSplitEntry& a, const CmdprioSplitEntry& b) { return a.size < b.size; });
  for (std::size_t i = 0; i < entries.size();) {
    std::uint32_t total = 0;
    std::size_t j = i;
    for (; j < entries.size() && entries[j].size == entries[i].size; ++j) total += entries[j].percent;
    if (total > 100) {
      value_error(where, "cmdprio_bssplit", value,
                  "the percentages of block size " + std::to_string(entries[i].size) + " add up to " +
                      std::to_string(total) + ", more than 100");
    }
    i = j;
  }
  return entries;
}

OptionDef per_direction_number(std::string name, const JobField<PerDirection<std::uint32_t>>& member, std::uint32_t min,
                               std::uint32_t max, std::string default_text, OptionText text) {
  auto apply = [name, member, min, max](JobSpec& job, std::string_view value, const SourcePos& where) {
    apply_per_direction(member(job), name, value, where, [&](std::string_view part) {
      return static_cast<std::uint32_t>(unsigned_value(name, part, where, min, max));
    });
  };
  return with_text({.name = name,
                    .type = OptionType::kCustom,
                    .default_text = std::move(default_text),
                    .range = std::to_string(min) + "-" + std::to_string(max) + "[,read,write]",
                    .apply = std::move(apply)},
                   std::move(text));
}

}  // namespace

void add_cmdprio_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();

  table.insert(
      table.end(),
      {per_direction_number("cmdprio_percentage", &PlacementOptions::cmdprio_percentage, 0, 100, "0",
                            {.unit = "percent",
                             .help = "libaio, io_uring: this share of the reads (first value) and writes (second; one "
                                     "value for both) is issued with priority cmdprio_class/cmdprio, the rest with the "
                                     "job's own; the JSON then splits the latency per priority (\"prios\"), as fio. "
                                     "Excludes cmdprio_bssplit."}),
       per_direction_number(
           "cmdprio_class", &PlacementOptions::cmdprio_class, 1, 3, "",
           {.unit = "class",
            .help = "The priority class of cmdprio_percentage's ios (and of cmdprio_bssplit entries without one): 1 "
                    "realtime (needs CAP_SYS_ADMIN), 2 best effort, 3 idle; read,write values as cmdprio_percentage.",
            .reason = "1 (realtime), as fio"}),
       per_direction_number(
           "cmdprio", &PlacementOptions::cmdprio_level, 0, 7, "0",
           {.unit = "level",
            .help = "The priority level (0 highest) of cmdprio_percentage's ios, within cmdprio_class."}),
       {
           .name = "cmdprio_bssplit",
           .type = OptionType::kCustom,
           .unit = "bytes/percent[/class/level]",
           .range = "size/pct[/class/level]:...[,write-split]",
           .help = "libaio, io_uring: per block size, the share of the ios of exactly that size issued with another "
                   "priority: '64k/30:1m/10/2/0' (entries without class/level use cmdprio_class/cmdprio); reads,writes "
                   "as bssplit. Excludes cmdprio_percentage.",
           .reason = "no io gets another priority",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.placement.cmdprio_bssplit, "cmdprio_bssplit", value, where,
                                     [&](std::string_view part) {
                                       return parse_cmdprio_split(part, value, where, job.report.kb_base);
                                     });
               },
       }});

  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "engine";

  table.insert(table.end(),
               {bool_option("log_prio", &LogOptions::log_prio, "0",
                            {.category = "report",
                             .help = "The last column of the per-io logs holds each io's priority value as hex (class "
                                     "<< 13 | level, e.g. 0x2000), instead of 1 for a realtime-class io and 0 "
                                     "otherwise."})});
}

}  // namespace sluice::detail
