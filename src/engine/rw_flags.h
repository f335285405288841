#pragma once
// The per-io RWF_* flags of preadv2/pwritev2, io_uring's rw_flags and libaio's aio_rw_flags, from the job's
// engine options (fio's hipri/hipri_percentage for pvsync2, uncached, nowait and atomic).
#include <sys/uio.h>

#include <cstdint>

#include "engine/engine.h"

namespace sluice::detail {

inline constexpr int kRwfHipri = 0x00000001;      // RWF_HIPRI: poll for the completion
inline constexpr int kRwfNowait = 0x00000008;     // RWF_NOWAIT: EAGAIN instead of blocking
inline constexpr int kRwfAtomic = 0x00000040;     // RWF_ATOMIC (Linux 6.11): torn-write protection
inline constexpr int kRwfDontcache = 0x00000080;  // RWF_DONTCACHE (Linux 6.14; fio's "uncached")

// The flags every read and write gets (hipri is drawn per io by the caller). uncached applies to buffered
// ios only, as fio's.
constexpr int fixed_rw_flags(const RwFlagOptions& setup, bool direct) noexcept {
  return (setup.nowait ? kRwfNowait : 0) | (setup.uncached && !direct ? kRwfDontcache : 0);
}

// The flags writes get on top of those: RWF_ATOMIC with atomic=1 (a read with it fails with EINVAL).
constexpr int write_rw_flags(const RwFlagOptions& setup) noexcept { return setup.atomic ? kRwfAtomic : 0; }

}  // namespace sluice::detail
