#include "workload/block_size_chooser.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace sluice {

namespace {
std::uint32_t to_length(std::uint64_t bytes) {
  // Validation bounds block sizes; clamp here so a bad value cannot wrap to a tiny length.
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(bytes, 1, std::uint64_t{1} << 31));
}

std::vector<std::pair<std::uint32_t, double>> split_weights(const std::vector<BlockSizeSplitEntry>& split) {
  double given = 0.0;
  std::size_t blank = 0;
  for (const auto& entry : split) {
    if (entry.percent > 0.0)
      given += entry.percent;
    else
      ++blank;
  }
  const double share = blank > 0 && given < 100.0 ? (100.0 - given) / static_cast<double>(blank) : 0.0;
  std::vector<std::pair<std::uint32_t, double>> weights;
  for (const auto& entry : split) {
    const double weight = entry.percent > 0.0 ? entry.percent : share;
    if (weight > 0.0) weights.emplace_back(to_length(entry.size), weight);
  }
  std::sort(weights.begin(), weights.end());
  return weights;
}
}  // namespace

BlockSizeChooser::BlockSizeChooser(std::uint64_t bs, const BlockSizeRange& range,
                                   const std::vector<BlockSizeSplitEntry>& split, std::uint64_t blockalign,
                                   bool unaligned) {
  auto weights = split_weights(split);
  if (!weights.empty()) {
    kind_ = Kind::kSplit;
    double total = 0.0;
    for (const auto& [size, weight] : weights) total += weight;
    double cumulative = 0.0;
    mean_ = 0.0;
    std::uint32_t gcd = 0;
    for (const auto& [size, weight] : weights) {
      cumulative += weight;
      split_sizes_.push_back(size);
      split_thresholds_.push_back(static_cast<std::uint64_t>(cumulative / total * 4294967296.0));
      mean_ += size * weight / total;
      gcd = std::gcd(gcd, size);
    }
    split_thresholds_.back() = std::uint64_t{1} << 32;
    min_ = split_sizes_.front();
    max_ = split_sizes_.back();
    granularity_ = gcd;
  } else if (range.min != 0 && range.max > range.min) {
    kind_ = Kind::kRange;
    step_ = unaligned ? 1 : to_length(blockalign != 0 ? blockalign : range.min);
    min_ = to_length((range.min + step_ - 1) / step_ * step_);
    max_ = std::max(min_, to_length(range.max / step_ * step_));
    range_count_ = (max_ - min_) / step_ + 1;
    mean_ = (static_cast<double>(min_) + max_) / 2.0;
    granularity_ = std::gcd(min_, step_);
  } else {
    min_ = max_ = to_length(range.min != 0 ? range.min : (bs != 0 ? bs : 4096));
    mean_ = min_;
    granularity_ = min_;
  }
  alignment_ = blockalign != 0 ? to_length(blockalign) : min_;
  granularity_ = kind_ == Kind::kRange && unaligned ? alignment_ : std::gcd(granularity_, alignment_);
}

std::uint32_t BlockSizeChooser::choose_drawn(Rng& rng) const noexcept {
  switch (kind_) {
    case Kind::kFixed:
      return min_;
    case Kind::kRange:
      return static_cast<std::uint32_t>(min_ + rng.below(range_count_) * step_);
    case Kind::kSplit: {
      const std::uint64_t r = rng.next() >> 32;
      std::size_t i = 0;
      while (r >= split_thresholds_[i]) ++i;  // few entries: a linear scan beats a binary search
      return split_sizes_[i];
    }
  }
  return min_;
}

std::uint32_t BlockSizeChooser::largest_fitting(std::uint64_t limit) const noexcept {
  if (limit < min_) return 0;
  switch (kind_) {
    case Kind::kFixed:
      return min_;
    case Kind::kRange: {
      const std::uint64_t steps = std::min<std::uint64_t>(range_count_ - 1, (limit - min_) / step_);
      return static_cast<std::uint32_t>(min_ + steps * step_);
    }
    case Kind::kSplit: {
      auto it = std::upper_bound(split_sizes_.begin(), split_sizes_.end(), limit);
      return *std::prev(it);
    }
  }
  return 0;
}

}  // namespace sluice
