// IoPattern's fixed block sequence (fio master):
//  - random_distribution=sequence (workload/block_sequence.h): the direction's io number picks the block, in
//    units of its smallest size, placed at its alignment (fio: b * ba); a block past the region ends the pass.
#include <fmt/format.h>

#include "common/error.h"
#include "workload/io_pattern_impl.h"

namespace sluice {

// The sequence's block for the direction's next io, at the direction's alignment, with a size that fits before
// the window's end (fio: max_blocks counts the smallest size, the offset the alignment). False: no io there.
bool IoPattern::Impl::pick_from_sequence(FileState& file, Direction direction, std::uint32_t length,
                                         NextIo& out) noexcept {
  const BlockSizeChooser& chooser = choosers[index_of(direction)];
  std::uint64_t block = 0;
  if (!sequence.block_of(issued[index_of(direction)], file.window.length / chooser.min(), block)) return false;
  return place_in_window(file, direction, block * chooser.alignment(), length, out);
}

// The io numbers from 0 again; an io drawn but not started moves to the sequence's first block of its direction
// (the io numbers only place ios with the sequence distribution).
void IoPattern::Impl::restart_io_numbers(NextIo* drawn) noexcept {
  issued = {};
  if (!use_sequence || drawn == nullptr || drawn->file_index < 0 ||
      static_cast<std::size_t>(drawn->file_index) >= files.size()) {
    return;
  }
  NextIo moved = *drawn;
  if (!pick_from_sequence(files[static_cast<std::size_t>(drawn->file_index)], drawn->direction, drawn->length, moved)) {
    return;
  }
  bytes_done = bytes_done - drawn->length + moved.length;
  *drawn = moved;
  ++issued[index_of(drawn->direction)];
}

// fio fails the job with EINVAL when an io reaches an index past a file's blocks; sluice refuses it up front.
void IoPattern::Impl::check_sequence_fits(const PatternJob& job, std::uint64_t length, std::size_t file) const {
  for (Direction d : kAllDirections) {
    if (!active[index_of(d)]) continue;
    const std::uint64_t blocks = length / choosers[index_of(d)].min();
    if (const auto index = sequence.first_out_of(blocks)) {
      throw UserError(fmt::format(
          "job {}: random_distribution=sequence: block index {} is past the {} blocks of {} bytes in the region "
          "of file {} (fio: sequence access block out of bounds); use indices below {} or a larger size",
          job.name, *index, blocks, choosers[index_of(d)].min(), file + 1, blocks));
    }
  }
}

}  // namespace sluice
