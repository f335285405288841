// IoLoop's setup: the queueing parameters, the io pool and its buffers, the optional features, the engine;
// and the start of the measured window.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>

#include "common/error.h"
#include "run/atomic_writes.h"
#include "run/io_loop.h"
#include "run/zoned_targets.h"

namespace sluice {
namespace {

// The regions the pattern walks. Strided zones walk up to the file's real end, which may lie past the
// job's size (an existing, larger file), so that is looked up for them.
std::vector<FileRegion> regions_of(const std::vector<TargetFile>& targets, bool need_file_ends) {
  std::vector<FileRegion> regions;
  regions.reserve(targets.size());
  for (const TargetFile& t : targets) {
    std::uint64_t file_size = t.size;
    struct stat st {};
    if (need_file_ends && !t.stand_in && !t.is_block_device && ::stat(t.path.c_str(), &st) == 0) {
      file_size = std::max<std::uint64_t>(file_size, static_cast<std::uint64_t>(st.st_size));
    }
    regions.push_back({t.region_start, t.region_length, file_size});
  }
  return regions;
}

constexpr std::uint64_t kBufferSeedMix = 0x2545f4914f6cdd1dull;

// dedupe_percentage's source. The unique buffers' stream is the clone's buffer seed; with dedupe_global
// every clone's stream of the run is listed, derived as plan.cpp derives seeds (the same randseed assumed).
std::unique_ptr<DedupeSource> dedupe_source_of(const JobInstance& instance, const std::vector<TargetFile>& targets) {
  const JobSpec& job = instance.spec;
  DedupeConfig config;
  config.percentage = job.buffers.dedupe_percentage;
  config.working_set = job.buffers.dedupe_working_set;
  config.stream = instance.seed ^ kBufferSeedMix;
  if (config.working_set) {
    const std::uint64_t size = targets.empty() ? 0 : targets.front().region_length;
    const std::uint64_t page = std::max<std::uint64_t>(job.min_block_size(Direction::kWrite), 1);
    config.working_set_pages = size * job.buffers.dedupe_working_set_percentage / 100 / page;
    if (job.buffers.dedupe_global) {
      const std::uint64_t base = instance.seed - static_cast<std::uint64_t>(instance.lognum) * kCloneSeedStep;
      for (int clone = 0; clone < instance.run_clones; ++clone) {
        config.shared_streams.push_back((base + static_cast<std::uint64_t>(clone) * kCloneSeedStep) ^ kBufferSeedMix);
      }
      config.own_index = static_cast<std::size_t>(instance.lognum);
    }
  }
  return std::make_unique<DedupeSource>(std::move(config), instance.seed ^ 0xd6e8feb86659fd93ull);
}

// Ios per submit call. iodepth_batch_submit=N as given submits in groups of N, as fio (1: each io alone,
// 0: iodepth). Not given: groups of kDefaultSubmitGroup. Measured on a virtio disk (bench/README.md), one
// call for every io ready at once (often 8-16 after a reap) served 25% fewer IOPS than fio's one io per
// call: the device starts nothing until the whole batch is queued. Groups of 4 serve as many IOPS as one
// per call and keep most of the syscall saving.
std::uint32_t submit_group_size(const JobSpec& job, std::uint32_t depth) {
  constexpr std::uint32_t kDefaultSubmitGroup = 4;
  const bool is_given = job.explicitly_given.iodepth_batch_submit;
  // vsync merges what one submit holds: fio's default batch of 1 merges nothing, so sluice's default does not.
  if (!is_given && engine_traits(job.engine.ioengine).merges) return 1;
  const std::uint32_t wanted =
      !is_given ? kDefaultSubmitGroup : (job.queue.iodepth_batch_submit == 0 ? depth : job.queue.iodepth_batch_submit);
  return std::clamp<std::uint32_t>(wanted, 1, depth);
}

// Completions taken per reap. iodepth_batch_complete_max as given (0: iodepth). Not given: one submit
// group's worth, so a reap frees exactly what the next submit call refills and the queue is back at
// iodepth with every submission (fio reaps one and submits one by default: its "IO depths" read
// iodepth=100%). Taking every completion at once let the queue drain to a few ios while they were
// accounted and refilled four at a time.
std::uint32_t complete_max_of(const JobSpec& job, std::uint32_t depth, std::uint32_t submit_group,
                              std::uint32_t complete_min) {
  if (job.explicitly_given.iodepth_batch_complete_max) {
    return job.queue.iodepth_batch_complete_max == 0 ? depth
                                                     : std::clamp(job.queue.iodepth_batch_complete_max, 1u, depth);
  }
  return std::max(submit_group, complete_min);
}

}  // namespace

ioloop::Source::Source(const JobInstance& instance, const std::vector<TargetFile>& targets)
    : pattern(RmwChains::pattern_spec(instance.spec), regions_of(targets, instance.spec.zones.zone_strided),
              instance.seed),
      schedule(instance.spec.pacing, instance.seed ^ 0x5851f42d4c957f2dull),
      open_loop(instance.spec.pacing, std::max<std::uint32_t>(1, instance.spec.queue.iodepth)) {}

IoLoop::IoLoop(const JobInstance& instance, const std::vector<TargetFile>& targets, std::uint64_t series_interval_ns,
               std::unique_ptr<Engine> engine, LoopClock clock)
    : instance_(instance),
      job_(instance.spec),
      targets_(targets),
      engine_(std::move(engine)),
      clock_(clock),
      source_(instance, targets),
      content_{.fill_policy = BufferFillPolicy::from_job(instance.spec), .rng = Rng(instance.seed ^ kBufferSeedMix)},
      acct_(series_interval_ns) {
  sync_.file_written.assign(targets.size(), false);
}

IoLoop::~IoLoop() {
  if (engine_) engine_->close();
}

// zonemode=zbd: the job's view of each file's zones. The runner aligned a writing job's regions to zones
// (align_to_zones) before the pattern was made from them.
void IoLoop::open_zones() {
  ZoneJobSettings settings;
  for (Direction d : kAllDirections) settings.min_bs[index_of(d)] = job_.min_block_size(d);
  settings.random = job_.is_random();
  settings.mixed = job_.does_reads() && job_.does_writes();
  settings.verify = job_.verification.verify != VerifyKind::kNone;
  settings.read_beyond_wp = job_.zones.read_beyond_wp;
  settings.writes = job_.does_writes();
  settings.zone_skip = job_.zones.zone_skip;
  settings.job_max_open_zones = job_.zones.job_max_open_zones;
  settings.reset_threshold = job_.zones.zone_reset_threshold;
  settings.reset_frequency = job_.zones.zone_reset_frequency;
  zones_.cursors.reserve(targets_.size());
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    const std::uint64_t file_size = zoned_file_size(targets_[i]);
    if (file_size < job_.zones.zone_size) {  // the runner refuses this before (zoned_targets.h); a loop made directly
      throw UserError(fmt::format("job {}: {}: file size {} is smaller than zonesize {}", job_.name, targets_[i].path,
                                  file_size, job_.zones.zone_size));
    }
    std::shared_ptr<ZonedFile> file =
        links_.zoned_files != nullptr
            ? links_.zoned_files->get(targets_[i].path, file_size, job_)
            : std::make_shared<ZonedFile>(file_size, job_.zones.zone_size, job_.zones.zone_capacity,
                                          job_.zones.max_open_zones);
    zones_.cursors.emplace_back(std::move(file), settings, targets_[i].region_start, targets_[i].region_length);
    // fio's zbd_file_reset: with verify, a writing job starts on empty zones (a reset later would lose data).
    if (settings.writes && settings.verify) zones_.cursors.back().reset_range_for_verify(zones_.resets);
  }
}

void IoLoop::prepare() {
  check_atomic_writes(job_, targets_);
  queue_.async = engine_->caps().async;
  queue_.does_io = engine_->caps().does_io;
  // A synchronous engine keeps one io in flight (validation warned).
  const std::uint32_t depth =
      queue_.async || engine_->caps().merges ? std::max<std::uint32_t>(1, job_.queue.iodepth) : 1;
  if (job_.is_chained()) source_.rmw = std::make_unique<RmwChains>(depth);
  acct_.record_lat = queue_.async || source_.open_loop.enabled();
  queue_.submit_group = submit_group_size(job_, depth);
  queue_.complete_min = std::clamp<std::uint32_t>(job_.queue.iodepth_batch_complete_min, 1, depth);
  queue_.depth = depth;
  queue_.depth_low = job_.queue.iodepth_low == 0 || job_.queue.iodepth_low > depth ? depth : job_.queue.iodepth_low;
  queue_.complete_max = complete_max_of(job_, depth, queue_.submit_group, queue_.complete_min);

  pool_.allocate(depth, source_.pattern.max_block_size(), job_.name, job_.buffers.io_memory);
  if (job_.target.lockfile != FileLockMode::kNone)
    file_locks_ = std::make_unique<FileLocks>(job_.target.lockfile, targets_);
  fill_buffer(pool_.memory(), pool_.memory_bytes(), content_.fill_policy, content_.rng);
  queue_.batch.reserve(depth);
  queue_.completions.resize(depth);

  if (job_.buffers.lockmem != 0) pinned_ = std::make_unique<PinnedMemory>(job_.buffers.lockmem);
  logs_ = JobLogs::create(job_, instance_.lognum);
  if (job_.iolog.replay_log) replay_.emplace(ioloop::Replay{.log = job_.iolog.replay_log.get()});
  if (!job_.iolog.write_iolog.empty()) {
    std::vector<std::string> files;
    for (const TargetFile& t : targets_) files.push_back(t.path);
    iolog_writer_ = std::make_unique<IoLogWriter>(job_.iolog.write_iolog, std::move(files), clock_.now());
  }
  verifier_ = Verifier::create(instance_, targets_, depth);
  if (job_.zones.zone_zbd) open_zones();
  if (job_.report.block_error_percentiles && !targets_.empty()) {
    // fio caps this at 8,192 blocks; sluice at what memory allows (4 bytes a block).
    constexpr std::uint64_t kMaxBlocks = std::uint64_t{1} << 26;
    const std::uint64_t blocks = targets_.front().region_length / job_.workload.bs[index_of(Direction::kTrim)];
    if (blocks == 0 || blocks > kMaxBlocks) {
      throw UserError(
          fmt::format("job {}: block_error_percentiles: {} trim blocks of {} bytes in the region; 1 to "
                      "{} can be followed",
                      job_.name, blocks, job_.workload.bs[index_of(Direction::kTrim)], kMaxBlocks));
    }
    acct_.block_infos.assign(static_cast<std::size_t>(blocks), 0);
  }
  // sync_file_range (or a replayed log's) covers each file's writes since its last sync.
  if (job_.durability.sync_file_range_blocks != 0 || replay_.has_value()) sync_.unsynced.assign(targets_.size(), {});
  prio_.default_ioprio = job_.default_ioprio();
  if (job_.uses_cmdprio()) prio_.cmdprio.emplace(job_.placement, job_.workload, instance_.seed ^ 0x2545f4914f6cdd1dull);
  prio_.stats_use_lat = job_.report.lat_percentiles;
  if (job_.buffers.dedupe_percentage != 0 && job_.does_writes() && !verifier_) {
    content_.dedupe = dedupe_source_of(instance_, targets_);
  }
  std::vector<std::string> paths;
  for (const TargetFile& t : targets_) paths.push_back(t.path);
  hooks_ = JobHooks::create(instance_, std::move(paths), links_.control);

  EngineSetup setup;
  setup.depth = depth;
  setup.direct = job_.target.direct;
  setup.writes = job_.does_writes() || job_.does_trims();
  for (const TargetFile& t : targets_) {
    setup.fds.push_back(t.fd);
    setup.file_sizes.push_back(t.size);
    setup.paths.push_back(t.path);
    setup.file_starts.push_back(t.region_start);
  }
  setup.job_name = job_.name;
  setup.directory = job_.target.directory;
  setup.runtime_ns = static_cast<std::uint64_t>(job_.time.runtime.count());
  setup.seed = instance_.seed;
  setup.buffers = pool_.buffers();
  engine_->open(setup);
  if (job_.target.unlink_each_loop) engine_setup_ = std::make_unique<EngineSetup>(std::move(setup));
}

void IoLoop::begin_measuring(std::uint64_t now) {
  window_.measuring = true;
  // The measured window is runtime long from here, however late after ramp_time the loop noticed.
  if (job_.time.runtime.count() > 0) window_.end_ns = now + static_cast<std::uint64_t>(job_.time.runtime.count());
  live_->measuring.store(true, std::memory_order_relaxed);
  result_->start_ns = now;
  // fio's reset_all_stats: the sequence distribution starts over, with the io waiting for its rate if any
  source_.pattern.restart_io_numbers(source_.has_pending && source_.pending_from_pattern ? &source_.pending : nullptr);
  acct_.next_interval_ns = now + acct_.series_interval_ns;
  acct_.next_tick_ns = acct_.next_interval_ns;
  acct_.bw_sampler.start(now, std::uint64_t{job_.report.bw_avg_msec} * 1'000'000);
  acct_.iops_sampler.start(now, std::uint64_t{job_.report.iops_avg_msec} * 1'000'000);
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
