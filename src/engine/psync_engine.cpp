// psync: pread / pwrite at the io's offset, performed inside submit() (fio's psync). Trim punches a hole in
// a regular file or issues BLKDISCARD on a block device; fsync / fdatasync call the syscalls of that name.
#include <unistd.h>

#include <cerrno>

#include "engine/engines.h"
#include "engine/sync_ops.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class PsyncEngine final : public detail::SynchronousEngine<PsyncEngine> {
  friend class detail::SynchronousEngine<PsyncEngine>;
  friend struct sluice::PsyncPerform;

 public:
  std::string_view name() const noexcept override { return engine_name(EngineKind::kPsync); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kPsync); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    reset_completions(setup.depth);
  }

  void close() noexcept override {}

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    int fd = fds_[static_cast<std::size_t>(u.file_index)];
    ssize_t rc;
    switch (u.op) {
      case IoOp::kRead:
        rc = pread(fd, u.buffer, u.length, static_cast<off_t>(u.offset));
        break;
      case IoOp::kWrite:
        rc = pwrite(fd, u.buffer, u.length, static_cast<off_t>(u.offset));
        break;
      default:
        return detail::sync_non_data(u, fd, is_block_[static_cast<std::size_t>(u.file_index)]);
    }
    return rc >= 0 ? static_cast<std::int64_t>(rc) : -errno;
  }

  std::vector<int> fds_;
  std::vector<bool> is_block_;
};

}  // namespace

bool PsyncPerform::is(const Engine& engine) noexcept { return dynamic_cast<const PsyncEngine*>(&engine) != nullptr; }
std::int64_t PsyncPerform::perform(Engine& engine, const IoUnit& u) noexcept {
  return static_cast<PsyncEngine&>(engine).perform(u);
}

std::unique_ptr<Engine> make_psync_engine() { return std::make_unique<PsyncEngine>(); }

}  // namespace sluice
