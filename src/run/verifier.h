#pragma once
// Verifier: data verification for one worker (fio's verify= family). It fills write buffers with verify
// chunks (workload/verify_block.h), tracks what was written (workload/verify_map.h), checks the reads that
// verify (the verify phase, the backlog, every read of a read-only job) and reports failures.
//
// IoLoop owns one only when verify= is set, and calls it at four points: fill_write() for each write it
// issues, on_complete() for each completed io, mark_verify_read() for each read it issues to verify, and
// finish() at the end. The verify phase and the backlog are driven by IoLoop (io_loop_verify.cpp).
// Threads: one per worker, not shared. Failures are printed to stderr as they are found.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "job/error_options.h"
#include "job/verify_options.h"
#include "run/verify_state.h"
#include "stats/result.h"
#include "targets/target_file.h"
#include "workload/verify_block.h"
#include "workload/verify_map.h"

namespace sluice {

// What a Verifier needs of the job besides its verify and error options.
struct VerifierJob {
  std::string name;
  std::uint64_t seed = 0;   // the clone's seed (run/plan.h)
  std::uint32_t chunk = 0;  // the bytes one verify header covers (job/validate_verify.h, verify_chunk_size)
  bool writes = false;      // a job that does not write checks every read it makes
};

class Verifier {
 public:
  // nullptr unless the job verifies.
  static std::unique_ptr<Verifier> create(const VerifyOptions& verification, const ErrorOptions& errors,
                                          const VerifierJob& job, const std::vector<TargetFile>& targets,
                                          std::uint32_t units);

  Verifier(const VerifyOptions& verification, const ErrorOptions& errors, const VerifierJob& job,
           const std::vector<TargetFile>& targets, std::uint32_t units);

  // verify_policy=fsynced: a sync (fsync, fdatasync, sync_file_range) is about to be submitted; the writes issued
  // so far are durable once it completes (fio captures the threshold at submission: with an async engine, writes
  // submitted after the sync and completed before it are not covered).
  void on_sync_submitted(const IoUnit& unit) noexcept;
  // A sync completed without error: its threshold holds (the largest so far, whatever the completion order).
  void on_sync_completed(const IoUnit& unit) noexcept;
  // verify_policy=fsynced, before the verify phase: the chunks of writes no completed sync covers are not checked.
  void skip_unsynced_writes() noexcept;

  // Fills unit.buffer for the write of [unit.offset, unit.offset + unit.length) and records the new generation.
  void fill_write(IoUnit& unit);
  // The unit is a read issued to verify: its completion will be checked.
  void mark_verify_read(const IoUnit& unit) noexcept { marked_[unit.index] = 1; }
  // A completed io (result >= 0). Checks verify reads; queues writes for the backlog. Returns false when the
  // job must stop (verify_fatal and a failure); result.error is then set.
  bool on_complete(const IoUnit& unit, JobResult& result);
  // At the end: with failures and no other error, the job fails (EILSEQ) with a summary, unless
  // continue_on_error passes verify errors: then they count as errors of the job, which does not fail.
  void finish(JobResult& result) const;

  VerifyMap& map() noexcept { return map_; }
  // verify_state_save: the writes issued so far and those that did not complete (failed or in flight).
  VerifyState state() const;
  const VerifyFormat& format() const noexcept { return format_; }
  std::uint64_t failures() const noexcept { return failures_; }

 private:
  void report(const VerifyFailure& failure, int file, JobResult& result);
  // verify_dump: the `valid` bytes read of the chunk, and the chunk expected when it is known, to files in
  // the current directory.
  void dump(const unsigned char* received, std::uint32_t valid, const VerifyFailure& failure, int file) const;

  std::string job_name_;
  VerifyFormat format_;
  VerifyMap map_;
  std::uint64_t seed_;
  bool check_all_reads_;  // a read-only job: every read is checked (generation unknown)
  bool fatal_;
  bool dump_;    // verify_dump
  bool passed_;  // continue_on_error=verify (or all): failures are counted as errors, the job does not fail
  std::vector<std::string> paths_;
  std::string aux_dir_;                // --aux-path: where verify_dump writes
  std::vector<unsigned char> marked_;  // per io unit: a verify read is in flight
  std::uint64_t writes_issued_ = 0;
  std::vector<std::uint64_t> unit_write_;  // per io unit: 1 + the number of its write not completed, 0 = none
  std::vector<std::uint64_t> incomplete_;  // writes that failed (their unit was reused)
  // verify_policy=fsynced
  struct UnsyncedWrite {
    int file = 0;
    std::uint64_t offset = 0;
    std::uint32_t length = 0;
    std::uint64_t number = 0;
  };
  bool fsynced_only_ = false;
  std::uint64_t fsynced_writes_ = 0;                // writes covered by the completed syncs
  std::vector<std::uint64_t> unit_sync_threshold_;  // per io unit: writes issued when its sync was submitted
  std::vector<UnsyncedWrite> unsynced_;             // writes issued after the threshold, in issue order
  std::size_t unsynced_head_ = 0;                   // the entries before it are covered
  std::uint64_t failures_ = 0;
  std::string first_failure_;
};

}  // namespace sluice
