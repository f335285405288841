#include "workload/random_map.h"

#include <algorithm>
#include <bit>

namespace sluice {

namespace {
constexpr std::uint64_t kFull = ~std::uint64_t{0};
constexpr std::uint64_t words_for(std::uint64_t bits) { return (bits + 63) / 64; }
}  // namespace

RandomMap::RandomMap(std::uint64_t blocks) : blocks_(blocks) {
  std::uint64_t bits = std::max<std::uint64_t>(blocks, 1);
  for (;;) {
    level_bits_.push_back(bits);
    levels_.emplace_back(words_for(bits));
    if (words_for(bits) <= 1) break;
    bits = words_for(bits);
  }
  reset();
}

void RandomMap::reset() noexcept {
  for (std::size_t level = 0; level < levels_.size(); ++level) {
    auto& words = levels_[level];
    std::fill(words.begin(), words.end(), 0);
    const std::uint64_t used = level_bits_[level] & 63;
    if (used != 0) words.back() = kFull << used;  // padding stays "taken"
  }
  if (blocks_ == 0) levels_[0][0] = kFull;
  free_ = blocks_;
}

std::uint64_t RandomMap::find_from(std::size_t level, std::uint64_t from) const noexcept {
  const auto& words = levels_[level];
  std::uint64_t word = from >> 6;
  if (word >= words.size()) return kNone;
  const std::uint64_t bits = ~words[word] & (kFull << (from & 63));
  if (bits != 0) return (word << 6) + static_cast<std::uint64_t>(std::countr_zero(bits));
  // The rest of this word is taken: find the next word with a free bit through the level above.
  std::uint64_t next_word = word + 1;
  if (level + 1 < levels_.size()) {
    next_word = find_from(level + 1, word + 1);
    if (next_word == kNone) return kNone;
  } else {
    while (next_word < words.size() && words[next_word] == kFull) ++next_word;
    if (next_word >= words.size()) return kNone;
  }
  return (next_word << 6) + static_cast<std::uint64_t>(std::countr_zero(~words[next_word]));
}

std::uint64_t RandomMap::next_free_beyond(std::uint64_t from) const noexcept {
  const std::uint64_t found = find_from(0, from);
  return found < blocks_ ? found : kNone;
}

std::uint64_t RandomMap::free_run(std::uint64_t block, std::uint64_t limit) const noexcept {
  limit = std::min(limit, blocks_ - std::min(block, blocks_));
  std::uint64_t run = 0;
  while (run < limit) {
    const std::uint64_t at = block + run;
    const std::uint64_t taken = levels_[0][at >> 6] >> (at & 63);
    const std::uint64_t free_here = taken == 0 ? 64 - (at & 63) : static_cast<std::uint64_t>(std::countr_zero(taken));
    run += free_here;
    if (taken != 0) break;
  }
  return std::min(run, limit);
}

void RandomMap::mark_full_word(std::size_t level, std::uint64_t word) noexcept {
  // Word `word` of `level` just became full: record it in the summary above, recursively.
  while (level + 1 < levels_.size()) {
    auto& above = levels_[level + 1][word >> 6];
    above |= std::uint64_t{1} << (word & 63);
    if (above != kFull) return;
    ++level;
    word >>= 6;
  }
}

void RandomMap::take(std::uint64_t block, std::uint64_t count) noexcept {
  free_ -= count;
  while (count > 0) {
    const std::uint64_t word = block >> 6;
    const std::uint64_t shift = block & 63;
    const std::uint64_t n = std::min<std::uint64_t>(count, 64 - shift);
    const std::uint64_t mask = (n == 64 ? kFull : ((std::uint64_t{1} << n) - 1)) << shift;
    auto& bits = levels_[0][word];
    bits |= mask;
    if (bits == kFull) mark_full_word(0, word);
    block += n;
    count -= n;
  }
}

}  // namespace sluice
