// Pure checks of one JobSpec. Each finding names the option and where it was set (or where the job began).
#include "job/validate.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/engine_traits.h"
#include "job/job_problems.h"
#include "job/units.h"
#include "job/validate_sprandom.h"
#include "job/validate_verify.h"
#include "job/validate_zones.h"
#include "job/warning_codes.h"

namespace sluice {
namespace {

using Checker = detail::JobProblems;

// The directions the job issues, so that settings of unused directions do not produce findings.
std::vector<Direction> used_directions(const WorkloadOptions& workload) {
  std::vector<Direction> used;
  if (workload.does_reads()) used.push_back(Direction::kRead);
  if (workload.does_writes()) used.push_back(Direction::kWrite);
  if (workload.does_trims()) used.push_back(Direction::kTrim);
  return used;
}

std::string plural_name(Direction d) { return std::string(direction_name(d)) + "s"; }

std::string text_of(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

void check_direct_alignment(const WorkloadOptions& workload, Checker& check, Direction d) {
  const int i = index_of(d);
  const auto misaligned = [](std::uint64_t bytes) { return bytes % 512 != 0; };
  const auto report = [&](const std::string& option, std::uint64_t bytes) {
    check.error(option, option + "=" + std::to_string(bytes) +
                            " with direct=1: O_DIRECT needs multiples of the logical block size (usually 512 or 4096)");
  };
  if (!workload.bssplit[i].empty()) {
    for (const auto& entry : workload.bssplit[i]) {
      if (misaligned(entry.size)) return report("bssplit", entry.size);
    }
  } else if (workload.bsrange[i].min != 0) {
    if (misaligned(workload.bsrange[i].min)) return report("bsrange", workload.bsrange[i].min);
    if (misaligned(workload.bsrange[i].max)) return report("bsrange", workload.bsrange[i].max);
  } else if (workload.bs[i] != 0 && misaligned(workload.bs[i])) {
    report("bs", workload.bs[i]);
  }
}

// direct: the target part's direct=1 (O_DIRECT), under which lengths must be aligned.
void check_block_sizes(const WorkloadOptions& workload, bool direct, Checker& check) {
  for (Direction d : used_directions(workload)) {
    const int i = index_of(d);
    if (workload.bs[i] == 0 && workload.bsrange[i].min == 0 && workload.bssplit[i].empty()) {
      check.error("bs", "bs=0 for " + plural_name(d) + ": a block size must be at least 1 byte");
      continue;
    }
    if (workload.bsrange[i].min > workload.bsrange[i].max) {
      check.error("bsrange", "bsrange for " + plural_name(d) + ": the minimum is above the maximum");
    }
    if (!workload.bssplit[i].empty()) {
      double sum = 0;
      for (const auto& entry : workload.bssplit[i]) sum += entry.percent;
      if (std::fabs(sum - 100.0) > 0.01) {
        check.error("bssplit",
                    "bssplit for " + plural_name(d) + ": percentages add up to " + text_of(sum) + ", not 100");
      }
    }
    if (direct) check_direct_alignment(workload, check, d);
  }
  if (!direct || !workload.bs_unaligned) return;
  for (Direction d : used_directions(workload)) {
    const int i = index_of(d);
    if (workload.bssplit[i].empty() && workload.bsrange[i].min != 0 &&
        workload.bsrange[i].max > workload.bsrange[i].min) {
      check.error("bs_unaligned",
                  "bs_unaligned with direct=1: its lengths are not multiples of the logical block "
                  "size, which O_DIRECT needs (fio fails such ios with EINVAL)");
      return;
    }
  }
}

// "psync, sync, libaio, io_uring, null and falloc": the engines whose traits say they trim (the per-file
// engines accept trims as fio's do, but do nothing different for them, so they are not suggested).
std::string trim_engines() {
  std::vector<std::string_view> names;
  for (const EngineTraits& t : kEngineTable) {
    if (t.trim && !t.per_file) names.push_back(t.name);
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

// end_syncfs: fio 3.42's engines that can syncfs (its FIO_SYNCFS and FIO_ASYNCIO_SYNC_SYNCFS flags), and
// null, which fio runs without a syncfs (it has no files). fio rejects the job with any other engine ("I/O
// engine does not support syncfs"; its mmap crashes instead).
void check_end_syncfs(const DurabilityOptions& durability, EngineKind engine, Checker& check) {
  static constexpr EngineKind kSyncfsEngines[] = {
      EngineKind::kPsync,    EngineKind::kSync,      EngineKind::kVsync,      EngineKind::kPvsync,
      EngineKind::kPvsync2,  EngineKind::kLibaio,    EngineKind::kIoUring,    EngineKind::kPosixaio,
      EngineKind::kFalloc,   EngineKind::kFtruncate, EngineKind::kFileCreate, EngineKind::kFileDelete,
      EngineKind::kDirDelete};
  if (!durability.end_syncfs || engine == EngineKind::kNull) return;
  if (std::find(std::begin(kSyncfsEngines), std::end(kSyncfsEngines), engine) != std::end(kSyncfsEngines)) {
    return;
  }
  std::string takers;
  for (EngineKind e : kSyncfsEngines) takers += (takers.empty() ? "" : ", ") + std::string(engine_name(e));
  check.error("end_syncfs", "end_syncfs cannot be done with ioengine=" + std::string(engine_name(engine)) +
                                " (as in fio, only these engines syncfs: " + takers + "); use end_fsync");
}

// iodepth and its batches; traits: the job's engine (a synchronous one keeps one io in flight).
void check_queue(const QueueOptions& queue, const EngineTraits& traits, Checker& check) {
  const std::string engine(traits.name);
  // One io in flight on storage. null keeps one too, but it measures the harness: there is no device queue
  // for iodepth to fill, so the "no effect" advice is not given for it.
  const bool synchronous = !traits.honours_iodepth() && traits.uses_files;
  if (queue.iodepth == 0) check.error("iodepth", "iodepth=0: must be at least 1");
  if (synchronous && queue.iodepth > 1) {
    check.warning("iodepth", "iodepth=" + std::to_string(queue.iodepth) + " has no effect with ioengine=" + engine +
                                 " (a synchronous engine keeps one io in flight per job); use io_uring or libaio");
    check.set_last_code(std::string(kLintSyncEngineIodepth));  // a methodology lint rule too (method/lint.h)
  }
  if (queue.iodepth_batch_complete_max != 0 && queue.iodepth_batch_complete_min > queue.iodepth_batch_complete_max) {
    check.error("iodepth_batch_complete_min",
                "iodepth_batch_complete_min=" + std::to_string(queue.iodepth_batch_complete_min) +
                    " is above iodepth_batch_complete_max=" + std::to_string(queue.iodepth_batch_complete_max));
  }
  if (!synchronous && queue.iodepth > 0 && queue.iodepth_batch_submit > queue.iodepth) {
    check.warning("iodepth_batch_submit", "iodepth_batch_submit=" + std::to_string(queue.iodepth_batch_submit) +
                                              " is above iodepth=" + std::to_string(queue.iodepth) +
                                              "; batches are capped at iodepth");
  }
}

// What the job's engine can do with the rest of the job: it reads every part, as each engine claim (trim,
// flush, io, reads, a file descriptor) bears on another part.
void check_engine(const JobSpec& job, Checker& check) {
  const EngineTraits& traits = engine_traits(job.engine.ioengine);
  const std::string engine(traits.name);
  check_queue(job.queue, traits, check);
  if (job.does_trims() && !traits.trim) {
    check.error("ioengine", "rw=" + std::string(rw_mode_name(job.workload.rw)) + " cannot be done with ioengine=" +
                                engine + " (trims work with " + trim_engines() + ")");
  }
  if (!traits.flush) {
    const std::pair<const char*, bool> kSyncs[] = {{"fsync", job.durability.fsync_blocks != 0},
                                                   {"fdatasync", job.durability.fdatasync_blocks != 0},
                                                   {"end_fsync", job.durability.end_fsync},
                                                   {"sync_file_range", job.durability.sync_file_range_blocks != 0}};
    for (const auto& [option, set] : kSyncs) {
      if (set) {
        check.error(option, std::string(option) + " cannot be done with ioengine=" + engine +
                                " (it moves no data, so there is nothing to flush)");
      }
    }
  }
  check_end_syncfs(job.durability, job.engine.ioengine, check);
  if (!traits.does_io && job.time.runtime.count() == 0) {
    check.error("runtime", "ioengine=" + engine + " does no I/O and runs for a time: give runtime=");
  }
  if (job.engine.ioengine == EngineKind::kCpuio && job.engine.cpuio.cpuload == 0) {
    check.error("cpuload", "ioengine=cpuio needs cpuload= (the percentage of a CPU to keep busy, 1 to 100)");
  }
  if (job.engine.ioengine == EngineKind::kExec && job.engine.exec.program.empty()) {
    check.error("program", "ioengine=exec needs program= (the program to run for the job's runtime)");
  }
  if (job.engine.ioengine == EngineKind::kPageFault && job.target.nrfiles > 1) {  // fio's messages
    check.error("nrfiles", "ioengine=page_fault does not support multiple files (one mapping of the job's size)");
  }
  if (job.engine.ioengine == EngineKind::kPageFault &&
      (job.target.offset.is_set() || job.target.offset_increment != 0)) {
    check.error("offset", "ioengine=page_fault does not support an offset (its mapping starts at 0)");
  }
  if (job.engine.ioengine == EngineKind::kE4defrag && job.engine.e4defrag.donorname.empty()) {
    check.error("donorname",
                "ioengine=e4defrag needs donorname= (the donor file each write's blocks are moved "
                "onto)");
  }
  if (!traits.reads && job.does_reads()) {
    check.error("ioengine", "rw=" + std::string(rw_mode_name(job.workload.rw)) + " cannot be done with ioengine=" +
                                engine + " (it does writes only; fio fails its reads with EINVAL)");
  }
  if (job.control.numjobs == 0) check.error("numjobs", "numjobs=0: must be at least 1");
  if (job.target.nrfiles == 0) check.error("nrfiles", "nrfiles=0: must be at least 1");
  if (traits.needs_fd && job.target.openfiles != 0 && job.target.openfiles < job.target.nrfiles) {
    check.error("openfiles", "openfiles=" + std::to_string(job.target.openfiles) +
                                 " is below nrfiles=" + std::to_string(job.target.nrfiles) +
                                 ": sluice keeps every file of a job open (fio closes "
                                 "and reopens them); give openfiles=0 or at least nrfiles");
  }
}

void check_time(const TimeOptions& time, Checker& check) {
  if (time.time_based && time.runtime.count() == 0) check.error("time_based", "time_based needs runtime");
  if (time.time_based && time.runtime.count() > 0 && time.ramp_time >= time.runtime) {
    check.warning("ramp_time",
                  "ramp_time=" + format_duration_ns(static_cast<double>(time.ramp_time.count())) +
                      " is not shorter than runtime=" + format_duration_ns(static_cast<double>(time.runtime.count())) +
                      ": nothing would be measured");
  }
  if (time.loops == 0) check.error("loops", "loops=0: must be at least 1");
  if (time.ramp_size != 0 && time.ramp_time.count() > 0) {  // fio 3.42 rejects the job the same way
    check.error("ramp_size", "ramp_size and ramp_time exclude each other: give one of them");
  }
}

// fio's latency_target search needs its window; its other options need it.
void check_latency_target(const LatencyOptions& latency, Checker& check) {
  if (latency.latency_target.count() > 0 && latency.latency_window.count() == 0) {
    // fio then judges the depth at every turn of its loop, on the few ios since the last change.
    check.error("latency_window", "latency_target needs latency_window (how long each depth is tried, e.g. 5s)");
  }
  if (latency.latency_target.count() == 0) {
    for (const char* option : {"latency_window", "latency_percentile", "latency_run"}) {
      if (check.given(option)) {
        check.warning(option, std::string(option) + " has no effect without latency_target");
      }
    }
  }
}

// RWF flag options given for an engine that does not take them: said, not fatal (a [global] section may set
// them for jobs of several engines).
void check_engine_flag_options(const EngineOptions& engine, Checker& check) {
  struct Use {
    const char* option;
    std::initializer_list<EngineKind> engines;
  };
  const Use kUses[] = {{"nowait", {EngineKind::kPvsync2, EngineKind::kIoUring, EngineKind::kLibaio}},
                       {"uncached", {EngineKind::kPvsync2, EngineKind::kIoUring}},
                       {"hipri", {EngineKind::kPvsync2, EngineKind::kIoUring}},
                       {"hipri_percentage", {EngineKind::kPvsync2}},
                       {"userspace_reap", {EngineKind::kLibaio}},
                       {"atomic", {EngineKind::kPvsync2, EngineKind::kIoUring, EngineKind::kLibaio}},
                       {"donorname", {EngineKind::kE4defrag}},
                       {"inplace", {EngineKind::kE4defrag}}};
  for (const Use& use : kUses) {
    if (!check.given(use.option)) continue;
    if (std::find(use.engines.begin(), use.engines.end(), engine.ioengine) != use.engines.end()) continue;
    std::string takers;
    for (EngineKind e : use.engines) takers += (takers.empty() ? "" : ", ") + std::string(engine_name(e));
    check.warning(use.option, std::string(use.option) + " has no effect with ioengine=" +
                                  std::string(engine_name(engine.ioengine)) + " (it is an option of " + takers + ")");
  }
}

// unlink_each_loop: files deleted and created again between loops, by the engines that use plain fds.
void check_unlink_each_loop(const JobSpec& job, Checker& check) {
  if (!job.target.unlink_each_loop) return;
  if (job.time.loops < 2 || job.time.time_based) {
    check.warning("unlink_each_loop", job.time.time_based ? "unlink_each_loop has no effect with time_based (one loop)"
                                                          : "unlink_each_loop has no effect with loops=1");
    return;
  }
  if (job.does_reads()) {
    check.error("unlink_each_loop", "unlink_each_loop deletes the files before each loop after the first, so rw=" +
                                        std::string(rw_mode_name(job.workload.rw)) +
                                        " would read empty files (fio fails that loop with ENOENT); use a "
                                        "writing rw= or drop unlink_each_loop");
  }
  const EngineTraits& e = engine_traits(job.engine.ioengine);
  if (!e.moves_data || !e.needs_fd || e.needs_size) {  // the engines that read and write through a descriptor
    check.error("unlink_each_loop",
                "unlink_each_loop works with the engines that read and write through a file "
                "descriptor (psync, sync, pvsync, pvsync2, vsync, libaio, io_uring, posixaio), "
                "not " +
                    std::string(e.name));
  }
  if (!job.iolog.read_iolog.empty()) check.error("unlink_each_loop", "unlink_each_loop cannot be used with read_iolog");
  if (job.verification.verify_only) {
    check.error("unlink_each_loop",
                "verify_only cannot replay unlink_each_loop's loops (only the last loop's data "
                "is kept); verify in the writing run");
  }
}

void check_mix_and_randomness(const WorkloadOptions& workload, Checker& check) {
  if (workload.rwmixread > 100)
    check.error("rwmixread", "rwmixread=" + std::to_string(workload.rwmixread) + ": at most 100");
  if (workload.norandommap && !workload.is_random()) {
    check.warning("norandommap", "norandommap has no effect with rw=" + std::string(rw_mode_name(workload.rw)) +
                                     " (sequential); ignored");
  }
}

// Syncs every N writes of a job that does not write.
void check_syncs_need_writes(const DurabilityOptions& durability, const WorkloadOptions& workload, Checker& check) {
  const std::pair<const char*, bool> kSyncs[] = {{"fsync", durability.fsync_blocks != 0},
                                                 {"fdatasync", durability.fdatasync_blocks != 0},
                                                 {"sync_file_range", durability.sync_file_range_blocks != 0}};
  for (const auto& [option, set] : kSyncs) {
    if (set && !workload.does_writes()) {
      check.warning(option, std::string(option) + " has no effect with rw=" + std::string(rw_mode_name(workload.rw)) +
                                " (the job does not write); ignored");
    }
  }
}

void check_fill_device(const TargetOptions& target, const WorkloadOptions& workload, Checker& check) {
  // fio's fill_device writes sequentially until ENOSPC; random writes would leave holes (fio itself fails
  // allocating its random map), and mixed or trim modes have no "full".
  const bool fills = workload.rw == RwMode::kWrite || workload.rw == RwMode::kRead || workload.rw == RwMode::kRandRead;
  if (target.fill_device && !fills) {
    check.error("fill_device",
                "fill_device=1 needs rw=write (sequential writes until the filesystem is full), or "
                "rw=read or randread (the file is filled first); not rw=" +
                    std::string(rw_mode_name(workload.rw)));
  }
}

void check_think_time(const PacingOptions& pacing, Checker& check) {
  if (pacing.thinktime.count() == 0) {
    for (const char* option : {"thinktime_iotime", "thinktime_blocks_type", "rate_ignore_thinktime"}) {
      if (check.given(option)) {
        check.warning(option, std::string(option) + " has no effect without thinktime; ignored");
      }
    }
  }
  if (pacing.thinktime_spin > pacing.thinktime && pacing.thinktime_spin_set) {
    check.warning("thinktime_spin", "thinktime_spin is longer than thinktime; the whole think time is spun");
  }
}

// open_loop (sluice extension) needs an arrival schedule, i.e. a rate for a direction the job issues.
void check_open_loop(const PacingOptions& pacing, const std::vector<Direction>& used, Checker& check, bool limited) {
  if (!pacing.open_loop) return;
  bool scheduled = false;
  for (Direction d : used) {
    scheduled = scheduled || pacing.rate[index_of(d)] != 0 || pacing.rate_iops[index_of(d)] != 0;
  }
  if (!scheduled) {
    check.error("open_loop", limited ? "open_loop=1 needs rate_iops or rate for a direction this job issues"
                                     : "open_loop=1 needs a rate: give rate_iops (or rate) for the arrivals");
  }
  if (pacing.thinktime.count() > 0) {
    check.warning("thinktime", "thinktime with open_loop=1 delays arrivals' submission and counts as queue wait");
  }
}

// used: the directions the job issues.
void check_rates(const PacingOptions& pacing, const std::vector<Direction>& used, Checker& check) {
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    if (pacing.rate[i] != 0 && pacing.rate_iops[i] != 0) {
      check.error("rate_iops", "rate and rate_iops both limit " + plural_name(d) + "; use one of them");
    }
  }
  bool limited = false;
  for (int i = 0; i < kNumDirections; ++i) limited = limited || pacing.rate[i] != 0 || pacing.rate_iops[i] != 0;
  if (pacing.rate_process == RateProcess::kPoisson && !limited) {
    check.warning("rate_process", "rate_process=poisson has no effect without rate or rate_iops");
  }
  check_open_loop(pacing, used, check, limited);
}

void check_reporting(const ReportOptions& report, Checker& check) {
  if (report.percentile_list.size() > 20) check.error("percentile_list", "percentile_list: at most 20 percentiles");
  for (double p : report.percentile_list) {
    if (p < 0.0 || p > 100.0) {
      check.error("percentile_list", "percentile_list: " + text_of(p) + " is not from 0 to 100");
      break;
    }
  }
  if (report.kb_base != 1000 && report.kb_base != 1024) {
    check.error("kb_base", "kb_base=" + std::to_string(report.kb_base) + ": must be 1000 or 1024");
  }
}

void check_buffers(const BufferOptions& buffers, Checker& check) {
  if (buffers.zero_buffers && buffers.buffer_compress_percentage > 0) {
    check.error("buffer_compress_percentage",
                "zero_buffers and buffer_compress_percentage=" + std::to_string(buffers.buffer_compress_percentage) +
                    " contradict each other; use one of them");
  }
  if (buffers.buffer_compress_percentage > 100) {
    check.error("buffer_compress_percentage", "buffer_compress_percentage: at most 100");
  }
}

// dedupe_* as fio 3.33 checks them (init.c), and the settings under which no buffer could repeat another.
// verify: the job's verify= kind; nrfiles: the target part's file count.
void check_dedupe(const BufferOptions& buffers, const WorkloadOptions& workload, VerifyKind verify,
                  std::uint32_t nrfiles, Checker& check) {
  if (buffers.dedupe_percentage == 0) return;
  if (!workload.does_writes()) {
    check.warning("dedupe_percentage",
                  "dedupe_percentage has no effect with rw=" + std::string(rw_mode_name(workload.rw)) +
                      " (the job does not write); ignored");
    return;
  }
  if (verify != VerifyKind::kNone) {
    check.warning("dedupe_percentage",
                  "dedupe_percentage with verify: verification writes its own data into every buffer; ignored");
  }
  if (!buffers.buffer_pattern.empty() || buffers.zero_buffers) {
    check.warning("dedupe_percentage", std::string(buffers.zero_buffers ? "zero_buffers" : "buffer_pattern") +
                                           " makes every buffer the same already; dedupe_percentage ignored");
  }
  if (!buffers.dedupe_working_set) return;
  if (!check.given("size")) {
    check.error("dedupe_mode",
                "dedupe_mode=working_set needs size (fio: the pregenerated dedupe working set "
                "requires size to be set)");
  } else if (nrfiles != 1) {
    check.error("dedupe_mode", "dedupe_mode=working_set works with one file per job, not nrfiles=" +
                                   std::to_string(nrfiles) + " (as fio)");
  } else if (buffers.dedupe_working_set_percentage + buffers.dedupe_percentage > 100) {
    check.error("dedupe_working_set_percentage",
                "dedupe_percentage=" + std::to_string(buffers.dedupe_percentage) +
                    " cannot be reached: " + std::to_string(buffers.dedupe_working_set_percentage) +
                    " percent of size is the working set, written as unique buffers (as fio); the two must add up "
                    "to at most 100");
  }
}

// merge_blktrace_* against read_iolog's traces, and read_iolog against write_iolog.
void check_iolog(const IoLogOptions& iolog, Checker& check) {
  if (iolog.merge_blktrace_file.empty()) {
    for (const char* option : {"merge_blktrace_scalars", "merge_blktrace_iters"}) {
      if (check.given(option)) {
        check.warning(option, std::string(option) + " has no effect without merge_blktrace_file; ignored");
      }
    }
  } else if (iolog.read_iolog.empty()) {
    check.error("merge_blktrace_file", "merge_blktrace_file merges read_iolog's traces: give read_iolog=a:b");
  } else {
    const std::pair<const char*, std::size_t> kLists[] = {
        {"merge_blktrace_scalars", iolog.merge_blktrace_scalars.size()},
        {"merge_blktrace_iters", iolog.merge_blktrace_iters.size()}};
    for (const auto& [option, count] : kLists) {
      if (count != 0 && count != iolog.read_iolog.size()) {  // fio's "merge_blktrace_scalars(1) != nr_logs(2)"
        check.error(option, std::string(option) + " has " + std::to_string(count) + " value(s) for " +
                                std::to_string(iolog.read_iolog.size()) + " read_iolog trace(s); give one per trace");
      }
    }
  }
  if (iolog.read_iolog.empty()) return;
  if (!iolog.write_iolog.empty()) {
    check.error("write_iolog",
                "read_iolog and write_iolog together: fio drops write_iolog (\"read iolog overrides "
                "write_iolog\"); give one of them");
  }
}

// read_iolog replaces the job's pattern with the log's ios and timing; what would have to act on both is
// refused by name rather than half done. It reads the parts the log replaces (pacing, target, workload, control).
void check_replay_conflicts(const JobSpec& job, Checker& check) {
  if (job.iolog.read_iolog.empty()) return;
  if (job.pacing.open_loop)
    check.error("open_loop", "open_loop with read_iolog: the log's timestamps are the arrivals");
  if (job.target.fill_device) check.error("fill_device", "fill_device with read_iolog: the log says what is written");
  if (job.is_chained()) {
    check.error("rw", "rw=" + std::string(rw_mode_name(job.workload.rw)) +
                          " with read_iolog: the log's ios are replayed as "
                          "they are; leave rw out");
  }
  if (job.iolog.read_iolog.size() > 1 && job.control.numjobs < job.iolog.read_iolog.size()) {
    check.warning("read_iolog", std::to_string(job.iolog.read_iolog.size()) + " logs for " +
                                    std::to_string(job.control.numjobs) + " clone(s): the logs after the first " +
                                    std::to_string(job.control.numjobs) + " are not replayed");
  }
}

// fio's cmdprio options belong to its libaio and io_uring engines (other engines do not know them) and
// cmdprio_percentage excludes cmdprio_bssplit (fio_cmdprio_init).
void check_cmdprio(const EngineOptions& engine, const PlacementOptions& placement, Checker& check) {
  static constexpr const char* kOptions[] = {"cmdprio_percentage", "cmdprio_bssplit", "cmdprio_class", "cmdprio"};
  const char* given = nullptr;
  for (const char* option : kOptions) {
    if (check.given(option) && given == nullptr) given = option;
  }
  if (given == nullptr) return;
  if (engine.ioengine != EngineKind::kLibaio && engine.ioengine != EngineKind::kIoUring) {
    check.error(given, std::string(given) +
                           " is an option of ioengine=libaio and io_uring (as in fio); this job's "
                           "ioengine is " +
                           std::string(engine_name(engine.ioengine)));
    return;
  }
  bool percentage = false;
  bool split = false;
  for (int i = 0; i < 2; ++i) {
    percentage = percentage || placement.cmdprio_percentage[i] != 0;
    split = split || !placement.cmdprio_bssplit[i].empty();
  }
  if (percentage && split) {
    check.error("cmdprio_bssplit", "cmdprio_percentage and cmdprio_bssplit options are mutually exclusive");
  } else if (!percentage && !split) {
    check.warning(given, std::string(given) +
                             " has no effect without cmdprio_percentage or cmdprio_bssplit; "
                             "ignored");
  }
}

}  // namespace

std::vector<Problem> validate(const JobSpec& job) {
  Checker check(job);
  check_block_sizes(job.workload, job.target.direct, check);
  check_engine(job, check);
  check_time(job.time, check);
  check_latency_target(job.latency, check);
  check_unlink_each_loop(job, check);
  if (check.given("profile")) {
    check.warning("profile",
                  "profile= in a job has no effect (fio runs a profile from its command line only: "
                  "sluice run --profile=tiobench)");
  }
  check_engine_flag_options(job.engine, check);
  check_mix_and_randomness(job.workload, check);
  check_syncs_need_writes(job.durability, job.workload, check);
  check_fill_device(job.target, job.workload, check);
  check_think_time(job.pacing, check);
  check_rates(job.pacing, used_directions(job.workload), check);
  check_reporting(job.report, check);
  check_buffers(job.buffers, check);
  check_iolog(job.iolog, check);
  check_replay_conflicts(job, check);
  check_zones(job.zones, job.workload, job.target.nrfiles, job.verification.verify, check);
  if (job.report.block_error_percentiles && job.target.nrfiles != 1) {
    check.error("block_error_percentiles", "block_error_percentiles works with one file per job, not nrfiles=" +
                                               std::to_string(job.target.nrfiles) + " (as fio)");
  }
  check_dedupe(job.buffers, job.workload, job.verification.verify, job.target.nrfiles, check);
  check_cmdprio(job.engine, job.placement, check);
  std::vector<Problem> problems = check.take();
  validate_verify(job, problems);
  validate_sprandom(job, problems);
  return problems;
}

}  // namespace sluice
