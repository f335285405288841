#pragma once
// JobSpec: one job as the user described it (fio semantics), typed and with fio's defaults.
// Produced by the option table (from the command line and job files); consumed by validation and planning.
// Plain data: no I/O, no behaviour beyond trivial helpers.
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/direction.h"
#include "common/error.h"
#include "engine/engine_options.h"
#include "engine/engine_traits.h"
#include "engine/file_stat_call.h"  // FileStatCall

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

enum class SyncMode { kNone, kSync, kDsync };
enum class RateProcess { kLinear, kPoisson };
enum class DistributionKind { kRandom, kZipf, kPareto, kNormal, kZoned, kZonedAbs, kSequence };
enum class FallocateMode { kNone, kPosix, kKeep, kNative };
enum class JobRole { kForeground, kBackground };
// fio's file_service_type: which of a job's files the next io goes to.
enum class FileService { kRoundRobin, kSequential, kRandom, kDistribution };

struct IoLog;  // workload/iolog.h
// replay_skip's bits (fio's read, write, trim, sync).
inline constexpr std::uint32_t kReplaySkipRead = 1, kReplaySkipWrite = 2, kReplaySkipTrim = 4, kReplaySkipSync = 8;
// fio's lockfile=: ios on a file shared by jobs are serialized (exclusive) or readers-writer locked.
enum class FileLockMode { kNone, kExclusive, kReadWrite };

// fio's mem= (iomem=): where the io buffers come from.
enum class IoMemKind { kMalloc, kShm, kShmHuge, kMmap, kMmapShared, kMmapHuge };
constexpr const char* io_mem_kind_name(IoMemKind kind) noexcept {
  switch (kind) {
    case IoMemKind::kMalloc:
      return "malloc";
    case IoMemKind::kShm:
      return "shm";
    case IoMemKind::kShmHuge:
      return "shmhuge";
    case IoMemKind::kMmap:
      return "mmap";
    case IoMemKind::kMmapShared:
      return "mmapshared";
    case IoMemKind::kMmapHuge:
      return "mmaphuge";
  }
  return "?";
}
struct IoMemorySpec {
  IoMemKind kind = IoMemKind::kMalloc;
  std::string file;                          // mem=mmap*:FILE; "" = anonymous
  std::uint64_t hugepage_size = 4ull << 20;  // hugepage-size: huge kinds round the size up to it (fio: 4 MiB)
  std::uint32_t align = 0;                   // iomem_align: the first buffer starts this far past a page
};

// fio's verify_policy (master): which writes a verify after the writing run may count on. kFsynced: only those
// issued before the submission of the last fsync (fdatasync, sync_file_range) that completed; the later ones may
// be lost in a crash.
enum class VerifyPolicy { kCompleted, kFsynced };

// fio's verify= kinds. kNull writes the job's data and reads it back without checking it (fio's "null").
enum class VerifyKind {
  kNone,
  kCrc32c,
  kCrc32,
  kCrc64,
  kXxhash,
  kMd5,
  kSha256,
  kPattern,
  kMeta,
  kCrc16,
  kCrc7,
  kSha1,
  kSha512,
  kSha3_224,
  kSha3_256,
  kSha3_384,
  kSha3_512,
  kNull,
};
enum class SteadyStateCriterion { kNone, kIopsSlope, kIops, kBwSlope, kBw, kLatSlope, kLat };  // fio's ss= criteria

// A size that fio lets be absolute or a percentage of the file/device ("size=10%").
struct SizeOrPercent {
  std::uint64_t bytes = 0;
  double percent = 0.0;  // > 0 means "percent of the available size"; bytes is then ignored
  bool is_set() const noexcept { return bytes != 0 || percent > 0.0; }
};

struct BlockSizeRange {
  std::uint64_t min = 0;  // 0 = not set
  std::uint64_t max = 0;
};

struct BlockSizeSplitEntry {
  std::uint64_t size = 0;
  double percent = 0.0;  // blank percentages in fio's bssplit share the remainder equally
};

// One entry of cmdprio_bssplit: `percent` of the direction's ios of exactly `size` bytes are issued with
// priority `ioprio` (the kernel's class << 13 | level), or with cmdprio_class/cmdprio when ioprio is -1.
struct CmdprioSplitEntry {
  std::uint64_t size = 0;
  std::uint32_t percent = 0;
  std::int32_t ioprio = -1;
};

// numa_mem_policy: the memory policy of the job's thread and its node list (libnuma's node string: "0-1,3",
// "all"; for kPrefer the one node).
struct NumaMemPolicy {
  enum class Mode : std::uint8_t { kNotSet, kDefault, kPrefer, kBind, kInterleave, kLocal };
  Mode mode = Mode::kNotSet;
  std::string nodes;
};

// One zone of random_distribution=zoned|zoned_abs (fio's zone_split): `access_percent` of the ios of a
// direction fall uniformly in the next `size` of the region (a percentage for zoned, bytes for zoned_abs).
struct AccessZone {
  std::uint32_t access_percent = 0;
  std::uint64_t size = 0;
  bool operator==(const AccessZone&) const = default;
};

struct Distribution {
  DistributionKind kind = DistributionKind::kRandom;
  double parameter = 0.0;  // zipf theta, pareto h, normal sigma (percent of the region)
  // zoned, zoned_abs: the zones per direction, in region order; a direction without zones is uniform.
  PerDirection<std::vector<AccessZone>> zones{};
  // sequence (fio's random_sequence): the block indices each direction's ios visit in turn, 1 to 64 of them.
  std::vector<std::uint32_t> sequence{};
};

// fio's fadvise_hint: none, the job's pattern (random or sequential), or one of the two always.
enum class FadviseHint { kNone, kWorkload, kSequential, kRandom, kNoReuse };

// The job's files: which, where, how big, how they are opened, laid out and cleaned up.
struct TargetOptions {
  std::vector<std::string> filenames;  // "filename" split on ':' (an escaped "\:" stays a colon)
  std::string opendir;                 // every regular file below this directory is a file of the job too
  FileLockMode lockfile = FileLockMode::kNone;
  std::string directory;
  SizeOrPercent size;          // total bytes of I/O region per job (fio "size")
  std::uint64_t filesize = 0;  // per-file size; 0 = size / nrfiles
  std::uint32_t nrfiles = 1;
  FileService file_service = FileService::kRoundRobin;
  std::uint32_t file_service_ios = 1;  // ios on a file before switching (roundrobin, random)
  Distribution file_distribution;      // FileService::kDistribution: zipf, pareto or normal over the files
  std::uint32_t openfiles = 0;         // files open at once; 0 = nrfiles (sluice keeps them all open)
  SizeOrPercent offset;
  bool create_on_open = false;
  bool create_fsync = true;  // fdatasync a file after laying it out
  bool create_only = false;  // lay out the files, then end the job without I/O
  bool invalidate = true;    // drop the files' cached pages before the job (fio's default)
  bool pre_read = false;     // read the files into the page cache before the job (then no invalidate)
  FadviseHint fadvise_hint = FadviseHint::kWorkload;
  int write_hint = 0;             // fcntl F_SET_RW_HINT value (1 none .. 5 extreme); 0 = not set
  bool allow_file_create = true;  // false: a missing file is an error, never created
  bool unique_filename = true;    // under MPI, generated file names get the rank (fio: the client's name)
  bool overwrite = false;
  FallocateMode fallocate = FallocateMode::kNative;
  bool unlink = false;               // only files sluice created are ever removed
  std::string ioscheduler;           // the io scheduler the devices under the job's files get for its group; "" = as is
  bool allow_mounted_write = false;  // this job may write to a mounted or signed device (--allow-destructive)
  bool unlink_each_loop = false;     // loops=N: the files are deleted and created again before each later loop
  // fio's fill_device: without a size, a file's size is its filesystem's free space; a write that fails with
  // ENOSPC or EDQUOT ends the job as its end (not an error); a read job's file is filled first.
  bool fill_device = false;
  bool direct = false;
  std::string filename_format;         // fio's $jobname/$jobnum/$filenum template
  std::uint64_t offset_increment = 0;  // offset += jobnum * offset_increment
  std::uint64_t offset_align = 0;      // a percentage offset is aligned up to this (not given: the min block size)
  bool file_append = false;            // regular files: the region starts at the file's end (fio's file_append)
};

// fio's per-job log files (write_*_log and their format) and per-io log columns.
struct LogOptions {
  std::string write_lat_log;
  std::string write_iops_log;
  std::string write_bw_log;
  std::uint32_t log_avg_msec = 0;
  bool log_max_value = false;            // with log_avg_msec, a latency log line is the window's maximum, not mean
  bool log_unix_epoch = false;           // log times from the clock's epoch (Unix time), not the job's start
  bool log_alternate_epoch = false;      // the same with log_alternate_epoch_clock_id's clock
  int log_alternate_epoch_clock_id = 0;  // clock_gettime's clock id (0: CLOCK_REALTIME)
  bool log_offset = false;               // add the io's offset column to per-io logs (fio's log_offset)
  std::uint64_t log_compression = 0;     // fio's in-memory chunk size; with log_store_compressed, logs are zlib files
  bool log_store_compressed = false;     // write each log as NAME.fz (zlib streams), as fio --inflate-log reads
  std::string write_hist_log;
  std::uint32_t log_hist_msec = 0;
  std::uint32_t log_hist_coarseness = 0;  // histogram logs merge 2^N neighbouring bins
  bool per_job_logs = true;
  bool log_prio = false;  // per-io logs carry each io's priority value, not "is realtime"
};

// fio's zonemode=strided and zonemode=zbd and their zone settings.
struct ZoneOptions {
  // fio's zonemode=strided: I/O stays in a window of zone_range bytes until zone_size bytes were transferred,
  // then moves zone_range + zone_skip further (back to the region start past the file end).
  bool zone_strided = false;
  std::uint64_t zone_size = 0;
  std::uint64_t zone_range = 0;  // 0 = zone_size
  std::uint64_t zone_skip = 0;
  // fio's zonemode=zbd: each file is cut in zones of zone_size bytes with a write pointer each (emulated in
  // memory, shared by the run's jobs on the file; run/zoned_file.h): writes go to write pointers, reads stay
  // below them unless read_beyond_wp.
  bool zone_zbd = false;
  std::uint64_t zone_capacity = 0;  // writable bytes per zone; 0 = zone_size
  bool read_beyond_wp = false;
  std::uint32_t max_open_zones = 0;      // zones written at once, for all jobs on the file; 0 = no limit
  std::uint32_t job_max_open_zones = 0;  // ... for this job
  bool ignore_zone_limits = false;       // accepted: an emulated zone set has no device limit to ignore
  double zone_reset_threshold = 0;       // with zone_reset_frequency: resets start above this share written
  double zone_reset_frequency = 0;       // the share of writes that reset their zone first
};

// Where and as whom the job's thread runs: CPUs, NUMA, priorities, nice, user, cgroup.
struct PlacementOptions {
  std::vector<std::uint32_t> cpus_allowed;  // cpus_allowed / cpumask: CPUs the job's thread may run on; empty = any
  bool cpus_allowed_split = false;          // cpus_allowed_policy=split: clone N runs on the N-th CPU of the set
  std::string numa_cpu_nodes;               // numa_cpu_nodes: run on these nodes' CPUs (node string); "" = any
  NumaMemPolicy numa_mem_policy{};
  std::int32_t ioprio_class = -1;  // prioclass (1 realtime, 2 best effort, 3 idle); -1 = not set
  std::int32_t ioprio = -1;        // prio 0-7; -1 = not set
  // Per-io priorities (fio's cmdprio family, libaio and io_uring): reads and writes (trim values are unused).
  PerDirection<std::uint32_t> cmdprio_percentage{};                // share of ios issued with cmdprio_class/cmdprio
  PerDirection<std::uint32_t> cmdprio_class{};                     // 0 = not given: realtime, as fio
  PerDirection<std::uint32_t> cmdprio_level{};                     // cmdprio 0-7
  PerDirection<std::vector<CmdprioSplitEntry>> cmdprio_bssplit{};  // excludes cmdprio_percentage
  std::optional<int> nice;                                         // nice value of the job's thread, -20..19
  std::int64_t uid = -1;  // the job's thread runs (and uses its files) as this user; -1 = sluice's own
  std::int64_t gid = -1;  // and this group
  // fio's cgroup options (run/job_cgroup.h): the job's thread joins this blkio cgroup (made when missing).
  std::string cgroup;               // "" = none (but cgroup_weight alone uses the job's name)
  std::uint32_t cgroup_weight = 0;  // 100-1000; 0 = not set
  bool cgroup_nodelete = false;     // a cgroup sluice made stays after the run
  // fio's td->ioprio: the priority value (class << 13 | level) prio/prioclass give the job's ios; a class
  // alone means level 0, a level alone best effort (fio's ioprio_value). 0 when neither was given.
  std::uint16_t default_ioprio() const noexcept {
    if (ioprio_class < 0 && ioprio < 0) return 0;
    const int io_class = ioprio_class > 0 ? ioprio_class : 2;
    return static_cast<std::uint16_t>((io_class << 13) | (ioprio > 0 ? ioprio : 0));
  }
  // Whether cmdprio_percentage or cmdprio_bssplit gives any read or write another priority.
  bool uses_cmdprio() const noexcept {
    for (int i = 0; i < 2; ++i) {
      if (cmdprio_percentage[i] != 0 || !cmdprio_bssplit[i].empty()) return true;
    }
    return false;
  }
};

// How fast ios are issued: rate limits and minimums, think time, open-loop arrivals.
struct PacingOptions {
  PerDirection<std::uint64_t> rate = {0, 0, 0};  // bytes per second
  PerDirection<std::uint64_t> rate_iops = {0, 0, 0};
  RateProcess rate_process = RateProcess::kLinear;
  std::chrono::nanoseconds thinktime{0};
  // Set by the plan for cpuio, not an option: after each io, think this many times the io's own time (fio's
  // cpuio sets its think time from the measured cycle, cpuchunks x (100 - cpuload) / cpuload).
  double think_per_busy = 0;
  std::uint32_t thinktime_blocks = 1;
  bool rate_ignore_thinktime = false;            // a rate's schedule moves on by each pause instead of catching up
  bool thinktime_on_issue = false;               // thinktime_blocks_type=issue: count issued ios (else completed ones)
  std::chrono::nanoseconds thinktime_iotime{0};  // think after this much I/O time too (0: only by blocks)
  bool thinktime_spin_set = false;
  std::chrono::nanoseconds thinktime_spin{0};
  PerDirection<std::uint64_t> rate_min = {0, 0, 0};              // bytes/s below which the job fails
  std::chrono::nanoseconds rate_cycle{std::chrono::seconds(1)};  // the window rate_min / rate_iops_min average over
  PerDirection<std::uint64_t> rate_iops_min = {0, 0, 0};
  bool open_loop = false;       // arrivals follow the rate schedule whatever earlier ios do
  bool submit_offload = false;  // fio's io_submit_mode=offload: with a rate, sluice's open loop
  // Open-loop arrivals: open_loop=1, or fio's io_submit_mode=offload with a rate (fio offloads submission so
  // that its rate does not follow completions; sluice's open loop is that, without fio's limit at iodepth).
  bool open_loop_active() const noexcept {
    if (open_loop) return true;
    if (!submit_offload) return false;
    for (int i = 0; i < kNumDirections; ++i) {
      if (rate[i] != 0 || rate_iops[i] != 0) return true;
    }
    return false;
  }
};

// fio's write_iolog / read_iolog family: the io log a job writes, and the logs it replays.
struct IoLogOptions {
  std::string write_iolog;                // append every issued io to this file (fio's iolog version 3)
  std::vector<std::string> read_iolog;    // logs to replay ("a:b": one per clone in turn); empty = none
  bool replay_no_stall = false;           // ignore the log's timing
  std::uint32_t replay_time_scale = 100;  // percent of the log's rate
  std::string replay_redirect;            // every io of the log goes to this file
  std::uint32_t replay_scale = 1;         // offsets divided by this (0 = 1)
  std::uint32_t replay_align = 0;         // offsets rounded down to a multiple (power of 2; 0 = none)
  std::uint32_t replay_skip = 0;          // kReplaySkip* bits: actions of the log left out
  std::string merge_blktrace_file;        // read_iolog's blktraces are merged into this file, which is replayed
  std::vector<std::uint32_t> merge_blktrace_scalars;  // per read_iolog trace: time percent (empty = 100 each)
  std::vector<std::uint32_t> merge_blktrace_iters;    // per read_iolog trace: repetitions (empty = 1 each)
  std::shared_ptr<const IoLog> replay_log;            // the clone's log, read by the runner (run/replay_binding.h)
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

// The io buffers: where their memory comes from, and what write buffers hold (compressibility, dedupe).
struct BufferOptions {
  IoMemorySpec io_memory{};   // mem= / iomem=, hugepage-size, iomem_align
  std::uint64_t lockmem = 0;  // bytes each job clone pins with mlock while it runs (fio's lockmem)
  bool refill_buffers = false;
  bool zero_buffers = false;
  bool scramble_buffers = true;  // write buffers change slightly per write (defeats naive dedupe)
  std::string buffer_pattern;    // bytes that fill write buffers, already decoded; empty = not set
  std::uint32_t buffer_compress_percentage = 0;
  std::uint32_t buffer_compress_chunk = 512;  // bytes: compressible and random runs alternate in such chunks
  // fio's dedupe: dedupe_percentage of write buffers repeat earlier content (workload/dedupe_source.h).
  std::uint32_t dedupe_percentage = 0;
  bool dedupe_working_set = false;                  // dedupe_mode=working_set (else repeat)
  std::uint32_t dedupe_working_set_percentage = 5;  // of the job's size
  bool dedupe_global = false;
};

// How many ios are in flight, and how they are submitted and reaped in batches.
struct QueueOptions {
  std::uint32_t iodepth = 1;
  std::uint32_t iodepth_low = 0;  // a full queue drains to this depth before it is refilled; 0 = iodepth
  std::uint32_t iodepth_batch_submit = 1;
  std::uint32_t iodepth_batch_complete_min = 1;
  std::uint32_t iodepth_batch_complete_max = 0;  // 0 = iodepth
  bool serialize_overlap = false;  // an io overlapping one in flight waits for it (fio's serialize_overlap)
};

// When written data is made durable: O_SYNC/O_DSYNC, a sync every N writes, at the job's end.
struct DurabilityOptions {
  SyncMode sync = SyncMode::kNone;
  std::uint32_t fsync_blocks = 0;            // fsync=N: fsync after every N writes
  std::uint32_t fdatasync_blocks = 0;        // fdatasync=N
  std::uint32_t sync_file_range_blocks = 0;  // sync_file_range=FLAGS:N: every N writes; 0 = never
  std::uint32_t sync_file_range_flags = 0;   // SYNC_FILE_RANGE_WAIT_BEFORE (1) | _WRITE (2) | _WAIT_AFTER (4)
  bool end_fsync = false;
  bool end_syncfs = false;  // at the end of a write stage: one syncfs(2) per file system, not fsyncs
  bool fsync_on_close = false;
};

// When the job starts and ends: start delay, ramp, runtime, loops, and the io amount that ends it.
struct TimeOptions {
  std::chrono::nanoseconds startdelay{0};
  std::chrono::nanoseconds ramp_time{0};
  std::uint64_t ramp_size = 0;  // bytes of I/O (the group's with group_reporting) before measuring; 0 = none
  std::chrono::nanoseconds runtime{0};
  bool time_based = false;
  std::uint32_t loops = 1;
  std::uint64_t io_size = 0;     // bytes of I/O to do; 0 = size
  std::uint64_t number_ios = 0;  // stop after this many ios; 0 = no limit
};

// Latency bounds: a job ends past max_latency; fio's latency_target searches the depth that keeps it.
struct LatencyOptions {
  std::chrono::nanoseconds max_latency{0};  // stop the job when one io's completion latency exceeds this
  // fio's latency_target search (run/latency_target.h): the depth at which latency_percentile percent of ios
  // stay within latency_target over each latency_window; 0 = off.
  std::chrono::nanoseconds latency_target{0};
  std::chrono::nanoseconds latency_window{0};
  double latency_percentile = 100.0;
  bool latency_run = false;  // keep adjusting the depth until the job ends, instead of stopping once found
};

// Which io errors a job counts and goes on after, and which end it (or the whole run).
struct ErrorOptions {
  // continue_on_error / ignore_error, as fio's td_non_fatal_error: an error of a class whose bit is set and
  // whose errno is in that class's list is counted and passed; any other error stops the job.
  std::uint32_t continue_on_error = 0;            // ErrorClass bits (fio: none 0, read 1, write 2, io 3, verify 4, all)
  std::array<std::vector<int>, 3> ignore_errors;  // per ErrorClass; empty: fio's default list {EIO, EILSEQ}
  bool error_dump = false;                        // print every error as it happens, also those passed
  bool exitall_on_error = false;                  // a job that fails stops every job of the run
};

// The job among the run's jobs: clones, groups, waits, flow shares, and commands around its I/O.
struct JobControlOptions {
  std::uint32_t numjobs = 1;
  bool thread = false;                  // sluice always runs jobs as threads; accepted for compatibility
  JobRole role = JobRole::kForeground;  // role=background: runs beside the group's foreground jobs
  bool stonewall = false;
  bool new_group = false;
  std::string wait_for;   // name of a job that must finish before this one starts
  bool exitall = false;   // when this job ends, stop every job of the group
  std::int32_t flow = 0;  // fio flow weight; 0 = not used
  std::uint32_t flow_id = 0;
  // How long a job ahead of its flow share sleeps before checking again (fio's flow_sleep, in microseconds).
  std::chrono::nanoseconds flow_sleep{std::chrono::microseconds(1000)};
  std::string exec_prerun;   // shell command before the job's I/O (output in NAME.prerun.txt)
  std::string exec_postrun;  // and after it (NAME.postrun.txt)
};

// fio's verify family: what is checked when written data is read back, when, and trim verification.
struct VerifyOptions {
  VerifyKind verify = VerifyKind::kNone;
  std::string verify_pattern;                              // bytes of the pattern, already decoded
  std::vector<std::uint32_t> verify_pattern_offset_slots;  // %o: where the chunk offset goes (8 bytes each)
  bool do_verify = true;
  bool verify_only = false;
  bool verify_fatal = false;
  bool verify_dump = false;  // a failed chunk is written to BASENAME.OFFSET.received / .expected
  std::uint32_t verify_backlog = 0;
  std::uint32_t verify_backlog_batch = 0;  // blocks checked per backlog round; 0 = verify_backlog
  bool verify_state_save = true;           // save local-JOB-INDEX-verify.state at the end of a writing job
  bool verify_state_load = false;          // verify_only: check only the writes that state says completed
  VerifyPolicy verify_policy = VerifyPolicy::kCompleted;  // the saved state and the verify phase skip unsynced writes
  std::string aux_path;  // --aux-path: the directory of the verify state files ("" = cwd)
  // Where verify_state_load reads its file when not aux_path (""): a sluice server puts there the states it
  // fetched from its client (fio's SENDFILE, fionet/verify_state_transfer.h); saving still uses aux_path.
  std::string verify_state_load_dir;
  std::uint32_t verify_interval = 0;  // bytes per verify header; 0 = the block size
  std::uint32_t verify_offset = 0;    // the header trades places with the bytes this far into the chunk
  // fio's trim verification: trim_percentage % of the written blocks are trimmed, in rounds every trim_backlog
  // writes of up to trim_backlog_batch blocks (0 = trim_backlog), and must read back as zeros (trim_verify_zero).
  std::uint32_t trim_percentage = 0;
  bool trim_verify_zero = true;
  std::uint64_t trim_backlog = 0;
  std::uint32_t trim_backlog_batch = 0;
  // Written blocks are trimmed and verified (fio's trim_verify: verify=, trim_backlog and trim_percentage).
  bool trims_written_blocks() const noexcept {
    return verify != VerifyKind::kNone && trim_backlog != 0 && trim_percentage != 0;
  }
};

// fio's steadystate (ss): the criterion, its limit and window, after which the job ends early.
struct SteadyStateOptions {
  SteadyStateCriterion ss_criterion = SteadyStateCriterion::kNone;
  double ss_limit = 0;  // percent (ss=iops:10%) or absolute slope / deviation (lat: ns)
  bool ss_limit_is_percent = false;
  std::chrono::nanoseconds ss_duration{0};
  std::chrono::nanoseconds ss_ramp{0};
  std::chrono::nanoseconds ss_interval{std::chrono::seconds(1)};
};

// What is measured of the job and how it is reported: groups, percentiles, averaging windows, units.
struct ReportOptions {
  bool group_reporting = false;
  bool stats = true;      // false: the job runs but is left out of every report and total (fio's stats=0)
  bool disk_util = true;  // false: the devices under this job's files are not in disk_util
  std::vector<double> percentile_list = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  bool clat_percentiles = true;
  bool lat_percentiles = false;
  bool slat_percentiles = false;
  // fio's block_error_percentiles: per trim block of the file, trims until it failed (stats/block_lifetimes.h)
  bool block_error_percentiles = false;
  // fio's --profile=act: the job's latencies are counted per slice of this length against ACT's pass criteria
  // (stats/act_slices.h); 0 = not a job of the act profile. Set by the profile, not an option.
  std::uint64_t act_slice_ns = 0;
  std::uint64_t act_duration_ns = 0;  // the profile's test-duration (the slices it is cut into)
  std::uint32_t kb_base = 1024;
  std::uint32_t bw_avg_msec = 500;    // fio's bwavgtime: the window of each JSON bw_* sample
  std::uint32_t iops_avg_msec = 500;  // fio's iopsavgtime: the same for iops_*
  bool unified_rw_reporting = false;
  std::uint32_t significant_figures = 4;  // digits of IOPS, bandwidth and sizes in the normal output (1-10)
  bool unit_base_bits = false;            // fio's unit_base=1: bandwidths in bit/s in the normal output
  std::string clocksource;  // fio's clocksource (the run's clock): "", "gettimeofday", "clock_gettime" or "cpu"
  bool disable_lat = false;
  bool disable_clat = false;
  bool disable_slat = false;
  bool disable_bw = false;  // no per-io bandwidth log lines (fio's disable_bw_measurement)
};

struct JobSpec {
  // --- the options by concern (the parts, job/<part>_options.h)
  TargetOptions target;
  EngineOptions engine;
  LogOptions logs;
  ZoneOptions zones;
  PlacementOptions placement;
  PacingOptions pacing;
  IoLogOptions iolog;
  WorkloadOptions workload;
  BufferOptions buffers;
  QueueOptions queue;
  DurabilityOptions durability;
  TimeOptions time;
  LatencyOptions latency;
  ErrorOptions errors;
  JobControlOptions control;
  VerifyOptions verification;
  SteadyStateOptions steady_state;
  ReportOptions report;

  // --- identity
  std::string name;
  std::string description;

  // --- provenance, for "file:line" messages and the JSON "job options" echo
  SourcePos where;                                   // where the job section / --name began
  std::map<std::string, std::string> given_options;  // option name -> value text, as given (fio echoes these)
  std::map<std::string, SourcePos> option_pos;       // option name -> where it was set
  // The options whose absence means something other than their default value (fio's fio_option_is_set),
  // marked by apply_option from their rows' `given_flag`, so that no consumer looks an option up by name.
  struct GivenOptions {
    bool iodepth = false;                     // not given: a replayed log keeps the depth it recorded
    bool iodepth_batch_submit = false;        // not given: sluice's submit groups (run/io_loop_setup.cpp)
    bool iodepth_batch_complete_max = false;  // not given: one submit group's worth per reap
    bool thinktime_blocks = false;            // not given: with thinktime_iotime, only the time counts
    bool refill_buffers = false;              // not given: compressible buffers are refilled per write (fio)
    bool random_generator = false;            // not given: sprandom picks lfsr (given otherwise: an error)
    bool norandommap = false;                 // not given: sprandom turns it on (norandommap=0 given: an error)
  };
  GivenOptions explicitly_given;

  // Helpers of the parts, kept here for the consumers that hold the whole job.
  bool is_random() const noexcept { return workload.is_random(); }
  std::uint64_t min_block_size() const noexcept { return workload.min_block_size(); }
  std::uint64_t min_block_size(Direction d) const noexcept { return workload.min_block_size(d); }
  bool does_reads() const noexcept { return workload.does_reads(); }
  bool does_writes() const noexcept { return workload.does_writes(); }
  bool does_trims() const noexcept { return workload.does_trims(); }
  bool trims_written_blocks() const noexcept { return verification.trims_written_blocks(); }
  bool is_trimwrite() const noexcept { return workload.is_trimwrite(); }
  bool is_chained() const noexcept { return workload.is_chained(); }
  bool open_loop_active() const noexcept { return pacing.open_loop_active(); }
  bool is_mixed() const noexcept { return workload.is_mixed(); }
  std::uint16_t default_ioprio() const noexcept { return placement.default_ioprio(); }
  bool uses_cmdprio() const noexcept { return placement.uses_cmdprio(); }
};

// <job_part: generated by scripts/refactor/split-jobspec.py>
// The part of a JobSpec that holds options of type Part (the option rows' JobField reaches a field
// of a part through it). JobSpec itself is the part of its top-level fields.
template <typename Part>
constexpr Part& job_part(JobSpec& job) noexcept {
  if constexpr (std::is_same_v<Part, JobSpec>) {
    return job;
  } else if constexpr (std::is_same_v<Part, TargetOptions>) {
    return job.target;
  } else if constexpr (std::is_same_v<Part, EngineOptions>) {
    return job.engine;
  } else if constexpr (std::is_same_v<Part, UringOptions>) {
    return job.engine.uring;
  } else if constexpr (std::is_same_v<Part, RwFlagOptions>) {
    return job.engine.rw_flags;
  } else if constexpr (std::is_same_v<Part, LibaioOptions>) {
    return job.engine.libaio;
  } else if constexpr (std::is_same_v<Part, FilestatOptions>) {
    return job.engine.filestat;
  } else if constexpr (std::is_same_v<Part, CpuioOptions>) {
    return job.engine.cpuio;
  } else if constexpr (std::is_same_v<Part, ExecOptions>) {
    return job.engine.exec;
  } else if constexpr (std::is_same_v<Part, E4defragOptions>) {
    return job.engine.e4defrag;
  } else if constexpr (std::is_same_v<Part, LogOptions>) {
    return job.logs;
  } else if constexpr (std::is_same_v<Part, ZoneOptions>) {
    return job.zones;
  } else if constexpr (std::is_same_v<Part, PlacementOptions>) {
    return job.placement;
  } else if constexpr (std::is_same_v<Part, PacingOptions>) {
    return job.pacing;
  } else if constexpr (std::is_same_v<Part, IoLogOptions>) {
    return job.iolog;
  } else if constexpr (std::is_same_v<Part, WorkloadOptions>) {
    return job.workload;
  } else if constexpr (std::is_same_v<Part, BufferOptions>) {
    return job.buffers;
  } else if constexpr (std::is_same_v<Part, QueueOptions>) {
    return job.queue;
  } else if constexpr (std::is_same_v<Part, DurabilityOptions>) {
    return job.durability;
  } else if constexpr (std::is_same_v<Part, TimeOptions>) {
    return job.time;
  } else if constexpr (std::is_same_v<Part, LatencyOptions>) {
    return job.latency;
  } else if constexpr (std::is_same_v<Part, ErrorOptions>) {
    return job.errors;
  } else if constexpr (std::is_same_v<Part, JobControlOptions>) {
    return job.control;
  } else if constexpr (std::is_same_v<Part, VerifyOptions>) {
    return job.verification;
  } else if constexpr (std::is_same_v<Part, SteadyStateOptions>) {
    return job.steady_state;
  } else if constexpr (std::is_same_v<Part, ReportOptions>) {
    return job.report;
  } else {
    static_assert(sizeof(Part) == 0, "not a part of JobSpec");
  }
}
// </job_part>

// Global options that are not per job (command line only): output selection and safety.
struct RunOptions {
  enum class OutputFormat { kNormal, kJson, kJsonPlus, kTerse };
  std::vector<OutputFormat> output_formats = {OutputFormat::kNormal};  // "--output-format=normal,json"
  std::string output_path;                                             // --output=FILE; empty = stdout
  bool allow_destructive = false;
  bool status_line = true;          // live status on a terminal (never when stdout/stderr is redirected)
  bool status_line_forced = false;  // --eta=always: show the status line even when not on a terminal
  std::optional<std::chrono::nanoseconds> status_interval;            // --eta-interval: the status line's refresh
  std::optional<std::chrono::nanoseconds> report_interval;            // --status-interval: a full report this often
  std::chrono::nanoseconds series_interval{std::chrono::seconds(1)};  // time-series resolution
  // fio's global command-line options (fio's --help names them).
  int terse_version = 3;              // --terse-version: 2, 3, 4 or 5 (fio's terse formats)
  bool readonly = false;              // --readonly: refuse every job that writes or trims
  bool warnings_fatal = false;        // --warnings-fatal: a validation warning stops the run
  std::vector<std::string> sections;  // --section=NAME (repeatable): run only the jobs of these names
  bool bandwidth_log = false;         // --bandwidth-log: agg-{read,write,trim}_bw.log in the current dir
  std::string inflate_log;            // --inflate-log=F: print fio's compressed log F as text, run nothing
  std::string aux_path;               // --aux-path=DIR: where the verify state files go (fio's state files)
  std::optional<std::chrono::nanoseconds> eta_newline;  // --eta-newline: keep a status line every period
};

// fio's error classes (td_error.h): EILSEQ is a verify error, any other error of a read a read error, of a
// write, trim or sync a write error.
enum class ErrorClass { kRead = 0, kWrite = 1, kVerify = 2 };
constexpr std::uint32_t kContinueOnAllErrors = 0xffff;  // fio's ERROR_TYPE_ANY
ErrorClass error_class_of(bool is_read, int error) noexcept;

// Whether the job counts `error` (an errno) of class `c` and goes on (fio's td_non_fatal_error).
bool error_is_non_fatal(const ErrorOptions& errors, ErrorClass c, int error) noexcept;

std::string_view rw_mode_name(RwMode mode) noexcept;  // fio spelling: "randread", "rw", ...

}  // namespace sluice
