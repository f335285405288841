#include "job/validate_verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "job/job_problems.h"

namespace sluice {
namespace {

Direction header_direction(const JobSpec& job) noexcept {
  return job.does_writes() ? Direction::kWrite : Direction::kRead;
}

// The step of a bsrange's sizes (blockalign, else the range's minimum): the job issues multiples of it from
// the minimum rounded up to the maximum rounded down.
std::uint64_t range_step(const JobSpec& job, int i) noexcept {
  return job.workload.blockalign[i] != 0 ? job.workload.blockalign[i] : job.workload.bsrange[i].min;
}

// Every block size the direction can issue (a range: its ends and its step), and its alignment.
std::vector<std::uint64_t> sizes_of(const JobSpec& job, Direction d) {
  const int i = index_of(d);
  std::vector<std::uint64_t> sizes;
  if (!job.workload.bssplit[i].empty()) {
    for (const BlockSizeSplitEntry& e : job.workload.bssplit[i]) sizes.push_back(e.size);
  } else if (job.workload.bsrange[i].min != 0) {
    const std::uint64_t step = range_step(job, i);
    const std::uint64_t low = (job.workload.bsrange[i].min + step - 1) / step * step;
    sizes.push_back(low);
    sizes.push_back(std::max(low, job.workload.bsrange[i].max / step * step));
    sizes.push_back(step);
  } else {
    sizes.push_back(job.workload.bs[i]);
  }
  if (job.workload.blockalign[i] != 0) sizes.push_back(job.workload.blockalign[i]);
  return sizes;
}

using Findings = detail::JobProblems;

void check_chunk(const JobSpec& job, Findings& f) {
  const std::uint32_t chunk = verify_chunk_size(job);
  const Direction d = header_direction(job);
  if (chunk == 0) {
    f.error("verify", fmt::format("verify: a {} block size over 4 GiB cannot carry verify headers; set "
                                  "verify_interval",
                                  direction_name(d)));
    return;
  }
  const std::string option = job.verification.verify_interval ? "verify_interval" : "bs";
  const std::uint32_t header = verify_header_bytes(job.verification.verify);
  if (chunk < header) {
    const bool variable = job.verification.verify_interval == 0 && sizes_of(job, d).size() > 1;
    f.error(option,
            fmt::format("verify: {} bytes per verify header is less than the header ({} bytes){}", chunk, header,
                        variable ? " (with variable block sizes a header covers the largest size that "
                                   "divides them all; set verify_interval)"
                                 : ""));
  }
  if (job.verification.verify_offset != 0 && header != 0 &&
      std::uint64_t{job.verification.verify_offset} + header > chunk) {
    f.error("verify_offset", fmt::format("verify_offset={}: the {}-byte verify header would end past the {}-byte "
                                         "chunk (verify_interval, else the block size)",
                                         job.verification.verify_offset, header, chunk));
  }
  if (job.verification.verify_interval != 0 && chunk != job.verification.verify_interval) {
    f.warning("verify_interval",
              fmt::format("verify_interval={} {}: a verify header every {} bytes instead (as fio)",
                          job.verification.verify_interval,
                          job.verification.verify_interval > chunk ? "is larger than the smallest block size"
                                                                   : "does not divide every block size",
                          chunk));
  }
}

void check_modes(const JobSpec& job, Findings& f) {
  if (job.does_trims()) {
    f.error("verify", "verify with trim workloads is not supported (fio's trim_* verification is not implemented)");
  }
  if (job.workload.rw == RwMode::kRandRmw) f.error("verify", "verify with rw=randrmw is not supported");
  if (!engine_traits(job.engine.ioengine).moves_data) {
    f.error("verify",
            fmt::format("verify needs an engine that moves data, not ioengine={}", engine_name(job.engine.ioengine)));
  }
  if (job.verification.verify == VerifyKind::kPattern && job.verification.verify_pattern.empty()) {
    f.error("verify", "verify=pattern needs verify_pattern (0x hex bytes or a quoted string)");
  }
  if (job.verification.verify_only) {
    if (!job.does_writes()) {
      f.error("verify_only", fmt::format("verify_only replays the job's writes, and rw={} has none (a read job with "
                                         "verify= checks every read without it)",
                                         rw_mode_name(job.workload.rw)));
    }
    if (job.time.time_based && !job.verification.verify_state_load) {
      f.error("verify_only",
              "verify_only cannot replay a time_based job's writes without verify_state_load=1 (the "
              "state the writing run saved says how many it issued)");
    }
    if (!job.workload.randrepeat)
      f.error("verify_only", "verify_only needs randrepeat=1 to replay the writes of the earlier run");
    return;
  }
  if (job.verification.verify_state_load) {
    f.warning("verify_state_load",
              "verify_state_load has no effect without verify_only (it limits the replayed "
              "writes of a verify_only run)");
  }
  if (job.verification.verify_policy == VerifyPolicy::kFsynced && job.does_writes() &&
      job.durability.fsync_blocks == 0 && job.durability.fdatasync_blocks == 0 &&
      job.durability.sync_file_range_blocks == 0 && !job.durability.end_fsync) {
    f.warning("verify_policy",
              "verify_policy=fsynced without fsync=N, fdatasync=N, sync_file_range or end_fsync: no "
              "sync completes during the job, so no write is verified (fsync_on_close comes after "
              "the verify state is saved)");
  }
  if (!job.does_writes()) return;  // a read job checks every read against the headers it finds
  if (job.time.time_based && job.verification.do_verify && job.verification.verify_backlog == 0) {
    f.warning("verify",
              "time_based job: no verify phase after the writes (as in fio); use verify_backlog=N to "
              "verify during the run");
  }
  if (job.workload.norandommap && job.is_random() && job.queue.iodepth > 1 && !job.queue.serialize_overlap) {
    f.warning("norandommap",
              "verify with norandommap and iodepth > 1: two writes of one block in flight at once "
              "may complete in either order and be reported as a lost write (serialize_overlap=1 "
              "keeps them apart)");
  }
}

// fio's trim verification: trims only with both trim_percentage and trim_backlog (fio's trim_verify).
void check_trims(const JobSpec& job, Findings& f) {
  if (job.verification.trim_percentage != 0 && job.verification.trim_backlog == 0) {
    f.warning("trim_percentage", "trim_percentage has no effect without trim_backlog=N (no trims, as in fio)");
  }
  if (job.verification.trim_backlog != 0 && job.verification.trim_percentage == 0) {
    f.warning("trim_backlog", "trim_backlog has no effect with trim_percentage=0 (no write is drawn to be trimmed)");
  }
  if (!job.trims_written_blocks()) return;
  if (!engine_traits(job.engine.ioengine).trim) {
    f.error("trim_percentage", fmt::format("trim_percentage trims written blocks, and ioengine={} cannot trim",
                                           engine_name(job.engine.ioengine)));
  }
  if (job.verification.verify_only) {
    f.error("trim_percentage",
            "verify_only cannot replay which writes were trimmed; verify in the writing run "
            "(do_verify=1)");
  }
  if (!job.does_writes()) {
    f.warning("trim_percentage",
              fmt::format("rw={} writes nothing, so nothing is trimmed", rw_mode_name(job.workload.rw)));
  }
}

void check_verify(const JobSpec& job, Findings& f) {
  if (job.verification.verify == VerifyKind::kNone) {
    for (const char* option :
         {"verify_only", "verify_backlog", "verify_backlog_batch", "verify_interval", "verify_fatal", "verify_offset",
          "verify_state_load", "trim_percentage", "trim_backlog", "trim_backlog_batch"}) {
      if (job.given_options.count(option)) f.warning(option, fmt::format("{} has no effect without verify=", option));
    }
    return;
  }
  check_modes(job, f);
  check_chunk(job, f);
  check_trims(job, f);
}

}  // namespace

std::uint32_t verify_chunk_size(const JobSpec& job) noexcept {
  const std::vector<std::uint64_t> sizes = sizes_of(job, header_direction(job));
  if (job.verification.verify_interval != 0) {
    // fio's fixup: an interval over the smallest write size becomes that size (else, for a job that also reads,
    // over the smallest read size, that one); one that still does not divide the sizes gives way to the default.
    std::uint64_t interval = job.verification.verify_interval;
    if (interval > job.min_block_size(Direction::kWrite)) {
      interval = job.min_block_size(Direction::kWrite);
    } else if (job.does_reads() && interval > job.min_block_size(Direction::kRead)) {
      interval = job.min_block_size(Direction::kRead);
    }
    const bool divides_all = interval != 0 && std::all_of(sizes.begin(), sizes.end(),
                                                          [&](std::uint64_t size) { return size % interval == 0; });
    if (divides_all) return static_cast<std::uint32_t>(interval);
  }
  std::uint64_t chunk = 0;
  for (std::uint64_t size : sizes) chunk = std::gcd(chunk, size);
  return chunk > UINT32_MAX ? 0 : static_cast<std::uint32_t>(chunk);
}

void validate_verify(const JobSpec& job, std::vector<Problem>& out) {
  Findings f(job);
  check_verify(job, f);
  for (Problem& p : f.take()) out.push_back(std::move(p));
}

}  // namespace sluice
