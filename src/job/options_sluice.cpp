// Options that are sluice extensions (fio has no such option): role, and open_loop (added by its owner).
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

void add_role(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
          .name = "role",
          .type = OptionType::kChoice,
          .default_text = "foreground",
          .range = "foreground|background",
          .help = "sluice extension. background: the job starts before the foreground jobs of its group, runs while "
                  "they run (repeating its workload as time_based does) and is stopped when they end; it is left out "
                  "of the group's results and reported on its own (throughput and its per-second series). A group "
                  "needs at least one foreground job.",
          .apply =
              [](JobSpec& job, std::string_view value, const SourcePos& where) {
                static const std::vector<std::string> kChoices = {"foreground", "background"};
                static const JobRole kRoles[] = {JobRole::kForeground, JobRole::kBackground};
                job.control.role = kRoles[choice_value("role", value, where, kChoices)];
              },
      }});
}

// open_loop: arrivals on the rate schedule whatever earlier ios do (see run/open_loop_queue.h).
void add_open_loop(std::vector<OptionDef>& table) {
  table.insert(table.end(), {bool_option("open_loop", &PacingOptions::open_loop, "0",
                                         {.help = "sluice extension. Open-loop load: ios arrive on the rate_iops/rate "
                                                  "schedule (rate_process=linear or poisson) whatever happens to "
                                                  "earlier ones; when all iodepth slots are busy, arrivals wait in a "
                                                  "FIFO queue. lat is measured from the scheduled arrival, so a slow "
                                                  "target shows up as latency instead of a lower rate (no coordinated "
                                                  "omission); queue_wait (submission - scheduled arrival) is reported "
                                                  "beside slat/clat/lat. Needs rate_iops or rate."})});
}

}  // namespace

void add_sluice_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  add_role(table);
  add_open_loop(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "sluice";
}

}  // namespace sluice::detail
