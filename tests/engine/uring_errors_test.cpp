// io_uring when the kernel refuses io_uring_enter itself (not one io): the engine must say so with an
// IoError, not count the entries as in flight and wait for completions that never come. The ring is broken
// on purpose by putting /dev/null on its file descriptor after a first io went through. File #1 is an empty
// pipe: a read of it stays in the kernel until data comes, so its completion cannot be waiting already.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "engine/engine.h"
#include "engine_test_util.h"

namespace sluice {
namespace {

constexpr std::uint32_t kErrorsBlock = 4096;

std::set<int> uring_fds() {
  std::set<int> fds;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (std::filesystem::read_symlink(entry.path(), ec).string() == "anon_inode:[io_uring]" && !ec) {
      fds.insert(std::stoi(entry.path().filename().string()));
    }
  }
  return fds;
}

class UringErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!engine_available(EngineKind::kIoUring)) GTEST_SKIP() << "io_uring is refused here";
    bool direct = false;
    fd_ = testing::open_test_file(dir_.file("data"), O_RDWR, direct);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(ftruncate(fd_, 16 * kErrorsBlock), 0);
    ASSERT_EQ(pipe2(pipe_, O_CLOEXEC), 0);
    const std::set<int> before = uring_fds();
    engine_ = make_engine(EngineKind::kIoUring);
    engine_->open(EngineSetup{.depth = 4, .fds = {fd_, pipe_[0]}, .file_sizes = {16 * kErrorsBlock, 0}});
    for (int fd : uring_fds()) {
      if (!before.count(fd)) ring_fd_ = fd;
    }
    ASSERT_GE(ring_fd_, 0);
    // One io through the working ring (this also enables it, so the next failure is io_uring_enter's).
    IoUnit unit{.op = IoOp::kRead, .length = kErrorsBlock, .buffer = buf_.get()};
    IoUnit* batch[] = {&unit};
    ASSERT_EQ(engine_->submit(batch), 1);
    IoUnit* out[1] = {};
    ASSERT_EQ(engine_->reap(1, out), 1);
    ASSERT_EQ(unit.result, kErrorsBlock);
  }
  void TearDown() override {
    engine_.reset();
    if (fd_ >= 0) ::close(fd_);
    for (int p : pipe_) {
      if (p >= 0) ::close(p);
    }
  }

  // Replaces the ring's descriptor with /dev/null: every io_uring_enter on it now fails.
  void break_ring() {
    const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    ASSERT_GE(null_fd, 0);
    ASSERT_EQ(dup2(null_fd, ring_fd_), ring_fd_);
    ::close(null_fd);
  }

  testing::TempDir dir_;
  int fd_ = -1;
  int ring_fd_ = -1;
  int pipe_[2] = {-1, -1};
  std::unique_ptr<char, FreeDeleter> buf_ = testing::aligned_buffer(4 * kErrorsBlock);
  std::unique_ptr<Engine> engine_;
};

TEST_F(UringErrorsTest, SubmitTheKernelRefusesThrowsIoError) {
  ASSERT_NO_FATAL_FAILURE(break_ring());
  IoUnit unit{.op = IoOp::kRead, .length = kErrorsBlock, .buffer = buf_.get()};
  IoUnit* batch[] = {&unit};
  EXPECT_THROW((void)engine_->submit(batch), IoError);
}

TEST_F(UringErrorsTest, WaitTheKernelRefusesThrowsIoError) {
  IoUnit unit{.op = IoOp::kRead, .file_index = 1, .length = kErrorsBlock, .buffer = buf_.get()};  // the empty pipe
  IoUnit* batch[] = {&unit};
  ASSERT_EQ(engine_->submit(batch), 1);
  ASSERT_NO_FATAL_FAILURE(break_ring());
  IoUnit* out[1] = {};
  // Not "0 completions" with the io still counted in flight: the caller would wait for it forever.
  EXPECT_THROW((void)engine_->reap(1, out), IoError);
}

}  // namespace
}  // namespace sluice
