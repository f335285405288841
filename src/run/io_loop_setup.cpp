// IoLoop's setup: the queueing parameters, the io pool and its buffers, the optional features, the engine;
// and the start of the measured window.
#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "report/logs/job_logs.h"
#include "run/io_loop.h"
#include "run/job_hooks.h"
#include "run/zoned_targets.h"

namespace sluice {
namespace {

// Ios per submit call. iodepth_batch_submit=N as given submits in groups of N, as fio (1: each io alone,
// 0: iodepth). Not given: groups of kDefaultSubmitGroup. Measured on a virtio disk (bench/README.md), one
// call for every io ready at once (often 8-16 after a reap) served 25% fewer IOPS than fio's one io per
// call: the device starts nothing until the whole batch is queued. Groups of 4 serve as many IOPS as one
// per call and keep most of the syscall saving.
std::uint32_t submit_group_size(const ioloop::Queue& queue, std::uint32_t depth) {
  constexpr std::uint32_t kDefaultSubmitGroup = 4;
  const bool is_given = queue.context.submit_given;
  // vsync merges what one submit holds: fio's default batch of 1 merges nothing, so sluice's default does not.
  if (!is_given && queue.context.engine_merges) return 1;
  const std::uint32_t batch = queue.options.iodepth_batch_submit;
  const std::uint32_t wanted = !is_given ? kDefaultSubmitGroup : (batch == 0 ? depth : batch);
  return std::clamp<std::uint32_t>(wanted, 1, depth);
}

// Completions taken per reap. iodepth_batch_complete_max as given (0: iodepth). Not given: one submit
// group's worth, so a reap frees exactly what the next submit call refills and the queue is back at
// iodepth with every submission (fio reaps one and submits one by default: its "IO depths" read
// iodepth=100%). Taking every completion at once let the queue drain to a few ios while they were
// accounted and refilled four at a time.
std::uint32_t complete_max_of(const ioloop::Queue& queue, std::uint32_t depth, std::uint32_t submit_group,
                              std::uint32_t complete_min) {
  if (queue.context.complete_max_given) {
    const std::uint32_t batch = queue.options.iodepth_batch_complete_max;
    return batch == 0 ? depth : std::clamp(batch, 1u, depth);
  }
  return std::max(submit_group, complete_min);
}

}  // namespace

ioloop::Source::Source(IoPattern io_pattern, const PacingOptions& pacing, std::uint64_t seed, std::uint32_t iodepth)
    : pattern(std::move(io_pattern)),
      schedule(pacing, seed ^ 0x5851f42d4c957f2dull),
      open_loop(pacing, std::max<std::uint32_t>(1, iodepth)) {}

IoLoop::IoLoop(IoLoopInputs in, const std::vector<TargetFile>& targets, std::uint64_t series_interval_ns,
               std::unique_ptr<Engine> engine, LoopClock clock)
    : job_(std::move(in.job)),
      targets_(targets),
      engine_(std::move(engine)),
      clock_(clock),
      window_(in.time),
      queue_(in.queue, in.queue_context),
      source_(std::move(in.pattern), in.pacing, job_.seed, in.queue.iodepth),
      content_{.buffers = in.buffers,
               .fill_policy = std::move(in.fill_policy),
               .rng = in.buffer_rng,
               .dedupe = std::move(in.dedupe)},
      sync_(in.durability, targets.size()),
      acct_(in.report, series_interval_ns, in.trim_block),
      prio_(std::move(in.priority)),
      zones_(in.zones, in.zone_settings) {
  if (in.pacing.thinktime.count() > 0 || in.pacing.think_per_busy > 0)
    think_.emplace(in.pacing, in.thinktime_blocks_given);
}

IoLoop::~IoLoop() {
  if (engine_) engine_->close();
}

// zonemode=zbd: the job's view of each file's zones. The runner aligned a writing job's regions to zones
// (align_to_zones) before the pattern was made from them.
void IoLoop::open_zones() {
  const ZoneJobSettings& settings = zones_.settings;
  const ZoneOptions& options = zones_.options;
  zones_.cursors.reserve(targets_.size());
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    const std::uint64_t file_size = zoned_file_size(targets_[i]);
    if (file_size < options.zone_size) {  // the runner refuses this before (zoned_targets.h); a loop made directly
      throw UserError(fmt::format("job {}: {}: file size {} is smaller than zonesize {}", job_.name, targets_[i].path,
                                  file_size, options.zone_size));
    }
    std::shared_ptr<ZonedFile> file =
        links_.zoned_files != nullptr
            ? links_.zoned_files->get(targets_[i].path, file_size, options, job_.name)
            : std::make_shared<ZonedFile>(file_size, options.zone_size, options.zone_capacity, options.max_open_zones);
    zones_.cursors.emplace_back(std::move(file), settings, targets_[i].region_start, targets_[i].region_length);
    // fio's zbd_file_reset: with verify, a writing job starts on empty zones (a reset later would lose data).
    if (settings.writes && settings.verify) zones_.cursors.back().reset_range_for_verify(zones_.resets);
  }
}

void IoLoop::prepare() {
  job_.check_atomic_writes(targets_);
  queue_.async = engine_->caps().async;
  queue_.does_io = engine_->caps().does_io;
  // A synchronous engine keeps one io in flight (validation warned).
  const std::uint32_t depth =
      queue_.async || engine_->caps().merges ? std::max<std::uint32_t>(1, queue_.options.iodepth) : 1;
  if (job_.is_chained) source_.rmw = std::make_unique<RmwChains>(depth);
  acct_.record_lat = queue_.async || source_.open_loop.enabled();
  queue_.submit_group = submit_group_size(queue_, depth);
  queue_.complete_min = std::clamp<std::uint32_t>(queue_.options.iodepth_batch_complete_min, 1, depth);
  queue_.depth = depth;
  const std::uint32_t low = queue_.options.iodepth_low;
  queue_.depth_low = low == 0 || low > depth ? depth : low;
  queue_.complete_max = complete_max_of(queue_, depth, queue_.submit_group, queue_.complete_min);

  pool_.allocate(depth, source_.pattern.max_block_size(), job_.name, content_.buffers.io_memory);
  if (job_.target.lockfile != FileLockMode::kNone)
    file_locks_ = std::make_unique<FileLocks>(job_.target.lockfile, targets_);
  fill_buffer(pool_.memory(), pool_.memory_bytes(), content_.fill_policy, content_.rng);
  queue_.batch.reserve(depth);
  queue_.completions.resize(depth);

  if (content_.buffers.lockmem != 0) pinned_ = std::make_unique<PinnedMemory>(content_.buffers.lockmem);
  logs_ = JobLogs::create(job_.logged, job_.lognum);
  if (job_.iolog.replay_log) replay_.emplace(ioloop::Replay{.log = job_.iolog.replay_log.get()});
  if (!job_.iolog.write_iolog.empty()) {
    std::vector<std::string> files;
    for (const TargetFile& t : targets_) files.push_back(t.path);
    iolog_writer_ = std::make_unique<IoLogWriter>(job_.iolog.write_iolog, std::move(files), clock_.now());
  }
  verifier_ = Verifier::create(
      job_.verification, job_.errors,
      {.name = job_.name, .seed = job_.seed, .chunk = job_.verify_chunk, .writes = job_.does_writes}, targets_, depth);
  if (zones_.options.zone_zbd) open_zones();
  if (acct_.report.block_error_percentiles && !targets_.empty()) {
    // fio caps this at 8,192 blocks; sluice at what memory allows (4 bytes a block).
    constexpr std::uint64_t kMaxBlocks = std::uint64_t{1} << 26;
    const std::uint64_t blocks = targets_.front().region_length / acct_.trim_block;
    if (blocks == 0 || blocks > kMaxBlocks) {
      throw UserError(
          fmt::format("job {}: block_error_percentiles: {} trim blocks of {} bytes in the region; 1 to "
                      "{} can be followed",
                      job_.name, blocks, acct_.trim_block, kMaxBlocks));
    }
    acct_.block_infos.assign(static_cast<std::size_t>(blocks), 0);
  }
  // sync_file_range (or a replayed log's) covers each file's writes since its last sync.
  if (sync_.durability.sync_file_range_blocks != 0 || replay_.has_value()) sync_.unsynced.assign(targets_.size(), {});
  std::vector<std::string> paths;
  for (const TargetFile& t : targets_) paths.push_back(t.path);
  hooks_ = job_.make_hooks(std::move(paths), links_.control);

  EngineSetup setup;
  setup.depth = depth;
  setup.direct = job_.target.direct;
  setup.writes = job_.writes_or_trims;
  for (const TargetFile& t : targets_) {
    setup.fds.push_back(t.fd);
    setup.file_sizes.push_back(t.size);
    setup.paths.push_back(t.path);
    setup.file_starts.push_back(t.region_start);
  }
  setup.job_name = job_.name;
  setup.directory = job_.target.directory;
  setup.runtime_ns = static_cast<std::uint64_t>(window_.time.runtime.count());
  setup.seed = job_.seed;
  setup.buffers = pool_.buffers();
  engine_->open(setup);
  if (job_.target.unlink_each_loop) engine_setup_ = std::make_unique<EngineSetup>(std::move(setup));
}

void IoLoop::begin_measuring(std::uint64_t now) {
  window_.measuring = true;
  // The measured window is runtime long from here, however late after ramp_time the loop noticed.
  const auto runtime_ns = static_cast<std::uint64_t>(window_.time.runtime.count());
  if (runtime_ns > 0) window_.end_ns = now + runtime_ns;
  live_->measuring.store(true, std::memory_order_relaxed);
  result_->start_ns = now;
  // fio's reset_all_stats: the sequence distribution starts over, with the io waiting for its rate if any
  source_.pattern.restart_io_numbers(source_.has_pending && source_.pending_from_pattern ? &source_.pending : nullptr);
  acct_.next_interval_ns = now + acct_.series_interval_ns;
  acct_.next_tick_ns = acct_.next_interval_ns;
  acct_.bw_sampler.start(now, std::uint64_t{acct_.report.bw_avg_msec} * 1'000'000);
  acct_.iops_sampler.start(now, std::uint64_t{acct_.report.iops_avg_msec} * 1'000'000);
  result_->ioprio = prio_.default_ioprio;
  if (prio_.cmdprio) {  // fio's clat_prio: a latency statistic per priority the direction issues with
    for (Direction d : {Direction::kRead, Direction::kWrite}) {
      std::vector<PrioLatency>& prios = result_->dirs[index_of(d)].prios;
      prios.clear();
      for (std::uint16_t value : prio_.cmdprio->values(d)) prios.push_back(PrioLatency{value, {}});
    }
  }
  acct_.cpu_at_start = CpuSnapshot::of_this_thread();
}

void IoLoop::restart_measuring(std::uint64_t now) {
  const std::uint64_t end = window_.end_ns;
  for (DirectionStats& dir : result_->dirs) dir = DirectionStats{};
  result_->sync = SyncStats{};
  result_->depth = IodepthDistribution{};
  result_->series = TimeSeries(acct_.series_interval_ns);
  acct_.interval = {};
  acct_.interval_start = {};
  begin_measuring(now);
  window_.end_ns = end;
  if (hooks_) hooks_->restart();
}

}  // namespace sluice
