#pragma once
// IoPool: the fixed set of IoUnits a worker cycles through (iodepth of them), each with its own aligned
// buffer, and the list of the free ones. Sized once before the run: take() and put() never allocate.
// One thread.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "job/buffer_options.h"
#include "run/io_memory.h"

namespace sluice {

class IoPool {
 public:
  IoPool() = default;
  ~IoPool();
  IoPool(const IoPool&) = delete;
  IoPool& operator=(const IoPool&) = delete;

  // depth units, each with a buffer of max_block_size rounded up to 4 KiB, 4 KiB aligned (plus memory.align
  // bytes), in the memory kind asked for (fio's mem=); all free. Throws UserError (naming job_name) when the
  // memory cannot be had.
  void allocate(std::uint32_t depth, std::uint32_t max_block_size, const std::string& job_name,
                const IoMemorySpec& memory = {});

  bool has_free() const noexcept { return !free_.empty(); }
  // Precondition: has_free().
  IoUnit& take() noexcept {
    IoUnit* unit = free_.back();
    free_.pop_back();
    taken_[unit->index] = 1;
    return *unit;
  }
  void put(IoUnit& unit) noexcept {
    taken_[unit.index] = 0;
    free_.push_back(&unit);
  }
  // True when a taken unit (in flight, or loaded and about to be) works on `file` in a range that shares a
  // byte with [offset, offset + length): fio's serialize_overlap check. Scans the pool (iodepth units).
  bool overlaps_taken(int file, std::uint64_t offset, std::uint64_t length) const noexcept;

  IoUnit& unit(std::uint32_t index) noexcept { return units_[index]; }
  std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(units_.size()); }
  std::uint32_t buffer_stride() const noexcept { return stride_; }
  // The buffers, one after another (the first starts iomem_align bytes into the region).
  void* memory() const noexcept { return units_.empty() ? nullptr : units_.front().buffer; }
  std::size_t memory_bytes() const noexcept { return static_cast<std::size_t>(stride_) * units_.size(); }
  // The whole page-aligned region the buffers live in (for mbind).
  void* region() const noexcept { return memory_.data(); }
  std::size_t region_bytes() const noexcept { return memory_.size(); }
  // The units' buffers, in unit order (for engines that register them).
  std::vector<EngineBuffer> buffers() const;

 private:
  std::vector<IoUnit> units_;
  std::vector<IoUnit*> free_;
  std::vector<std::uint8_t> taken_;  // by unit index
  IoMemory memory_;
  std::uint32_t stride_ = 0;
};

}  // namespace sluice
