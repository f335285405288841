#pragma once
// VerifyOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

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

}  // namespace sluice
