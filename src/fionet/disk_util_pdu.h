#pragma once
// fio's DU message (cmd_du_pdu, 256 bytes; server.h, diskutil.h of fio 3.33): one block device's counters over
// the run, sent by a server after each set of statistics (after GS), one message per device. fio's client
// prints them under "Disk stats (read/write):" after that server's jobs and lists them in the JSON's top-level
// "disk_util" with the server's "hostname" and "port".
#include <cstdint>
#include <optional>
#include <vector>

#include "stats/result.h"

namespace sluice::fionet {

inline constexpr std::size_t kDiskUtilBytes = 256;

// A device's counters as fio's server sends them (struct disk_util_stat, then a disk_util_agg of no slaves:
// sluice measures each device itself, not the members of a dm or md device).
std::vector<std::uint8_t> encode_disk_util(const DiskUtilization& disk);

// The device's counters; util is fio's (100 x io_ticks / msec, at most 100). nullopt when the payload is
// shorter than fio's layout.
std::optional<DiskUtilization> decode_disk_util(const std::vector<std::uint8_t>& payload);

}  // namespace sluice::fionet
