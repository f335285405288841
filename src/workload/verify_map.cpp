#include "workload/verify_map.h"

#include <algorithm>

namespace sluice {

VerifyMap::VerifyMap(std::vector<FileRegion> regions, std::uint32_t chunk, std::uint32_t backlog,
                     std::uint32_t batch)
    : regions_(std::move(regions)), chunk_(std::max<std::uint32_t>(chunk, 1)), backlog_(backlog), batch_(batch) {
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

void VerifyMap::write_completed(int file, std::uint64_t offset, std::uint32_t length) {
  if (backlog_ == 0) return;
  NextIo io;
  io.direction = Direction::kRead;
  io.file_index = file;
  io.offset = offset;
  io.length = length;
  queued_.push_back(io);
  write_since_round_ = true;
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

std::uint64_t VerifyMap::written_chunks() const noexcept {
  std::uint64_t n = 0;
  for (const auto& words : words_) {
    n += static_cast<std::uint64_t>(std::count_if(words.begin(), words.end(), [](std::uint32_t w) { return (w & kGenerationMask) != 0; }));
  }
  return n;
}

}  // namespace sluice
