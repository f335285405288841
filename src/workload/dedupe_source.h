#pragma once
// DedupeSource: fio's dedupe_percentage for write buffers. It says which generator fills the next write
// buffer: a new unique one, or one that repeats earlier content. Unique buffers are numbered per stream, and
// buffer k of a stream is always the bytes of unique_buffer(stream, k), so a dedupe buffer is a byte-for-byte
// copy of a unique buffer of the same length:
//  - repeat (fio's default): the last unique buffer (the first one while none was written yet);
//  - working_set: a random one of the stream's first working_set_pages unique buffers (fio: "the initial
//    unique write buffers"), which the job writes as unique buffers too;
//  - working_set with dedupe_global: the pages are spread over the run's streams in equal runs, this clone's
//    own first, then the next clones' (fio's rotation over its threads), so jobs repeat each other's data.
// 100 percent: every buffer is the first unique one (fio's all-identical buffers).
//
// Threads: one per job clone, not shared. next() never allocates.
#include <cstdint>
#include <vector>

#include "common/rng.h"

namespace sluice {

struct DedupeConfig {
  std::uint32_t percentage = 0;               // of write buffers that repeat earlier content, 1-100
  bool working_set = false;                   // dedupe_mode=working_set (else repeat)
  std::uint64_t working_set_pages = 0;        // unique buffers the working set holds (at least 1 is used)
  std::uint64_t stream = 0;                   // this clone's stream of unique buffers
  std::vector<std::uint64_t> shared_streams;  // dedupe_global: every clone's stream, in run order; else empty
  std::size_t own_index = 0;                  // this clone's place in shared_streams
};

class DedupeSource {
 public:
  // seed: the clone's seed for the two choices (dedupe or not, which page).
  DedupeSource(DedupeConfig config, std::uint64_t seed);

  // The generator to fill the next write buffer from (fill_buffer with the job's BufferFillPolicy).
  Rng next() noexcept;

  // The generator of unique buffer `index` of `stream`.
  static Rng unique_buffer(std::uint64_t stream, std::uint64_t index) noexcept;

  std::uint64_t unique_buffers() const noexcept { return uniques_; }
  std::uint64_t dedupe_buffers() const noexcept { return dedupes_; }

 private:
  Rng working_set_page() noexcept;

  DedupeConfig config_;
  Rng choice_rng_;
  Rng page_rng_;
  std::uint64_t uniques_ = 0;
  std::uint64_t dedupes_ = 0;
};

}  // namespace sluice
