// io_uring (liburing): a ring of `depth` entries; the job's files are registered (IOSQE_FIXED_FILE) and so
// are its buffers when the kernel allows (read_fixed / write_fixed for ios with buffer_index >= 0), unless
// registerfiles=0 / fixedbufs=0 turn either off. The options also select SQPOLL, IOPOLL (hipri), vectored ops and
// IOSQE_ASYNC. One io_uring_submit per submit(); reap waits with io_uring_wait_cqe_nr and takes completions in a batch.
// A submit the kernel refuses for now (EAGAIN, EBUSY) is retried after a completion; any other refusal
// throws IoError: entries the kernel will never take are not counted as in flight.
// user_data is the IoUnit pointer. Trim on a regular file is IORING_OP_FALLOCATE (punch hole); on a block
// device it is BLKDISCARD, performed synchronously (io_uring has no portable discard op), its completion
// parked until the next reap().
#include <fcntl.h>
#include <liburing.h>
#include <linux/falloc.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "engine/completion_ring.h"
#include "engine/engines.h"
#include "engine/rw_flags.h"
#include "engine/sync_ops.h"

namespace sluice {
namespace {

constexpr unsigned kSubmitRetries = 1000;  // EAGAIN / EBUSY retries of one submit, each after a completion or 1 ms

[[noreturn]] void throw_unavailable(int err) {
  throw UserError(std::string("io_uring is unavailable on this system (io_uring_queue_init: ") + std::strerror(err) +
                  "); use --ioengine=libaio instead");
}

// The ring's setup, from the engine's options (UringOptions, and RwFlagOptions' hipri: IOPOLL).
struct UringSetup {
  bool register_files = true;
  bool fixed_buffers = true;
  bool sqpoll = false;
  int sqpoll_cpu = -1;                  // -1 = the kernel places the SQ thread
  bool iopoll = false;                  // completions are polled (hipri); needs O_DIRECT and device poll queues
  bool vectored = false;                // READV/WRITEV with one iovec instead of READ/WRITE
  std::uint32_t force_async_every = 0;  // every Nth sqe gets IOSQE_ASYNC; 0 = never
};

UringSetup uring_setup_of(const UringOptions& options, const RwFlagOptions& rw_flags) {
  // The kernel takes RWF_ATOMIC from a plain user buffer only (a registered buffer's bvec fails with EINVAL),
  // so atomic writes go without registered buffers.
  return {.register_files = options.registerfiles,
          .fixed_buffers = options.fixedbufs && !rw_flags.atomic,
          .sqpoll = options.sqthread_poll,
          .sqpoll_cpu = options.sqthread_poll_cpu,
          .iopoll = rw_flags.hipri,
          .vectored = !options.nonvectored,
          .force_async_every = options.force_async};
}

class IoUringEngine final : public Engine {
 public:
  IoUringEngine(const UringOptions& options, const RwFlagOptions& rw_flags)
      : opt_(uring_setup_of(options, rw_flags)), flag_options_(rw_flags) {}
  ~IoUringEngine() override { close(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kIoUring); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kIoUring); }

  void open(const EngineSetup& setup) override {
    close();
    depth_ = setup.depth == 0 ? 1 : setup.depth;
    const UringSetup& opt = opt_;
    if (opt.iopoll && !setup.direct) {
      throw UserError("hipri (io_uring completion polling) needs direct=1: the kernel polls only O_DIRECT ios");
    }
    init_ring(opt);
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    vectored_ = opt.vectored;
    rw_flags_ = detail::fixed_rw_flags(flag_options_, setup.direct);  // nowait, uncached
    write_rw_flags_ = detail::write_rw_flags(flag_options_);          // atomic
    force_async_every_ = opt.force_async_every;
    until_async_ = force_async_every_;
    // Registration is an optimisation: when refused (old kernel, RLIMIT_MEMLOCK) ios use plain fds/buffers.
    fixed_files_ = opt.register_files && !fds_.empty() &&
                   io_uring_register_files(&ring_, fds_.data(), static_cast<unsigned>(fds_.size())) == 0;
    fixed_buffers_ = false;
    iovecs_.clear();
    for (const EngineBuffer& b : setup.buffers) iovecs_.push_back({b.data, b.length});
    if (opt.fixed_buffers && !iovecs_.empty()) {
      fixed_buffers_ = io_uring_register_buffers(&ring_, iovecs_.data(), static_cast<unsigned>(iovecs_.size())) == 0;
    }
    cqes_.assign(2 * static_cast<std::size_t>(depth_), nullptr);
    ready_.reset(2 * static_cast<std::size_t>(depth_));  // block-device trims and completions parked by submit()
    in_flight_ = 0;
    if (opt.iopoll) probe_iopoll(setup);
  }

  int submit(std::span<IoUnit* const> batch) override {
    if (!enabled_) enable();
    std::size_t accepted = 0;
    unsigned prepared = 0;
    for (; accepted < batch.size(); ++accepted) {
      IoUnit& u = *batch[accepted];
      auto file = static_cast<std::size_t>(u.file_index);
      if (u.op == IoOp::kTrim && is_block_[file]) {
        if (ready_.free() == 0) break;
        u.result = detail::sync_trim(fds_[file], true, u.offset, u.length);
        ready_.push(&u);
        continue;
      }
      if (in_flight_ + prepared >= depth_) break;  // the CQ ring must never overflow
      io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
      if (sqe == nullptr) break;
      prepare(sqe, u);
      ++prepared;
    }
    if (prepared > 0) submit_prepared(prepared);
    return static_cast<int>(accepted);
  }

  int reap(unsigned min_events, std::span<IoUnit*> out) override {
    std::size_t got = ready_.pop_into(out);
    if (got >= out.size() || in_flight_ == 0) return static_cast<int>(got);
    unsigned want = got >= min_events ? 0 : min_events - static_cast<unsigned>(got);
    if (want > in_flight_) want = static_cast<unsigned>(in_flight_);
    if (want == 0 && defer_taskrun_ && io_uring_cq_ready(&ring_) == 0 &&
        (IO_URING_READ_ONCE(*ring_.sq.kflags) & IORING_SQ_TASKRUN) != 0) {
      io_uring_get_events(&ring_);  // completions are waiting as deferred task work: post them
    }
    if (want > 0 || io_uring_sq_ready(&ring_) > 0) wait_for(want);
    std::size_t room = out.size() - got;
    if (room > cqes_.size()) room = cqes_.size();
    unsigned n = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(room));
    for (unsigned i = 0; i < n; ++i) out[got++] = complete(*cqes_[i]);
    io_uring_cq_advance(&ring_, n);
    in_flight_ -= n;
    return static_cast<int>(got);
  }

  void close() noexcept override {
    if (!ring_ready_) return;
    while (in_flight_ > 0) {
      io_uring_cqe* cqe = nullptr;
      int rc = io_uring_sq_ready(&ring_) > 0 ? io_uring_submit_and_wait(&ring_, 1) : io_uring_wait_cqe(&ring_, &cqe);
      if (rc < 0 && rc != -EINTR) break;
      unsigned n = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(cqes_.size()));
      for (unsigned i = 0; i < n; ++i) complete(*cqes_[i]);
      io_uring_cq_advance(&ring_, n);
      in_flight_ -= n;
    }
    io_uring_queue_exit(&ring_);
    ring_ready_ = false;
  }

 private:
  void init_ring(const UringSetup& opt) {
    io_uring_params params{};
    if (opt.sqpoll) {
      params.flags |= IORING_SETUP_SQPOLL;
      params.sq_thread_idle = 1000;  // ms the kernel thread keeps polling after the queue runs dry
      if (opt.sqpoll_cpu >= 0) {
        params.flags |= IORING_SETUP_SQ_AFF;
        params.sq_thread_cpu = static_cast<__u32>(opt.sqpoll_cpu);
      }
    }
    if (opt.iopoll) params.flags |= IORING_SETUP_IOPOLL;
    // Completions run as task work. By default the kernel interrupts the task (an IPI, costly in a VM) to
    // post each one; DEFER_TASKRUN posts them in one batch when the task next waits for completions, as
    // fio's io_uring engine does since 3.32. It needs a single issuer: the ring starts disabled and the
    // thread that first submits enables it (open() runs on the runner's thread, the ios on the worker's).
    const unsigned base = params.flags;
    defer_taskrun_ = !opt.sqpoll && !opt.iopoll;
    if (defer_taskrun_) {
      params.flags = base | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED |
                     IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
    }
    int rc = io_uring_queue_init_params(depth_, &ring_, &params);
    if (rc == -EINVAL && defer_taskrun_) {  // before Linux 6.1
      defer_taskrun_ = false;
      params = io_uring_params{};
      params.flags = base;
      rc = io_uring_queue_init_params(depth_, &ring_, &params);
    }
    enabled_ = !defer_taskrun_;
    if (rc < 0 && (opt.sqpoll || opt.iopoll)) {
      throw UserError(
          std::string("io_uring refused ") +
          (opt.sqpoll ? "sqthread_poll (IORING_SETUP_SQPOLL" : "hipri (IORING_SETUP_IOPOLL") +
          (opt.sqpoll && opt.sqpoll_cpu >= 0 ? " on cpu " + std::to_string(opt.sqpoll_cpu) : std::string()) +
          "): " + std::strerror(-rc) + (rc == -EPERM ? " (this kernel needs root for SQPOLL)" : ""));
    }
    if (rc < 0) throw_unavailable(-rc);
    ring_ready_ = true;
  }

  // Hands the prepared sqes to the kernel; they count as in flight once it took them or may still take them.
  // EAGAIN (no memory for requests now) and EBUSY (completions to reap first) are transient: waiting for a
  // completion frees what the kernel lacks, and the call is retried. Any other error means the ring cannot
  // be used: IoError, so the job fails with the reason instead of waiting for completions that never come.
  void submit_prepared(unsigned prepared) {
    for (unsigned attempt = 0;;) {
      const int rc = io_uring_submit(&ring_);
      // rc >= 0: the kernel took rc sqes; any it did not take stay in the SQ ring and go with the next
      // io_uring_enter (reap() submits what is left before it waits).
      if (rc >= 0) break;
      if (rc == -EINTR) continue;
      if ((rc == -EAGAIN || rc == -EBUSY) && ++attempt <= kSubmitRetries) {
        park_completion(prepared);
        continue;
      }
      throw IoError(std::string("io_uring: io_uring_enter refused ") + std::to_string(prepared) +
                        " submissions: " + std::strerror(-rc) +
                        (rc == -EAGAIN || rc == -EBUSY ? " (still after " + std::to_string(kSubmitRetries) + " retries)"
                                                       : std::string()),
                    -rc);
    }
    in_flight_ += prepared;
  }

  // Waits for one completion of an io the kernel already has and keeps it (and any others ready) in ready_
  // for the next reap(); with nothing in the kernel, waits a moment instead. `prepared`: the sqes of the
  // current submit(), still in the SQ ring and not yet counted in in_flight_.
  void park_completion(unsigned prepared) {
    const std::size_t unsent = io_uring_sq_ready(&ring_);
    const std::size_t unsent_counted = unsent > prepared ? unsent - prepared : 0;  // left by an earlier submit()
    const std::size_t in_kernel = in_flight_ > unsent_counted ? in_flight_ - unsent_counted : 0;
    if (in_kernel == 0 || ready_.free() == 0) {
      const timespec pause{0, 1'000'000};
      nanosleep(&pause, nullptr);
      return;
    }
    io_uring_cqe* cqe = nullptr;
    const int rc = io_uring_wait_cqe(&ring_, &cqe);
    if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) throw_enter_error("waiting for completions", rc);
    const std::size_t room = std::min(ready_.free(), cqes_.size());
    const unsigned n = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(room));
    for (unsigned i = 0; i < n; ++i) ready_.push(complete(*cqes_[i]));
    io_uring_cq_advance(&ring_, n);
    in_flight_ -= n;
  }

  // Submits what is left in the SQ ring and waits until `want` completions are ready. EINTR retries; EAGAIN
  // and EBUSY return (reap() hands out what is there and the next call tries again); anything else throws.
  void wait_for(unsigned want) {
    int rc;
    do {
      io_uring_cqe* cqe = nullptr;
      rc = io_uring_sq_ready(&ring_) > 0 ? io_uring_submit_and_wait(&ring_, want)
                                         : io_uring_wait_cqe_nr(&ring_, &cqe, want);
    } while (rc == -EINTR);
    if (rc < 0 && rc != -EAGAIN && rc != -EBUSY) throw_enter_error("waiting for completions", rc);
  }

  [[noreturn]] static void throw_enter_error(const char* what, int rc) {
    throw IoError(std::string("io_uring: io_uring_enter failed ") + what + ": " + std::strerror(-rc), -rc);
  }

  void enable() {
    // liburing 2.3 declares io_uring_enable_rings() but does not export it: the register call itself.
    if (syscall(__NR_io_uring_register, ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0) < 0) {
      const int err = errno;
      throw IoError(std::string("io_uring: cannot enable the ring: ") + std::strerror(err), err);
    }
    enabled_ = true;
  }

  // IOPOLL on a file whose device has no poll queues fails every io with EOPNOTSUPP; one read at offset 0
  // (of the first file, into the first buffer) finds out before the run starts, so the message can say why.
  void probe_iopoll(const EngineSetup& setup) {
    if (fds_.empty() || setup.buffers.empty()) return;
    IoUnit probe;
    probe.op = IoOp::kRead;
    probe.length = static_cast<std::uint32_t>(std::min<std::size_t>(setup.buffers[0].length, 4096));
    probe.buffer = setup.buffers[0].data;
    probe.buffer_index = 0;
    IoUnit* batch[] = {&probe};
    if (submit(batch) != 1) throw IoError("hipri: the ring did not accept the probe read", EIO);
    IoUnit* done[1] = {};
    while (reap(1, done) == 0) {
    }
    if (probe.result == -EOPNOTSUPP || probe.result == -EINVAL) {
      throw UserError(std::string("hipri: the device does not support polled io (") +
                      std::strerror(static_cast<int>(-probe.result)) +
                      "); it needs poll queues, e.g. NVMe with the nvme module's poll_queues > 0");
    }
  }

  void prepare(io_uring_sqe* sqe, IoUnit& u) noexcept {
    int fd = fixed_files_ ? u.file_index : fds_[static_cast<std::size_t>(u.file_index)];
    bool fixed_buffer = fixed_buffers_ && u.buffer_index >= 0;
    auto offset = static_cast<__u64>(u.offset);
    switch (u.op) {
      case IoOp::kRead:
        if (fixed_buffer) {
          io_uring_prep_read_fixed(sqe, fd, u.buffer, u.length, offset, u.buffer_index);
        } else if (vectored_ && u.buffer_index >= 0) {
          io_uring_prep_readv(sqe, fd, vector_of(u), 1, offset);
        } else {
          io_uring_prep_read(sqe, fd, u.buffer, u.length, offset);
        }
        break;
      case IoOp::kWrite:
        if (fixed_buffer) {
          io_uring_prep_write_fixed(sqe, fd, u.buffer, u.length, offset, u.buffer_index);
        } else if (vectored_ && u.buffer_index >= 0) {
          io_uring_prep_writev(sqe, fd, vector_of(u), 1, offset);
        } else {
          io_uring_prep_write(sqe, fd, u.buffer, u.length, offset);
        }
        break;
      case IoOp::kTrim:
        io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, u.length);
        break;
      case IoOp::kFsync:
      case IoOp::kFdatasync:
        io_uring_prep_fsync(sqe, fd, u.op == IoOp::kFdatasync ? IORING_FSYNC_DATASYNC : 0);
        break;
      case IoOp::kSyncRange:
        io_uring_prep_sync_file_range(sqe, fd, u.length, offset, u.range_flags);
        break;
    }
    // The io's priority (cmdprio, or the job's prio/prioclass: an SQPOLL thread does not inherit the
    // submitter's, so it goes with every read and write as in fio); syncs and trims take none.
    if (u.op == IoOp::kRead || u.op == IoOp::kWrite) {
      sqe->ioprio = u.ioprio;
      sqe->rw_flags |= rw_flags_ | (u.op == IoOp::kWrite ? write_rw_flags_ : 0);
    }
    if (fixed_files_) sqe->flags |= IOSQE_FIXED_FILE;
    if (force_async_every_ != 0 && --until_async_ == 0) {
      sqe->flags |= IOSQE_ASYNC;
      until_async_ = force_async_every_;
    }
    io_uring_sqe_set_data(sqe, &u);
  }

  // The unit's iovec (one per buffer, set up in open()), trimmed to this io's length.
  iovec* vector_of(const IoUnit& u) noexcept {
    iovec& v = iovecs_[static_cast<std::size_t>(u.buffer_index)];
    v.iov_base = u.buffer;
    v.iov_len = u.length;
    return &v;
  }

  static IoUnit* complete(const io_uring_cqe& cqe) noexcept {
    auto* u = static_cast<IoUnit*>(io_uring_cqe_get_data(&cqe));
    bool moves_data = u->op == IoOp::kRead || u->op == IoOp::kWrite;
    // Trim and sync ops complete with 0; report their length, as the synchronous engines do.
    u->result = (cqe.res < 0 || moves_data) ? cqe.res : static_cast<std::int64_t>(u->length);
    return u;
  }

  io_uring ring_{};
  UringSetup opt_;
  RwFlagOptions flag_options_;
  bool ring_ready_ = false;
  unsigned depth_ = 1;
  bool fixed_files_ = false;
  bool fixed_buffers_ = false;
  int rw_flags_ = 0;            // RWF_NOWAIT / RWF_DONTCACHE on every read and write
  int write_rw_flags_ = 0;      // RWF_ATOMIC on writes
  bool defer_taskrun_ = false;  // SINGLE_ISSUER | DEFER_TASKRUN, enabled by the first submit()
  bool enabled_ = true;
  bool vectored_ = false;
  std::uint32_t force_async_every_ = 0;
  std::uint32_t until_async_ = 0;
  std::vector<iovec> iovecs_;  // one per buffer: registered buffers, and readv/writev's vectors
  std::vector<int> fds_;
  std::vector<bool> is_block_;
  std::vector<io_uring_cqe*> cqes_;
  detail::CompletionRing ready_;  // synchronous block-device trims and parked completions, handed out first
  std::size_t in_flight_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_io_uring_engine(const UringOptions& options, const RwFlagOptions& rw_flags) {
  return std::make_unique<IoUringEngine>(options, rw_flags);
}

void probe_io_uring() {
  io_uring ring{};
  int rc = io_uring_queue_init(1, &ring, 0);
  if (rc < 0) throw_unavailable(-rc);
  io_uring_queue_exit(&ring);
}

}  // namespace sluice
