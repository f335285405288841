#include "suites/sysbench_requests.h"

#include <algorithm>

namespace sluice {

SysbenchRequests::SysbenchRequests(const SysbenchOptions& options, std::uint64_t seed)
    : options_(options),
      file_size_(options.file_size()),
      rng_(seed),
      per_thread_(options.threads > 0 ? options.threads : 1) {}

SysbenchOp SysbenchRequests::data_op(std::uint32_t thread) const noexcept {
  switch (*options_.mode) {
    case SysbenchMode::kSeqrd:
    case SysbenchMode::kRndrd:
      return SysbenchOp::kRead;
    case SysbenchMode::kRndrw: {
      const SysbenchCounts& done = per_thread_[thread];
      const double ratio = static_cast<double>(done.reads + 1) / static_cast<double>(done.writes + 1);
      return ratio < options_.rw_ratio ? SysbenchOp::kRead : SysbenchOp::kWrite;
    }
    default:
      return SysbenchOp::kWrite;
  }
}

SysbenchRequest SysbenchRequests::next(std::uint32_t thread) {
  std::lock_guard lock(mutex_);
  if (options_.events != 0 && handed_out_ >= options_.events) return {};
  ++handed_out_;
  if (options_.fsync_freq != 0 && dirty_ && data_requests_ % options_.fsync_freq == 0) {
    SysbenchRequest r{SysbenchOp::kFsync, fsync_cursor_, 0, 0};
    if (++fsync_cursor_ == options_.file_num) {
      fsync_cursor_ = 0;
      dirty_ = false;
    }
    return r;
  }
  const SysbenchOp op = data_op(thread);
  ++data_requests_;
  if (op == SysbenchOp::kWrite) dirty_ = true;
  return sysbench_mode_sequential(*options_.mode) ? next_sequential(op) : next_random(op);
}

SysbenchRequest SysbenchRequests::next_sequential(SysbenchOp op) {
  const std::uint64_t size = std::min(options_.seq_request_size(), file_size_ - seq_pos_);
  SysbenchRequest r{op, seq_file_, seq_pos_, static_cast<std::uint32_t>(size)};
  seq_pos_ += size;
  if (seq_pos_ >= file_size_) {
    seq_pos_ = 0;
    if (++seq_file_ == options_.file_num) seq_file_ = 0;
  }
  return r;
}

SysbenchRequest SysbenchRequests::next_random(SysbenchOp op) {
  const std::uint64_t total = file_size_ * options_.file_num;
  std::uint64_t offset = static_cast<std::uint64_t>(rng_.uniform() * static_cast<double>(total));
  offset -= offset % options_.block_size;
  const std::uint64_t pos = offset % file_size_;
  const std::uint64_t size = std::min(options_.block_size, file_size_ - pos);
  return {op, static_cast<std::uint32_t>(offset / file_size_), pos, static_cast<std::uint32_t>(size)};
}

void SysbenchRequests::complete(SysbenchOp op, std::uint64_t bytes, std::uint64_t latency_ns,
                                std::uint32_t inner_fsyncs, std::uint32_t thread) {
  std::lock_guard lock(mutex_);
  for (SysbenchCounts* c : {&totals_, &interval_, &per_thread_[thread]}) {
    if (op == SysbenchOp::kRead) {
      ++c->reads;
      c->bytes_read += bytes;
    } else if (op == SysbenchOp::kWrite) {
      ++c->writes;
      c->bytes_written += bytes;
    } else {
      ++c->fsyncs;
    }
    c->fsyncs += inner_fsyncs;
    ++c->events;
  }
  histogram_.record(latency_ns);
  interval_histogram_.record(latency_ns);
}

void SysbenchRequests::count_end_fsyncs(std::uint64_t n) {
  std::lock_guard lock(mutex_);
  totals_.fsyncs += n;
  interval_.fsyncs += n;
}

SysbenchCounts SysbenchRequests::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

LatencyHistogram SysbenchRequests::histogram() const {
  std::lock_guard lock(mutex_);
  return histogram_;
}

void SysbenchRequests::take_interval(SysbenchCounts& counts, LatencyHistogram& histogram) {
  std::lock_guard lock(mutex_);
  counts = interval_;
  histogram = interval_histogram_;
  interval_ = {};
  interval_histogram_.reset();
}

}  // namespace sluice
