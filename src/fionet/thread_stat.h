#pragma once
// fio 3.33's end-of-run statistics on the wire: `struct thread_stat` (packed, 183,888 bytes) followed by
// `struct group_run_stats` (packed, 164 bytes) in a TS message, and group_run_stats alone in a GS message.
// Every field is little-endian at a fixed offset (fionet/bytes.h); the offsets below follow the field order of
// fio's stat.h (fio-3.33 tag), and a test checks them against the sizes fio's compiler gives.
//
// Units, as fio keeps them: latencies in ns; bw_stat samples in KiB/s, iops_stat in ios/s; runtime and
// usr/sys time in ms; group bandwidths in bytes/s.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/direction.h"
#include "report/report_math.h"
#include "stats/latency_histogram.h"

namespace sluice::fionet {

namespace ts {
// fio's array sizes.
inline constexpr std::size_t kDirs = 3;            // DDIR_RWDIR_CNT
inline constexpr std::size_t kPlatBuckets = 1856;  // FIO_IO_U_PLAT_NR: 29 groups of 64
inline constexpr std::size_t kPercentiles = 20;    // FIO_IO_U_LIST_MAX_LEN
inline constexpr std::size_t kBlockInfos = 8192;   // MAX_NR_BLOCK_INFOS
inline constexpr std::size_t kIoStat = 56;         // max, min, samples (u64), mean, S (16-byte fio_fp64_t each)
inline constexpr std::size_t kFp64 = 16;

inline constexpr std::size_t kName = 0;      // char[128]
inline constexpr std::size_t kVerror = 128;  // char[128]
inline constexpr std::size_t kError = 256;
inline constexpr std::size_t kThreadNumber = 260;
inline constexpr std::size_t kGroupId = 264;
inline constexpr std::size_t kPid = 268;
inline constexpr std::size_t kDescription = 272;  // char[256]
inline constexpr std::size_t kMembers = 528;
inline constexpr std::size_t kUnifiedRwRep = 532;
inline constexpr std::size_t kDisablePrioStat = 536;
inline constexpr std::size_t kSyncStat = 544;  // aligned(8) in the packed struct: 540 rounded up
inline constexpr std::size_t kClatStat = kSyncStat + kIoStat;
inline constexpr std::size_t kSlatStat = kClatStat + kDirs * kIoStat;
inline constexpr std::size_t kLatStat = kSlatStat + kDirs * kIoStat;
inline constexpr std::size_t kBwStat = kLatStat + kDirs * kIoStat;
inline constexpr std::size_t kIopsStat = kBwStat + kDirs * kIoStat;
inline constexpr std::size_t kUsrTime = kIopsStat + kDirs * kIoStat;
inline constexpr std::size_t kSysTime = kUsrTime + 8;
inline constexpr std::size_t kCtx = kSysTime + 8;
inline constexpr std::size_t kMinf = kCtx + 8;
inline constexpr std::size_t kMajf = kMinf + 8;
inline constexpr std::size_t kClatPercentiles = kMajf + 8;
inline constexpr std::size_t kLatPercentiles = kClatPercentiles + 4;
inline constexpr std::size_t kSlatPercentiles = kLatPercentiles + 4;
inline constexpr std::size_t kPercentilePrecision = kSlatPercentiles + 8;  // after a u32 pad
inline constexpr std::size_t kPercentileList = kPercentilePrecision + 8;
inline constexpr std::size_t kIoUMap = kPercentileList + kPercentiles * kFp64;
inline constexpr std::size_t kIoUSubmit = kIoUMap + 7 * 8;
inline constexpr std::size_t kIoUComplete = kIoUSubmit + 7 * 8;
inline constexpr std::size_t kIoULatN = kIoUComplete + 7 * 8;
inline constexpr std::size_t kIoULatU = kIoULatN + 10 * 8;
inline constexpr std::size_t kIoULatM = kIoULatU + 10 * 8;
inline constexpr std::size_t kIoUPlat = kIoULatM + 12 * 8;  // [slat, clat, lat][read, write, trim][bucket]
inline constexpr std::size_t kIoUSyncPlat = kIoUPlat + 3 * kDirs * kPlatBuckets * 8;
inline constexpr std::size_t kTotalIoU = kIoUSyncPlat + kPlatBuckets * 8;  // read, write, trim, sync
inline constexpr std::size_t kShortIoU = kTotalIoU + 4 * 8;
inline constexpr std::size_t kDropIoU = kShortIoU + kDirs * 8;
inline constexpr std::size_t kTotalSubmit = kDropIoU + kDirs * 8;
inline constexpr std::size_t kTotalComplete = kTotalSubmit + 8;
inline constexpr std::size_t kIoBytes = kTotalComplete + 8;
inline constexpr std::size_t kRuntime = kIoBytes + kDirs * 8;
inline constexpr std::size_t kTotalRunTime = kRuntime + kDirs * 8;
inline constexpr std::size_t kContinueOnError = kTotalRunTime + 8;  // u16 in a 4-byte union
inline constexpr std::size_t kFirstError = kContinueOnError + 4;
inline constexpr std::size_t kTotalErrCount = kFirstError + 4;
inline constexpr std::size_t kNrZoneResets = kTotalErrCount + 8;
inline constexpr std::size_t kNrBlockInfos = kNrZoneResets + 8;
inline constexpr std::size_t kBlockInfo = kNrBlockInfos + 8;
inline constexpr std::size_t kKbBase = kBlockInfo + kBlockInfos * 4;
inline constexpr std::size_t kUnitBase = kKbBase + 4;
inline constexpr std::size_t kLatencyDepth = kUnitBase + 4;
inline constexpr std::size_t kLatencyTarget = kLatencyDepth + 8;  // after a u32 pad
inline constexpr std::size_t kLatencyPercentile = kLatencyTarget + 8;
inline constexpr std::size_t kLatencyWindow = kLatencyPercentile + kFp64;
inline constexpr std::size_t kSigFigs = kLatencyWindow + 8;
inline constexpr std::size_t kSsDur = kSigFigs + 4;
inline constexpr std::size_t kSsState = kSsDur + 8;
inline constexpr std::size_t kSsHead = kSsState + 4;
inline constexpr std::size_t kSsLimit = kSsHead + 4;
inline constexpr std::size_t kSsSlope = kSsLimit + kFp64;
inline constexpr std::size_t kSsDeviation = kSsSlope + kFp64;
inline constexpr std::size_t kSsCriterion = kSsDeviation + kFp64;
inline constexpr std::size_t kIoprio = kSsCriterion + kFp64;
inline constexpr std::size_t kSsIopsDataOffset = kIoprio + 4;
inline constexpr std::size_t kSsBwDataOffset = kSsIopsDataOffset + 8;
inline constexpr std::size_t kClatPrioOffset = kSsBwDataOffset + 8;
inline constexpr std::size_t kNrClatPrio = kClatPrioOffset + kDirs * 8;
inline constexpr std::size_t kCacheHit = kNrClatPrio + kDirs * 4;
inline constexpr std::size_t kCacheMiss = kCacheHit + 8;
inline constexpr std::size_t kThreadStatBytes = (kCacheMiss + 8 + 7) / 8 * 8;  // the struct is 8-aligned

// group_run_stats
inline constexpr std::size_t kGsMaxRun = 0;
inline constexpr std::size_t kGsMinRun = kGsMaxRun + kDirs * 8;
inline constexpr std::size_t kGsMaxBw = kGsMinRun + kDirs * 8;
inline constexpr std::size_t kGsMinBw = kGsMaxBw + kDirs * 8;
inline constexpr std::size_t kGsIoBytes = kGsMinBw + kDirs * 8;
inline constexpr std::size_t kGsAgg = kGsIoBytes + kDirs * 8;
inline constexpr std::size_t kGsKbBase = kGsAgg + kDirs * 8;
inline constexpr std::size_t kGsUnitBase = kGsKbBase + 4;
inline constexpr std::size_t kGsSigFigs = kGsUnitBase + 4;
inline constexpr std::size_t kGsGroupId = kGsSigFigs + 4;
inline constexpr std::size_t kGsUnifiedRwRep = kGsGroupId + 4;
inline constexpr std::size_t kGroupStatBytes = kGsUnifiedRwRep + 4;

// A TS message: thread_stat, then group_run_stats; the pair is padded to 8 bytes (cmd_ts_pdu).
inline constexpr std::size_t kTsPayloadBytes = (kThreadStatBytes + kGroupStatBytes + 7) / 8 * 8;
}  // namespace ts

static_assert(ts::kThreadStatBytes == 183888, "fio 3.33's sizeof(struct thread_stat) on x86_64 and aarch64");
static_assert(ts::kGroupStatBytes == 164, "fio 3.33's sizeof(struct group_run_stats)");

// fio's latency bucket of a value in ns (plat_val_to_idx: exact below 128, then 64 buckets per power of two,
// the last bucket holding everything from about 17 s up).
std::size_t fio_plat_index(std::uint64_t ns) noexcept;

// The identity of one reported entry on the wire.
struct WireIdentity {
  std::uint32_t thread_number = 1;  // 1-based, in report order (fio's client files job options by it)
  std::uint32_t pid = 0;
};

// The TS payload of one reported entry (a job clone, or a group under group_reporting), and the group's
// totals it is reported with.
std::vector<std::uint8_t> encode_thread_stat(const report::ReportedJob& entry,
                                             const PerDirection<report::GroupDirectionTotals>& totals,
                                             const WireIdentity& identity);

// The GS payload of a group.
std::vector<std::uint8_t> encode_group_stat(const PerDirection<report::GroupDirectionTotals>& totals, int groupid,
                                            const JobReportSettings& settings);

}  // namespace sluice::fionet
