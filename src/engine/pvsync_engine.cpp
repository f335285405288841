// pvsync and pvsync2: preadv / pwritev with one iovec at the io's offset, performed inside submit() (fio's
// pvsync); pvsync2 uses preadv2 / pwritev2 with the job's RWF_* flags: RWF_HIPRI on hipri_percentage of the
// ios when hipri=1 (drawn per io, as fio), RWF_DONTCACHE for buffered ios with uncached=1, RWF_NOWAIT with
// nowait=1, RWF_ATOMIC on writes with atomic=1. Trims and syncs as psync.
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

#include "common/rng.h"
#include "engine/engines.h"
#include "engine/rw_flags.h"
#include "engine/sync_ops.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class PvsyncEngine final : public detail::SynchronousEngine<PvsyncEngine> {
  friend class detail::SynchronousEngine<PvsyncEngine>;

 public:
  PvsyncEngine(bool v2, const RwFlagOptions& rw_flags)
      : kind_(v2 ? EngineKind::kPvsync2 : EngineKind::kPvsync), rw_flags_(rw_flags) {}
  std::string_view name() const noexcept override { return engine_name(kind_); }
  EngineCaps caps() const noexcept override { return engine_traits(kind_); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    flags_ = kind_ == EngineKind::kPvsync2 ? detail::fixed_rw_flags(rw_flags_, setup.direct) : 0;
    write_flags_ = kind_ == EngineKind::kPvsync2 ? detail::write_rw_flags(rw_flags_) : 0;
    hipri_percentage_ = kind_ == EngineKind::kPvsync2 && rw_flags_.hipri ? rw_flags_.hipri_percentage : 0;
    hipri_draws_.reseed(setup.seed ^ 0x6869707269ull);  // "hipri"
    reset_completions(setup.depth);
  }

  void close() noexcept override {}

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    const int fd = fds_[static_cast<std::size_t>(u.file_index)];
    if (u.op != IoOp::kRead && u.op != IoOp::kWrite) {
      return detail::sync_non_data(u, fd, is_block_[static_cast<std::size_t>(u.file_index)]);
    }
    const iovec vector{u.buffer, u.length};
    const auto offset = static_cast<off_t>(u.offset);
    ssize_t rc;
    if (kind_ == EngineKind::kPvsync) {
      rc = u.op == IoOp::kRead ? preadv(fd, &vector, 1, offset) : pwritev(fd, &vector, 1, offset);
    } else {
      int flags = flags_ | (u.op == IoOp::kWrite ? write_flags_ : 0);
      if (hipri_percentage_ != 0 && hipri_draws_.below(100) < hipri_percentage_) flags |= detail::kRwfHipri;
      rc = u.op == IoOp::kRead ? preadv2(fd, &vector, 1, offset, flags) : pwritev2(fd, &vector, 1, offset, flags);
    }
    return rc >= 0 ? static_cast<std::int64_t>(rc) : -errno;
  }

  EngineKind kind_;
  RwFlagOptions rw_flags_;
  std::vector<int> fds_;
  std::vector<bool> is_block_;
  int flags_ = 0;
  int write_flags_ = 0;  // RWF_ATOMIC
  std::uint32_t hipri_percentage_ = 0;
  Rng hipri_draws_;
};

}  // namespace

std::unique_ptr<Engine> make_pvsync_engine(bool v2, const RwFlagOptions& rw_flags) {
  return std::make_unique<PvsyncEngine>(v2, rw_flags);
}

}  // namespace sluice
