#pragma once
// zonemode=zbd's checks and alignment of a job's targets, before anything runs (fio's zbd_setup_files).
#include <string>
#include <vector>

#include "job/zone_options.h"
#include "targets/target_file.h"

namespace sluice {

// Refuses a zoned block device (sluice emulates zones; it does not read a device's zones), a file smaller
// than one zone, and a writing job's region holding no whole zone; aligns the region of a job that writes
// or trims to zone boundaries, as fio: start rounded up, end rounded down, each change told in `notes` with
// fio's words. Throws UserError.
// writes: the job writes or trims; job_name: for the messages.
void prepare_zoned_targets(const ZoneOptions& zones, const std::string& job_name, bool writes,
                           std::vector<TargetFile>& targets, std::vector<std::string>& notes);

// The size zones are cut from: the larger of the job's size for the file and the file's own.
std::uint64_t zoned_file_size(const TargetFile& target);

}  // namespace sluice
