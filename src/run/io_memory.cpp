#include "run/io_memory.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "common/error.h"

namespace sluice {
namespace {

constexpr std::size_t kPage = 4096;

std::size_t round_up(std::size_t bytes, std::size_t unit) noexcept { return (bytes + unit - 1) / unit * unit; }

bool huge(IoMemKind kind) noexcept { return kind == IoMemKind::kShmHuge || kind == IoMemKind::kMmapHuge; }

// "HugePages_Free:  N" of /proc/meminfo, for the message when huge pages cannot be had.
std::string huge_pages_free() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("HugePages_Free:", 0) == 0) return line.substr(line.find_first_not_of(' ', 15));
  }
  return "unknown";
}

[[noreturn]] void fail(const std::string& job, const IoMemorySpec& spec, const char* call, std::size_t bytes, int err) {
  std::string text = fmt::format("job {}: mem={}: {} of {} bytes for the io buffers failed: {}", job,
                                 io_mem_kind_name(spec.kind), call, bytes, std::strerror(err));
  if (huge(spec.kind)) {
    text += fmt::format(
        " (huge pages free here: {}; reserve some with sysctl vm.nr_hugepages, and check that "
        "hugepage-size={} is a multiple of this machine's huge page size)",
        huge_pages_free(), spec.hugepage_size);
  }
  throw UserError(text);
}

}  // namespace

void IoMemory::allocate(std::size_t bytes, const IoMemorySpec& spec, const std::string& job_name) {
  release();
  kind_ = spec.kind;
  size_ = huge(spec.kind) ? round_up(bytes, spec.hugepage_size) : round_up(bytes, kPage);
  switch (spec.kind) {
    case IoMemKind::kMalloc:
      if (posix_memalign(&data_, kPage, size_) != 0) {
        data_ = nullptr;
        fail(job_name, spec, "posix_memalign", size_, ENOMEM);
      }
      return;
    case IoMemKind::kShm:
    case IoMemKind::kShmHuge: {
      const int id =
          shmget(IPC_PRIVATE, size_, IPC_CREAT | 0600 | (spec.kind == IoMemKind::kShmHuge ? SHM_HUGETLB : 0));
      if (id < 0) fail(job_name, spec, "shmget", size_, errno);
      void* at = shmat(id, nullptr, 0);
      const int err = errno;
      shmctl(id, IPC_RMID, nullptr);  // goes away with the last detach, even if sluice is killed
      if (at == reinterpret_cast<void*>(-1)) fail(job_name, spec, "shmat", size_, err);
      data_ = at;
      return;
    }
    case IoMemKind::kMmap:
    case IoMemKind::kMmapShared:
    case IoMemKind::kMmapHuge: {
      // Anonymous memory is private (mmapshared: shared, by its name; fio maps it private), a file's mapping
      // is private for mmap and shared for the other two, as fio.
      int flags = spec.kind == IoMemKind::kMmap ? MAP_PRIVATE : MAP_SHARED;
      if (spec.file.empty()) {
        flags = MAP_ANONYMOUS | (spec.kind == IoMemKind::kMmapShared ? MAP_SHARED : MAP_PRIVATE) |
                (spec.kind == IoMemKind::kMmapHuge ? MAP_HUGETLB : 0);
      } else {
        keep_file_ = ::access(spec.file.c_str(), F_OK) == 0;
        fd_ = ::open(spec.file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) fail(job_name, spec, ("open " + spec.file).c_str(), size_, errno);
        file_ = spec.file;
        if (::ftruncate(fd_, static_cast<off_t>(size_)) != 0) {
          const int err = errno;
          release();
          fail(job_name, spec, ("ftruncate " + spec.file).c_str(), size_, err);
        }
      }
      void* at = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, flags, fd_, 0);
      if (at == MAP_FAILED) {
        const int err = errno;
        release();
        fail(job_name, spec, "mmap", size_, err);
      }
      data_ = at;
      return;
    }
  }
}

void IoMemory::release() noexcept {
  if (data_ != nullptr) {
    switch (kind_) {
      case IoMemKind::kMalloc:
        std::free(data_);
        break;
      case IoMemKind::kShm:
      case IoMemKind::kShmHuge:
        shmdt(data_);
        break;
      default:
        ::munmap(data_, size_);
        break;
    }
  }
  data_ = nullptr;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!file_.empty() && !keep_file_) ::unlink(file_.c_str());
  file_.clear();
  keep_file_ = false;
}

}  // namespace sluice
