// fio's sprandom SSD preconditioning (fio 3.41+): sprandom, spr_num_regions, spr_op, spr_cs. The offsets are
// workload/sprandom.h's; the checks between options (rw, random_generator, norandommap, one file) are in
// validate_sprandom.cpp, those that need the file's size where the workload is planned.
#include <charconv>
#include <limits>

#include "job/option_builders.h"

namespace sluice::detail {
namespace {

// spr_op: fio's float list of one value, documented as the range (0, 1).
void apply_spr_op(JobSpec& job, std::string_view value, const SourcePos& where) {
  double op = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), op);
  if (ec != std::errc() || end != value.data() + value.size()) {
    value_error(where, "spr_op", value, "not a number; the over-provisioning is a fraction, e.g. 0.15 for 15%");
  }
  if (!(op > 0.0 && op < 1.0)) {
    value_error(where, "spr_op", value,
                "the over-provisioning must be above 0 and below 1 (e.g. 0.07 or 0.28); fio documents the range "
                "(0, 1) and runs outside it with a meaningless plan, or aborts below 0");
  }
  job.workload.spr_op = op;
}

}  // namespace

void add_sprandom_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  table.insert(
      table.end(),
      {bool_option("sprandom", &WorkloadOptions::sprandom, "0",
                   {.help = "Precondition an SSD for steady-state random writes (fio's SPRandom): write the physical "
                            "capacity (size x (1 + spr_op)) once, choosing offsets so that the regions of the write "
                            "stream end with the invalid-block distribution of random writes at spr_op "
                            "over-provisioning. Needs rw=randwrite (or randrw) and one file; sets "
                            "random_generator=lfsr and norandommap=1 (giving other values is an error); the job ends "
                            "when the plan is written, whatever io_size, loops or time_based say."}),
       u32_option("spr_num_regions", &WorkloadOptions::spr_num_regions, 1, std::numeric_limits<std::uint32_t>::max(),
                  "100",
                  {.unit = "regions",
                   .help = "sprandom: the regions the physical capacity is cut into, each written with its own share "
                           "of later-overwritten blocks. More regions follow the curve more closely; each must hold at "
                           "least one block (and more than spr_cs bytes)."}),
       {
           .name = "spr_op",
           .type = OptionType::kFloatList,
           .default_text = "0.15",
           .range = "(0,1)",
           .help = "sprandom: the device's over-provisioning ratio as its maker states it (0.07 = 7%). Sets the "
                   "physical capacity written, size x (1 + spr_op), and the least valid region's validity, "
                   "1 - 1/(0.5/spr_op + 0.7).",
           .apply = apply_spr_op,
       },
       size_option("spr_cs", &WorkloadOptions::spr_cs, "0",
                   {.help = "sprandom: the device's write cache in bytes. When not 0, the writes that invalidate a "
                            "region's blocks go out at the end of the next region instead of its start, so the first "
                            "copies have left the cache before they are overwritten (a device may otherwise drop "
                            "them and miss the target validity). Must not exceed a region's size."})});
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "workload";
}

}  // namespace sluice::detail
