// IoPattern's sprandom offsets (fio 3.41+):
//  - sprandom (one file; workload/sprandom.h): the writes' blocks come from the file's sprandom plan, other
//    directions' (randrw) from the same LFSR, as fio. The job ends when the plan is written: the budget is the
//    physical capacity (fio sets io_size to it), with one pass and one loop, time_based or not.
#include "workload/io_pattern_impl.h"

namespace sluice {

// Each file's sprandom plan (the sizes checked here: they need the file's), and a budget of their physical
// capacities with no wrap and one loop, replacing io_size, loops and time_based as in fio.
void IoPattern::Impl::set_up_sprandom(const JobSpec& job, std::uint64_t seed) {
  const std::uint64_t block = choosers[index_of(Direction::kWrite)].min();
  budget = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    FileState& file = files[i];
    const SprandomPlan plan = job_sprandom_plan(job, file.region.length, block);
    file.sprandom = SprandomOffsets(plan, job.spr_cs, file.region.length / lfsr_block, pattern_stream_seed(seed, 500 + i));
    budget += plan.physical_bytes;
  }
  wrap = false;
  loops = 1;
  loop_bytes = next_loop_at = 0;
  finished = files.empty() || budget == 0;
}

// The next block of the file's sprandom plan (writes) or of its LFSR (other directions), placed as
// pick_from_lfsr places the LFSR's; false when the plan is written or the LFSR used up.
bool IoPattern::Impl::pick_from_sprandom(FileState& file, Direction direction, std::uint32_t length,
                                         NextIo& out) noexcept {
  std::uint64_t block = 0;
  const bool more = direction == Direction::kWrite ? file.sprandom.next_write(block) : file.sprandom.next_other(block);
  if (!more) return false;
  return place_in_window(file, direction, block * choosers[index_of(direction)].alignment(), length, out);
}

}  // namespace sluice
