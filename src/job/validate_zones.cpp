// zonemode=strided and zonemode=zbd checked against the workload's block sizes, as fio 3.33 checks them.
#include "job/validate_zones.h"

#include <algorithm>
#include <string>

namespace sluice {
namespace {

std::vector<Direction> zone_used_directions(const WorkloadOptions& workload) {
  std::vector<Direction> used;
  if (workload.does_reads()) used.push_back(Direction::kRead);
  if (workload.does_writes()) used.push_back(Direction::kWrite);
  if (workload.does_trims()) used.push_back(Direction::kTrim);
  return used;
}

// The largest block of a direction (bs, bsrange's maximum, bssplit's largest).
std::uint64_t max_block_size(const WorkloadOptions& workload, Direction d) {
  const int i = index_of(d);
  if (workload.bssplit[i].empty()) return workload.bsrange[i].max ? workload.bsrange[i].max : workload.bs[i];
  std::uint64_t largest = 0;
  for (const BlockSizeSplitEntry& e : workload.bssplit[i]) largest = std::max(largest, e.size);
  return largest;
}

// zonemode=zbd as fio 3.33 checks it (zbd.c: init_zone_info, zbd_verify_bs; its first write's buflen check).
void check_zbd(const ZoneOptions& zones, const WorkloadOptions& workload, VerifyKind verify,
               detail::JobProblems& check) {
  if (zones.zone_size == 0) {
    check.error("zonemode",
                "zonemode=zbd needs zonesize (the size of each zone), as fio for files and devices "
                "that are not zoned");
    return;
  }
  if (zones.zone_size < 512) check.error("zonesize", "zonemode=zbd: zonesize must be at least 512 bytes (as fio)");
  if (zones.zone_capacity > zones.zone_size) {
    check.error("zonecapacity", "zonecapacity " + std::to_string(zones.zone_capacity) + " is larger than zonesize " +
                                    std::to_string(zones.zone_size));
  }
  if (zones.zone_skip % zones.zone_size != 0) {
    check.error("zoneskip", "zoneskip " + std::to_string(zones.zone_skip) + " is not a multiple of zonesize " +
                                std::to_string(zones.zone_size) + " (zonemode=zbd skips whole zones, as fio)");
  }
  if (check.given("zonerange")) {
    check.warning("zonerange", "zonerange has no effect with zonemode=zbd (zones are zonesize bytes); ignored");
  }
  if (workload.is_chained()) {
    check.error("rw", "rw=" + std::string(rw_mode_name(workload.rw)) +
                          " writes the very block it just read or trimmed, and zonemode=zbd moves every write to "
                          "its zone's write pointer; use rw=randrw or separate jobs");
  }
  if (workload.does_writes() && max_block_size(workload, Direction::kWrite) > zones.zone_size) {
    check.error("bs", "zonemode=zbd: a write of " + std::to_string(max_block_size(workload, Direction::kWrite)) +
                          " bytes is larger than zonesize " + std::to_string(zones.zone_size));
  }
  if (workload.does_trims()) {
    const int t = index_of(Direction::kTrim);
    if (workload.bsrange[t].min != 0 || !workload.bssplit[t].empty()) {
      check.error("bs", "bsrange and bssplit are not allowed for trims with zonemode=zbd (a trim resets one zone)");
    } else if (workload.bs[t] != zones.zone_size) {
      check.error("bs", "zonemode=zbd: the trim block size " + std::to_string(workload.bs[t]) +
                            " is not the zone size " + std::to_string(zones.zone_size) + " (a trim resets one zone)");
    }
  }
  if (verify != VerifyKind::kNone) {
    for (Direction d : kAllDirections) {
      if (zones.zone_size % workload.bs[index_of(d)] != 0) {
        check.error("bs", "zonemode=zbd with verify: the block size " + std::to_string(workload.bs[index_of(d)]) +
                              " is not a divisor of zonesize " + std::to_string(zones.zone_size) + " (as fio)");
        break;
      }
    }
  }
  if (zones.job_max_open_zones != 0 && zones.max_open_zones != 0 && zones.job_max_open_zones > zones.max_open_zones) {
    check.warning("job_max_open_zones", "job_max_open_zones is above max_open_zones, which limits it anyway");
  }
}

// zonemode=strided as fio 3.33 checks it (init.c), plus a zone too small for any io; zonemode=zbd in check_zbd.
// The zones against the block sizes and directions of the workload; nrfiles: the target part's file count;
// verify: the job's verify= kind.
}  // namespace

void check_zones(const ZoneOptions& zones, const WorkloadOptions& workload, std::uint32_t nrfiles, VerifyKind verify,
                 detail::JobProblems& check) {
  if (zones.zone_zbd) {
    check_zbd(zones, workload, verify, check);
    return;
  }
  const char* zbd_options[] = {"zonecapacity",       "read_beyond_wp",       "max_open_zones",
                               "job_max_open_zones", "zone_reset_threshold", "zone_reset_frequency",
                               "ignore_zone_limits"};
  for (const char* option : zbd_options) {
    if (check.given(option)) {
      check.warning(option, std::string(option) + " has no effect without zonemode=zbd; ignored");
    }
  }
  if (!zones.zone_strided) {
    if (zones.zone_size != 0) {
      check.error("zonesize",
                  "zonemode=none and zonesize are not compatible (as in fio); add zonemode=strided or zonemode=zbd");
    }
    for (const char* option : {"zonerange", "zoneskip"}) {
      if (check.given(option)) {
        check.warning(option, std::string(option) + " has no effect without zonemode=strided or zbd; ignored");
      }
    }
    return;
  }
  if (zones.zone_size == 0) {
    check.error("zonemode", "zonemode=strided needs zonesize (the bytes transferred in each zone)");
    return;
  }
  if (nrfiles > 1) {
    check.warning("zonemode", "zonemode=strided with " + std::to_string(nrfiles) +
                                  " files: ignored, as fio ignores it when a job has more than one open file");
  }
  const std::uint64_t range = zones.zone_range != 0 ? zones.zone_range : zones.zone_size;
  for (Direction d : zone_used_directions(workload)) {
    const std::uint64_t block = workload.min_block_size(d);
    if (range < block) {
      check.error(zones.zone_range != 0 ? "zonerange" : "zonesize",
                  "a zone of " + std::to_string(range) + " bytes cannot hold one " + std::to_string(block) + "-byte " +
                      std::string(direction_name(d)) + "; zones must be at least the block size");
      return;
    }
  }
}

}  // namespace sluice
