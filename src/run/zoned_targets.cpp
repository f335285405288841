// zonemode=zbd's target checks and alignment (zoned_targets.h).
#include "run/zoned_targets.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <fstream>

#include "common/error.h"

namespace sluice {
namespace {

// The block device's zoned model from sysfs ("none", "host-aware", "host-managed"); "none" when unknown.
std::string zoned_model(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return "none";
  std::ifstream in(fmt::format("/sys/dev/block/{}:{}/queue/zoned", major(st.st_rdev), minor(st.st_rdev)));
  std::string model;
  if (!(in >> model)) return "none";
  return model;
}

// fio's zbd_zone_align_file_sizes.
void align_to_zones(const std::string& path, std::uint64_t file_size, const ZoneOptions& zones,
                    const std::string& job_name, bool writes, std::uint64_t& region_start, std::uint64_t& region_length,
                    std::vector<std::string>& notes) {
  const std::uint64_t zone = zones.zone_size;
  if (file_size < zone) {
    throw UserError(fmt::format("job {}: {}: file size {} is smaller than zonesize {} (zonemode=zbd needs a zone)",
                                job_name, path, file_size, zone));
  }
  if (!writes) return;  // fio aligns the range of jobs that write
  if (region_start >= file_size) return;
  if (region_start % zone != 0) {
    const std::uint64_t rounded = (region_start / zone + 1) * zone;
    if (rounded >= region_start + region_length) {
      throw UserError(
          fmt::format("job {}: {}: io_size must be at least one zone (zonemode=zbd: the region from "
                      "offset {} for {} bytes holds no whole zone of {})",
                      job_name, path, region_start, region_length, zone));
    }
    notes.push_back(fmt::format("{}: rounded up offset from {} to {}", path, region_start, rounded));
    region_length -= rounded - region_start;
    region_start = rounded;
  }
  const std::uint64_t end = region_start + region_length;
  if (end % zone != 0) {
    const std::uint64_t rounded_end = end / zone * zone;
    if (rounded_end <= region_start) {
      throw UserError(
          fmt::format("job {}: {}: io_size must be at least one zone (zonemode=zbd: {} bytes from offset "
                      "{}, zones of {})",
                      job_name, path, region_length, region_start, zone));
    }
    notes.push_back(
        fmt::format("{}: rounded down io_size from {} to {}", path, region_length, rounded_end - region_start));
    region_length = rounded_end - region_start;
  }
}

}  // namespace

std::uint64_t zoned_file_size(const TargetFile& target) {
  std::uint64_t size = target.size;
  struct stat st {};
  if (!target.stand_in && !target.is_block_device && ::stat(target.path.c_str(), &st) == 0) {
    size = std::max<std::uint64_t>(size, static_cast<std::uint64_t>(st.st_size));
  }
  return size;
}

void prepare_zoned_targets(const ZoneOptions& zones, const std::string& job_name, bool writes,
                           std::vector<TargetFile>& targets, std::vector<std::string>& notes) {
  if (!zones.zone_zbd) return;
  for (TargetFile& t : targets) {
    if (t.is_block_device) {
      const std::string model = zoned_model(t.path);
      if (model != "none") {
        throw UserError(fmt::format(
            "job {}: {} is a zoned block device ({}); sluice's zonemode=zbd keeps write pointers itself, on regular "
            "files and devices that are not zoned, and does not read or reset a device's zones (BLKREPORTZONE, "
            "BLKRESETZONE)",
            job_name, t.path, model));
      }
    }
    align_to_zones(t.path, zoned_file_size(t), zones, job_name, writes, t.region_start, t.region_length, notes);
  }
}

}  // namespace sluice
