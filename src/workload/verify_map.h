#pragma once
// VerifyMap: what a job has written and not yet verified, chunk by chunk (a chunk = verify_interval bytes,
// else the block size). Per chunk it keeps the generation (how many times this run wrote the chunk; 0 = never)
// and whether the chunk was verified since its last write, in one 32-bit word: 4 bytes per chunk, so
// 1 MiB per GiB of region at 4 KiB chunks.
//
// It plans the reads that check the data: the verify phase after the writes (every written, unverified chunk
// in file and offset order, coalesced into reads of up to max_length bytes), the backlog (the chunks of the
// last verify_backlog completed writes) and the trims of fio's trim verification (trim_percentage of the
// completed writes, trimmed in rounds; a trimmed chunk must then read back as zeros). Offsets are absolute
// file offsets; ios must start on a chunk boundary of their region (validation makes the block sizes and
// alignment multiples of the chunk).
// Threads: one per worker, not shared. Pure bookkeeping: no I/O.
#include <cstdint>
#include <vector>

#include "common/rng.h"
#include "workload/io_pattern.h"

namespace sluice {

// fio's trim_percentage, trim_backlog, trim_backlog_batch and trim_verify_zero (backlog 0 = no trims).
struct TrimSettings {
  std::uint32_t percentage = 0;
  std::uint64_t backlog = 0;
  std::uint32_t batch = 0;  // 0 = backlog
  bool expect_zeros = true;
  std::uint64_t seed = 0;  // of the draws that pick the writes to trim
};

class VerifyMap {
 public:
  // backlog: verify_backlog (0 = none); batch: verify_backlog_batch (0 = backlog).
  VerifyMap(std::vector<FileRegion> regions, std::uint32_t chunk, std::uint32_t backlog, std::uint32_t batch = 0,
            TrimSettings trim = {});

  std::uint32_t chunk() const noexcept { return chunk_; }

  // A write of [offset, offset + length) is about to be issued: each chunk's generation goes up by one.
  // Calls on_chunk(chunk_offset, generation) for each chunk, in order.
  template <typename OnChunk>
  void begin_write(int file, std::uint64_t offset, std::uint32_t length, OnChunk&& on_chunk) {
    for (std::uint64_t at = offset; at < offset + length; at += chunk_) {
      std::uint32_t& word = word_of(file, at);
      word = (word & kGenerationMask) + 1;  // a new write clears "verified"
      on_chunk(at, static_cast<std::uint64_t>(word));
    }
  }
  // The generation this run last wrote at the chunk holding `offset` (0 = never written).
  std::uint64_t generation(int file, std::uint64_t offset) const noexcept;
  // The chunk holding `offset` was trimmed after its last write and must read back as zeros.
  bool trimmed(int file, std::uint64_t offset) const noexcept;

  // A write completed: with a backlog, its chunks are queued for verification; with trims, it is drawn to be
  // trimmed with trim_percentage chance.
  void write_completed(int file, std::uint64_t offset, std::uint32_t length);
  // fio's verify_backlog rule: a round is due when verify_backlog writes wait after a write completed, or a
  // round's batch is not used up while writes wait.
  bool backlog_due() const noexcept {
    const std::size_t waiting = queued_.size() - queued_head_;
    if (backlog_ == 0 || waiting == 0) return false;
    return batch_left_ > 0 || (write_since_round_ && waiting >= backlog_);
  }
  // Starts a round (when the last one's batch is used up): up to verify_backlog_batch waiting writes.
  void start_backlog_round() noexcept {
    if (batch_left_ == 0) batch_left_ = batch_ != 0 ? batch_ : backlog_;
    write_since_round_ = false;
  }
  // The next read of the round (the oldest waiting write, or part of it); false when the round's batch is
  // used up or no write waits.
  bool next_backlog_read(NextIo& out, std::uint32_t max_length);
  // fio's trim rule: a round is due every trim_backlog completed writes while drawn writes wait, and goes on
  // while its batch (trim_backlog_batch, else trim_backlog) is not used up and drawn writes wait.
  bool trim_due() const noexcept {
    if (trim_.backlog == 0 || trims_head_ == trims_.size()) return false;
    return trim_batch_left_ > 0 || writes_since_trim_round_ >= trim_.backlog;
  }
  // Starts a round of trims (when the last one's batch is used up).
  void start_trim_round() noexcept;
  // Every drawn write still waiting is trimmed in this round (before the verify phase).
  void trim_all_waiting() noexcept { trim_batch_left_ = trims_.size() - trims_head_; }
  // The next trim of the round (a whole drawn write, the oldest first); false when the batch is used up or
  // none waits. Its chunks are then expected to read as zeros (trim_verify_zero) or are not checked.
  bool next_trim(NextIo& out);

  // The chunks of a write whose outcome is unknown (verify_state_load: it did not complete) are not checked.
  void skip(int file, std::uint64_t offset, std::uint32_t length) noexcept {
    for (std::uint64_t at = offset; at < offset + length; at += chunk_) word_of(file, at) |= kVerified;
  }
  // The next read of the verify phase; false when every written chunk has been planned.
  bool next_phase_read(NextIo& out, std::uint32_t max_length);
  // Restarts the verify phase's scan from the first file (chunks verified since are not read again).
  void rewind() noexcept {
    cursor_file_ = 0;
    cursor_chunk_ = 0;
  }

  std::uint64_t written_chunks() const noexcept;
  // Nothing was written (unlink_each_loop deleted the files): no chunk is checked, no backlog or trim waits.
  void forget_writes() noexcept;

 private:
  static constexpr std::uint32_t kVerified = 0x80000000u;
  static constexpr std::uint32_t kTrimmed = 0x40000000u;
  static constexpr std::uint32_t kGenerationMask = 0x3fffffffu;

  std::uint32_t& word_of(int file, std::uint64_t offset) noexcept;
  bool pending(int file, std::uint64_t index) const noexcept;

  std::vector<FileRegion> regions_;
  std::uint32_t chunk_;
  std::uint32_t backlog_;
  std::uint32_t batch_;
  std::uint32_t batch_left_ = 0;    // reads of whole writes the current round may still do
  bool write_since_round_ = false;  // a write completed since the last round started (fio: last ddir a write)
  std::vector<std::vector<std::uint32_t>> words_;  // per file, per chunk of its region
  std::vector<NextIo> queued_;                     // completed writes awaiting backlog verification
  std::size_t queued_head_ = 0;
  TrimSettings trim_;
  Rng trim_rng_;
  std::vector<NextIo> trims_;  // completed writes drawn to be trimmed, not yet trimmed
  std::size_t trims_head_ = 0;
  std::uint64_t writes_since_trim_round_ = 0;
  std::uint64_t trim_batch_left_ = 0;
  std::size_t cursor_file_ = 0;
  std::uint64_t cursor_chunk_ = 0;
};

}  // namespace sluice
