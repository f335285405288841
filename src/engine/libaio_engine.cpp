// libaio: Linux native AIO (io_setup / io_submit / io_getevents); meant for O_DIRECT, where submission does
// not block. Each IoUnit borrows an iocb from a pool of `depth` made in open(), so the hot path allocates
// nothing and costs one io_submit per submit() and one io_getevents per reap().
//
// fsync / fdatasync: IOCB_CMD_FSYNC is missing on many filesystems and older kernels, so (as fio does) a
// sync op is performed synchronously: the ios before it in the batch are submitted, every in-flight io is
// waited for (their completions are kept for reap()), then fsync(2) / fdatasync(2) runs. The sync thus
// covers every write issued before it. Trim is synchronous too (punch hole / BLKDISCARD).
#include <libaio.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "engine/completion_ring.h"
#include "engine/engines.h"
#include "engine/rw_flags.h"
#include "engine/sync_ops.h"

namespace sluice {
namespace {

// <linux/aio_abi.h>'s IOCB_FLAG_IOPRIO: aio_reqprio holds the io's priority. (That header's struct iocb clashes
// with libaio's, so the kernel ABI value is repeated here.)
constexpr unsigned kIocbFlagIoprio = 1u << 1;

// The kernel's completion ring behind an io_context_t (fs/aio.c's struct aio_ring): userspace_reap reads
// completions from it without a system call while there is no need to wait.
struct AioRingHeader {
  unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
};
constexpr unsigned kAioRingMagic = 0xa10a10a1;

class LibaioEngine final : public Engine {
 public:
  LibaioEngine(const LibaioOptions& options, const RwFlagOptions& rw_flags)
      : options_(options), flag_options_(rw_flags) {}
  ~LibaioEngine() override { close(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kLibaio); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kLibaio); }

  void open(const EngineSetup& setup) override {
    close();
    depth_ = setup.depth == 0 ? 1 : setup.depth;
    int rc = io_setup(static_cast<int>(depth_), &ctx_);
    if (rc < 0) {
      ctx_ = nullptr;
      throw IoError(std::string("libaio: io_setup(") + std::to_string(depth_) + ") failed: " + std::strerror(-rc) +
                        (rc == -EAGAIN ? " (raise /proc/sys/fs/aio-max-nr or lower iodepth)" : ""),
                    -rc);
    }
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    rw_flags_ = detail::fixed_rw_flags(flag_options_, setup.direct);
    write_rw_flags_ = detail::write_rw_flags(flag_options_);
    userspace_reap_ = options_.userspace_reap && reinterpret_cast<const AioRingHeader*>(ctx_)->magic == kAioRingMagic;
    iocbs_.assign(depth_, iocb{});
    free_.clear();
    for (iocb& cb : iocbs_) free_.push_back(&cb);
    pending_.assign(depth_, nullptr);
    events_.assign(depth_, io_event{});
    ready_.reset(2 * static_cast<std::size_t>(depth_));  // parked completions and synchronous ops
    in_flight_ = 0;
  }

  int submit(std::span<IoUnit* const> batch) override {
    std::size_t queued = 0;
    std::size_t accepted = 0;
    for (; accepted < batch.size(); ++accepted) {
      IoUnit& u = *batch[accepted];
      int fd = fds_[static_cast<std::size_t>(u.file_index)];
      if (u.op == IoOp::kRead || u.op == IoOp::kWrite) {
        if (free_.empty()) break;
        iocb* cb = free_.back();
        free_.pop_back();
        if (u.op == IoOp::kRead) {
          io_prep_pread(cb, fd, u.buffer, u.length, static_cast<long long>(u.offset));
        } else {
          io_prep_pwrite(cb, fd, u.buffer, u.length, static_cast<long long>(u.offset));
        }
        cb->aio_rw_flags = rw_flags_ | (u.op == IoOp::kWrite ? write_rw_flags_ : 0);  // nowait, uncached, atomic
        if (u.ioprio != 0) {  // cmdprio: this io's own priority (the thread's applies otherwise)
          cb->aio_reqprio = static_cast<short>(u.ioprio);
          cb->u.c.flags |= kIocbFlagIoprio;
        }
        cb->data = &u;
        pending_[queued++] = cb;
        continue;
      }
      if (ready_.free() <= in_flight_ + queued) break;  // keep room to park every completion we wait for
      if (std::size_t refused = flush(queued); refused > 0) return static_cast<int>(accepted - refused);
      queued = 0;
      if (u.op != IoOp::kTrim) drain();
      u.result = detail::sync_non_data(u, fd, is_block_[static_cast<std::size_t>(u.file_index)]);
      ready_.push(&u);
    }
    // ios io_submit refused (EAGAIN) are the last ones queued: they go back to the caller.
    return static_cast<int>(accepted - flush(queued));
  }

  int reap(unsigned min_events, std::span<IoUnit*> out) override {
    std::size_t got = ready_.pop_into(out);
    while (got < out.size() && in_flight_ > 0) {
      std::size_t want = out.size() - got;
      if (want > in_flight_) want = in_flight_;
      long min = got >= min_events ? 0 : static_cast<long>(min_events - got);
      if (min > static_cast<long>(want)) min = static_cast<long>(want);
      int n = userspace_reap_ && min == 0 ? ring_events(static_cast<unsigned>(want))
                                          : io_getevents(ctx_, min, static_cast<long>(want), events_.data(), nullptr);
      if (n == -EINTR) continue;
      if (n < 0) throw_getevents_error(n);
      if (n == 0) break;
      for (int i = 0; i < n; ++i) out[got++] = complete(events_[static_cast<std::size_t>(i)]);
      if (got >= min_events) break;
    }
    return static_cast<int>(got);
  }

  void close() noexcept override {
    if (ctx_ == nullptr) return;
    drain();
    io_destroy(ctx_);
    ctx_ = nullptr;
  }

 private:
  IoUnit* complete(const io_event& ev) noexcept {
    auto* cb = static_cast<iocb*>(ev.obj);
    auto* u = static_cast<IoUnit*>(cb->data);
    u->result = static_cast<long>(ev.res);  // negative errno arrives as an unsigned long
    free_.push_back(cb);
    --in_flight_;
    return u;
  }

  // userspace_reap: up to `max` completions copied from the kernel's ring into events_, as fio's
  // user_io_getevents (the tail is read with acquire order, the head published with release order).
  int ring_events(unsigned max) noexcept {
    auto* ring = reinterpret_cast<AioRingHeader*>(ctx_);
    const auto* events = reinterpret_cast<const io_event*>(reinterpret_cast<const char*>(ring) + sizeof(AioRingHeader));
    unsigned head = ring->head;
    unsigned n = 0;
    while (n < max && head != __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE)) {
      events_[n++] = events[head];
      head = (head + 1) % ring->nr;
    }
    __atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
    return static_cast<int>(n);
  }

  // io_getevents fails only when the context is unusable; the ios in flight would never be reported.
  [[noreturn]] static void throw_getevents_error(int rc) {
    throw IoError(std::string("libaio: io_getevents failed: ") + std::strerror(-rc), -rc);
  }

  // Submits pending_[0, count). Individual rejected iocbs complete with their -errno; returns how many of
  // the last ones the kernel refused (EAGAIN): those are not in flight and their iocbs are free again.
  [[nodiscard]] std::size_t flush(std::size_t count) noexcept {
    std::size_t done = 0;
    while (done < count) {
      int rc = io_submit(ctx_, static_cast<long>(count - done), pending_.data() + done);
      if (rc > 0) {
        in_flight_ += static_cast<std::size_t>(rc);
        done += static_cast<std::size_t>(rc);
      } else if (rc == -EINTR) {
        continue;
      } else if (rc == -EAGAIN || rc == 0) {
        for (std::size_t i = done; i < count; ++i) free_.push_back(pending_[i]);
        return count - done;
      } else {
        iocb* cb = pending_[done++];
        auto* u = static_cast<IoUnit*>(cb->data);
        u->result = rc;
        free_.push_back(cb);
        ready_.push(u);
      }
    }
    return 0;
  }

  // Waits for every in-flight io and parks the completions in ready_ (room is guaranteed by the callers).
  void drain() noexcept {
    while (in_flight_ > 0) {
      int n = io_getevents(ctx_, 1, static_cast<long>(in_flight_), events_.data(), nullptr);
      if (n == -EINTR) continue;
      if (n <= 0) return;
      for (int i = 0; i < n; ++i) {
        IoUnit* u = complete(events_[static_cast<std::size_t>(i)]);
        if (ready_.free() > 0) ready_.push(u);
      }
    }
  }

  io_context_t ctx_ = nullptr;
  std::uint32_t depth_ = 1;
  std::vector<int> fds_;
  LibaioOptions options_;
  RwFlagOptions flag_options_;
  std::vector<bool> is_block_;
  std::vector<iocb> iocbs_;
  std::vector<iocb*> free_;     // capacity depth_, never grows past it
  std::vector<iocb*> pending_;  // iocbs of the current submit() not yet given to io_submit
  std::vector<io_event> events_;
  detail::CompletionRing ready_;  // completions to hand out before asking the kernel
  std::size_t in_flight_ = 0;
  int rw_flags_ = 0;             // RWF_NOWAIT / RWF_DONTCACHE on every read and write
  int write_rw_flags_ = 0;       // RWF_ATOMIC on writes
  bool userspace_reap_ = false;  // the ring is read directly when reap() need not wait
};

}  // namespace

std::unique_ptr<Engine> make_libaio_engine(const LibaioOptions& options, const RwFlagOptions& rw_flags) {
  return std::make_unique<LibaioEngine>(options, rw_flags);
}

}  // namespace sluice
