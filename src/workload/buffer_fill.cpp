#include "workload/buffer_fill.h"

#include <algorithm>
#include <cstring>

namespace sluice {

BufferFillPolicy BufferFillPolicy::from_options(const BufferOptions& buffers, bool refill_buffers_given) {
  BufferFillPolicy policy;
  policy.refill_each_write = buffers.refill_buffers;
  if (!buffers.buffer_pattern.empty()) {
    policy.content = BufferContent::kPattern;  // fio: a pattern wins over the other contents
    policy.pattern = buffers.buffer_pattern;
    policy.refill_each_write = false;
  } else if (buffers.zero_buffers || buffers.buffer_compress_percentage >= 100) {
    policy.content = BufferContent::kZero;  // fio turns 100% compressible into zero_buffers too
  } else if (buffers.buffer_compress_percentage > 0) {
    policy.content = BufferContent::kCompressible;
    policy.compress_percentage = buffers.buffer_compress_percentage;
    policy.compress_chunk = buffers.buffer_compress_chunk;
    // fio refills compressible buffers per write unless refill_buffers was given explicitly, so the
    // data written over the whole file compresses as asked, not just one repeated buffer.
    if (!refill_buffers_given) policy.refill_each_write = true;
  }
  return policy;
}

void fill_buffer(void* data, std::size_t length, const BufferFillPolicy& policy, Rng& rng) noexcept {
  auto* bytes = static_cast<unsigned char*>(data);
  switch (policy.content) {
    case BufferContent::kZero:
      std::memset(bytes, 0, length);
      return;
    case BufferContent::kRandom:
      fill_random({bytes, length}, rng);
      return;
    case BufferContent::kPattern: {
      const std::size_t n = policy.pattern.size();
      if (n == 0) {
        std::memset(bytes, 0, length);
        return;
      }
      for (std::size_t at = 0; at < length; at += n) {
        std::memcpy(bytes + at, policy.pattern.data(), std::min(n, length - at));
      }
      return;
    }
    case BufferContent::kCompressible: {
      // In each chunk (buffer_compress_chunk; 0 = the whole buffer): random bytes first, then
      // compress_percentage percent of zeros, as fio's fill_random_buf_percentage.
      const std::size_t percent = std::min<std::size_t>(policy.compress_percentage, 100);
      const std::size_t step = policy.compress_chunk != 0 ? policy.compress_chunk : length;
      for (std::size_t at = 0; at < length; at += step) {
        const std::size_t chunk = std::min(step, length - at);
        const std::size_t random_part = chunk - chunk * percent / 100;
        fill_random({bytes + at, random_part}, rng);
        std::memset(bytes + at + random_part, 0, chunk - random_part);
      }
      return;
    }
  }
}

}  // namespace sluice
