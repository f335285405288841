// mmap: maps each file once (EngineSetup::file_sizes bytes, shared) and moves data with memcpy inside
// submit(). An io that reaches past the mapped length is shortened there (a short read / write, as at EOF);
// fsync and fdatasync become msync(MS_SYNC) of the whole mapping. Trim is not supported (-EOPNOTSUPP).
// O_DIRECT has no meaning for mapped memory (its traits say direct = false).
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

struct Mapping {
  char* data = nullptr;
  std::uint64_t length = 0;
};

class MmapEngine final : public detail::SynchronousEngine<MmapEngine> {
  friend class detail::SynchronousEngine<MmapEngine>;
  friend struct sluice::MmapPerform;

 public:
  ~MmapEngine() override { close(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kMmap); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kMmap); }

  void open(const EngineSetup& setup) override {
    close();
    writable_ = setup.writes;
    int prot = PROT_READ | (writable_ ? PROT_WRITE : 0);
    for (std::size_t i = 0; i < setup.fds.size(); ++i) {
      std::uint64_t length = i < setup.file_sizes.size() ? setup.file_sizes[i] : 0;
      Mapping m;
      if (length > 0 && setup.fds[i] >= 0) {
        void* p = mmap(nullptr, length, prot, MAP_SHARED, setup.fds[i], 0);
        if (p == MAP_FAILED) {
          int err = errno;
          close();
          throw IoError("mmap engine: cannot map file #" + std::to_string(i) + " (" + std::to_string(length) +
                            " bytes): " + std::strerror(err),
                        err);
        }
        m = {static_cast<char*>(p), length};
      }
      maps_.push_back(m);
    }
    reset_completions(setup.depth);
  }

  void close() noexcept override {
    for (const Mapping& m : maps_) {
      if (m.data != nullptr) munmap(m.data, m.length);
    }
    maps_.clear();
  }

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    const Mapping& m = maps_[static_cast<std::size_t>(u.file_index)];
    if (u.op == IoOp::kTrim) return -EOPNOTSUPP;
    if (is_flush(u.op)) {  // the mapping's dirty pages: msync (sync_file_range would not see them written)
      if (m.data != nullptr && msync(m.data, m.length, MS_SYNC) != 0) return -errno;
      return u.length;
    }
    if (u.op == IoOp::kWrite && !writable_) return -EBADF;  // mapped read-only (EngineSetup::writes false)
    if (u.offset >= m.length) return 0;
    std::uint64_t n = m.length - u.offset < u.length ? m.length - u.offset : u.length;
    if (u.op == IoOp::kRead) {
      std::memcpy(u.buffer, m.data + u.offset, n);
    } else {
      std::memcpy(m.data + u.offset, u.buffer, n);
    }
    return static_cast<std::int64_t>(n);
  }

  std::vector<Mapping> maps_;
  bool writable_ = false;
};

}  // namespace

bool MmapPerform::is(const Engine& engine) noexcept { return dynamic_cast<const MmapEngine*>(&engine) != nullptr; }
std::int64_t MmapPerform::perform(Engine& engine, const IoUnit& u) noexcept {
  return static_cast<MmapEngine&>(engine).perform(u);
}

std::unique_ptr<Engine> make_mmap_engine() { return std::make_unique<MmapEngine>(); }

}  // namespace sluice
