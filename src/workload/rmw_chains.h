#pragma once
// RmwChains: the sequencing of rw=randrmw (sluice extension, dependent I/O) and of fio's trimwrite and
// randtrimwrite. A transaction reads (trims) a block and then writes the same block (fresh buffer
// content) before its chain starts the next transaction. For trimwrite fio issues the write without waiting
// for the trim, so at iodepth > 1 a trim may land after the write of its block and discard it; sluice
// waits for the trim (the write is what the mode means to measure after a trim). With iodepth N there are N independent
// chains: chain i is the io slot i, so a chain never has more than one io in flight and chains never wait for each
// other.
//
// The pattern supplies the reads (a random-read pattern over the job's region, see pattern_spec); this
// class turns each completed read into the write that must follow it. Pure bookkeeping: no I/O, no
// clock. Threads: one per worker, not shared. No allocation after construction.
#include <cstdint>
#include <vector>

#include "workload/io_pattern.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

class RmwChains {
 public:
  // chains: the job's io depth (one chain per io slot).
  explicit RmwChains(std::uint32_t chains);

  // The spec the first ios are drawn from: rw=randrmw reads like rw=randread (same region, block sizes,
  // distribution and termination: a pass reads every block once, and writes it once); trimwrite trims like
  // rw=trim, randtrimwrite like rw=randtrim.
  static JobSpec pattern_spec(const JobSpec& job);

  // The read (or trim) `read` of `chain` completed successfully: the chain's write of the same block is due.
  // Contract: chain < chains() and the chain has no write due.
  void read_done(std::uint32_t chain, const NextIo& read) noexcept;
  // Takes the oldest due write: sets chain and write (same file, offset and length as its read, direction
  // write). Returns false when no write is due.
  bool take_write(std::uint32_t& chain, NextIo& write) noexcept;
  // Due writes not yet taken.
  std::uint32_t writes_due() const noexcept { return count_; }
  std::uint32_t chains() const noexcept { return static_cast<std::uint32_t>(blocks_.size()); }

 private:
  std::vector<NextIo> blocks_;        // per chain: the block its due write goes to
  std::vector<std::uint32_t> order_;  // ring of chains with a write due, oldest first
  std::uint32_t head_ = 0;
  std::uint32_t count_ = 0;
};

}  // namespace sluice
