#pragma once
// RandomMap: one bit per block of a file region ("touched in this pass"), with a summary hierarchy so that
// "first free block at or after i" costs O(levels) word operations even when the map is nearly full.
// Level 0 holds one bit per block; a bit of level k+1 is set when the matching 64-bit word of level k is
// full. Padding bits past the end of each level are kept set, so they never look free.
//
// Memory: about 1 bit per block (1/63 more for the summaries). Threads: not shared.
#include <bit>
#include <cstdint>
#include <vector>

namespace sluice {

class RandomMap {
 public:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};

  explicit RandomMap(std::uint64_t blocks = 0);

  std::uint64_t blocks() const noexcept { return blocks_; }
  std::uint64_t free_blocks() const noexcept { return free_; }
  bool is_free(std::uint64_t block) const noexcept { return ((levels_[0][block >> 6] >> (block & 63)) & 1u) == 0; }
  // First free block >= `from`, or kNone. `from` may be >= blocks(). Inline when the word holding `from`
  // has a free bit at or after it (most calls until the map is nearly full); else the summary search.
  std::uint64_t next_free(std::uint64_t from) const noexcept {
    if (from >= blocks_ || free_ == 0) return kNone;
    const std::uint64_t bits = ~levels_[0][from >> 6] & (~std::uint64_t{0} << (from & 63));
    if (bits == 0) return next_free_beyond(from);
    const std::uint64_t found = (from & ~std::uint64_t{63}) + static_cast<std::uint64_t>(std::countr_zero(bits));
    return found < blocks_ ? found : kNone;
  }
  // Length of the run of free blocks starting at `block`, at most `limit` (0 when `block` is taken).
  std::uint64_t free_run(std::uint64_t block, std::uint64_t limit) const noexcept;
  // Marks [block, block + count) taken; every block of the range must be free (see free_run).
  void take(std::uint64_t block, std::uint64_t count) noexcept;
  // take(block, 1), inline: the usual io of a random job covers one unit.
  void take_one(std::uint64_t block) noexcept {
    --free_;
    std::uint64_t& bits = levels_[0][block >> 6];
    bits |= std::uint64_t{1} << (block & 63);
    if (bits == ~std::uint64_t{0}) mark_full_word(0, block >> 6);
  }
  // Frees every block (a new pass).
  void reset() noexcept;

 private:
  std::uint64_t find_from(std::size_t level, std::uint64_t from) const noexcept;
  std::uint64_t next_free_beyond(std::uint64_t from) const noexcept;  // next_free past from's word
  void mark_full_word(std::size_t level, std::uint64_t word) noexcept;

  std::uint64_t blocks_ = 0;
  std::uint64_t free_ = 0;
  std::vector<std::uint64_t> level_bits_;           // bits per level
  std::vector<std::vector<std::uint64_t>> levels_;  // levels_[0] = blocks
};

}  // namespace sluice
