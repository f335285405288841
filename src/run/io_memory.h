#pragma once
// IoMemory: the one region a worker's io buffers live in, allocated the way fio's mem= (iomem=) says:
// malloc (page aligned), shm / shmhuge (a System V segment, removed as soon as it is attached), mmap /
// mmapshared / mmaphuge (anonymous, or backed by mem=TYPE:FILE, which is created when missing and removed at
// the end unless it existed, as fio). Huge page kinds round the size up to hugepage-size. Freed on
// destruction. Threads: one owner.
#include <cstddef>
#include <cstdint>
#include <string>

#include "job/buffer_options.h"

namespace sluice {

class IoMemory {
 public:
  IoMemory() = default;
  ~IoMemory() { release(); }
  IoMemory(const IoMemory&) = delete;
  IoMemory& operator=(const IoMemory&) = delete;

  // Replaces the region with one of at least `bytes` (page aligned). Throws UserError naming the job and,
  // for huge pages, what this machine has reserved.
  void allocate(std::size_t bytes, const IoMemorySpec& spec, const std::string& job_name);
  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  void release() noexcept;

  IoMemKind kind_ = IoMemKind::kMalloc;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;       // mem=mmap*:FILE
  std::string file_;  // removed on release unless it existed before
  bool keep_file_ = false;
};

}  // namespace sluice
