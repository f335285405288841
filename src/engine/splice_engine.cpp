// splice: data moves between the file and the io buffer through a pipe, as fio's splice engine. A read
// splices up to 64 KiB of the file into the pipe (splice(2) at the io's offset) and vmsplices it out into the
// buffer, piece by piece; a write vmsplices the buffer into the pipe and splices the pipe to the file at the
// io's offset. Performed inside submit(), one io at a time (fio's FIO_SYNCIO). Trims and syncs as psync.
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

#include "common/error.h"
#include "engine/engines.h"
#include "engine/sync_ops.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

// fio's SPLICE_DEF_SIZE: the most one splice moves (a default pipe holds 16 pages).
constexpr std::size_t kSplicePiece = 64 * 1024;

class SpliceEngine final : public detail::SynchronousEngine<SpliceEngine> {
  friend class detail::SynchronousEngine<SpliceEngine>;

 public:
  ~SpliceEngine() override { close_pipe(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kSplice); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kSplice); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    is_block_ = detail::block_device_flags(fds_);
    close_pipe();
    if (pipe2(pipe_, O_CLOEXEC) != 0) throw IoError("splice: cannot create its pipe", errno);
    reset_completions(setup.depth);
  }

  void close() noexcept override { close_pipe(); }

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    const int fd = fds_[static_cast<std::size_t>(u.file_index)];
    if (u.op == IoOp::kRead) return read(fd, u);
    if (u.op == IoOp::kWrite) return write(fd, u);
    return detail::sync_non_data(u, fd, is_block_[static_cast<std::size_t>(u.file_index)]);
  }

  // File -> pipe -> buffer. A short count at the end of the file, as a read would return.
  std::int64_t read(int fd, const IoUnit& u) noexcept {
    auto offset = static_cast<loff_t>(u.offset);
    auto* out = static_cast<unsigned char*>(u.buffer);
    std::size_t done = 0;
    while (done < u.length) {
      const std::size_t piece = std::min(kSplicePiece, u.length - done);
      const ssize_t in = splice(fd, &offset, pipe_[1], nullptr, piece, piece < u.length - done ? SPLICE_F_MORE : 0);
      if (in < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (in < 0) return -errno;
      if (in == 0) break;  // end of file
      for (std::size_t left = static_cast<std::size_t>(in); left > 0;) {
        iovec into{out + done, left};
        const ssize_t moved = vmsplice(pipe_[0], &into, 1, 0);
        if (moved < 0 && errno == EINTR) continue;
        if (moved <= 0) return drain_pipe(moved < 0 ? -errno : -EIO);
        done += static_cast<std::size_t>(moved);
        left -= static_cast<std::size_t>(moved);
      }
    }
    return static_cast<std::int64_t>(done);
  }

  // Buffer -> pipe -> file.
  std::int64_t write(int fd, const IoUnit& u) noexcept {
    auto offset = static_cast<loff_t>(u.offset);
    const auto* in = static_cast<const unsigned char*>(u.buffer);
    std::size_t done = 0;
    while (done < u.length) {
      iovec from{const_cast<unsigned char*>(in + done), std::min(kSplicePiece, u.length - done)};
      const ssize_t queued = vmsplice(pipe_[1], &from, 1, 0);
      if (queued < 0 && errno == EINTR) continue;
      if (queued <= 0) return queued < 0 ? -errno : -EIO;
      for (std::size_t left = static_cast<std::size_t>(queued); left > 0;) {
        const ssize_t out = splice(pipe_[0], nullptr, fd, &offset, left, 0);
        if (out < 0 && errno == EINTR) continue;
        if (out <= 0) return drain_pipe(out < 0 ? -errno : -EIO);
        left -= static_cast<std::size_t>(out);
      }
      done += static_cast<std::size_t>(queued);
    }
    return static_cast<std::int64_t>(done);
  }

  // After a failed io the pipe may hold bytes that belong to no io: read them away so the next io starts
  // empty. Returns `error`.
  std::int64_t drain_pipe(std::int64_t error) noexcept {
    const int flags = fcntl(pipe_[0], F_GETFL);
    fcntl(pipe_[0], F_SETFL, flags | O_NONBLOCK);
    unsigned char sink[4096];
    while (::read(pipe_[0], sink, sizeof sink) > 0) {
    }
    fcntl(pipe_[0], F_SETFL, flags);
    return error;
  }

  void close_pipe() noexcept {
    for (int& end : pipe_) {
      if (end >= 0) ::close(end);
      end = -1;
    }
  }

  std::vector<int> fds_;
  std::vector<bool> is_block_;
  int pipe_[2] = {-1, -1};
};

}  // namespace

std::unique_ptr<Engine> make_splice_engine() { return std::make_unique<SpliceEngine>(); }

}  // namespace sluice
