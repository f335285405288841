#include "workload/block_sequence.h"

#include <algorithm>

namespace sluice {

BlockSequence::BlockSequence(std::vector<std::uint32_t> indices, bool stride)
    : indices_(std::move(indices)), stride_(stride) {}

bool BlockSequence::block_of(std::uint64_t io_number, std::uint64_t blocks, std::uint64_t& block) const noexcept {
  if (indices_.empty()) return false;
  const std::uint64_t length = indices_.size();
  const std::uint64_t element = indices_[io_number % length];
  // The group's base cannot overflow: io_number / length * length <= io_number.
  block = stride_ ? io_number / length * length + element : element;
  return block < blocks;
}

std::optional<std::uint32_t> BlockSequence::first_out_of(std::uint64_t blocks) const noexcept {
  const auto it = std::find_if(indices_.begin(), indices_.end(), [&](std::uint32_t i) { return i >= blocks; });
  if (it == indices_.end()) return std::nullopt;
  return *it;
}

}  // namespace sluice
