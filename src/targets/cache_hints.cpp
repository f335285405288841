#include "targets/cache_hints.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.h"

namespace sluice {
namespace {

constexpr std::size_t kPreReadChunk = 1 << 20;

int advice_of(const TargetOptions& target, bool random) {
  switch (target.fadvise_hint) {
    case FadviseHint::kNone:
      return -1;
    case FadviseHint::kWorkload:
      return random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
    case FadviseHint::kSequential:
      return POSIX_FADV_SEQUENTIAL;
    case FadviseHint::kRandom:
      return POSIX_FADV_RANDOM;
    case FadviseHint::kNoReuse:
      return POSIX_FADV_NOREUSE;
  }
  return -1;
}

void pre_read(const TargetFile& t) {
  const int fd = ::open(t.path.c_str(), O_RDONLY | O_CLOEXEC);  // buffered, whatever the job's direct=
  if (fd < 0) throw IoError("pre_read: cannot open " + t.path + ": " + std::strerror(errno), errno);
  std::vector<char> buffer(kPreReadChunk);
  const std::uint64_t end = t.region_start + t.region_length;
  for (std::uint64_t at = t.region_start; at < end;) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), end - at));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw IoError("pre_read of " + t.path + " at offset " + std::to_string(at) + " failed: " + std::strerror(err),
                    err);
    }
    if (n == 0) break;  // a file shorter than its region: nothing more to read in
    at += static_cast<std::uint64_t>(n);
  }
  ::close(fd);
}

// fio's write_hint: on the file's inode (F_SET_RW_HINT; the per-descriptor F_SET_FILE_RW_HINT is gone
// from Linux since 5.18).
void set_write_hint(const TargetFile& t, int hint) {
  std::uint64_t value = static_cast<std::uint64_t>(hint);
  if (::fcntl(t.fd, F_SET_RW_HINT, &value) == 0) return;
  throw IoError("write_hint: fcntl(F_SET_RW_HINT) on " + t.path + " failed: " + std::strerror(errno), errno);
}

}  // namespace

void apply_cache_hints(const std::vector<TargetFile>& targets, const TargetOptions& target, bool random) {
  const int advice = advice_of(target, random);
  for (const TargetFile& t : targets) {
    if (t.fd < 0) continue;
    const auto start = static_cast<off_t>(t.region_start);
    const auto length = static_cast<off_t>(t.region_length);
    if (target.pre_read) {
      pre_read(t);
    } else if (target.invalidate) {
      (void)::posix_fadvise(t.fd, start, length, POSIX_FADV_DONTNEED);
    }
    if (advice >= 0) (void)::posix_fadvise(t.fd, start, length, advice);
    if (target.write_hint != 0) set_write_hint(t, target.write_hint);
  }
}

}  // namespace sluice
