#pragma once
// ZoneOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>

namespace sluice {

// fio's zonemode=strided and zonemode=zbd and their zone settings.
struct ZoneOptions {
  // fio's zonemode=strided: I/O stays in a window of zone_range bytes until zone_size bytes were transferred,
  // then moves zone_range + zone_skip further (back to the region start past the file end).
  bool zone_strided = false;
  std::uint64_t zone_size = 0;
  std::uint64_t zone_range = 0;  // 0 = zone_size
  std::uint64_t zone_skip = 0;
  // fio's zonemode=zbd: each file is cut in zones of zone_size bytes with a write pointer each (emulated in
  // memory, shared by the run's jobs on the file; run/zoned_file.h): writes go to write pointers, reads stay
  // below them unless read_beyond_wp.
  bool zone_zbd = false;
  std::uint64_t zone_capacity = 0;  // writable bytes per zone; 0 = zone_size
  bool read_beyond_wp = false;
  std::uint32_t max_open_zones = 0;      // zones written at once, for all jobs on the file; 0 = no limit
  std::uint32_t job_max_open_zones = 0;  // ... for this job
  bool ignore_zone_limits = false;       // accepted: an emulated zone set has no device limit to ignore
  double zone_reset_threshold = 0;       // with zone_reset_frequency: resets start above this share written
  double zone_reset_frequency = 0;       // the share of writes that reset their zone first
};

}  // namespace sluice
