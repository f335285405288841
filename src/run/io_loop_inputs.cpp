// The setup boundary of IoLoop: a job clone (JobInstance) becomes the loop's inputs. The only file of the loop
// that reads the whole JobSpec.
#include "run/io_loop_inputs.h"

#include <sys/stat.h>

#include <algorithm>

#include "job/job_spec.h"
#include "job/validate_verify.h"
#include "run/atomic_writes.h"
#include "run/job_hooks.h"
#include "run/plan.h"

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

ZoneJobSettings zone_settings_of(const JobSpec& job) {
  ZoneJobSettings settings;
  for (Direction d : kAllDirections) settings.min_bs[index_of(d)] = job.min_block_size(d);
  settings.random = job.is_random();
  settings.mixed = job.does_reads() && job.does_writes();
  settings.verify = job.verification.verify != VerifyKind::kNone;
  settings.read_beyond_wp = job.zones.read_beyond_wp;
  settings.writes = job.does_writes();
  settings.zone_skip = job.zones.zone_skip;
  settings.job_max_open_zones = job.zones.job_max_open_zones;
  settings.reset_threshold = job.zones.zone_reset_threshold;
  settings.reset_frequency = job.zones.zone_reset_frequency;
  return settings;
}

ioloop::Priority priority_of(const JobInstance& instance) {
  const JobSpec& job = instance.spec;
  ioloop::Priority priority;
  priority.default_ioprio = job.default_ioprio();
  if (job.uses_cmdprio()) priority.cmdprio.emplace(job.placement, job.workload, instance.seed ^ 0x2545f4914f6cdd1dull);
  priority.stats_use_lat = job.report.lat_percentiles;
  return priority;
}

ioloop::Job job_of(const JobInstance& instance) {
  const JobSpec& job = instance.spec;
  return ioloop::Job{
      .name = job.name,
      .seed = instance.seed,
      .lognum = instance.lognum,
      .does_writes = job.does_writes(),
      .writes_or_trims = job.does_writes() || job.does_trims(),
      .is_chained = job.is_chained(),
      .trims_written_blocks = job.trims_written_blocks(),
      .verify_chunk = job.verification.verify == VerifyKind::kNone ? 0 : verify_chunk_size(job),
      .target = job.target,
      .errors = job.errors,
      .latency = job.latency,
      .verification = job.verification,
      .iolog = job.iolog,
      .logged = LoggedJob(job),
      .check_atomic_writes = [&job](const std::vector<TargetFile>& files) { check_atomic_writes(job, files); },
      .make_hooks = [&instance](
                        std::vector<std::string> paths,
                        GroupControl* control) { return JobHooks::create(instance, std::move(paths), control); },
  };
}

}  // namespace

IoLoopInputs io_loop_inputs(const JobInstance& instance, const std::vector<TargetFile>& targets) {
  const JobSpec& job = instance.spec;
  return IoLoopInputs{
      .job = job_of(instance),
      .time = job.time,
      .queue = job.queue,
      .queue_context = {.submit_given = job.explicitly_given.iodepth_batch_submit,
                        .complete_max_given = job.explicitly_given.iodepth_batch_complete_max,
                        .engine_merges = engine_traits(job.engine.ioengine).merges},
      .pacing = job.pacing,
      .thinktime_blocks_given = job.explicitly_given.thinktime_blocks,
      .durability = job.durability,
      .zones = job.zones,
      .zone_settings = zone_settings_of(job),
      .buffers = job.buffers,
      .fill_policy = BufferFillPolicy::from_options(job.buffers, job.explicitly_given.refill_buffers),
      .buffer_rng = Rng(instance.seed ^ kBufferSeedMix),
      .dedupe = job.buffers.dedupe_percentage != 0 && job.does_writes() && job.verification.verify == VerifyKind::kNone
                    ? dedupe_source_of(instance, targets)
                    : nullptr,
      .report = job.report,
      .trim_block = job.workload.bs[index_of(Direction::kTrim)],
      .pattern = IoPattern(RmwChains::pattern_spec(job), regions_of(targets, job.zones.zone_strided), instance.seed),
      .priority = priority_of(instance),
  };
}

}  // namespace sluice
