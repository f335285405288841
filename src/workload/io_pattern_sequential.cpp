// IoPattern's sequential walks (fio semantics unless said):
//  - Sequential: each file keeps a position per direction (fio's last_pos[ddir]), so in rw/readwrite the
//    reads and the writes each walk the file from its start. An io never crosses the region end: when the
//    next one would, a shorter configured size that fits is used, else that file's pass ends.
//  - rw_sequential_run ("rw=...:N", fio's offset modifier): for sequential modes N is a byte count added
//    after each io, making holes ("rw=write:4k" skips 4 KiB after every write; the parser stores the size).
//    As fio's get_next_seq_offset: when an io ends before the file's end but the hole carries the position
//    (relative to the region) to or past the file's size, the walk starts over at the region start in the
//    same pass (so size bytes may still move); otherwise the pass ends where the next io no longer fits
//    (bs=1m with read:512k over 128 MiB reads 85 ios, 87,040 KiB, as fio 3.33; over 16 MiB, 11 ios).
#include "workload/io_pattern_impl.h"

namespace sluice {

// The relative position of the io after one that ended at `end` (relative): `end` plus the hole. As fio's
// get_next_seq_offset: an io that ended at the file's end ends the pass (no wrap); else the position with the
// hole, counted from the region start, is compared with the file's size, and at or past it the walk wraps to
// the region start. (fio sets the position to the region's offset and then adds the offset again, landing at
// twice it; sluice starts at the region start, the same place for a region at offset 0.)
std::uint64_t IoPattern::Impl::after_hole(const FileState& file, std::uint64_t end) const noexcept {
  if (hole == 0 || end == 0 || file.window.start + end >= file.file_end) return end;
  const std::uint64_t next = end + hole;
  return next >= file.file_end ? 0 : next;
}

IoPattern::Impl::Outcome IoPattern::Impl::sequential(FileState& file, Direction direction, std::uint32_t length,
                                                     NextIo& out) noexcept {
  const int d = index_of(direction);
  const std::uint64_t region_length = file.window.length;
  if (step_back != 0) return backwards(file, d, length, out);
  for (int tries = 0; tries < 2; ++tries) {
    const std::uint64_t position = file.position[d];
    const std::uint64_t room = position < region_length ? region_length - position : 0;
    const std::uint32_t fitting = length <= room ? length : choosers[d].largest_fitting(room);
    if (fitting != 0) {
      out.offset = file.window.start + position;
      out.length = fitting;
      file.position[d] = after_hole(file, position + fitting);
      return Outcome::kIssued;
    }
    if (!wrap || position == 0) break;
    // time_based / io_size: this direction starts over (fio resets last_pos).
    file.position[d] = 0;
    file.restarted = !strided;  // going over a strided zone again is not a new pass over the file
  }
  return Outcome::kPassDone;
}

// fio's negative offset modifier: position holds the end of the last io (0 = none yet, as fio's last_pos at
// the file start). The next io starts step_back before it; at 0, or when that would fall below the start,
// it starts step_back before the region end. The pass never ends by position: size / io_size bounds it.
IoPattern::Impl::Outcome IoPattern::Impl::backwards(FileState& file, int d, std::uint32_t length,
                                                    NextIo& out) noexcept {
  const std::uint64_t region_length = file.window.length;
  if (region_length < step_back) return Outcome::kPassDone;
  const std::uint64_t last_end = file.position[d] == 0 ? region_length : file.position[d];
  const std::uint64_t position = last_end >= step_back ? last_end - step_back : region_length - step_back;
  const std::uint64_t room = region_length - position;
  const std::uint32_t fitting = length <= room ? length : choosers[d].largest_fitting(room);
  if (fitting == 0) return Outcome::kPassDone;
  out.offset = file.window.start + position;
  out.length = fitting;
  file.position[d] = position + fitting;
  return Outcome::kIssued;
}

}  // namespace sluice
