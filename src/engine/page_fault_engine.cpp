// page_fault (fio 3.41's engine): reads and writes copy between the io buffer and an anonymous private mapping
// of the job's size, so the first touch of each page is a page fault the io pays for (minor faults: the
// kernel's fault path and zeroed pages, no storage). One region, no file; an io past the mapping fails with
// EINVAL, as fio's; syncs complete at once.
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class PageFaultEngine final : public detail::SynchronousEngine<PageFaultEngine> {
  friend class detail::SynchronousEngine<PageFaultEngine>;

 public:
  ~PageFaultEngine() override { unmap(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kPageFault); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kPageFault); }

  void open(const EngineSetup& setup) override {
    unmap();
    bytes_ = setup.file_sizes.empty() ? 0 : setup.file_sizes.front();
    if (bytes_ != 0) {
      void* map = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (map == MAP_FAILED) throw IoError("page_fault: mmap of " + std::to_string(bytes_) + " bytes", errno);
      memory_ = static_cast<char*>(map);
    }
    reset_completions(setup.depth);
  }
  void close() noexcept override { unmap(); }

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    if (is_flush(u.op)) return u.length;
    if (memory_ == nullptr || u.offset > bytes_ || u.length > bytes_ - u.offset) return -EINVAL;
    switch (u.op) {
      case IoOp::kRead:
        std::memcpy(u.buffer, memory_ + u.offset, u.length);
        return u.length;
      case IoOp::kWrite:
        std::memcpy(memory_ + u.offset, u.buffer, u.length);
        return u.length;
      default:
        return -EOPNOTSUPP;
    }
  }

  void unmap() noexcept {
    if (memory_ != nullptr) ::munmap(memory_, bytes_);
    memory_ = nullptr;
  }

  char* memory_ = nullptr;
  std::uint64_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_page_fault_engine() { return std::make_unique<PageFaultEngine>(); }

}  // namespace sluice
