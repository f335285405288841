#pragma once
// BlockSizeChooser: the length of each io of one direction. Precedence as in fio: bssplit, then bsrange,
// then bs. bsrange draws uniformly among the multiples of its step in [min, max], the step being blockalign
// when given, else min (so 4k-16k gives 4k, 8k, 12k or 16k); with bs_unaligned any length between them, whose
// granularity is then the alignment alone (an io covers its last unit partly, as in fio). bssplit entries are
// weighted by percent; entries with no percent share the remainder equally.
#include <cstdint>
#include <vector>

#include "common/rng.h"
#include "job/workload_options.h"

namespace sluice {

class BlockSizeChooser {
 public:
  BlockSizeChooser() = default;
  // unaligned (bs_unaligned): bsrange draws any length in [min, max], not only multiples of its step.
  BlockSizeChooser(std::uint64_t bs, const BlockSizeRange& range, const std::vector<BlockSizeSplitEntry>& split,
                   std::uint64_t blockalign, bool unaligned = false);

  std::uint32_t choose(Rng& rng) const noexcept { return kind_ == Kind::kFixed ? min_ : choose_drawn(rng); }
  // The largest length this chooser can produce that is <= limit, or 0 when none is.
  std::uint32_t largest_fitting(std::uint64_t limit) const noexcept;

  std::uint32_t min() const noexcept { return min_; }
  std::uint32_t max() const noexcept { return max_; }
  double mean() const noexcept { return mean_; }
  // Offset alignment for random ios: blockalign, else min().
  std::uint32_t alignment() const noexcept { return alignment_; }
  // Greatest common divisor of every possible length and of the alignment.
  std::uint32_t granularity() const noexcept { return granularity_; }

 private:
  enum class Kind { kFixed, kRange, kSplit };
  std::uint32_t choose_drawn(Rng& rng) const noexcept;  // bsrange, bssplit
  Kind kind_ = Kind::kFixed;
  std::uint32_t min_ = 4096;
  std::uint32_t max_ = 4096;
  std::uint32_t step_ = 4096;
  std::uint64_t range_count_ = 1;
  double mean_ = 4096;
  std::uint32_t alignment_ = 4096;
  std::uint32_t granularity_ = 4096;
  std::vector<std::uint32_t> split_sizes_;       // ascending
  std::vector<std::uint64_t> split_thresholds_;  // cumulative weights scaled to 2^32
};

}  // namespace sluice
