#pragma once
// BlockSequence: random_distribution=sequence (fio master, after 3.42). The io number n of a direction (counted
// from 0 over the whole job, across files, passes and loops, as fio's io_issues[ddir]) goes to block
// sequence[n % L] of the region, L being the sequence's length; with random_sequence_stride, to
// (n / L) * L + sequence[n % L] ("strided block group": 2,0,1 then 5,3,4, 8,6,7 ...).
// A block at or past the region's end has no io: the file's pass ends there (with stride, where the groups
// leave the region; the count does not restart, so later passes and loops end at once, as in fio).
// Threads: one per worker, not shared. Nothing allocates after construction.
#include <cstdint>
#include <optional>
#include <vector>

namespace sluice {

class BlockSequence {
 public:
  BlockSequence() = default;
  BlockSequence(std::vector<std::uint32_t> indices, bool stride);

  // The block of the direction's io number `io_number` when it is below `blocks` (the region's blocks of the
  // direction's smallest size, fio's max_blocks); false when it is not (no io there).
  bool block_of(std::uint64_t io_number, std::uint64_t blocks, std::uint64_t& block) const noexcept;
  // The first element that is not below `blocks` (fio stops the job with EINVAL when an io reaches it).
  std::optional<std::uint32_t> first_out_of(std::uint64_t blocks) const noexcept;
  bool empty() const noexcept { return indices_.empty(); }

 private:
  std::vector<std::uint32_t> indices_;
  bool stride_ = false;
};

}  // namespace sluice
