#include "workload/verify_map.h"

#include <algorithm>

namespace sluice {

VerifyMap::VerifyMap(std::vector<FileRegion> regions, std::uint32_t chunk, std::uint32_t backlog, std::uint32_t batch,
                     TrimSettings trim)
    : regions_(std::move(regions)),
      chunk_(std::max<std::uint32_t>(chunk, 1)),
      backlog_(backlog),
      batch_(batch),
      trim_(trim),
      trim_rng_(trim.seed) {
  words_.reserve(regions_.size());
  for (const FileRegion& r : regions_) words_.emplace_back((r.length + chunk_ - 1) / chunk_, 0u);
  queued_.reserve(backlog_);
}

std::uint32_t& VerifyMap::word_of(int file, std::uint64_t offset) noexcept {
  const auto f = static_cast<std::size_t>(file);
  return words_[f][(offset - regions_[f].start) / chunk_];
}

std::uint64_t VerifyMap::generation(int file, std::uint64_t offset) const noexcept {
  const auto f = static_cast<std::size_t>(file);
  if (f >= words_.size() || offset < regions_[f].start) return 0;
  const std::uint64_t index = (offset - regions_[f].start) / chunk_;
  return index < words_[f].size() ? (words_[f][index] & kGenerationMask) : 0;
}

bool VerifyMap::pending(int file, std::uint64_t index) const noexcept {
  const std::uint32_t word = words_[static_cast<std::size_t>(file)][index];
  return (word & kGenerationMask) != 0 && (word & kVerified) == 0;
}

bool VerifyMap::trimmed(int file, std::uint64_t offset) const noexcept {
  const auto f = static_cast<std::size_t>(file);
  if (f >= words_.size() || offset < regions_[f].start) return false;
  const std::uint64_t index = (offset - regions_[f].start) / chunk_;
  return index < words_[f].size() && (words_[f][index] & kTrimmed) != 0;
}

void VerifyMap::write_completed(int file, std::uint64_t offset, std::uint32_t length) {
  NextIo io;
  io.direction = Direction::kRead;
  io.file_index = file;
  io.offset = offset;
  io.length = length;
  if (trim_.backlog != 0) {
    ++writes_since_trim_round_;
    if (trim_rng_.below(100) < trim_.percentage) {
      io.direction = Direction::kTrim;
      trims_.push_back(io);
      io.direction = Direction::kRead;
    }
  }
  if (backlog_ == 0) return;
  queued_.push_back(io);
  write_since_round_ = true;
}

void VerifyMap::start_trim_round() noexcept {
  if (trim_batch_left_ == 0) trim_batch_left_ = trim_.batch != 0 ? trim_.batch : trim_.backlog;
  writes_since_trim_round_ = 0;
}

bool VerifyMap::next_trim(NextIo& out) {
  if (trims_head_ == trims_.size()) {
    trims_.clear();
    trims_head_ = 0;
  }
  if (trim_batch_left_ == 0 || trims_head_ == trims_.size()) return false;
  out = trims_[trims_head_++];
  --trim_batch_left_;
  // A chunk rewritten since its write was drawn is trimmed all the same (fio trims the drawn range), so
  // whatever it held is gone.
  for (std::uint64_t at = out.offset; at < out.offset + out.length; at += chunk_) {
    std::uint32_t& word = word_of(out.file_index, at);
    word = trim_.expect_zeros ? ((word & kGenerationMask) | kTrimmed) : (word | kVerified);
  }
  if (trims_head_ > 4096 && trims_head_ * 2 > trims_.size()) {
    trims_.erase(trims_.begin(), trims_.begin() + static_cast<std::ptrdiff_t>(trims_head_));
    trims_head_ = 0;
  }
  return true;
}

bool VerifyMap::next_backlog_read(NextIo& out, std::uint32_t max_length) {
  if (queued_head_ == queued_.size()) {
    queued_.clear();
    queued_head_ = 0;
  }
  if (batch_left_ == 0 || queued_head_ == queued_.size()) return false;
  NextIo& head = queued_[queued_head_];
  out = head;
  out.length = std::min(head.length, max_length);
  head.offset += out.length;
  head.length -= out.length;
  if (head.length == 0) {  // the whole write is planned: it counts against the round's batch
    ++queued_head_;
    --batch_left_;
  }
  for (std::uint64_t at = out.offset; at < out.offset + out.length; at += chunk_) {
    word_of(out.file_index, at) |= kVerified;
  }
  if (queued_head_ > 4096 && queued_head_ * 2 > queued_.size()) {  // writes a short batch left behind
    queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(queued_head_));
    queued_head_ = 0;
  }
  return true;
}

bool VerifyMap::next_phase_read(NextIo& out, std::uint32_t max_length) {
  const std::uint64_t max_chunks = std::max<std::uint32_t>(max_length / chunk_, 1);
  for (; cursor_file_ < words_.size(); ++cursor_file_, cursor_chunk_ = 0) {
    const int file = static_cast<int>(cursor_file_);
    const std::vector<std::uint32_t>& words = words_[cursor_file_];
    while (cursor_chunk_ < words.size() && !pending(file, cursor_chunk_)) ++cursor_chunk_;
    if (cursor_chunk_ == words.size()) continue;
    std::uint64_t end = cursor_chunk_;
    while (end < words.size() && end - cursor_chunk_ < max_chunks && pending(file, end)) {
      words_[cursor_file_][end] |= kVerified;
      ++end;
    }
    out.direction = Direction::kRead;
    out.file_index = file;
    out.offset = regions_[cursor_file_].start + cursor_chunk_ * chunk_;
    out.length = static_cast<std::uint32_t>((end - cursor_chunk_) * chunk_);
    cursor_chunk_ = end;
    return true;
  }
  return false;
}

void VerifyMap::forget_writes() noexcept {
  for (auto& words : words_) std::fill(words.begin(), words.end(), 0u);
  queued_.clear();
  queued_head_ = 0;
  trims_.clear();
  trims_head_ = 0;
  batch_left_ = 0;
  trim_batch_left_ = 0;
  write_since_round_ = false;
  writes_since_trim_round_ = 0;
  rewind();
}

std::uint64_t VerifyMap::written_chunks() const noexcept {
  std::uint64_t n = 0;
  for (const auto& words : words_) {
    n += static_cast<std::uint64_t>(
        std::count_if(words.begin(), words.end(), [](std::uint32_t w) { return (w & kGenerationMask) != 0; }));
  }
  return n;
}

}  // namespace sluice
