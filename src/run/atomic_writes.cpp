#include "run/atomic_writes.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {
namespace {

// Linux 6.11's statx fields, which Debian 12's headers predate: read from a raw 256-byte struct statx.
constexpr unsigned kStatxWriteAtomic = 0x00010000u;      // STATX_WRITE_ATOMIC (mask)
constexpr std::uint64_t kAttrWriteAtomic = 0x00400000u;  // STATX_ATTR_WRITE_ATOMIC (attributes)
constexpr std::size_t kMaskAt = 0x00, kAttributesAt = 0x08, kUnitMinAt = 0xa8, kUnitMaxAt = 0xac;

template <typename T>
T field(const unsigned char* raw, std::size_t at) {
  T value;
  std::memcpy(&value, raw + at, sizeof value);
  return value;
}

// The write sizes a job issues (bs, or bssplit's), or nullopt for bsrange (sizes drawn between two bounds).
std::optional<std::vector<std::uint64_t>> write_sizes(const JobSpec& job) {
  const int w = index_of(Direction::kWrite);
  std::vector<std::uint64_t> sizes;
  if (!job.workload.bssplit[w].empty()) {
    for (const BlockSizeSplitEntry& e : job.workload.bssplit[w]) sizes.push_back(e.size);
  } else if (job.workload.bsrange[w].min != 0 && job.workload.bsrange[w].min != job.workload.bsrange[w].max) {
    return std::nullopt;
  } else {
    sizes.push_back(job.workload.bsrange[w].min != 0 ? job.workload.bsrange[w].min : job.workload.bs[w]);
  }
  return sizes;
}

}  // namespace

std::optional<AtomicWriteLimits> atomic_write_limits(int fd) {
  alignas(8) unsigned char raw[256] = {};
  if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, kStatxWriteAtomic, raw) != 0) return std::nullopt;
  if ((field<std::uint32_t>(raw, kMaskAt) & kStatxWriteAtomic) == 0) return std::nullopt;
  if ((field<std::uint64_t>(raw, kAttributesAt) & kAttrWriteAtomic) == 0) return std::nullopt;
  const AtomicWriteLimits limits{field<std::uint32_t>(raw, kUnitMinAt), field<std::uint32_t>(raw, kUnitMaxAt)};
  if (limits.unit_min == 0 || limits.unit_max < limits.unit_min) return std::nullopt;
  return limits;
}

void check_atomic_writes(const JobSpec& job, const std::vector<TargetFile>& targets) {
  const bool takes_flag = job.engine.ioengine == EngineKind::kPvsync2 || job.engine.ioengine == EngineKind::kLibaio ||
                          job.engine.ioengine == EngineKind::kIoUring;
  if (!job.engine.rw_flags.atomic || !job.does_writes() || !takes_flag)
    return;  // validation warned of an engine without it
  const std::string job_name = "job " + job.name + ": atomic=1";
  if (!job.target.direct) {
    throw UserError(job_name +
                    " needs direct=1 (the kernel takes RWF_ATOMIC on direct writes; its limits are "
                    "those of direct I/O)");
  }
  const auto sizes = write_sizes(job);
  if (!sizes) {
    throw UserError(job_name +
                    ": bsrange draws write sizes that are not powers of two, and an atomic write must "
                    "be one; use bs or bssplit");
  }
  // The kernel takes an atomic write only at an offset that is a multiple of its length.
  const std::uint64_t largest = *std::max_element(sizes->begin(), sizes->end());
  const std::uint64_t alignment = job.workload.blockalign[index_of(Direction::kWrite)];
  if (sizes->size() > 1 && (!job.is_random() || alignment == 0 || alignment % largest != 0)) {
    throw UserError(
        fmt::format("{}: bssplit mixes write sizes up to {} bytes, and an atomic write must start at "
                    "a multiple of its size; give random writes blockalign={} (or one size)",
                    job_name, largest, largest));
  }
  for (const TargetFile& t : targets) {
    if (t.region_start % largest != 0) {
      throw UserError(
          fmt::format("{}: the writes on {} start at offset {}, not a multiple of their {} bytes, "
                      "where an atomic write must start",
                      job_name, t.path, t.region_start, largest));
    }
    const auto limits = atomic_write_limits(t.fd);
    if (!limits) {
      throw UserError(
          fmt::format("{}: {} does not take atomic writes (statx reports no STATX_WRITE_ATOMIC "
                      "support: the filesystem or device has none, e.g. ext4 without a device that "
                      "has atomic writes; XFS with reflink has them in software)",
                      job_name, t.path));
    }
    for (std::uint64_t size : *sizes) {
      if (!std::has_single_bit(size) || size < limits->unit_min || size > limits->unit_max) {
        throw UserError(
            fmt::format("{}: writes of {} bytes cannot be atomic on {}: its atomic writes are powers "
                        "of two from {} to {} bytes (statx)",
                        job_name, size, t.path, limits->unit_min, limits->unit_max));
      }
    }
  }
}

}  // namespace sluice
