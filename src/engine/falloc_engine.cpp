// falloc: fallocate(2) instead of data (fio's falloc engine): a read allocates the range and keeps the file's
// size (FALLOC_FL_KEEP_SIZE), a write allocates and extends the file, a trim punches a hole. No data moves:
// the io's buffer is never touched. Performed inside submit().
#include <fcntl.h>
#include <linux/falloc.h>

#include <cerrno>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class FallocEngine final : public detail::SynchronousEngine<FallocEngine> {
  friend class detail::SynchronousEngine<FallocEngine>;

 public:
  std::string_view name() const noexcept override { return engine_name(EngineKind::kFalloc); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kFalloc); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    reset_completions(setup.depth);
  }
  void close() noexcept override {}

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    int mode;
    switch (u.op) {
      case IoOp::kRead:
        mode = FALLOC_FL_KEEP_SIZE;
        break;
      case IoOp::kWrite:
        mode = 0;
        break;
      case IoOp::kTrim:
        mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
        break;
      default:
        return -EOPNOTSUPP;  // nothing to flush: validation refuses fsync= with this engine
    }
    const int fd = fds_[static_cast<std::size_t>(u.file_index)];
    if (fallocate(fd, mode, static_cast<off_t>(u.offset), static_cast<off_t>(u.length)) != 0) return -errno;
    return u.length;
  }

  std::vector<int> fds_;
};

}  // namespace

std::unique_ptr<Engine> make_falloc_engine() { return std::make_unique<FallocEngine>(); }

}  // namespace sluice
