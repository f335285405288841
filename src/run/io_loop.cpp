#include "run/io_loop.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>

#include <fmt/format.h>

#include "common/clock.h"
#include "common/error.h"
#include "run/stop_signal.h"

namespace sluice {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint32_t kBufferAlignment = 4096;

std::vector<FileRegion> regions_of(const std::vector<TargetFile>& targets) {
  std::vector<FileRegion> regions;
  regions.reserve(targets.size());
  for (const TargetFile& t : targets) regions.push_back({t.region_start, t.region_length});
  return regions;
}

Direction direction_of(IoOp op) noexcept {
  switch (op) {
    case IoOp::kWrite: return Direction::kWrite;
    case IoOp::kTrim: return Direction::kTrim;
    default: return Direction::kRead;
  }
}

IoOp op_of(Direction d) noexcept {
  switch (d) {
    case Direction::kWrite: return IoOp::kWrite;
    case Direction::kTrim: return IoOp::kTrim;
    default: return IoOp::kRead;
  }
}

// Without refill_buffers the same buffer is written again and again; changing one word per 512-byte sector
// per write keeps deduplicating storage from collapsing the writes (fio's scramble_buffers does the same).
void scramble(void* buffer, std::uint32_t length, Rng& rng) noexcept {
  auto* bytes = static_cast<unsigned char*>(buffer);
  const std::uint64_t salt = rng.next();
  for (std::uint32_t pos = 0; pos + sizeof(std::uint64_t) <= length; pos += 512) {
    std::uint64_t word;
    std::memcpy(&word, bytes + pos, sizeof word);
    word ^= salt + pos;
    std::memcpy(bytes + pos, &word, sizeof word);
  }
}

// Ios per submit call. iodepth_batch_submit=N as given submits in groups of N, as fio (1: each io alone,
// 0: iodepth). Not given: groups of kDefaultSubmitGroup. Measured on a virtio disk (bench/README.md), one
// call for every io ready at once (often 8-16 after a reap) served 25% fewer IOPS than fio's one io per
// call: the device starts nothing until the whole batch is queued. Groups of 4 serve as many IOPS as one
// per call and keep most of the syscall saving.
std::uint32_t submit_group_size(const JobSpec& job, std::uint32_t depth) {
  constexpr std::uint32_t kDefaultSubmitGroup = 4;
  const bool given =
      job.given_options.count("iodepth_batch_submit") != 0 || job.given_options.count("iodepth_batch") != 0;
  const std::uint32_t wanted =
      !given ? kDefaultSubmitGroup : (job.iodepth_batch_submit == 0 ? depth : job.iodepth_batch_submit);
  return std::clamp<std::uint32_t>(wanted, 1, depth);
}

double thread_cpu_seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; }

}  // namespace

IoLoop::IoLoop(const JobInstance& instance, const std::vector<TargetFile>& targets, std::uint64_t series_interval_ns)
    : instance_(instance),
      job_(instance.spec),
      targets_(targets),
      pattern_(RmwChains::pattern_spec(instance.spec), regions_of(targets), instance.seed),
      schedule_(instance.spec, instance.seed ^ 0x5851f42d4c957f2dull),
      open_loop_(instance.spec, std::max<std::uint32_t>(1, instance.spec.iodepth)),
      fill_policy_(BufferFillPolicy::from_job(instance.spec)),
      buffer_rng_(instance.seed ^ 0x2545f4914f6cdd1dull),
      file_written_(targets.size(), false),
      series_interval_ns_(series_interval_ns) {}

IoLoop::~IoLoop() {
  if (engine_) engine_->close();
  std::free(buffer_memory_);
}

void IoLoop::prepare() {
  engine_ = make_engine(job_.ioengine);
  caps_ = engine_->caps();
  depth_ = std::max<std::uint32_t>(1, job_.iodepth);
  if (!caps_.async) depth_ = 1;  // a synchronous engine keeps one io in flight (validation warned)
  if (job_.rw == RwMode::kRandRmw) rmw_ = std::make_unique<RmwChains>(depth_);
  record_lat_ = caps_.async || open_loop_.enabled();
  submit_batch_size_ = submit_group_size(job_, depth_);
  complete_min_ = std::clamp<std::uint32_t>(job_.iodepth_batch_complete_min, 1, depth_);
  complete_max_ = job_.iodepth_batch_complete_max == 0 ? depth_ : std::clamp(job_.iodepth_batch_complete_max, 1u, depth_);

  const std::uint32_t max_bs = std::max<std::uint32_t>(pattern_.max_block_size(), 512);
  buffer_stride_ = (max_bs + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  if (posix_memalign(&buffer_memory_, kBufferAlignment, static_cast<std::size_t>(buffer_stride_) * depth_) != 0) {
    throw UserError(fmt::format("job {}: cannot allocate {} io buffers of {} bytes", job_.name, depth_, buffer_stride_));
  }
  fill_buffer(buffer_memory_, static_cast<std::size_t>(buffer_stride_) * depth_, fill_policy_, buffer_rng_);

  logs_ = JobLogs::create(job_, instance_.lognum);
  verifier_ = Verifier::create(instance_, targets_, depth_);
  std::vector<std::string> paths;
  for (const TargetFile& t : targets_) paths.push_back(t.path);
  hooks_ = JobHooks::create(instance_, std::move(paths), control_);
  units_.resize(depth_);
  free_units_.clear();
  EngineSetup setup;
  setup.depth = depth_;
  setup.direct = job_.direct;
  setup.writes = job_.does_writes() || job_.does_trims();
  setup.uring = {.register_files = job_.uring_registerfiles,
                 .fixed_buffers = job_.uring_fixedbufs,
                 .sqpoll = job_.uring_sqthread_poll,
                 .sqpoll_cpu = job_.uring_sqthread_poll_cpu,
                 .iopoll = job_.uring_hipri,
                 .vectored = !job_.uring_nonvectored,
                 .force_async_every = job_.uring_force_async};
  for (const TargetFile& t : targets_) {
    setup.fds.push_back(t.fd);
    setup.file_sizes.push_back(t.size);
  }
  for (std::uint32_t i = 0; i < depth_; ++i) {
    IoUnit& unit = units_[i];
    unit.index = i;
    unit.buffer = static_cast<char*>(buffer_memory_) + static_cast<std::size_t>(i) * buffer_stride_;
    unit.buffer_index = static_cast<int>(i);
    setup.buffers.push_back({unit.buffer, buffer_stride_});
  }
  for (std::uint32_t i = depth_; i > 0; --i) free_units_.push_back(&units_[i - 1]);
  batch_.reserve(depth_);
  completions_.resize(depth_);
  engine_->open(setup);
}

void IoLoop::begin_measuring(std::uint64_t now) {
  measuring_ = true;
  // The measured window is runtime long from here, however late after ramp_time the loop noticed.
  if (job_.runtime.count() > 0) end_ns_ = now + static_cast<std::uint64_t>(job_.runtime.count());
  live_->measuring.store(true, std::memory_order_relaxed);
  result_->start_ns = now;
  next_interval_ns_ = now + series_interval_ns_;
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  result_->cpu.user_seconds = -thread_cpu_seconds(usage.ru_utime);
  result_->cpu.system_seconds = -thread_cpu_seconds(usage.ru_stime);
  result_->cpu.context_switches = 0 - static_cast<std::uint64_t>(usage.ru_nvcsw + usage.ru_nivcsw);
  result_->cpu.major_faults = 0 - static_cast<std::uint64_t>(usage.ru_majflt);
  result_->cpu.minor_faults = 0 - static_cast<std::uint64_t>(usage.ru_minflt);
}

void IoLoop::run(JobResult& result, LiveCounters& live) {
  result_ = &result;
  live_ = &live;
  result.series = TimeSeries(series_interval_ns_);
  if (schedule_.limited() || job_.thinktime.count() > 0) prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  now_ = monotonic_ns();
  if (job_.startdelay.count() > 0) {
    sleep_until(now_ + static_cast<std::uint64_t>(job_.startdelay.count()));
    now_ = monotonic_ns();
  }
  ramp_end_ns_ = now_ + static_cast<std::uint64_t>(job_.ramp_time.count());
  end_ns_ = job_.runtime.count() > 0 ? ramp_end_ns_ + static_cast<std::uint64_t>(job_.runtime.count()) : kNever;
  schedule_.start(now_);
  if (job_.ramp_time.count() == 0) begin_measuring(now_);
  if (verifier_ && job_.verify_only) start_verify_only();

  while (end_reason_ == EndReason::kNone) {
    if (stop_requested()) { end_reason_ = EndReason::kStop; break; }
    if (now_ >= end_ns_ || stopped_by_flag()) { end_reason_ = EndReason::kTime; break; }
    if (!measuring_ && now_ >= ramp_end_ns_) begin_measuring(now_);
    if (hooks_) {
      const JobHooks::Verdict verdict = hooks_->poll(now_, measuring_, *result_);
      if (verdict != JobHooks::Verdict::kContinue) {
        end_reason_ = verdict == JobHooks::Verdict::kEnd ? EndReason::kTime : EndReason::kError;
        break;
      }
    }

    if (sync_due_ && in_flight_ == 0) {
      issue_sync(job_.fdatasync_blocks ? IoOp::kFdatasync : IoOp::kFsync, last_write_file_);
      continue;
    }
    if (verifier_ && verifier_->map().backlog_due()) run_verify_reads(true);
    fill_and_submit();
    if (in_flight_ == 0) {
      if (pattern_done_ && !has_pending_ && !rmw_writes_due()) { end_reason_ = EndReason::kPatternDone; break; }
      if (waiting_for_rate_) {
        sleep_until(std::min(pending_arrival_ns_, end_ns_));
        now_ = monotonic_ns();
      }
      continue;
    }
    const bool can_issue =
        (rmw_writes_due() || (!free_units_.empty() && !(pattern_done_ && !has_pending_) && !waiting_for_rate_)) &&
        !sync_due_;
    reap(can_issue ? 0 : complete_min_);
    if (waiting_for_rate_ && now_ < pending_arrival_ns_) {
      // In flight and waiting for the next arrival: poll completions at a fine grain.
      sleep_until(std::min({pending_arrival_ns_, now_ + 20'000, end_ns_}));
      now_ = monotonic_ns();
    }
  }
  if (verifier_) finish_verify();
  finish(now_);
}

void IoLoop::fill_and_submit() {
  waiting_for_rate_ = false;
  // At most one queue's worth per turn: a synchronous engine frees its unit inside submit(), and the main
  // loop must get to check the clock and the stop request between ios.
  for (std::uint32_t issued = 0; issued < depth_ && !sync_due_ && end_reason_ == EndReason::kNone; ++issued) {
    // A chain's write goes before new arrivals: its transaction is already under way.
    IoUnit* unit = rmw_writes_due() ? take_rmw_write() : take_pending();
    if (unit == nullptr) break;
    if (unit->op == IoOp::kWrite) {
      if (verifier_) {
        verifier_->fill_write(*unit);
      } else if (fill_policy_.refill_each_write) {
        fill_buffer(unit->buffer, unit->length, fill_policy_, buffer_rng_);
      } else if (fill_policy_.content != BufferContent::kZero && fill_policy_.content != BufferContent::kPattern) {
        scramble(unit->buffer, unit->length, buffer_rng_);
      }
      last_write_file_ = unit->file_index;
      file_written_[static_cast<std::size_t>(unit->file_index)] = true;
      const std::uint32_t every = job_.fsync_blocks ? job_.fsync_blocks : job_.fdatasync_blocks;
      if (every && ++writes_since_sync_ >= every) {
        writes_since_sync_ = 0;
        sync_due_ = true;
      }
    }
    batch_.push_back(unit);
    if (batch_.size() >= submit_batch_size_) submit_batch();  // see submit_group_size()
  }
  if (!batch_.empty()) submit_batch();
}

// Draws the next io from the pattern (and its arrival from the schedule) unless one is pending; true when
// it may start now. Sets waiting_for_rate_ when its arrival is still ahead.
bool IoLoop::pending_ready() {
  if (!has_pending_) {
    if (pattern_done_) return false;
    if (!pattern_.next(pending_)) {
      pattern_done_ = true;
      return false;
    }
    has_pending_ = true;
    pending_arrival_ns_ = schedule_.limited() ? schedule_.next_arrival(pending_.direction, pending_.length) : 0;
  }
  if (pending_arrival_ns_ > now_) {
    now_ = monotonic_ns();
    if (pending_arrival_ns_ > now_) {
      waiting_for_rate_ = true;
      return false;
    }
  }
  return true;
}

// A free unit loaded with the pending io, or null when none may start now. Open loop: the io is the head
// of the arrival queue; a backlog past OpenLoopQueue::kMaxBacklog ends the job with an error.
IoUnit* IoLoop::take_pending() {
  if (free_units_.empty() || !pending_ready()) return nullptr;
  if (open_loop_.enabled() && now_ > pending_arrival_ns_ + 1'000'000'000ull && pending_arrival_ns_ != 0 &&
      open_loop_.overflowing(pending_.direction, pending_.length, pending_arrival_ns_, now_)) {
    if (result_->error == 0) {
      result_->error = EOVERFLOW;
      result_->error_message =
          open_loop_.overflow_message(pending_.direction, pending_.length, pending_arrival_ns_, now_);
    }
    end_reason_ = EndReason::kError;
    return nullptr;
  }
  IoUnit* unit = free_units_.back();
  free_units_.pop_back();
  unit->op = op_of(pending_.direction);
  unit->file_index = pending_.file_index;
  unit->offset = pending_.offset;
  unit->length = pending_.length;
  has_pending_ = false;
  if (open_loop_.enabled()) open_loop_.start(static_cast<std::uint32_t>(unit->index), pending_arrival_ns_, now_);
  return unit;
}

// The unit of the oldest rmw chain whose read completed, loaded with the write of the same block.
IoUnit* IoLoop::take_rmw_write() {
  std::uint32_t chain = 0;
  NextIo write;
  if (!rmw_->take_write(chain, write)) return nullptr;
  IoUnit* unit = &units_[chain];
  unit->op = IoOp::kWrite;
  unit->file_index = write.file_index;
  unit->offset = write.offset;
  unit->length = write.length;
  if (open_loop_.enabled()) open_loop_.start(chain, 0, now_);  // not an arrival: lat from its own start
  return unit;
}

void IoLoop::submit_batch() {
  const std::uint64_t start = monotonic_ns();
  for (IoUnit* unit : batch_) unit->start_ns = start;
  std::size_t done = 0;
  while (done < batch_.size()) {
    const int accepted = engine_->submit(std::span<IoUnit* const>(batch_.data() + done, batch_.size() - done));
    const std::uint64_t issued = monotonic_ns();
    for (std::size_t i = done; i < done + static_cast<std::size_t>(accepted); ++i) {
      batch_[i]->issue_ns = caps_.async ? issued : start;
    }
    if (accepted > 0) {
      in_flight_ += static_cast<std::uint32_t>(accepted);
      done += static_cast<std::size_t>(accepted);
      if (measuring_) {
        result_->depth.submit[static_cast<std::size_t>(IodepthDistribution::batch_bucket(static_cast<std::uint32_t>(accepted)))]++;
        result_->depth.total_submit_calls++;
        result_->depth.level[static_cast<std::size_t>(IodepthDistribution::level_bucket(in_flight_))] +=
            static_cast<std::uint64_t>(accepted);
      }
    }
    now_ = issued;
    if (!caps_.async) {
      reap(0);  // a synchronous engine finished the io inside submit(); its completion time is `issued`
    } else if (accepted == 0) {
      reap(1);  // the queue is full: make room
    }
  }
  batch_.clear();
}

void IoLoop::reap(unsigned min_events) {
  min_events = std::min(min_events, in_flight_);
  const std::size_t room = std::min<std::size_t>(complete_max_, in_flight_);
  if (room == 0) return;
  const int n = engine_->reap(min_events, std::span<IoUnit*>(completions_.data(), std::max<std::size_t>(room, 1)));
  if (caps_.async) now_ = monotonic_ns();
  if (n <= 0) return;
  if (measuring_) {
    result_->depth.complete[static_cast<std::size_t>(IodepthDistribution::batch_bucket(static_cast<std::uint32_t>(n)))]++;
    result_->depth.total_complete_calls++;
  }
  for (int i = 0; i < n; ++i) complete(*completions_[static_cast<std::size_t>(i)], now_);
  if (measuring_ && now_ >= next_interval_ns_) close_intervals(now_);
}

void IoLoop::complete(IoUnit& unit, std::uint64_t now) {
  --in_flight_;
  if (rmw_ && unit.op == IoOp::kRead && unit.result >= 0) {
    // The chain keeps its unit: the write of the same block is due next (it reuses the buffer).
    rmw_->read_done(static_cast<std::uint32_t>(unit.index),
                    NextIo{Direction::kRead, unit.file_index, unit.offset, unit.length});
  } else {
    free_units_.push_back(&unit);
  }
  if (unit.op == IoOp::kFsync || unit.op == IoOp::kFdatasync) {
    if (unit.result < 0 && !job_.continue_on_error) fail(unit);
    if (measuring_) {
      result_->sync.ios++;
      result_->sync.lat.record(now - unit.start_ns);
    }
    return;
  }
  if (unit.result < 0) {
    if (!job_.continue_on_error) fail(unit);
    else if (measuring_) result_->dirs[index_of(direction_of(unit.op))].errors++;
    return;
  }
  if (verifier_ && !verifier_->on_complete(unit, *result_)) end_reason_ = EndReason::kError;
  if (measuring_ && now <= end_ns_) {
    account_io(unit, now);
    if (rmw_ && unit.op == IoOp::kWrite) result_->rmw_transactions++;
  }
  if (job_.thinktime.count() > 0 && ++ios_since_think_ >= std::max(1u, job_.thinktime_blocks)) {
    ios_since_think_ = 0;
    think();
  }
}

void IoLoop::account_io(IoUnit& unit, std::uint64_t now) {
  const Direction d = direction_of(unit.op);
  DirectionStats& stats = result_->dirs[index_of(d)];
  const auto bytes = static_cast<std::uint64_t>(unit.result);
  // Open loop: lat runs from the scheduled arrival, and the time queued before submission is recorded.
  const std::uint64_t arrival = open_loop_.enabled() ? open_loop_.arrival_of(static_cast<std::uint32_t>(unit.index)) : 0;
  const std::uint64_t lat = now - (arrival != 0 ? std::min(arrival, unit.start_ns) : unit.start_ns);
  stats.ios++;
  stats.bytes += bytes;
  if (bytes < unit.length) stats.short_ios++;
  stats.clat.record(now - unit.issue_ns);
  if (arrival != 0) stats.queue_wait.record(unit.start_ns > arrival ? unit.start_ns - arrival : 0);
  // For synchronous engines in closed loop lat equals clat: it is recorded once and copied at the end.
  if (record_lat_) stats.lat.record(lat);
  if (caps_.async) stats.slat.record(unit.issue_ns - unit.start_ns);
  IntervalSample& sample = interval_[index_of(d)];
  sample.ops++;
  sample.bytes += bytes;
  sample.lat_sum_ns += lat;
  live_->add(d, bytes);
  if (logs_) {
    logs_->record(d, now - result_->start_ns, lat, now - unit.issue_ns, caps_.async ? unit.issue_ns - unit.start_ns : 0,
                  static_cast<std::uint32_t>(bytes), unit.offset);
  }
  if (hooks_ && hooks_->after_io(d, lat, unit.file_index, unit.offset, unit.length, *result_) ==
                    JobHooks::Verdict::kFail) {
    end_reason_ = EndReason::kError;
  }
}

void IoLoop::fail(const IoUnit& unit) {
  if (result_->error != 0) return;
  const int err = static_cast<int>(-unit.result);
  const std::string path = unit.file_index >= 0 && static_cast<std::size_t>(unit.file_index) < targets_.size()
                               ? targets_[static_cast<std::size_t>(unit.file_index)].path
                               : std::string("?");
  static constexpr const char* kOpNames[] = {"read", "write", "trim", "fsync", "fdatasync"};
  result_->error = err;
  result_->error_message = fmt::format("{} of {} bytes at offset {} of {} failed: {}", kOpNames[static_cast<int>(unit.op)],
                                       unit.length, unit.offset, path, std::strerror(err));
  end_reason_ = EndReason::kError;
}

void IoLoop::issue_sync(IoOp op, int file_index) {
  sync_due_ = false;
  if (file_index < 0 || free_units_.empty()) return;
  IoUnit* unit = free_units_.back();
  free_units_.pop_back();
  unit->op = op;
  unit->file_index = file_index;
  unit->offset = 0;
  unit->length = 0;
  batch_.push_back(unit);
  submit_batch();
  while (in_flight_ > 0) reap(1);
}

void IoLoop::think() {
  const std::uint64_t start = monotonic_ns();
  const std::uint64_t spin_until = start + static_cast<std::uint64_t>(job_.thinktime_spin.count());
  while (monotonic_ns() < spin_until) {
  }
  sleep_until(start + static_cast<std::uint64_t>(job_.thinktime.count()));
  now_ = monotonic_ns();
}

void IoLoop::sleep_until(std::uint64_t deadline_ns) {
  constexpr std::uint64_t kSlice = 100'000'000;  // wake at least every 100 ms to notice a stop request
  for (std::uint64_t now = monotonic_ns(); now < deadline_ns && !stop_requested() && !stopped_by_flag(); now = monotonic_ns()) {
    const std::uint64_t wait = std::min(deadline_ns - now, kSlice);
    timespec ts{static_cast<time_t>(wait / 1'000'000'000ull), static_cast<long>(wait % 1'000'000'000ull)};
    nanosleep(&ts, nullptr);
  }
}

// The lat histogram of a direction as recorded so far (clat stands in for lat with synchronous engines).
const LatencyHistogram& IoLoop::lat_histogram(Direction d) const noexcept {
  const DirectionStats& stats = result_->dirs[index_of(d)];
  return record_lat_ ? stats.lat.histogram : stats.clat.histogram;
}

// p99 of the ios completed in the interval: the difference of the job's histogram now and at the interval's
// start. Costs one pass over the buckets per interval instead of a second histogram record per io.
void IoLoop::close_intervals(std::uint64_t now) {
  while (now >= next_interval_ns_) {
    for (Direction d : kAllDirections) {
      IntervalSample& sample = interval_[index_of(d)];
      if (sample.ops == 0) continue;
      const LatencyHistogram& current = lat_histogram(d);
      LatencyHistogram& before = interval_start_[index_of(d)];
      const auto rank = static_cast<std::uint64_t>(std::ceil(0.99 * static_cast<double>(sample.ops)));
      std::uint64_t seen = 0;
      for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
        seen += current.count_at(b) - before.count_at(b);
        if (seen >= std::max<std::uint64_t>(rank, 1)) {
          sample.lat_p99_ns = LatencyHistogram::bucket_value(b);
          break;
        }
      }
      before = current;
    }
    result_->series.append(interval_);
    interval_ = {};
    next_interval_ns_ += series_interval_ns_;
  }
}

// At the end, writes still due (their transactions unfinished, never issued) give their units back, so
// end_fsync finds a free one.
void IoLoop::release_rmw_units() {
  std::uint32_t chain = 0;
  NextIo write;
  while (rmw_ && rmw_->take_write(chain, write)) free_units_.push_back(&units_[chain]);
}

void IoLoop::drain(bool account) {
  while (in_flight_ > 0) {
    const int n = engine_->reap(in_flight_, std::span<IoUnit*>(completions_.data(), in_flight_));
    const std::uint64_t now = monotonic_ns();
    if (n <= 0) break;
    for (int i = 0; i < n; ++i) {
      IoUnit& unit = *completions_[static_cast<std::size_t>(i)];
      if (account) {
        complete(unit, now);
      } else {
        --in_flight_;
        free_units_.push_back(&unit);
      }
    }
  }
}

void IoLoop::end_fsync() {
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    if (file_written_[i]) issue_sync(IoOp::kFsync, static_cast<int>(i));
  }
}

void IoLoop::finish(std::uint64_t now) {
  // Ios still in flight at a time-based end or a stop complete after the measured window: not counted.
  drain(end_reason_ == EndReason::kPatternDone);
  release_rmw_units();
  now = std::max(now, monotonic_ns());
  if (end_reason_ == EndReason::kTime) now = std::min(now, end_ns_);
  if (!measuring_) begin_measuring(now);  // ended during ramp: an empty measured window
  if (job_.end_fsync && end_reason_ != EndReason::kError) end_fsync();
  close_intervals(now);
  result_->end_ns = now;
  result_->runtime_ns = now - result_->start_ns;
  if (!record_lat_) {
    for (DirectionStats& stats : result_->dirs) stats.lat = stats.clat;
  }
  if (logs_) logs_->finish(result_->runtime_ns);
  if (hooks_) hooks_->finish(now, *result_);
  result_->interrupted = end_reason_ == EndReason::kStop;
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  result_->cpu.user_seconds += thread_cpu_seconds(usage.ru_utime);
  result_->cpu.system_seconds += thread_cpu_seconds(usage.ru_stime);
  result_->cpu.context_switches += static_cast<std::uint64_t>(usage.ru_nvcsw + usage.ru_nivcsw);
  result_->cpu.major_faults += static_cast<std::uint64_t>(usage.ru_majflt);
  result_->cpu.minor_faults += static_cast<std::uint64_t>(usage.ru_minflt);
  const double interval_s = static_cast<double>(result_->series.interval_ns()) / 1e9;
  for (const auto& sample : result_->series.samples()) {
    for (Direction d : kAllDirections) {
      const IntervalSample& s = sample[index_of(d)];
      DirectionStats& stats = result_->dirs[index_of(d)];
      if (stats.ios == 0) continue;
      stats.iops_samples.add(static_cast<double>(s.ops) / interval_s);
      stats.bw_samples.add(static_cast<double>(s.bytes) / interval_s);
    }
  }
  live_->finished.store(true, std::memory_order_relaxed);
}

}  // namespace sluice
