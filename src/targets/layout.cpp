// Laying out files before a job measures: create what is missing and write real random data (never holes,
// never zeros) up to the size the job needs, in large sequential writes, O_DIRECT where allowed.
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>

#include "common/aligned_buffer.h"
#include "common/created_files.h"
#include "common/error.h"
#include "common/rng.h"
#include "targets/target_file.h"
#include "targets/target_internal.h"

namespace sluice {

namespace detail {

std::uint64_t block_device_size(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    throw IoError("cannot open " + path + " to read its size: " + std::strerror(err), err);
  }
  std::uint64_t bytes = 0;
  int rc = ioctl(fd, BLKGETSIZE64, &bytes);
  int err = errno;
  ::close(fd);
  if (rc != 0) throw UserError("cannot read the size of " + path + " (BLKGETSIZE64): " + std::strerror(err));
  return bytes;
}

}  // namespace detail

namespace {

constexpr std::size_t kChunk = 4u << 20;               // bytes per layout write
constexpr std::uint64_t kProgressEvery = 64ull << 20;  // the contract: at least this often
constexpr std::uint64_t kDirectAlign = 4096;

// "laying out /d/f failed: a write of 4194304 bytes at offset 8388608 returned: No space left on device".
[[noreturn]] void throw_write_error(const std::string& path, std::uint64_t offset, std::size_t length, int err) {
  throw IoError("laying out " + path + " failed: a write of " + std::to_string(length) + " bytes at offset " +
                    std::to_string(offset) + " returned: " + std::strerror(err),
                err);
}

// Reserves [from, to) when the job asks; a filesystem that cannot is not an error (data is written anyway).
void preallocate(int fd, const std::string& path, FallocateMode mode, std::uint64_t from, std::uint64_t to) {
  if (mode == FallocateMode::kNone) return;
  int flags = mode == FallocateMode::kKeep ? FALLOC_FL_KEEP_SIZE : 0;
  if (fallocate(fd, flags, static_cast<off_t>(from), static_cast<off_t>(to - from)) != 0 && errno == ENOSPC) {
    // Reserve fails before the first write would: report it the same way.
    throw IoError("not enough space to lay out " + path + " (" + std::to_string(to - from) + " bytes at offset " +
                      std::to_string(from) + "): " + std::strerror(ENOSPC),
                  ENOSPC);
  }
}

void set_direct(int fd, bool on) noexcept {
  int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
}

// Writes random data over [from, to) of fd. When fd is O_DIRECT, aligned pieces go direct and an unaligned
// head or tail goes through the page cache (O_DIRECT toggled with fcntl). `sync`: fdatasync at the end.
void write_random(int fd, const std::string& path, std::uint64_t from, std::uint64_t to, const LayoutProgress& progress,
                  std::uint64_t seed, bool sync) {
  void* raw = nullptr;
  if (posix_memalign(&raw, kDirectAlign, kChunk) != 0) throw std::bad_alloc();
  std::unique_ptr<void, FreeDeleter> buffer(raw);
  Rng rng(seed);
  const bool can_direct = (fcntl(fd, F_GETFL) & O_DIRECT) != 0;
  bool direct = can_direct;
  std::uint64_t next_report = from + kProgressEvery;
  for (std::uint64_t pos = from; pos < to;) {
    std::size_t length = to - pos < kChunk ? static_cast<std::size_t>(to - pos) : kChunk;
    bool aligned = pos % kDirectAlign == 0;
    if (!aligned) {
      length = std::min<std::size_t>(length, kDirectAlign - pos % kDirectAlign);
    } else if (length > kDirectAlign) {
      length -= length % kDirectAlign;
    }
    bool want_direct = can_direct && aligned && length % kDirectAlign == 0;
    if (want_direct != direct) {
      set_direct(fd, want_direct);
      direct = want_direct;
    }
    fill_random({static_cast<unsigned char*>(raw), length}, rng);
    ssize_t n = pwrite(fd, raw, length, static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_write_error(path, pos, length, errno);
    if (n == 0) throw_write_error(path, pos, length, ENOSPC);
    pos += static_cast<std::uint64_t>(n);
    if (progress && (pos >= next_report || pos == to)) {
      progress(path, pos - from, to - from);
      next_report = pos + kProgressEvery;
    }
  }
  if (sync && fdatasync(fd) != 0) {
    const int err = errno;
    throw IoError("laying out " + path + " failed: fdatasync returned: " + std::strerror(err), err);
  }
}

bool is_full(int error_number) noexcept { return error_number == ENOSPC || error_number == EDQUOT; }

// fill_device for a read job: writes [from, t.size) until the filesystem is full, keeps what fitted (synced),
// and shrinks the target to it, so the job reads exactly what was written (fio reads the filled file).
// The large layout writes stop a chunk short of full; the rest is filled one block (`piece`) at a time, as
// fio lays out in blocks.
void fill_up(int fd, TargetFile& t, std::uint64_t from, std::uint64_t piece, const LayoutProgress& progress,
             std::uint64_t seed, bool sync) {
  try {
    write_random(fd, t.path, from, t.size, progress, seed, sync);
    return;
  } catch (const IoError& e) {
    if (!is_full(e.error_number())) throw;
  }
  struct stat st {};
  for (;;) {
    if (::fstat(fd, &st) != 0) break;
    const auto at = static_cast<std::uint64_t>(st.st_size);
    if (at >= t.size) break;
    try {
      write_random(fd, t.path, at, std::min(t.size, at + piece), {}, seed + at, false);
    } catch (const IoError& e) {
      if (!is_full(e.error_number())) throw;
      break;
    }
  }
  if (::fdatasync(fd) != 0 || ::fstat(fd, &st) != 0) {
    const int err = errno;
    throw IoError(
        "laying out " + t.path + " failed: fdatasync after filling the filesystem returned: " + std::strerror(err),
        err);
  }
  const auto filled = static_cast<std::uint64_t>(st.st_size);
  if (filled <= t.region_start) {
    throw IoError("fill_device: the filesystem of " + t.path + " filled up before the job's offset " +
                      std::to_string(t.region_start) + " (" + std::to_string(filled) + " bytes fitted)",
                  ENOSPC);
  }
  t.size = filled;
  t.region_length = std::min(t.region_length, filled - t.region_start);
  if (progress) progress(t.path, filled - from, filled - from);
}

// Lays out one regular file; returns true when it created it. On failure, undoes what it did (a created
// file is removed, an extended file is cut back to its old size) and rethrows. A missing file must have been
// journaled (journal_creating) by the caller.
bool lay_out(TargetFile& t, const TargetJob& job, const LayoutProgress& progress, std::uint64_t seed) {
  struct stat before {};
  const bool may_create = ::stat(t.path.c_str(), &before) != 0 && errno == ENOENT;  // journaled by the caller
  int fd = ::open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_DIRECT, 0644);
  if (fd < 0 && errno == EINVAL) fd = ::open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  bool created = fd >= 0;
  const int open_errno = errno;
  if (created) {
    journal_created(t.path);
  } else if (may_create) {
    journal_removed(t.path);  // not created after all: someone else's file, or none
  }
  errno = open_errno;
  if (!created && errno == EEXIST) {
    fd = ::open(t.path.c_str(), O_WRONLY | O_CLOEXEC | O_DIRECT);
    if (fd < 0 && errno == EINVAL) fd = ::open(t.path.c_str(), O_WRONLY | O_CLOEXEC);
  }
  if (fd < 0 && !created && open_errno == EEXIST) {
    throw IoError(
        "cannot open " + t.path + " to lay it out (it is smaller than the job's size): " + std::strerror(errno), errno);
  }
  if (fd < 0) throw IoError("cannot create " + t.path + ": " + std::strerror(errno), errno);
  struct stat st {};
  fstat(fd, &st);
  auto old_size = static_cast<std::uint64_t>(st.st_size);
  try {
    if (old_size < t.size && job.target.fill_device) {
      const std::uint64_t piece = std::max<std::uint64_t>(job.workload.bs[index_of(Direction::kRead)], 4096);
      fill_up(fd, t, old_size, piece, progress, seed, job.target.create_fsync);
    } else if (old_size < t.size) {
      preallocate(fd, t.path, job.target.fallocate, old_size, t.size);
      write_random(fd, t.path, old_size, t.size, progress, seed, job.target.create_fsync);
    }
  } catch (const IoError& e) {
    if (!created && ftruncate(fd, static_cast<off_t>(old_size)) != 0) {
      // The original error matters more; the file keeps the partial tail.
    }
    ::close(fd);
    if (!created) throw;
    // Nothing half-written stays behind as if it were a laid-out file.
    ::unlink(t.path.c_str());
    journal_removed(t.path);
    throw IoError(std::string(e.what()) + " (the partly written file, which sluice created, was removed)",
                  e.error_number());
  } catch (...) {
    if (created) {
      ::unlink(t.path.c_str());
      journal_removed(t.path);
    } else if (ftruncate(fd, static_cast<off_t>(old_size)) != 0) {
      // The original error matters more; the file keeps the partial tail.
    }
    ::close(fd);
    throw;
  }
  ::close(fd);
  return created;
}

}  // namespace

void prepare_targets(std::vector<TargetFile>& targets, const TargetJob& job, const LayoutProgress& progress) {
  std::vector<TargetFile*> created_now;
  std::vector<std::string> missing;  // journaled together: one sync, not one per file
  for (const TargetFile& t : targets) {
    struct stat st {};
    if (!t.is_block_device && ::stat(t.path.c_str(), &st) != 0 && errno == ENOENT) missing.push_back(t.path);
  }
  journal_creating(missing);
  try {
    for (std::size_t i = 0; i < targets.size(); ++i) {
      TargetFile& t = targets[i];
      if (t.is_block_device) continue;  // devices are never laid out
      struct stat st {};
      if (::stat(t.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) continue;  // character devices, fifos
      if (lay_out(t, job, progress, job.workload.randseed * 0x100000001b3ull + i)) {
        t.created_by_sluice = true;
        created_now.push_back(&t);
      }
    }
  } catch (...) {
    for (TargetFile* t : created_now) {
      ::unlink(t->path.c_str());
      journal_removed(t->path);
      t->created_by_sluice = false;
    }
    throw;
  }
}

}  // namespace sluice
