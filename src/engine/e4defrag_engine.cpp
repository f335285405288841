// e4defrag: simulated ext4 defragmentation, as fio's e4defrag engine. Each write moves the blocks under its
// range of the file onto blocks of a donor file (EXT4_IOC_MOVE_EXT: ext4 copies the data into the donor's
// blocks and swaps the two files' extents, so the file's contents stay the same and its layout changes).
// The donor is created if missing (never truncated) and, without inplace, fallocated over the job's range
// at open; with inplace each write fallocates the donor's range first and truncates the donor to 0 after.
// A range ext4 refuses with EBUSY (its page cache holds dirty pages of an earlier move) is written back and
// moved again. Writes only: reads and syncs fail with EINVAL (as fio; validation refuses such jobs first), trims with
// EOPNOTSUPP. A move shorter than the io counts as a short write. Performed inside submit().
#include <fcntl.h>
#include <linux/types.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "common/error.h"
#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

// ext4's ioctl (fs/ext4/ext4.h; not exported to user space headers).
struct MoveExtent {
  __u32 reserved;  // zero
  __u32 donor_fd;
  __u64 orig_start;   // in blocks
  __u64 donor_start;  // in blocks
  __u64 len;          // in blocks
  __u64 moved_len;    // out: blocks moved
};
constexpr unsigned long kExt4MoveExtent = _IOWR('f', 15, MoveExtent);

class E4defragEngine final : public detail::SynchronousEngine<E4defragEngine> {
  friend class detail::SynchronousEngine<E4defragEngine>;

 public:
  explicit E4defragEngine(const E4defragOptions& options) : options_(options) {}
  ~E4defragEngine() override { close_donor(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kE4defrag); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kE4defrag); }

  void open(const EngineSetup& setup) override {
    fds_ = setup.fds;
    inplace_ = options_.inplace;
    close_donor();
    // As fio: the donor is donorname under directory=, fallocated from the job's offset to its largest file's end.
    const std::string& donor = options_.donorname;
    const std::string path = donor.empty() || setup.directory.empty() ? donor : setup.directory + "/" + donor;
    const std::uint64_t start = setup.file_starts.empty() ? 0 : setup.file_starts.front();
    std::uint64_t end = 0;
    for (std::uint64_t size : setup.file_sizes) end = std::max(end, size);
    reset_completions(setup.depth);
    if (path.empty()) return;  // no donor (validation requires donorname): every write fails with EBADF
    donor_ = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (donor_ < 0) throw IoError("e4defrag: cannot open the donor file " + path, errno);
    if (!inplace_ && end > start &&
        fallocate(donor_, 0, static_cast<off_t>(start), static_cast<off_t>(end - start)) != 0) {
      const int error = errno;
      close_donor();
      throw IoError("e4defrag: cannot allocate the donor file " + path, error);
    }
    struct stat st {};
    if (fstat(donor_, &st) != 0) throw IoError("e4defrag: cannot stat the donor file " + path, errno);
    block_ = static_cast<std::uint64_t>(st.st_blksize);
  }

  void close() noexcept override { close_donor(); }

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    if (u.op == IoOp::kTrim) return -EOPNOTSUPP;
    if (u.op != IoOp::kWrite) return -EINVAL;
    if (donor_ < 0) return -EBADF;
    if (inplace_ && fallocate(donor_, 0, static_cast<off_t>(u.offset), static_cast<off_t>(u.length)) != 0) {
      return -errno;
    }
    MoveExtent move{};
    move.donor_fd = static_cast<__u32>(donor_);
    move.orig_start = u.offset / block_;
    move.donor_start = move.orig_start;
    move.len = (u.offset + u.length + block_ - 1) / block_ - move.orig_start;
    const int fd = fds_[static_cast<std::size_t>(u.file_index)];
    int rc = ioctl(fd, kExt4MoveExtent, &move);
    if (rc != 0 && errno == EBUSY) {
      // The range's page cache still holds dirty pages (of an earlier move): ext4 cannot move them until
      // they are written back. Write the range back and move it again, as e2fsprogs' e4defrag flushes each
      // range before moving it; the flush is part of this io's time.
      if (sync_file_range(fd, static_cast<off_t>(u.offset), static_cast<off_t>(u.length),
                          SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) == 0) {
        move.moved_len = 0;
        rc = ioctl(fd, kExt4MoveExtent, &move);
      }
    }
    const int error = rc != 0 ? errno : 0;
    if (inplace_ && ftruncate(donor_, 0) != 0 && error == 0) return -errno;
    if (error != 0) return -error;
    const std::uint64_t moved = std::min<std::uint64_t>(move.moved_len * block_, u.length);
    return moved == 0 ? -EINVAL : static_cast<std::int64_t>(moved);  // nothing moved: past the end of the file
  }

  void close_donor() noexcept {
    if (donor_ >= 0) ::close(donor_);
    donor_ = -1;
  }

  E4defragOptions options_;
  std::vector<int> fds_;
  bool inplace_ = false;
  int donor_ = -1;
  std::uint64_t block_ = 4096;
};

}  // namespace

std::unique_ptr<Engine> make_e4defrag_engine(const E4defragOptions& options) {
  return std::make_unique<E4defragEngine>(options);
}

}  // namespace sluice
