#pragma once
// fio's sprandom (fio 3.41+): SSD preconditioning that writes the device's physical capacity once, choosing
// offsets so that, region after region of the write stream, the share of blocks overwritten later follows the
// invalid-block distribution a greedy garbage collector sees at steady state under random writes.
//
// The model (Desnoyers, "Analytic Models of SSD Write Performance", 2012, as fio uses it): write
// amplification WA = 0.5 / op + 0.7 for the over-provisioning op; the block garbage collection picks holds
// v_gc = 1 - 1/WA valid data; at steady state, validity times the space blocks of that validity take is
// constant, so validities spread evenly from 1 down to v_gc take space in proportion to 1/v. Resampled into
// equal regions of the physical space, region r (0 = written first, lowest validity) has validity close to
// v_gc^(1 - r/(n-1)) (the continuous limit: equal areas under 1/v are equal steps of log v).
//
// SprandomOffsets replays that: blocks come from a full-period LFSR over the logical blocks; each write of
// region r is remembered with probability 1 - validity(r) and written again in region r+1 (at its start, or,
// with a cache size, at its end so that the first copy has left the device's cache), which leaves it invalid
// in region r. Each region holds region_writes writes, new and repeated ones together.
//
// Threads: one per owner, not shared. next_write() allocates only if a region remembers more blocks than the
// estimate reserved up front (mean plus six standard deviations, as fio; fio stops there).
#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.h"
#include "workload/lfsr.h"

namespace sluice {

// fio's invalidation percentages are kept in units of 1/10000.
inline constexpr std::uint32_t kSprandomPrecision = 10000;

// The sizes and per-region targets of one sprandom file.
struct SprandomPlan {
  std::uint64_t logical_bytes = 0;   // the job's region of the file
  std::uint64_t physical_bytes = 0;  // logical + ceil(logical x op), rounded up to whole blocks (fio 3.42)
  std::uint64_t block_bytes = 0;     // the write block size
  std::uint64_t region_bytes = 0;    // physical / regions (the last bytes of the division are never written)
  std::uint64_t region_writes = 0;   // region_bytes / block_bytes
  std::uint32_t regions = 0;
  std::vector<double> validity;                  // per region, region 0 (written first) holding the least valid data
  std::vector<std::uint32_t> invalid_per_10000;  // round((1 - validity) x 10000), per region
};

// Steady-state validity of `regions` equal regions at over-provisioning `op` (0 < op < 1), region 0 the least
// valid: fio's curve (validities evenly spaced from 1 to v_gc, each taking space 1/v), resampled by linear
// interpolation at equal steps of cumulative space. regions >= 1.
std::vector<double> sprandom_validity(std::uint32_t regions, double op);

// Physical capacity for `logical_bytes` at over-provisioning `op`, rounded up to whole `block_bytes`.
std::uint64_t sprandom_physical_bytes(std::uint64_t logical_bytes, double op, std::uint64_t block_bytes) noexcept;

// The whole plan. regions >= 1, block_bytes >= 1, 0 < op < 1. The per-region vectors stay empty when a region
// would hold no block (see sprandom_plan_problem).
SprandomPlan plan_sprandom(std::uint64_t logical_bytes, std::uint64_t block_bytes, std::uint32_t regions, double op);

// Why the plan cannot run ("" when it can): regions smaller than one block, or (cache_bytes != 0) smaller
// than the cache, which fio refuses as well. Phrased to follow "sprandom: ".
std::string sprandom_plan_problem(const SprandomPlan& plan, std::uint64_t cache_bytes);

struct PatternJob;  // workload/pattern_job.h
// The plan of the job's spr_* options over `logical_bytes` (the job's region of its file) in blocks of
// `block_bytes`; throws UserError ("file:line: job NAME: sprandom over N bytes: ...") when it cannot run.
SprandomPlan job_sprandom_plan(const PatternJob& job, std::uint64_t logical_bytes, std::uint64_t block_bytes);

class SprandomOffsets {
 public:
  SprandomOffsets() = default;
  // Offsets for `plan` over `lfsr_blocks` blocks (the logical blocks, fio's file LFSR); cache_bytes != 0
  // defers each region's repeats to the end of the next region (fio's spr_cs).
  SprandomOffsets(const SprandomPlan& plan, std::uint64_t cache_bytes, std::uint64_t lfsr_blocks, std::uint64_t seed);

  // The block of the next write; false once the sequence is over: the LFSR gave every block (the repeats
  // remembered for later are dropped, except with a cache size, where those already due are written first),
  // or the region after the last (fio's region index runs one past the plan) is full. Stays false after.
  bool next_write(std::uint64_t& block) noexcept;
  // The block of another direction's io (randrw's reads): the next block of the same LFSR, as fio's reads
  // share the file's LFSR with sprandom's writes. False when it is used up.
  bool next_other(std::uint64_t& block) noexcept;
  // fio's fio_file_reset under time_based: the LFSR starts its sequence over, the plan's state (region,
  // repeats due) stays, and the sequence is asked again (next_write may then give one more block: see
  // workload/io_pattern_sprandom.cpp).
  void restart_lfsr() noexcept;

  // Index of the region the last write went to (may equal the plan's region count: the extra region).
  std::uint32_t region() const noexcept { return region_; }

 private:
  bool pop_due(std::uint64_t& block) noexcept;
  void maybe_remember(std::uint64_t block) noexcept;
  void start_next_region() noexcept;

  std::vector<std::uint32_t> invalid_per_10000_;
  std::uint64_t region_writes_ = 0;
  bool deferred_ = false;  // spr_cs given: repeats at the end of the next region
  Lfsr lfsr_;
  Rng rng_;
  std::vector<std::uint64_t> due_;  // blocks to write again in this region
  std::size_t due_next_ = 0;
  std::vector<std::uint64_t> remembered_;  // blocks of this region to write again in the next
  std::uint64_t new_left_ = 0;             // LFSR blocks still to write in this region
  std::uint32_t region_ = 0;
  bool finished_ = false;
  bool empty_ = false;  // no logical block: nothing ever comes
};

}  // namespace sluice
