// fio's disk utilization message, field by field.
#include "fionet/disk_util_pdu.h"

#include <algorithm>
#include <cmath>

#include "fionet/bytes.h"

namespace sluice::fionet {
namespace {

// struct disk_util_stat: name[64], then u64 ios[2], merges[2], sectors[2], ticks[2], io_ticks, time_in_queue,
// msec (152 bytes); struct disk_util_agg follows at 152: the same four pairs, io_ticks, time_in_queue, u32
// slavecount, u32 pad, fio_fp64_t max_util (16 bytes): 104 bytes.
constexpr std::size_t kDiskNameBytes = 64;
constexpr std::size_t kIos = 64, kMerges = 80, kSectors = 96, kTicks = 112, kIoTicks = 128, kInQueue = 136, kMsec = 144;

}  // namespace

std::vector<std::uint8_t> encode_disk_util(const DiskUtilization& d) {
  std::vector<std::uint8_t> p(kDiskUtilBytes, 0);
  put_text(p.data(), 0, kDiskNameBytes, d.name);
  std::uint8_t* b = p.data();
  put_u64(b, kIos, d.read_ios);
  put_u64(b, kIos + 8, d.write_ios);
  put_u64(b, kMerges, d.read_merges);
  put_u64(b, kMerges + 8, d.write_merges);
  put_u64(b, kSectors, d.read_sectors);
  put_u64(b, kSectors + 8, d.write_sectors);
  put_u64(b, kTicks, d.read_ticks_ms);
  put_u64(b, kTicks + 8, d.write_ticks_ms);
  put_u64(b, kIoTicks, d.io_ticks_ms);
  put_u64(b, kInQueue, d.in_queue_ms);
  // fio's msec, the time the counters span: io_ticks / util (sluice keeps the utilization, not the span).
  if (d.util_percent > 0) {
    put_u64(b, kMsec,
            static_cast<std::uint64_t>(std::llround(static_cast<double>(d.io_ticks_ms) * 100.0 / d.util_percent)));
  }
  return p;  // the aggregate of slaves stays zero: slavecount 0
}

std::optional<DiskUtilization> decode_disk_util(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kDiskUtilBytes) return std::nullopt;
  const std::uint8_t* b = payload.data();
  DiskUtilization d;
  d.name = std::string(get_text(b, 0, kDiskNameBytes));
  d.read_ios = get_u64(b, kIos);
  d.write_ios = get_u64(b, kIos + 8);
  d.read_merges = get_u64(b, kMerges);
  d.write_merges = get_u64(b, kMerges + 8);
  d.read_sectors = get_u64(b, kSectors);
  d.write_sectors = get_u64(b, kSectors + 8);
  d.read_ticks_ms = get_u64(b, kTicks);
  d.write_ticks_ms = get_u64(b, kTicks + 8);
  d.io_ticks_ms = get_u64(b, kIoTicks);
  d.in_queue_ms = get_u64(b, kInQueue);
  if (const std::uint64_t msec = get_u64(b, kMsec); msec > 0) {
    d.util_percent = std::min(100.0, 100.0 * static_cast<double>(d.io_ticks_ms) / static_cast<double>(msec));
  }
  return d;
}

}  // namespace sluice::fionet
