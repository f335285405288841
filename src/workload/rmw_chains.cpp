#include "workload/rmw_chains.h"

#include "job/job_spec.h"

namespace sluice {

RmwChains::RmwChains(std::uint32_t chains) : blocks_(chains == 0 ? 1 : chains), order_(blocks_.size(), 0) {}

JobSpec RmwChains::pattern_spec(const JobSpec& job) {
  JobSpec reads = job;
  if (job.workload.rw == RwMode::kRandRmw) reads.workload.rw = RwMode::kRandRead;
  if (job.workload.rw == RwMode::kTrimWrite) reads.workload.rw = RwMode::kTrim;
  if (job.workload.rw == RwMode::kRandTrimWrite) reads.workload.rw = RwMode::kRandTrim;
  return reads;
}

void RmwChains::read_done(std::uint32_t chain, const NextIo& read) noexcept {
  NextIo& block = blocks_[chain];
  block = read;
  block.direction = Direction::kWrite;
  order_[(head_ + count_) % order_.size()] = chain;
  ++count_;
}

bool RmwChains::take_write(std::uint32_t& chain, NextIo& write) noexcept {
  if (count_ == 0) return false;
  chain = order_[head_];
  head_ = static_cast<std::uint32_t>((head_ + 1) % order_.size());
  --count_;
  write = blocks_[chain];
  return true;
}

}  // namespace sluice
