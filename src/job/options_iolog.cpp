// fio's I/O log options: write_iolog (record the issued ios) and read_iolog with its replay_* settings
// (replay a log; workload/iolog.h reads it, run/replay_binding.h gives each clone its log).
#include <algorithm>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

OptionDef replay_skip_option() {
  return {
      .name = "replay_skip",
      .type = OptionType::kString,
      .default_text = "",
      .category = "workload",
      .help =
          "Comma-separated actions of the log not replayed: read, write, trim, sync (their time is left out too). fio "
          "3.33 applies it to blktrace traces only, newer fio and sluice to text logs too.",
      .reason = "nothing is skipped",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            static const std::vector<std::string> kChoices = {"read", "write", "trim", "sync"};
            std::uint32_t mask = 0;
            std::size_t start = 0;
            while (start <= value.size()) {
              const std::size_t comma = value.find(',', start);
              const std::string_view part =
                  value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
              const auto found = std::find(kChoices.begin(), kChoices.end(), part);
              if (found == kChoices.end()) {
                const std::string nearest = nearest_of(part, kChoices);
                value_error(where, "replay_skip", value,
                            "'" + std::string(part) + "' is not one of read, write, trim, sync" +
                                (nearest.empty() ? std::string() : "; did you mean '" + nearest + "'?"));
              }
              mask |= 1u << (found - kChoices.begin());  // kReplaySkipRead, Write, Trim, Sync in the order of kChoices
              if (comma == std::string_view::npos) break;
              start = comma + 1;
            }
            job.iolog.replay_skip = mask;
          },
  };
}

OptionDef replay_align_option() {
  OptionDef def = u32_option("replay_align", &IoLogOptions::replay_align, 0, UINT32_MAX, "0",
                             {.unit = "bytes",
                              .category = "workload",
                              .help = "Round every offset of the log down to a multiple of this power of 2 (0: as "
                                      "logged)."});
  def.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    const auto align = static_cast<std::uint32_t>(unsigned_value("replay_align", value, where, 0, UINT32_MAX));
    if ((align & (align - 1)) != 0) value_error(where, "replay_align", value, "must be a power of 2 (or 0)");
    job.iolog.replay_align = align;
  };
  return def;
}

// merge_blktrace_scalars (scalars) or merge_blktrace_iters: one number per read_iolog trace.
OptionDef merge_list_option(bool scalars) {
  return {
      .name = scalars ? "merge_blktrace_scalars" : "merge_blktrace_iters",
      .type = OptionType::kCustom,
      .unit = scalars ? "percent" : "times",
      .range = "N[:N...] (one per read_iolog trace)",
      .category = "workload",
      .help = scalars ? "With merge_blktrace_file: each trace's event times x N / 100 (50: twice as fast)."
                      : "With merge_blktrace_file: how many times each trace runs, one after the other.",
      .reason = scalars ? "100 for each trace" : "1 for each trace",
      .apply =
          [scalars](JobSpec& job, std::string_view value, const SourcePos& where) {
            const char* name = scalars ? "merge_blktrace_scalars" : "merge_blktrace_iters";
            std::vector<std::uint32_t> values;
            for (std::size_t start = 0; start <= value.size();) {
              const std::size_t colon = std::min(value.find(':', start), value.size());
              const std::string_view part = value.substr(start, colon - start);
              start = colon + 1;
              // fio reads floats and keeps the whole part; 0 would end its list, so it is refused here.
              const auto number = parse_double(part);
              if (!number || *number < 1 || *number > 1e6) {
                value_error(where, name, value,
                            "each value is a number from 1 to 1000000 ('" + std::string(part) + "')");
              }
              values.push_back(static_cast<std::uint32_t>(*number));
            }
            (scalars ? job.iolog.merge_blktrace_scalars : job.iolog.merge_blktrace_iters) = std::move(values);
          },
  };
}

}  // namespace

void add_iolog_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {string_option(
           "write_iolog", &IoLogOptions::write_iolog, "",
           {.category = "report",
            .help = "Append every issued io (and sync) to this file in fio's iolog version 3 (microseconds since the "
                    "job's start, file, action, offset, length); read_iolog replays it, in fio or sluice.",
            .reason = "no io log is written unless asked for"}),
       {
           .name = "read_iolog",
           .type = OptionType::kString,
           .default_text = "",
           .category = "workload",
           .help = "Replay this fio iolog (version 2 or 3) or blktrace binary trace (blkparse -d) instead of the job's "
                   "pattern: its files, ios and timing. 'a:b' gives the job's clones one log each in turn; '-' reads "
                   "standard input.",
           .reason = "the job's own pattern, no replay",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.iolog.read_iolog = split_filenames(value);
                 if (job.iolog.read_iolog.empty()) value_error(where, "read_iolog", value, "names no log");
               },
       },
       string_option(
           "merge_blktrace_file", &IoLogOptions::merge_blktrace_file, "",
           {.category = "workload",
            .help = "Merge read_iolog's blktrace traces ('a:b') into this file in time order and replay it (fio's "
                    "merge_blktrace_file): one job replays them together, in a consistent order.",
            .reason = "each clone replays its own read_iolog trace"}),
       merge_list_option(true),
       merge_list_option(false)});

  table.insert(
      table.end(),
      {accepted_flag("read_iolog_chunked",
                     {.category = "workload",
                      .help = "Accepted as fio's; sluice reads the whole log before the job starts either way."}),
       bool_option("replay_no_stall", &IoLogOptions::replay_no_stall, "0",
                   {.category = "workload",
                    .help = "Replay the log as fast as its order allows, ignoring its timestamps and waits."}),
       u32_option("replay_time_scale", &IoLogOptions::replay_time_scale, 1, UINT32_MAX, "100",
                  {.unit = "percent",
                   .category = "workload",
                   .help = "Replay at this percentage of the log's rate: 200 halves every wait, 50 doubles it."}),
       string_option("replay_redirect", &IoLogOptions::replay_redirect, "",
                     {.category = "workload",
                      .help = "Replay every io of the log on this one file or device, whatever file the log names.",
                      .reason = "each io goes to the file the log names"}),
       u32_option("replay_scale", &IoLogOptions::replay_scale, 0, UINT32_MAX, "1",
                  {.unit = "factor",
                   .category = "workload",
                   .help = "Divide every offset of the log by this factor (use replay_align too)."}),
       replay_align_option(), replay_skip_option()});
}

}  // namespace sluice::detail
