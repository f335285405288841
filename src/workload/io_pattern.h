#pragma once
// IoPattern: decides, io after io, what a job does next: direction, file, offset, length. It combines the
// direction chooser (rw, rwmixread), the block-size chooser (bs, bsrange, bssplit, blockalign), the offset
// generator per file (sequential; uniform random with a coverage map so each block is touched once per pass
// unless norandommap; zipf, pareto, normal) and the size-based termination (size x loops, io_size,
// number_ios), and fio's strided zones (zonemode=strided). Time-based jobs wrap around and never end on size.
//
// Threads: one per worker, not shared. next() never allocates.
#include <cstdint>
#include <memory>
#include <vector>

#include "common/direction.h"
#include "workload/pattern_job.h"

namespace sluice {

// The part of one file a job does I/O on.
struct FileRegion {
  std::uint64_t start = 0;      // byte offset of the region in the file
  std::uint64_t length = 0;     // bytes
  std::uint64_t file_size = 0;  // the whole file's size (zonemode=strided walks up to it); 0 = the region's end
};

struct NextIo {
  Direction direction = Direction::kRead;
  int file_index = 0;
  std::uint64_t offset = 0;  // absolute offset in the file
  std::uint32_t length = 0;
  bool starts_pass = false;  // the first io of a new pass over its file (a wrap, a loop), not of the first pass
  bool starts_loop = false;  // the first io of a new loop (loops=N, not a wrap), not of the first loop
};

class IoPattern {
 public:
  // seed: the job clone's seed (randseed + its position in the run unless randrepeat=0; see run/plan.h).
  IoPattern(const PatternJob& job, std::vector<FileRegion> regions, std::uint64_t seed);
  ~IoPattern();
  IoPattern(IoPattern&&) noexcept;
  IoPattern& operator=(IoPattern&&) noexcept;

  // Fills `out` with the next io; returns false when the size-based end is reached (never when time_based).
  bool next(NextIo& out) noexcept;
  // zonemode=zbd moved or shortened the io next() just gave (run/zoned_file.h), and may have made it a write:
  // the file's sequential position for `direction` goes on from `resume_at` (absolute, fio's last_pos), and
  // the byte budget counts `length` instead of the length drawn.
  void redirect_last(const NextIo& drawn, Direction direction, std::uint64_t resume_at, std::uint32_t length) noexcept;

  // The job's statistics start over (the end of its ramp, latency_target's restart): the per-direction io
  // numbers that random_distribution=sequence follows count from 0 again, as fio's reset_all_stats zeroes
  // io_issues. Positions, maps and the byte budget go on. `drawn`: an io next() gave that has not started yet
  // (waiting for its rate), or null; it is counted in the new window, so it takes number 0 of its direction
  // (its offset and length may change; fio picks an offset after the wait).
  void restart_io_numbers(NextIo* drawn) noexcept;

  // Bytes the job will transfer when size-based (for ETA); 0 when time_based or unknown.
  std::uint64_t planned_bytes() const noexcept;
  // Largest length next() can return (to size buffers).
  std::uint32_t max_block_size() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sluice
