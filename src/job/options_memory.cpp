// fio's io buffer memory options: mem (iomem), iomem_align (mem_align), hugepage-size. The allocation itself
// is run/io_memory.cpp.
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

OptionDef mem_option() {
  return {
      .name = "mem",
      .aliases = {"iomem"},
      .type = OptionType::kChoice,
      .default_text = "malloc",
      .range = "malloc|shm|shmhuge|mmap[:FILE]|mmapshared[:FILE]|mmaphuge[:FILE]",
      .help =
          "Where the io buffers come from, as fio: malloc (page aligned), shm (a System V segment), shmhuge (one of "
          "huge pages), mmap (anonymous, or a private mapping of FILE), mmapshared (shared), mmaphuge (huge pages; "
          "FILE on a hugetlbfs mount). A FILE that did not exist is removed at the end. Huge page kinds need pages "
          "reserved (vm.nr_hugepages). cudamalloc is refused (no GPU support).",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            const std::size_t colon = value.find(':');
            const std::string_view kind = value.substr(0, colon);
            if (kind == "cudamalloc") {
              value_error(where, "mem", value, "GPU memory (GPUDirect RDMA) is not supported by sluice; use malloc");
            }
            static const std::vector<std::string> kChoices = {"malloc", "shm",        "shmhuge",
                                                              "mmap",   "mmapshared", "mmaphuge"};
            static constexpr IoMemKind kKinds[] = {IoMemKind::kMalloc, IoMemKind::kShm,        IoMemKind::kShmHuge,
                                                   IoMemKind::kMmap,   IoMemKind::kMmapShared, IoMemKind::kMmapHuge};
            const IoMemKind chosen = kKinds[choice_value("mem", kind, where, kChoices)];
            std::string file;
            if (colon != std::string_view::npos) {
              file = std::string(value.substr(colon + 1));
              if (chosen != IoMemKind::kMmap && chosen != IoMemKind::kMmapShared && chosen != IoMemKind::kMmapHuge) {
                value_error(where, "mem", value, "only the mmap kinds take a file (mmap:FILE)");
              }
              if (file.empty()) value_error(where, "mem", value, "no file after ':'");
            }
            job.buffers.io_memory.kind = chosen;
            job.buffers.io_memory.file = std::move(file);
          },
  };
}

}  // namespace

void add_memory_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  table.insert(
      table.end(),
      {mem_option(),
       {
           .name = "iomem_align",
           .aliases = {"mem_align"},
           .type = OptionType::kUnsigned,
           .default_text = "0",
           .unit = "bytes",
           .help = "The first io buffer starts this many bytes past a page boundary (the others follow at the block "
                   "size rounded up to a page), as fio's offset for testing unaligned buffers; direct I/O then needs "
                   "the device's memory alignment (the kernel refuses others with EINVAL).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.buffers.io_memory.align =
                     static_cast<std::uint32_t>(unsigned_value("iomem_align", value, where, 0, 1u << 30));
               },
       },
       {
           .name = "hugepage-size",
           .type = OptionType::kSize,
           .default_text = std::string(1, '4') + 'm',
           // a 2-byte literal trips gcc 12's -Wmaybe-uninitialized
           .unit = "bytes",
           .help = "With mem=shmhuge or mmaphuge: the buffers' memory is rounded up to a multiple of this (fio's "
                   "default 4 MiB); a multiple of this machine's huge page size.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 const std::uint64_t bytes = size_value("hugepage-size", value, where, job.report.kb_base);
                 if (bytes == 0 || bytes % (1u << 20) != 0) {
                   value_error(where, "hugepage-size", value, "must be a non-zero multiple of 1 MiB (fio's interval)");
                 }
                 job.buffers.io_memory.hugepage_size = bytes;
               },
       }});
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "placement";  // beside lockmem
}

}  // namespace sluice::detail
