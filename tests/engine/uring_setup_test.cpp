// io_uring ring setup options (fio's registerfiles, fixedbufs, sqthread_poll[_cpu], hipri, nonvectored,
// force_async) against a file in a temporary directory: each configuration moves the right bytes, and the
// registration toggles show in the ring's /proc fdinfo.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/engine.h"
#include "engine_test_util.h"

namespace sluice {
namespace {

constexpr std::uint32_t kSetupBlock = 4096;
constexpr std::size_t kSetupBlocks = 32;

struct Config {
  const char* name;
  EngineOptions engine;  // io_uring's own options (ioengine is set by open())
};

// The fdinfo text of this process's (only) io_uring ring; "" if none is open.
std::string ring_fdinfo() {
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const auto target = std::filesystem::read_symlink(entry.path(), ec);
    if (ec || target.string() != "anon_inode:[io_uring]") continue;
    std::ifstream in("/proc/self/fdinfo/" + entry.path().filename().string());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  return "";
}

// The number after "key:" in fdinfo, or -1.
long fdinfo_value(const std::string& info, const std::string& key) {
  const std::size_t at = info.find("\n" + key + ":");
  if (at == std::string::npos) return -1;
  return std::strtol(info.c_str() + at + key.size() + 2, nullptr, 10);
}

class UringSetupTest : public ::testing::TestWithParam<Config> {
 protected:
  void SetUp() override {
    direct_ = true;
    fd_ = testing::open_test_file(dir_.file("data"), O_RDWR, direct_);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(ftruncate(fd_, kSetupBlocks * kSetupBlock), 0);
    wbuf_ = testing::aligned_buffer(kSetupBlocks * kSetupBlock);
    rbuf_ = testing::aligned_buffer(kSetupBlocks * kSetupBlock);
    for (std::size_t i = 0; i < kSetupBlocks * kSetupBlock; ++i) wbuf_.get()[i] = static_cast<char>(i * 7 + (i >> 12));
  }
  void TearDown() override { ::close(fd_); }

  // Opens io_uring with `options`; nullptr (with the reason in skip_) when the kernel refuses the setup.
  std::unique_ptr<Engine> open(EngineOptions options) {
    EngineSetup setup{
        .depth = 8, .fds = {fd_}, .file_sizes = {kSetupBlocks * kSetupBlock}, .direct = direct_, .writes = true};
    for (std::size_t i = 0; i < kSetupBlocks; ++i)
      setup.buffers.push_back({wbuf_.get() + i * kSetupBlock, kSetupBlock});
    options.ioengine = EngineKind::kIoUring;
    auto engine = make_engine(options);
    try {
      engine->open(setup);
    } catch (const UserError& e) {
      skip_ = e.what();
      return nullptr;
    }
    return engine;
  }

  testing::TempDir dir_;
  bool direct_ = true;
  int fd_ = -1;
  std::unique_ptr<char, FreeDeleter> wbuf_, rbuf_;
  std::string skip_;
};

TEST_P(UringSetupTest, WritesThenReadsBackTheData) {
  auto engine = open(GetParam().engine);
  if (!engine) GTEST_SKIP() << "the kernel refused this io_uring setup: " << skip_;
  std::vector<IoUnit> writes(kSetupBlocks), reads(kSetupBlocks);
  for (std::size_t i = 0; i < kSetupBlocks; ++i) {
    writes[i] = {.op = IoOp::kWrite,
                 .offset = i * kSetupBlock,
                 .length = kSetupBlock,
                 .buffer = wbuf_.get() + i * kSetupBlock,
                 .buffer_index = static_cast<int>(i)};
    // Reads go to a buffer that is not registered: buffer_index -1 (plain READ / READV).
    reads[i] = {
        .op = IoOp::kRead, .offset = i * kSetupBlock, .length = kSetupBlock, .buffer = rbuf_.get() + i * kSetupBlock};
  }
  ASSERT_EQ(testing::run_all(*engine, writes, 8).size(), kSetupBlocks);
  ASSERT_EQ(testing::run_all(*engine, reads, 8).size(), kSetupBlocks);
  for (std::size_t i = 0; i < kSetupBlocks; ++i) {
    ASSERT_EQ(writes[i].result, kSetupBlock) << i;
    ASSERT_EQ(reads[i].result, kSetupBlock) << i;
  }
  EXPECT_EQ(std::memcmp(wbuf_.get(), rbuf_.get(), kSetupBlocks * kSetupBlock), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Configs, UringSetupTest,
    ::testing::Values(Config{"defaults", {}}, Config{"no_registered_files", {.uring = {.registerfiles = false}}},
                      Config{"no_fixed_buffers", {.uring = {.fixedbufs = false}}},
                      Config{"fio_defaults",
                             {.uring = {.registerfiles = false, .fixedbufs = false, .nonvectored = false}}},
                      Config{"vectored", {.uring = {.fixedbufs = false, .nonvectored = false}}},
                      Config{"force_async_every_io", {.uring = {.force_async = 1}}},
                      Config{"force_async_every_third", {.uring = {.force_async = 3}}},
                      Config{"sqthread_poll", {.uring = {.sqthread_poll = true}}},
                      Config{"sqthread_poll_cpu0", {.uring = {.sqthread_poll = true, .sqthread_poll_cpu = 0}}}),
    [](const ::testing::TestParamInfo<Config>& config) { return std::string(config.param.name); });

TEST_F(UringSetupTest, RegistersFilesAndBuffersByDefault) {
  auto engine = open({});
  if (!engine) GTEST_SKIP() << "io_uring is unavailable: " << skip_;
  const std::string info = ring_fdinfo();
  if (fdinfo_value(info, "UserFiles") < 0) GTEST_SKIP() << "this kernel's io_uring fdinfo lists no UserFiles";
  EXPECT_EQ(fdinfo_value(info, "UserFiles"), 1) << info;
  EXPECT_EQ(fdinfo_value(info, "UserBufs"), static_cast<long>(kSetupBlocks)) << info;
}

TEST_F(UringSetupTest, RegistersNothingWhenBothAreOff) {
  auto engine = open({.uring = {.registerfiles = false, .fixedbufs = false}});
  if (!engine) GTEST_SKIP() << "io_uring is unavailable: " << skip_;
  const std::string info = ring_fdinfo();
  if (fdinfo_value(info, "UserFiles") < 0) GTEST_SKIP() << "this kernel's io_uring fdinfo lists no UserFiles";
  EXPECT_EQ(fdinfo_value(info, "UserFiles"), 0) << info;
  EXPECT_EQ(fdinfo_value(info, "UserBufs"), 0) << info;
}

TEST_F(UringSetupTest, SqpollRunsAKernelThread) {
  auto engine = open({.uring = {.sqthread_poll = true}});
  if (!engine) GTEST_SKIP() << "the kernel refused SQPOLL: " << skip_;
  const std::string info = ring_fdinfo();
  if (fdinfo_value(info, "SqThread") == -1 && info.find("SqThread") == std::string::npos) {
    GTEST_SKIP() << "this kernel's io_uring fdinfo lists no SqThread";
  }
  EXPECT_GT(fdinfo_value(info, "SqThread"), 0) << info;
}

TEST_F(UringSetupTest, HipriWithoutDirectIsRefused) {
  EngineSetup setup{.depth = 4, .fds = {fd_}, .file_sizes = {kSetupBlocks * kSetupBlock}, .direct = false};
  auto engine = make_engine({.ioengine = EngineKind::kIoUring, .rw_flags = {.hipri = true}});
  try {
    engine->open(setup);
    FAIL() << "hipri without direct=1 was accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("direct=1"), std::string::npos) << e.what();
  }
}

TEST_F(UringSetupTest, HipriFailsClearlyWithoutPollQueuesOrReadsTheData) {
  if (!direct_) GTEST_SKIP() << "the temporary directory's file system refuses O_DIRECT";
  auto engine = open({.rw_flags = {.hipri = true}});
  if (!engine) {
    // A device without poll queues (this project's virtio disk, tmpfs) must be named as the reason.
    EXPECT_NE(skip_.find("poll"), std::string::npos) << skip_;
    return;
  }
  std::vector<IoUnit> reads(4);
  for (std::size_t i = 0; i < reads.size(); ++i) {
    reads[i] = {
        .op = IoOp::kRead, .offset = i * kSetupBlock, .length = kSetupBlock, .buffer = rbuf_.get() + i * kSetupBlock};
  }
  ASSERT_EQ(testing::run_all(*engine, reads, 4).size(), reads.size());
  for (const IoUnit& u : reads) EXPECT_EQ(u.result, kSetupBlock);
}

}  // namespace
}  // namespace sluice
