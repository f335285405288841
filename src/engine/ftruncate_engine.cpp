// ftruncate: each write sets the file's length to the io's offset (fio's ftruncate engine), so a sequential
// job grows the file block by block and a random one moves its end back and forth. Reads and trims are
// refused (EINVAL, as fio; validation refuses such jobs first). No data moves. Performed inside submit().
#include <unistd.h>

#include <cerrno>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class FtruncateEngine final : public detail::SynchronousEngine<FtruncateEngine> {
  friend class detail::SynchronousEngine<FtruncateEngine>;

 public:
  std::string_view name() const noexcept override { return engine_name(EngineKind::kFtruncate); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kFtruncate); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    reset_completions(setup.depth);
  }
  void close() noexcept override {}

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    if (u.op != IoOp::kWrite) return u.op == IoOp::kTrim ? -EOPNOTSUPP : -EINVAL;
    if (::ftruncate(fds_[static_cast<std::size_t>(u.file_index)], static_cast<off_t>(u.offset)) != 0) return -errno;
    return u.length;
  }

  std::vector<int> fds_;
};

}  // namespace

std::unique_ptr<Engine> make_ftruncate_engine() { return std::make_unique<FtruncateEngine>(); }

}  // namespace sluice
