// fio's sync_file_range=FLAGS[:N]: every N writes (default 1), the range of the last written file's writes
// completed since its last sync goes through sync_file_range(2) with FLAGS (wait_before, write, wait_after,
// comma-separated, as fio's SYNC_FILE_RANGE_* flags).
#include <charconv>

#include "job/option_builders.h"

namespace sluice::detail {

void add_sync_range_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
          .name = "sync_file_range",
          .type = OptionType::kCustom,
          .unit = "flags:writes",
          .range = "wait_before,write,wait_after[:N]",
          .category = "workload",
          .help = "Every N writes (default 1) issue sync_file_range(2) over the range written to the file since its "
                  "last sync, with the flags given (wait_before, write, wait_after), as fio; counted with the syncs.",
          .reason = "no sync_file_range",
          .apply =
              [](JobSpec& job, std::string_view value, const SourcePos& where) {
                static const std::vector<std::string> kFlags = {"wait_before", "write", "wait_after"};
                const std::size_t colon = value.find(':');
                const std::string_view flags = value.substr(0, colon);
                std::uint32_t mask = 0;
                for (std::size_t start = 0; start <= flags.size();) {
                  const std::size_t comma = std::min(flags.find(',', start), flags.size());
                  const std::string_view flag = flags.substr(start, comma - start);
                  start = comma + 1;
                  if (flag.empty()) continue;
                  mask |= 1u << choice_value("sync_file_range", flag, where, kFlags);  // SYNC_FILE_RANGE_* are 1, 2, 4
                }
                if (mask == 0)
                  value_error(where, "sync_file_range", value, "give wait_before, write and/or wait_after");
                std::uint32_t every = 1;
                if (colon != std::string_view::npos) {
                  const std::string_view count = value.substr(colon + 1);
                  const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), every);
                  if (ec != std::errc() || end != count.data() + count.size() || every == 0) {
                    value_error(where, "sync_file_range", value,
                                "the count after ':' is a number of writes, at least 1");
                  }
                }
                job.durability.sync_file_range_flags = mask;
                job.durability.sync_file_range_blocks = every;
              },
      }});
}

}  // namespace sluice::detail
