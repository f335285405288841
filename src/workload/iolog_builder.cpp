#include "workload/iolog_builder.h"

namespace sluice::detail {
namespace {

constexpr std::uint64_t kMaxOffset = std::uint64_t{1} << 63;

int direction_of(IoLogEntry::Kind kind) noexcept {
  return kind == IoLogEntry::Kind::kRead ? 0 : kind == IoLogEntry::Kind::kWrite ? 1 : 2;
}

}  // namespace

IoLogBuilder::IoLogBuilder(const ReplaySettings& settings) : settings_(settings) {
  if (!settings_.redirect.empty()) {
    log_.files.push_back(settings_.redirect);
    log_.extents.push_back(0);
  }
}

std::uint32_t IoLogBuilder::file(std::string_view name) {
  const std::int64_t known = known_file(name);
  if (known >= 0) return static_cast<std::uint32_t>(known);
  log_.files.emplace_back(name);
  log_.extents.push_back(0);
  return static_cast<std::uint32_t>(log_.files.size() - 1);
}

std::int64_t IoLogBuilder::known_file(std::string_view name) const {
  if (!settings_.redirect.empty()) return 0;
  for (std::size_t i = 0; i < log_.files.size(); ++i) {
    if (log_.files[i] == name) return static_cast<std::int64_t>(i);
  }
  return -1;
}

std::uint64_t IoLogBuilder::delay_since(std::uint64_t time) {
  const std::uint64_t delay = (last_time_ == 0 || time < last_time_) ? 0 : time - last_time_;
  last_time_ = time;
  if (settings_.no_stall) return 0;
  if (settings_.time_scale == 100 || settings_.time_scale == 0) return delay;
  const double scaled = static_cast<double>(delay) * 100.0 / settings_.time_scale;
  return scaled >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(scaled);
}

void IoLogBuilder::wait(std::uint64_t delay_us) noexcept {
  pending_us_ = delay_us > UINT64_MAX - pending_us_ ? UINT64_MAX : pending_us_ + delay_us;
}

bool IoLogBuilder::skipped(IoLogEntry::Kind kind) const noexcept {
  switch (kind) {
    case IoLogEntry::Kind::kRead:
      return settings_.skip_read;
    case IoLogEntry::Kind::kWrite:
      return settings_.skip_write;
    case IoLogEntry::Kind::kTrim:
      return settings_.skip_trim;
    case IoLogEntry::Kind::kSync:
    case IoLogEntry::Kind::kSyncRange:
      return settings_.skip_sync;
    case IoLogEntry::Kind::kWait:
      return settings_.no_stall;
    default:
      return false;
  }
}

std::string IoLogBuilder::add(IoLogEntry::Kind kind, std::uint32_t file, std::uint64_t offset, std::uint64_t length) {
  IoLogEntry entry;
  entry.kind = kind;
  entry.file = file;
  entry.delay_us = pending_us_;
  pending_us_ = 0;
  switch (kind) {
    case IoLogEntry::Kind::kWait:
      entry.offset = offset;
      ++log_.waits;
      log_.entries.push_back(entry);
      return "";
    case IoLogEntry::Kind::kSync:
    case IoLogEntry::Kind::kDatasync:
    case IoLogEntry::Kind::kSyncRange:
      ++log_.syncs;
      log_.entries.push_back(entry);
      return "";
    default:
      break;
  }
  if (length == 0) return "an io of 0 bytes";
  // A read or write needs a buffer of its length (iodepth of them); a trim needs none (discards of
  // gigabytes are common in traces: fstrim, mkfs).
  const std::uint64_t most = kind == IoLogEntry::Kind::kTrim ? UINT32_MAX : kMaxIoLogLength;
  if (length > most) {
    return "an io of " + std::to_string(length) +
           " bytes; sluice replays reads and writes of at most 64 MiB, "
           "trims of less than 4 GiB";
  }
  std::uint64_t at = offset / (settings_.scale == 0 ? 1 : settings_.scale);
  if (settings_.align != 0) at &= ~(settings_.align - 1);
  if (at >= kMaxOffset - length) return "offset " + std::to_string(offset) + " is beyond any file";
  entry.offset = at;
  entry.length = static_cast<std::uint32_t>(length);
  const int dir = direction_of(kind);
  (dir == 0 ? log_.reads : dir == 1 ? log_.writes : log_.trims)++;
  log_.bytes += length;
  if (entry.length > log_.max_length[dir]) log_.max_length[dir] = entry.length;
  if (at + length > log_.extents[file]) log_.extents[file] = at + length;
  log_.entries.push_back(entry);
  return "";
}

bool IoLogBuilder::holds_io() const noexcept {
  return log_.reads + log_.writes + log_.trims + log_.syncs + log_.waits != 0;
}

}  // namespace sluice::detail
