// IoPattern's sprandom offsets (fio 3.41+):
//  - sprandom (one file; workload/sprandom.h): the writes' blocks come from the file's sprandom plan, other
//    directions' (randrw) from the same LFSR, as fio. The job ends when the plan is written: the budget is the
//    physical capacity (fio sets io_size to it), with one pass and one loop.
//  - time_based (fio 3.42's get_next_rand_block): no byte budget counts, so the plan runs to its own end (the
//    LFSR used up, or the region after the last full), which may be past the physical capacity. There fio marks
//    the job done, resets the file's LFSR and asks the plan once more: when the plan ended by the LFSR, that
//    gives one more write (a repeat already due, else the LFSR's first block), after which the job ends; when
//    it ended by its regions, nothing more. A read (randrw) that finds the LFSR used up resets it and goes on.
#include "workload/io_pattern_impl.h"

namespace sluice {

// Each file's sprandom plan (the sizes checked here: they need the file's), and a budget of their physical
// capacities (none when time_based) with no wrap and one loop, replacing io_size and loops as in fio.
void IoPattern::Impl::set_up_sprandom(const PatternJob& job, std::uint64_t seed) {
  const std::uint64_t block = choosers[index_of(Direction::kWrite)].min();
  sprandom_bytes = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    FileState& file = files[i];
    const SprandomPlan plan = job_sprandom_plan(job, file.region.length, block);
    file.sprandom =
        SprandomOffsets(plan, job.workload.spr_cs, file.region.length / lfsr_block, pattern_stream_seed(seed, 500 + i));
    sprandom_bytes += plan.physical_bytes;
  }
  sprandom_time_based = job.time.time_based;
  budget = sprandom_time_based ? 0 : sprandom_bytes;
  wrap = false;
  loops = 1;
  loop_bytes = next_loop_at = 0;
  finished = files.empty() || sprandom_bytes == 0;
}

// The next block of the file's sprandom plan (writes) or of its LFSR (other directions), placed as
// pick_from_lfsr places the LFSR's; false when the plan is written or the LFSR used up.
bool IoPattern::Impl::pick_from_sprandom(FileState& file, Direction direction, std::uint32_t length,
                                         NextIo& out) noexcept {
  std::uint64_t block = 0;
  if (direction == Direction::kWrite) {
    if (!file.sprandom.next_write(block)) {
      if (!sprandom_time_based) return false;
      finished = true;  // fio's td->done: whatever the retry gives is the job's last io
      file.sprandom.restart_lfsr();
      if (!file.sprandom.next_write(block)) return false;
    }
  } else if (!file.sprandom.next_other(block)) {
    if (!sprandom_time_based) return false;
    file.sprandom.restart_lfsr();
    if (!file.sprandom.next_other(block)) return false;
  }
  return place_in_window(file, direction, block * choosers[index_of(direction)].alignment(), length, out);
}

}  // namespace sluice
