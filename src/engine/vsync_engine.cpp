// vsync: lseek + readv / writev, as fio's vsync. The ios of one submit() that continue each other (same file,
// same direction, each starting where the last ended) go out as one readv / writev of up to iodepth vectors;
// any other io ends the run. With fio's default iodepth_batch_submit=1 every submit holds one io, so nothing
// merges; iodepth_batch_submit=N lets up to N sequential ios share a call. A short transfer is shared out in
// order (the ios past its end come back short); a failure fails every io of the call. Trims and syncs are
// performed alone, as with sync.
#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "engine/completion_ring.h"
#include "engine/engines.h"
#include "engine/sync_ops.h"

namespace sluice {
namespace {

class VsyncEngine final : public Engine {
 public:
  std::string_view name() const noexcept override { return engine_name(EngineKind::kVsync); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kVsync); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    depth_ = setup.depth == 0 ? 1 : setup.depth;
    vectors_.resize(std::min<std::size_t>(depth_, IOV_MAX));
    done_.reset(depth_);
  }

  int submit(std::span<IoUnit* const> batch) override {
    const std::size_t n = std::min(batch.size(), done_.free());
    for (std::size_t first = 0; first < n;) {
      IoUnit& u = *batch[first];
      if (u.op != IoOp::kRead && u.op != IoOp::kWrite) {
        u.result = detail::sync_non_data(u, fd_of(u), is_block_[static_cast<std::size_t>(u.file_index)]);
        done_.push(&u);
        ++first;
        continue;
      }
      std::size_t end = first + 1;
      while (end < n && end - first < vectors_.size() && continues(*batch[end - 1], *batch[end])) ++end;
      perform_run(batch.subspan(first, end - first));
      first = end;
    }
    return static_cast<int>(n);
  }

  int reap(unsigned /*min_events*/, std::span<IoUnit*> out) override { return static_cast<int>(done_.pop_into(out)); }

  void close() noexcept override {}

 private:
  int fd_of(const IoUnit& u) const noexcept { return fds_[static_cast<std::size_t>(u.file_index)]; }

  static bool continues(const IoUnit& last, const IoUnit& next) noexcept {
    return next.op == last.op && next.file_index == last.file_index && next.offset == last.offset + last.length;
  }

  // One lseek and one readv / writev for ios that follow each other on the file.
  void perform_run(std::span<IoUnit* const> run) noexcept {
    for (std::size_t i = 0; i < run.size(); ++i) vectors_[i] = iovec{run[i]->buffer, run[i]->length};
    const int fd = fd_of(*run[0]);
    const bool read = run[0]->op == IoOp::kRead;
    ssize_t rc = ::lseek(fd, static_cast<off_t>(run[0]->offset), SEEK_SET) < 0 ? -1
                 : read ? ::readv(fd, vectors_.data(), static_cast<int>(run.size()))
                        : ::writev(fd, vectors_.data(), static_cast<int>(run.size()));
    const int err = errno;
    std::size_t left = rc < 0 ? 0 : static_cast<std::size_t>(rc);
    for (IoUnit* u : run) {
      if (rc < 0) {
        u->result = -err;
      } else {
        const std::size_t got = std::min<std::size_t>(left, u->length);
        u->result = static_cast<std::int64_t>(got);
        left -= got;
      }
      done_.push(u);
    }
  }

  std::vector<int> fds_;
  std::vector<bool> is_block_;
  std::uint32_t depth_ = 1;
  std::vector<iovec> vectors_;
  detail::CompletionRing done_;
};

}  // namespace

std::unique_ptr<Engine> make_vsync_engine() { return std::make_unique<VsyncEngine>(); }

}  // namespace sluice
