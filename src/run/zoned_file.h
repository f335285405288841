#pragma once
// ZonedFile: fio's zonemode=zbd on a file or device that is not zoned (fio's ZBD_NONE model). The file is cut
// in zones of zone_size bytes, each with a write pointer kept in memory, all empty when the run starts; the
// jobs of the run that name the same file share one ZonedFile (ZonedFiles). As in fio 3.33's zbd.c:
//  - a write goes to the write pointer of the zone its drawn offset falls in, which moves on by its length;
//    with max_open_zones, a zone that cannot be opened (too many are) is traded for one of the open zones;
//    a full zone (less than the smallest write left before its capacity end) is reset before it is written
//    again: its write pointer goes back to its start, counted, with no system call (nothing is stored);
//  - zone_reset_threshold/zone_reset_frequency reset zones earlier, once that share of the range holds data;
//  - a read stays below the write pointer (unless read_beyond_wp): in an emptier zone it moves to the next
//    zone with data (random jobs: the nearest, either way), and with none the job's reads are at their end;
//  - a trim resets its zone instead of reaching the file.
// Differences on purpose: a zone leaves the open set when its last write is issued (fio: completed), so no
// job waits for another's ios to close one; and one lock guards the whole file (fio: one per zone).
// Threads: every method locks; ZoneCursor is one job's, ZonedFile is shared.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/direction.h"
#include "job/zone_options.h"

namespace sluice {

// What a job brings to its zoned files.
struct ZoneJobSettings {
  PerDirection<std::uint64_t> min_bs{};  // each direction's smallest block
  bool random = false;                   // fio's td_random: random offsets
  bool mixed = false;                    // reads and writes (fio's td_rw)
  bool verify = false;                   // full zones are not reset (it would lose the data to verify)
  bool read_beyond_wp = false;
  bool writes = false;                   // the job writes (its writes reset zones at its start: see below)
  std::uint64_t zone_skip = 0;           // sequential jobs: bytes skipped after each zone
  std::uint32_t job_max_open_zones = 0;  // 0 = no limit of its own
  double reset_threshold = 0;
  double reset_frequency = 0;
};

// The outcome of fitting an io to the zones.
enum class ZoneFit {
  kAccept,  // go on with the io (its offset and length may have changed)
  kEnd,     // nothing more of this kind can be done (no zone with data, none to open): the job's end
  kError,   // the io cannot be done; the message says why
};

class ZonedFile {
 public:
  // file_size: the whole file (ceil(file_size / zone_size) zones); capacity: 0 means zone_size.
  ZonedFile(std::uint64_t file_size, std::uint64_t zone_size, std::uint64_t capacity, std::uint32_t max_open_zones);

  std::uint64_t zone_size() const noexcept { return zone_size_; }
  std::uint32_t max_open_zones() const noexcept { return max_open_; }
  std::size_t zones() const noexcept { return zones_.size(); }
  // The write pointer of zone `index` (tests and reports).
  std::uint64_t write_pointer(std::size_t index) const;
  // Whether any zone holds data (fio's sectors_with_data != 0).
  bool has_data() const;

 private:
  friend class ZoneCursor;
  struct Zone {
    std::uint64_t start = 0;
    std::uint64_t wp = 0;
    bool open = false;
    bool reset_due = false;  // zone_reset_frequency picked it
  };
  std::uint64_t capacity_end(const Zone& z) const noexcept { return z.start + capacity_; }
  std::size_t zone_of(std::uint64_t offset) const noexcept { return static_cast<std::size_t>(offset / zone_size_); }

  mutable std::mutex mutex_;
  std::uint64_t zone_size_;
  std::uint64_t capacity_;
  std::uint32_t max_open_;
  std::vector<Zone> zones_;
  std::vector<std::uint32_t> open_;  // the open zones' indexes, in opening order (fio's open_zones[])
  std::uint32_t open_count_ = 0;     // of them, the first open_count_ are open
  std::uint64_t bytes_with_data_ = 0;
  std::uint32_t writes_to_reset_ = 0;  // zone_reset_frequency's count-down (fio's write_cnt)
};

// One job's view of one zoned file: its range of zones and its open zones.
class ZoneCursor {
 public:
  // range_start/range_length: the job's region, on zone boundaries for a writing job (align_to_zones).
  ZoneCursor(std::shared_ptr<ZonedFile> file, const ZoneJobSettings& settings, std::uint64_t range_start,
             std::uint64_t range_length);

  // Fits a drawn write to a write pointer (offset and length change); counts resets into `resets`.
  ZoneFit fit_write(std::uint64_t& offset, std::uint32_t& length, std::uint64_t& resets, std::string& error);
  // Fits a drawn read below a write pointer (nothing to do with read_beyond_wp).
  ZoneFit fit_read(std::uint64_t& offset, std::uint32_t& length);
  // A trim: its zone (random: the nearest zone with data) is reset; the trim reaches no file.
  ZoneFit fit_trim(std::uint64_t& offset, std::uint64_t& resets, std::string& error);
  // Where a sequential job goes on after an io at offset/length in `direction` (fio's setup_zbd_zone_mode):
  // past a zone's capacity to the zone's end, and with zoneskip past the zone (reads: at its write pointer)
  // and zoneskip bytes further, back to the range start past its end.
  std::uint64_t resume_after(Direction direction, std::uint64_t offset, std::uint32_t length) const;
  // Whether a read drawn now must be a write instead (a mixed job, nothing written yet: fio's first write).
  bool read_becomes_write() const;
  // A writing job with verify starts on empty zones (fio's zbd_file_reset); the reset count grows.
  void reset_range_for_verify(std::uint64_t& resets);

 private:
  using Zone = ZonedFile::Zone;
  bool full(const Zone& z) const noexcept;
  bool open_zone(std::size_t index);   // fio's zbd_open_zone; the file's lock is held
  void close_zone(std::size_t index);  // fio's zbd_close_zone
  void reset_zone(std::size_t index, std::uint64_t& resets);
  // fio's zbd_convert_to_open_zone: a zone that may be written, or none (the end of the job's writes).
  bool convert_to_open_zone(std::uint64_t offset, std::size_t& index);
  // fio's zbd_find_zone: the next zone (random: the nearest) after `from` with min_bytes of data.
  bool find_zone_with_data(std::size_t from, std::uint64_t min_bytes, std::size_t& found) const;
  std::size_t pick_open_slot(std::uint64_t offset) const noexcept;
  bool in_range(std::size_t index) const noexcept { return index >= first_ && index < end_; }

  std::shared_ptr<ZonedFile> file_;
  ZoneJobSettings settings_;
  std::uint64_t range_start_;
  std::uint64_t range_length_;
  std::size_t first_ = 0;  // the job's zones: [first_, end_)
  std::size_t end_ = 0;
  std::uint32_t open_here_ = 0;  // zones this job opened and that are still open (job_max_open_zones)
};

// The run's zoned files, one per path, shared by its jobs.
class ZonedFiles {
 public:
  // The file's zones, made on first use with these settings. Throws UserError when another job of the run
  // asked for other zone settings on the same file (fio: "Different 'max_open_zones' values").
  // job_name: for the messages.
  std::shared_ptr<ZonedFile> get(const std::string& path, std::uint64_t file_size, const ZoneOptions& zones,
                                 const std::string& job_name);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<ZonedFile>> files_;
};

}  // namespace sluice
