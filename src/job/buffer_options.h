#pragma once
// BufferOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <string>

namespace sluice {

// fio's mem= (iomem=): where the io buffers come from.
enum class IoMemKind { kMalloc, kShm, kShmHuge, kMmap, kMmapShared, kMmapHuge };

constexpr const char* io_mem_kind_name(IoMemKind kind) noexcept {
  switch (kind) {
    case IoMemKind::kMalloc:
      return "malloc";
    case IoMemKind::kShm:
      return "shm";
    case IoMemKind::kShmHuge:
      return "shmhuge";
    case IoMemKind::kMmap:
      return "mmap";
    case IoMemKind::kMmapShared:
      return "mmapshared";
    case IoMemKind::kMmapHuge:
      return "mmaphuge";
  }
  return "?";
}

struct IoMemorySpec {
  IoMemKind kind = IoMemKind::kMalloc;
  std::string file;                          // mem=mmap*:FILE; "" = anonymous
  std::uint64_t hugepage_size = 4ull << 20;  // hugepage-size: huge kinds round the size up to it (fio: 4 MiB)
  std::uint32_t align = 0;                   // iomem_align: the first buffer starts this far past a page
};

// The io buffers: where their memory comes from, and what write buffers hold (compressibility, dedupe).
struct BufferOptions {
  IoMemorySpec io_memory{};   // mem= / iomem=, hugepage-size, iomem_align
  std::uint64_t lockmem = 0;  // bytes each job clone pins with mlock while it runs (fio's lockmem)
  bool refill_buffers = false;
  bool zero_buffers = false;
  bool scramble_buffers = true;  // write buffers change slightly per write (defeats naive dedupe)
  std::string buffer_pattern;    // bytes that fill write buffers, already decoded; empty = not set
  std::uint32_t buffer_compress_percentage = 0;
  std::uint32_t buffer_compress_chunk = 512;  // bytes: compressible and random runs alternate in such chunks
  // fio's dedupe: dedupe_percentage of write buffers repeat earlier content (workload/dedupe_source.h).
  std::uint32_t dedupe_percentage = 0;
  bool dedupe_working_set = false;                  // dedupe_mode=working_set (else repeat)
  std::uint32_t dedupe_working_set_percentage = 5;  // of the job's size
  bool dedupe_global = false;
};

}  // namespace sluice
