#pragma once
// WorkloadOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/direction.h"
#include "job/distribution.h"

namespace sluice {

enum class RwMode {
  kRead,   // sequential read
  kWrite,  // sequential write
  kRandRead,
  kRandWrite,
  kReadWrite,  // fio rw / readwrite: sequential mixed
  kRandRW,
  kTrim,
  kRandTrim,
  kRandRmw,        // sluice extension: read a random block, write it back, then the next (dependent I/O)
  kTrimWrite,      // fio trimwrite: trim a block, then write it, block after block
  kRandTrimWrite,  // fio randtrimwrite: trim a random block, then write it
};

struct BlockSizeRange {
  std::uint64_t min = 0;  // 0 = not set
  std::uint64_t max = 0;
};

struct BlockSizeSplitEntry {
  std::uint64_t size = 0;
  double percent = 0.0;  // blank percentages in fio's bssplit share the remainder equally
};

// The io pattern: directions and their mix, block sizes, offsets and their random distributions.
struct WorkloadOptions {
  RwMode rw = RwMode::kRead;
  // fio's "rw=MODE:N" modifier; 0 = none. Random modes: ios per new random offset ("randread:8").
  // Sequential modes: a hole of N bytes after each io ("write:4k").
  std::uint32_t rw_sequential_run = 0;
  bool rw_sequencer_identical = false;  // rw_sequencer=identical: the N ios of randread:N reuse one offset
  bool rw_backwards = false;            // "rw=read:-8k": rw_sequential_run bytes are a step back, not a hole
  std::uint32_t rwmixread = 50;         // percent of reads in mixed modes
  PerDirection<std::uint64_t> bs = {4096, 4096, 4096};
  PerDirection<BlockSizeRange> bsrange{};
  PerDirection<std::vector<BlockSizeSplitEntry>> bssplit{};
  PerDirection<std::uint64_t> blockalign = {0, 0, 0};  // 0 = the direction's minimum block size
  // fio's bs_is_seq_rand: bs=A,B (and bsrange, bssplit) mean sequential A and random B ios, not reads and writes.
  bool bs_is_seq_rand = false;
  bool bs_unaligned = false;  // bsrange lengths need not be multiples of the minimum
  Distribution random_distribution;
  // random_distribution=sequence: after each round of the sequence the next one is shifted by its length in
  // blocks (fio's "strided block group": 2,0,1 then 5,3,4 ...) instead of repeating the same blocks.
  bool random_sequence_stride = false;
  std::uint32_t percentage_random = 100;  // random modes: share of ios at a random offset
  bool randrepeat = true;
  std::uint64_t randseed = 0x89;  // fio's default seed base
  bool norandommap = false;
  // random_generator=lfsr: uniform random offsets come from a full-period LFSR over the blocks (each block once
  // per pass, no map; workload/lfsr.h) instead of the generator and the coverage map.
  bool lfsr_offsets = false;
  // fio's sprandom: SSD preconditioning writes that leave the steady-state invalid-block distribution of
  // spr_op over-provisioning across spr_num_regions regions (workload/sprandom.h); spr_cs != 0 defers the
  // invalidating writes by one region so they miss the device's cache.
  bool sprandom = false;
  std::uint32_t spr_num_regions = 100;
  double spr_op = 0.15;
  std::uint64_t spr_cs = 0;  // bytes
  // Helpers derived from rw.
  bool is_random() const noexcept {
    return rw == RwMode::kRandRead || rw == RwMode::kRandWrite || rw == RwMode::kRandRW || rw == RwMode::kRandTrim ||
           rw == RwMode::kRandRmw || rw == RwMode::kRandTrimWrite;
  }
  bool does_reads() const noexcept {
    return rw == RwMode::kRead || rw == RwMode::kRandRead || rw == RwMode::kReadWrite || rw == RwMode::kRandRW ||
           rw == RwMode::kRandRmw;
  }
  bool does_writes() const noexcept {
    return rw == RwMode::kWrite || rw == RwMode::kRandWrite || rw == RwMode::kReadWrite || rw == RwMode::kRandRW ||
           rw == RwMode::kRandRmw || is_trimwrite();
  }
  bool does_trims() const noexcept { return rw == RwMode::kTrim || rw == RwMode::kRandTrim || is_trimwrite(); }
  bool is_trimwrite() const noexcept { return rw == RwMode::kTrimWrite || rw == RwMode::kRandTrimWrite; }
  // Each io of the pattern (a read, or a trim) is followed by the write of the same block (workload/rmw_chains.h).
  bool is_chained() const noexcept { return rw == RwMode::kRandRmw || is_trimwrite(); }
  bool is_mixed() const noexcept { return rw == RwMode::kReadWrite || rw == RwMode::kRandRW; }
  // fio's td_min_bs: the smallest block size of any direction (bs, bsrange's minimum, bssplit's smallest).
  std::uint64_t min_block_size() const noexcept;
  // The same for one direction.
  std::uint64_t min_block_size(Direction d) const noexcept;
};

std::string_view rw_mode_name(RwMode mode) noexcept;  // fio spelling: "randread", "rw", ...

}  // namespace sluice
