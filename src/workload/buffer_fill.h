#pragma once
// Write buffer contents: random and incompressible by default (storage that compresses or deduplicates must
// not get a free ride), zeros with zero_buffers, or partly compressible with buffer_compress_percentage
// (that share of each buffer_compress_chunk bytes is zeros, the rest random), or buffer_pattern repeated.
// refill_buffers refreshes them per write.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/rng.h"
#include "job/buffer_options.h"

namespace sluice {

enum class BufferContent { kRandom, kZero, kCompressible, kPattern };

struct BufferFillPolicy {
  BufferContent content = BufferContent::kRandom;
  std::uint32_t compress_percentage = 0;  // for kCompressible
  std::uint32_t compress_chunk = 512;     // for kCompressible: bytes per random-then-zeros run (0 = the buffer)
  bool refill_each_write = false;
  std::string pattern;  // for kPattern (buffer_pattern): repeated from each buffer's start
  // refill_buffers_given: refill_buffers was set (JobSpec::explicitly_given); when not, compressible
  // buffers are refilled per write.
  static BufferFillPolicy from_options(const BufferOptions& buffers, bool refill_buffers_given);
};

// Fills `length` bytes at `data` per the policy; fast (8 bytes per Rng step).
void fill_buffer(void* data, std::size_t length, const BufferFillPolicy& policy, Rng& rng) noexcept;

}  // namespace sluice
