#pragma once
// atomic=1 (RWF_ATOMIC writes): what the kernel takes, asked before the job starts, so that a file or size it
// refuses is one clear error instead of a failed write per io (fio 3.38+ leaves that to the kernel's EINVAL).
#include <cstdint>
#include <optional>
#include <vector>

#include "targets/target_file.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

// statx STATX_WRITE_ATOMIC of an open file (Linux 6.11+): the smallest and largest atomic write, in bytes.
struct AtomicWriteLimits {
  std::uint32_t unit_min = 0;
  std::uint32_t unit_max = 0;
};

// The file's limits; nullopt when it takes no atomic writes (or the kernel does not know STATX_WRITE_ATOMIC).
std::optional<AtomicWriteLimits> atomic_write_limits(int fd);

// Throws UserError naming the file and its limits when a write of the job could not be atomic there: no
// direct=1, a file without atomic writes, a write size outside [unit_min, unit_max] or not a power of two,
// random sizes (bsrange) that cannot all be, or offsets that are not multiples of the write size (a job
// offset, or bssplit's mixed sizes without a blockalign of the largest). Nothing for a job without atomic=1, without
// writes, or whose engine does not take the flag (only pvsync2, libaio and io_uring do).
void check_atomic_writes(const JobSpec& job, const std::vector<TargetFile>& targets);

}  // namespace sluice
