// Trim on a block device (BLKDISCARD path) through every engine that supports it, on a loop device this
// test attaches itself. Needs root and losetup.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>

#include "engine/engine.h"
#include "engine_test_util.h"

namespace sluice {
namespace {

int run(const std::string& command, std::string* output = nullptr) {
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::string text;
  std::array<char, 256> chunk{};
  while (fgets(chunk.data(), chunk.size(), pipe) != nullptr) text += chunk.data();
  int status = pclose(pipe);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (output != nullptr) *output = text;
  return status;
}

class BlockTrim : public ::testing::TestWithParam<EngineKind> {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to attach loop devices";
    if (run("command -v losetup") != 0) GTEST_SKIP() << "losetup is not installed";
    std::string image = dir_.file("disk.img");
    int fd = ::open(image.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, 16 << 20), 0);
    ::close(fd);
    if (run("losetup --find --show " + image, &device_) != 0 || device_.empty()) {
      device_.clear();
      GTEST_SKIP() << "losetup could not attach a loop device";
    }
  }
  void TearDown() override {
    if (!device_.empty()) run("losetup -d " + device_);
  }

  testing::TempDir dir_;
  std::string device_;
};

TEST_P(BlockTrim, DiscardedRangeReadsBackAsZeros) {
  int fd = ::open(device_.c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0);
  auto buf = testing::aligned_buffer(1 << 20);
  std::fill(buf.get(), buf.get() + (1 << 20), 'z');
  ASSERT_EQ(pwrite(fd, buf.get(), 1 << 20, 0), 1 << 20);
  std::unique_ptr<Engine> engine;
  try {
    engine = make_engine(GetParam());
    engine->open({.depth = 2, .fds = {fd}, .direct = true, .writes = true});
  } catch (const UserError& e) {
    ::close(fd);
    GTEST_SKIP() << e.what();
  }
  std::vector<IoUnit> units = {{.op = IoOp::kTrim, .offset = 0, .length = 1 << 20}};
  ASSERT_EQ(testing::run_all(*engine, units, 2).size(), 1u);
  if (units[0].result == -EOPNOTSUPP) GTEST_SKIP() << "loop device does not support discard";
  EXPECT_EQ(units[0].result, 1 << 20);
  ASSERT_EQ(pread(fd, buf.get(), 1 << 20, 0), 1 << 20);
  EXPECT_EQ(std::count(buf.get(), buf.get() + (1 << 20), 0), 1 << 20);
  engine->close();
  ::close(fd);
}

INSTANTIATE_TEST_SUITE_P(Engines, BlockTrim,
                         ::testing::Values(EngineKind::kPsync, EngineKind::kSync, EngineKind::kLibaio,
                                           EngineKind::kIoUring));

}  // namespace
}  // namespace sluice
