// sync: lseek + read / write (fio's sync engine), performed inside submit(). The file position of each fd is
// tracked so a sequential stream costs one syscall per io, like psync; any failure forgets the position.
#include <unistd.h>

#include <cerrno>

#include "engine/engines.h"
#include "engine/sync_ops.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

constexpr std::uint64_t kUnknownPosition = ~0ull;

class SyncEngine final : public detail::SynchronousEngine<SyncEngine> {
  friend class detail::SynchronousEngine<SyncEngine>;
  friend struct sluice::SyncPerform;

 public:
  std::string_view name() const noexcept override { return engine_name(EngineKind::kSync); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kSync); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    position_.assign(fds_.size(), kUnknownPosition);
    reset_completions(setup.depth);
  }

  void close() noexcept override {}

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    auto file = static_cast<std::size_t>(u.file_index);
    int fd = fds_[file];
    if (u.op != IoOp::kRead && u.op != IoOp::kWrite) return detail::sync_non_data(u, fd, is_block_[file]);
    if (position_[file] != u.offset && lseek(fd, static_cast<off_t>(u.offset), SEEK_SET) < 0) {
      position_[file] = kUnknownPosition;
      return -errno;
    }
    ssize_t rc = u.op == IoOp::kRead ? read(fd, u.buffer, u.length) : write(fd, u.buffer, u.length);
    if (rc < 0) {
      position_[file] = kUnknownPosition;
      return -errno;
    }
    position_[file] = u.offset + static_cast<std::uint64_t>(rc);
    return rc;
  }

  std::vector<int> fds_;
  std::vector<bool> is_block_;
  std::vector<std::uint64_t> position_;
};

}  // namespace

bool SyncPerform::is(const Engine& engine) noexcept { return dynamic_cast<const SyncEngine*>(&engine) != nullptr; }
std::int64_t SyncPerform::perform(Engine& engine, const IoUnit& u) noexcept {
  return static_cast<SyncEngine&>(engine).perform(u);
}

std::unique_ptr<Engine> make_sync_engine() { return std::make_unique<SyncEngine>(); }

}  // namespace sluice
