// ZonedFile and ZoneCursor: fio 3.33's zbd.c on a file that is not a zoned device (see zoned_file.h).
#include "run/zoned_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "common/error.h"

namespace sluice {
namespace {

// fio's ZBD_MAX_OPEN_ZONES: the size of its open-zone array, whose stale entries a pick may read.
constexpr std::size_t kOpenSlots = 4096;

std::uint32_t writes_between_resets(double frequency) noexcept {
  if (frequency <= 0) return UINT_MAX;
  return static_cast<std::uint32_t>(std::min(1.0 / frequency, static_cast<double>(UINT_MAX)));
}

}  // namespace

ZonedFile::ZonedFile(std::uint64_t file_size, std::uint64_t zone_size, std::uint64_t capacity,
                     std::uint32_t max_open_zones)
    : zone_size_(zone_size), capacity_(capacity == 0 ? zone_size : capacity), max_open_(max_open_zones) {
  const std::uint64_t count = (file_size + zone_size - 1) / zone_size;
  zones_.resize(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < zones_.size(); ++i) zones_[i].start = zones_[i].wp = i * zone_size;
  open_.assign(kOpenSlots, 0);
}

std::uint64_t ZonedFile::write_pointer(std::size_t index) const {
  std::lock_guard lock(mutex_);
  return zones_.at(index).wp;
}

bool ZonedFile::has_data() const {
  std::lock_guard lock(mutex_);
  return bytes_with_data_ != 0;
}

// ---- ZoneCursor

ZoneCursor::ZoneCursor(std::shared_ptr<ZonedFile> file, const ZoneJobSettings& settings, std::uint64_t range_start,
                       std::uint64_t range_length)
    : file_(std::move(file)), settings_(settings), range_start_(range_start), range_length_(range_length) {
  first_ = std::min(file_->zone_of(range_start), file_->zones_.size());
  end_ = std::min(file_->zone_of(range_start + range_length), file_->zones_.size());
  if (settings_.writes) {
    std::lock_guard lock(file_->mutex_);
    file_->writes_to_reset_ = writes_between_resets(settings_.reset_frequency);  // fio's zbd_file_reset
  }
}

bool ZoneCursor::full(const Zone& z) const noexcept {
  return z.wp + settings_.min_bs[index_of(Direction::kWrite)] > file_->capacity_end(z);
}

bool ZoneCursor::read_becomes_write() const {
  return settings_.mixed && !settings_.read_beyond_wp && !file_->has_data();
}

bool ZoneCursor::open_zone(std::size_t index) {
  ZonedFile& f = *file_;
  Zone& z = f.zones_[index];
  if (settings_.verify && full(z)) return false;  // resetting it would lose data still to verify
  if (f.max_open_ == 0) return true;              // open zones are tracked only under a limit
  if (z.open) return z.wp < f.capacity_end(z);    // filled up by writes already issued: a full zone
  if (settings_.job_max_open_zones > 0 && open_here_ >= settings_.job_max_open_zones) return false;
  if (f.open_count_ >= f.max_open_) return false;
  f.open_[f.open_count_++] = static_cast<std::uint32_t>(index);
  ++open_here_;
  z.open = true;
  return true;
}

void ZoneCursor::close_zone(std::size_t index) {
  ZonedFile& f = *file_;
  Zone& z = f.zones_[index];
  if (!z.open) return;
  const auto open_end = f.open_.begin() + f.open_count_;
  const auto slot = std::find(f.open_.begin(), open_end, static_cast<std::uint32_t>(index));
  if (slot == open_end) return;
  // As fio's memmove over its whole array: the entries after it move down, the last one stays (stale).
  std::move(slot + 1, f.open_.end(), slot);
  --f.open_count_;
  if (open_here_ > 0) --open_here_;
  z.open = false;
}

void ZoneCursor::reset_zone(std::size_t index, std::uint64_t& resets) {
  ZonedFile& f = *file_;
  Zone& z = f.zones_[index];
  const std::uint64_t data = z.wp - z.start;
  if (data == 0) return;  // fio does not count a reset of an empty zone
  f.bytes_with_data_ -= data;
  z.wp = z.start;
  ++resets;
}

std::size_t ZoneCursor::pick_open_slot(std::uint64_t offset) const noexcept {
  if (range_length_ == 0 || offset < range_start_) return 0;
  const auto slot = static_cast<std::size_t>((offset - range_start_) * file_->open_count_ / range_length_);
  return std::min(slot, kOpenSlots - 1);  // an offset past the range still reads inside fio's array
}

// fio 3.33's zbd_convert_to_open_zone, without its waits: ios in flight do not close zones here (a zone is
// closed when its last write is issued), so waiting for them could not free one.
bool ZoneCursor::convert_to_open_zone(std::uint64_t offset, std::size_t& index) {
  ZonedFile& f = *file_;
  if (first_ >= end_) return false;
  const std::uint64_t min_bs = settings_.min_bs[index_of(Direction::kWrite)];
  const bool limited = f.max_open_ != 0 || settings_.job_max_open_zones != 0;
  std::size_t zone = limited ? f.open_[pick_open_slot(offset)] : f.zone_of(offset);
  zone = std::clamp(zone, first_, end_ - 1);
  bool examine = !limited;
  if (limited && f.open_count_ != 0) {
    // Open zones are the device's, shared by every job: the first of them, from a quasi-random slot on,
    // that lies in this job's range.
    const std::size_t start = std::min<std::size_t>(pick_open_slot(offset), f.open_count_ - 1);
    std::size_t slot = start;
    bool found = false;
    for (std::uint32_t i = 0; i < f.open_count_; ++i, ++slot) {
      if (slot >= f.open_count_) slot = 0;
      if (in_range(f.open_[slot])) {
        found = true;
        break;
      }
    }
    if (!found) return false;
    zone = f.open_[slot];
    examine = true;
  }
  if (examine && f.zones_[zone].wp + min_bs <= f.capacity_end(f.zones_[zone])) {
    index = zone;
    return true;
  }
  // The zone is full: the next zones of the range, round, that can be opened.
  for (std::uint64_t i = range_length_ / f.zone_size_; i > 0; --i) {
    if (++zone >= end_) zone = first_;
    if (f.zones_[zone].open) continue;
    if (open_zone(zone)) {
      index = zone;
      return true;
    }
  }
  // Else one of the open zones of the range with room for a write.
  for (std::uint32_t i = 0; i < f.open_count_; ++i) {
    const std::size_t candidate = f.open_[i];
    if (!in_range(candidate)) continue;
    if (f.zones_[candidate].wp + min_bs <= f.capacity_end(f.zones_[candidate])) {
      index = candidate;
      return true;
    }
  }
  return false;
}

ZoneFit ZoneCursor::fit_write(std::uint64_t& offset, std::uint32_t& length, std::uint64_t& resets, std::string& error) {
  ZonedFile& f = *file_;
  const std::uint64_t min_bs = settings_.min_bs[index_of(Direction::kWrite)];
  if (length > f.zone_size_) {
    error = fmt::format("zonemode=zbd: a write of {} bytes is larger than the zone size {}", length, f.zone_size_);
    return ZoneFit::kError;
  }
  std::lock_guard lock(f.mutex_);
  std::size_t index = std::min(f.zone_of(offset), f.zones_.size() - 1);
  if (!open_zone(index) && !convert_to_open_zone(offset, index)) return ZoneFit::kEnd;
  Zone& z = f.zones_[index];
  if (settings_.reset_frequency > 0 &&
      static_cast<double>(f.bytes_with_data_) >= static_cast<double>(range_length_) * settings_.reset_threshold) {
    if (--f.writes_to_reset_ == 0) {
      f.writes_to_reset_ = writes_between_resets(settings_.reset_frequency);
      z.reset_due = true;
    }
  }
  if (z.reset_due || full(z)) {
    z.reset_due = false;
    reset_zone(index, resets);
    if (f.capacity_ < min_bs) {
      error = fmt::format("zonemode=zbd: zone capacity {} is smaller than the smallest write ({} bytes)", f.capacity_,
                          min_bs);
      return ZoneFit::kError;
    }
  }
  offset = z.wp;
  const std::uint64_t room = f.capacity_end(z) - z.wp;
  const std::uint64_t fitting = std::min<std::uint64_t>(length, room) / min_bs * min_bs;
  if (fitting < min_bs) {
    error = fmt::format("zonemode=zbd: the zone's remaining {} bytes are fewer than the smallest write ({} bytes)",
                        room, min_bs);
    return ZoneFit::kError;
  }
  length = static_cast<std::uint32_t>(fitting);
  // The write is issued: the write pointer moves on, and a zone it fills leaves the open set.
  const std::uint64_t end = std::min(offset + length, f.capacity_end(z));
  f.bytes_with_data_ += end - z.wp;
  z.wp = end;
  if (offset + length >= f.capacity_end(z)) close_zone(index);
  return ZoneFit::kAccept;
}

bool ZoneCursor::find_zone_with_data(std::size_t from, std::uint64_t min_bytes, std::size_t& found) const {
  const std::vector<Zone>& zones = file_->zones_;
  auto has = [&](std::size_t i) { return zones[i].start + min_bytes <= zones[i].wp; };
  // Sequential: the next zones; random: the nearest, alternating after and before.
  for (std::size_t step = 1;; ++step) {
    const bool after = from + step < end_;
    const bool before = from >= first_ + step;
    if (!after && (!settings_.random || !before)) return false;
    if (after && has(from + step)) {
      found = from + step;
      return true;
    }
    if (settings_.random && before && has(from - step)) {
      found = from - step;
      return true;
    }
  }
}

ZoneFit ZoneCursor::fit_read(std::uint64_t& offset, std::uint32_t& length) {
  ZonedFile& f = *file_;
  const std::uint64_t min_bs = settings_.min_bs[index_of(Direction::kRead)];
  std::lock_guard lock(f.mutex_);
  std::size_t index = std::min(f.zone_of(offset), f.zones_.size() - 1);
  const std::uint64_t drawn_zone_start = f.zones_[index].start;
  std::uint64_t range = f.zones_[index].wp - f.zones_[index].start;
  if (range < min_bs || (!settings_.random && offset + min_bs > f.zones_[index].wp)) {
    if (!find_zone_with_data(index, min_bs, index)) return ZoneFit::kEnd;
    range = f.zones_[index].wp - f.zones_[index].start;
    if (!settings_.random) offset = f.zones_[index].start;
  }
  const Zone& z = f.zones_[index];
  if (range <= length) {
    offset = z.start;
  } else if (settings_.random) {  // inside the zone's data, keeping the drawn offset's randomness
    offset = z.start + (offset - drawn_zone_start) % (range - length) / min_bs * min_bs;
  }
  const std::uint64_t fitting = std::min<std::uint64_t>(length, z.wp - offset) / min_bs * min_bs;
  if (fitting < length) length = static_cast<std::uint32_t>(fitting);
  return length == 0 ? ZoneFit::kEnd : ZoneFit::kAccept;
}

ZoneFit ZoneCursor::fit_trim(std::uint64_t& offset, std::uint64_t& resets, std::string& error) {
  ZonedFile& f = *file_;
  std::lock_guard lock(f.mutex_);
  std::size_t index = std::min(f.zone_of(offset), f.zones_.size() - 1);
  if (settings_.random && f.zones_[index].wp == f.zones_[index].start) {  // a random trim finds a zone with data
    if (!find_zone_with_data(index, 1, index)) return ZoneFit::kEnd;
    offset = f.zones_[index].start;
  }
  if (offset != f.zones_[index].start) {
    error = fmt::format("zonemode=zbd: a trim at {} is not at a zone start", offset);
    return ZoneFit::kError;
  }
  reset_zone(index, resets);
  return ZoneFit::kAccept;
}

void ZoneCursor::reset_range_for_verify(std::uint64_t& resets) {
  std::lock_guard lock(file_->mutex_);
  for (std::size_t i = first_; i < end_; ++i) {
    close_zone(i);
    reset_zone(i, resets);
  }
}

std::uint64_t ZoneCursor::resume_after(Direction direction, std::uint64_t offset, std::uint32_t length) const {
  const ZonedFile& f = *file_;
  std::uint64_t next = offset + length;
  if (settings_.random || direction == Direction::kTrim) return next;
  std::lock_guard lock(f.mutex_);
  const Zone& z = f.zones_[std::min(f.zone_of(offset), f.zones_.size() - 1)];
  const std::uint64_t zone_end = z.start + f.zone_size_;
  if (direction == Direction::kWrite && f.capacity_ < f.zone_size_ && next >= f.capacity_end(z)) next = zone_end;
  if (settings_.zone_skip != 0 &&
      (next >= zone_end || (direction == Direction::kRead && !settings_.read_beyond_wp && next >= z.wp))) {
    next = zone_end + settings_.zone_skip;
    if (next >= range_start_ + range_length_) next = range_start_;
  }
  return next;
}

// ---- ZonedFiles

std::shared_ptr<ZonedFile> ZonedFiles::get(const std::string& path, std::uint64_t file_size, const ZoneOptions& zones,
                                           const std::string& job_name) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<ZonedFile>& file = files_[path];
  if (!file) {
    file = std::make_shared<ZonedFile>(file_size, zones.zone_size, zones.zone_capacity, zones.max_open_zones);
  } else if (file->zone_size() != zones.zone_size) {
    throw UserError(fmt::format("job {}: {}: zonesize {} does not match the zone size {} of another job on the file",
                                job_name, path, zones.zone_size, file->zone_size()));
  } else if (zones.max_open_zones != 0 && zones.max_open_zones != file->max_open_zones()) {
    throw UserError(
        fmt::format("job {}: {}: max_open_zones={} differs from another job's {} on the same file (fio: "
                    "\"Different 'max_open_zones' values\")",
                    job_name, path, zones.max_open_zones, file->max_open_zones()));
  }
  if (zones.job_max_open_zones != 0 && file->max_open_zones() == 0) {
    throw UserError(
        fmt::format("job {}: job_max_open_zones needs max_open_zones (a limit for the file {})", job_name, path));
  }
  return file;
}

}  // namespace sluice
