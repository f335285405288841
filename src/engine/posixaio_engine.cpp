// posixaio: POSIX asynchronous I/O (aio_read / aio_write / aio_fsync, completions found with aio_error and
// waited for with aio_suspend), as fio's posixaio engine. On Linux glibc runs these ios on its own helper
// threads, so this engine measures that implementation, not a kernel interface: compare it with libaio or
// io_uring to see the cost.
//
// Each IoUnit borrows an aiocb from a pool of `depth` made in open(). fsync and fdatasync go through
// aio_fsync (O_SYNC, O_DSYNC), which completes once every write queued before it is on stable storage. Trim
// is synchronous (as fio's, which waits until nothing is queued): the ios in flight are waited for first.
#include <aio.h>
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "engine/completion_ring.h"
#include "engine/engines.h"
#include "engine/sync_ops.h"

namespace sluice {
namespace {

class PosixaioEngine final : public Engine {
 public:
  ~PosixaioEngine() override { close(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kPosixaio); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kPosixaio); }

  void open(const EngineSetup& setup) override {
    close();
    depth_ = setup.depth == 0 ? 1 : setup.depth;
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    cbs_.assign(depth_, aiocb{});
    owner_.assign(depth_, nullptr);
    free_.clear();
    for (std::size_t i = depth_; i > 0; --i) free_.push_back(i - 1);
    in_flight_.clear();
    in_flight_.reserve(depth_);
    suspend_list_.assign(depth_, nullptr);
    ready_.reset(2 * static_cast<std::size_t>(depth_));
    opened_ = true;
  }

  int submit(std::span<IoUnit* const> batch) override {
    std::size_t accepted = 0;
    for (; accepted < batch.size(); ++accepted) {
      IoUnit& u = *batch[accepted];
      int fd = fds_[static_cast<std::size_t>(u.file_index)];
      if (u.op == IoOp::kTrim || u.op == IoOp::kSyncRange) {  // no aio form: done once the queue is empty
        if (ready_.free() <= in_flight_.size()) break;        // room to park every completion waited for
        drain();
        u.result = detail::sync_non_data(u, fd, is_block_[static_cast<std::size_t>(u.file_index)]);
        ready_.push(&u);
        continue;
      }
      if (free_.empty()) break;
      std::size_t slot = free_.back();
      aiocb& cb = cbs_[slot];
      cb = aiocb{};
      cb.aio_fildes = fd;
      cb.aio_buf = u.buffer;
      cb.aio_nbytes = u.length;
      cb.aio_offset = static_cast<off_t>(u.offset);
      cb.aio_sigevent.sigev_notify = SIGEV_NONE;
      int rc = 0;
      switch (u.op) {
        case IoOp::kRead:
          rc = aio_read(&cb);
          break;
        case IoOp::kWrite:
          rc = aio_write(&cb);
          break;
        case IoOp::kFsync:
          rc = aio_fsync(O_SYNC, &cb);
          break;
        case IoOp::kFdatasync:
          rc = aio_fsync(O_DSYNC, &cb);
          break;
        case IoOp::kTrim:
        case IoOp::kSyncRange:
          break;
      }
      if (rc != 0) {
        if (errno == EAGAIN) break;  // out of resources: the rest go back to the caller (fio's FIO_Q_BUSY)
        u.result = -errno;
        ready_.push(&u);
        continue;
      }
      free_.pop_back();
      owner_[slot] = &u;
      u.engine_data = &cb;
      in_flight_.push_back(slot);
    }
    return static_cast<int>(accepted);
  }

  int reap(unsigned min_events, std::span<IoUnit*> out) override {
    std::size_t got = ready_.pop_into(out);
    while (got < out.size() && !in_flight_.empty()) {
      got += collect_finished(out.subspan(got));
      if (got >= min_events || got >= out.size() || in_flight_.empty()) break;
      wait_for_one();
    }
    return static_cast<int>(got);
  }

  void close() noexcept override {
    if (!opened_) return;
    drain();
    opened_ = false;
  }

 private:
  // Moves the finished ios among those in flight into out (up to out.size()); returns how many.
  std::size_t collect_finished(std::span<IoUnit*> out) noexcept {
    std::size_t got = 0;
    for (std::size_t i = 0; i < in_flight_.size() && got < out.size();) {
      std::size_t slot = in_flight_[i];
      int err = aio_error(&cbs_[slot]);
      if (err == EINPROGRESS) {
        ++i;
        continue;
      }
      out[got++] = finish(slot, err);
      in_flight_[i] = in_flight_.back();
      in_flight_.pop_back();
    }
    return got;
  }

  IoUnit* finish(std::size_t slot, int err) noexcept {
    IoUnit* u = owner_[slot];
    ssize_t transferred = aio_return(&cbs_[slot]);
    if (err != 0) {
      u->result = -err;
    } else if (u->op == IoOp::kFsync || u->op == IoOp::kFdatasync) {
      u->result = u->length;
    } else {
      u->result = transferred;
    }
    owner_[slot] = nullptr;
    free_.push_back(slot);
    return u;
  }

  // Blocks until at least one io in flight has finished (aio_suspend returns early on a signal; the caller
  // looks again either way).
  void wait_for_one() noexcept {
    std::size_t n = in_flight_.size();
    for (std::size_t i = 0; i < n; ++i) suspend_list_[i] = &cbs_[in_flight_[i]];
    (void)aio_suspend(suspend_list_.data(), static_cast<int>(n), nullptr);
  }

  // Waits for every io in flight and parks the completions in ready_ (room is guaranteed by the callers).
  void drain() noexcept {
    IoUnit* one[1];
    while (!in_flight_.empty()) {
      if (collect_finished(one) == 1) {
        if (ready_.free() > 0) ready_.push(one[0]);
        continue;
      }
      wait_for_one();
    }
  }

  bool opened_ = false;
  std::uint32_t depth_ = 1;
  std::vector<int> fds_;
  std::vector<bool> is_block_;
  std::vector<aiocb> cbs_;
  std::vector<IoUnit*> owner_;          // the unit each aiocb carries, by slot
  std::vector<std::size_t> free_;       // free aiocb slots, capacity depth_
  std::vector<std::size_t> in_flight_;  // slots submitted and not yet reaped
  std::vector<const aiocb*> suspend_list_;
  detail::CompletionRing ready_;  // errors at submit and synchronous trims, handed out first
};

}  // namespace

std::unique_ptr<Engine> make_posixaio_engine() { return std::make_unique<PosixaioEngine>(); }

}  // namespace sluice
