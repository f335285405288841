#include "run/io_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "common/error.h"

namespace sluice {

namespace {
constexpr std::uint32_t kBufferAlignment = 4096;
}  // namespace

IoPool::~IoPool() = default;

void IoPool::allocate(std::uint32_t depth, std::uint32_t max_block_size, const std::string& job_name,
                      const IoMemorySpec& memory) {
  const std::uint32_t block = std::max<std::uint32_t>(max_block_size, 512);
  stride_ = (block + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  memory_.allocate(static_cast<std::size_t>(stride_) * depth + memory.align, memory, job_name);
  char* const first = static_cast<char*>(memory_.data()) + memory.align;  // iomem_align: fio's offset
  units_.assign(depth, IoUnit{});
  free_.clear();
  free_.reserve(depth);
  taken_.assign(depth, 0);
  for (std::uint32_t i = 0; i < depth; ++i) {
    IoUnit& unit = units_[i];
    unit.index = i;
    unit.buffer = first + static_cast<std::size_t>(i) * stride_;
    unit.buffer_index = static_cast<int>(i);
  }
  for (std::uint32_t i = depth; i > 0; --i) free_.push_back(&units_[i - 1]);  // unit 0 is taken first
}

std::vector<EngineBuffer> IoPool::buffers() const {
  std::vector<EngineBuffer> out;
  out.reserve(units_.size());
  for (const IoUnit& unit : units_) out.push_back({unit.buffer, stride_});
  return out;
}

bool IoPool::overlaps_taken(int file, std::uint64_t offset, std::uint64_t length) const noexcept {
  for (const IoUnit& unit : units_) {
    if (taken_[unit.index] == 0 || unit.file_index != file) continue;
    if (unit.offset < offset + length && offset < unit.offset + unit.length) return true;
  }
  return false;
}

}  // namespace sluice
