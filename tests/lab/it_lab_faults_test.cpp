// A model's fault rules through the real daemon (`sluice lab serve`, FUSE): an error at an offset, a lie, a
// stall after some requests, and the daemon's count of each (issue 34; docs/lab.md "Faults").
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/served_lab.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using Steady = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::size_t kFaultBlock = 4096;

// The daemon of `model_text` (written to DIR/faulty.model), as tests/support/served_lab.h starts it.
std::string faulty_model(const TempDir& dir, const std::string& model_text) {
  const std::string model = dir.file("faulty.model");
  std::ofstream(model) << model_text;
  return model;
}

// A 4 KiB buffer aligned for O_DIRECT, filled with `fill`.
std::unique_ptr<char, decltype(&std::free)> block_of(char fill) {
  void* raw = nullptr;
  if (::posix_memalign(&raw, kFaultBlock, kFaultBlock) != 0) return {nullptr, &std::free};
  std::memset(raw, fill, kFaultBlock);
  return {static_cast<char*>(raw), &std::free};
}

std::string stored_at(const std::string& backing, std::size_t offset) {
  std::ifstream in(backing, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string data(kFaultBlock, '?');
  in.read(data.data(), static_cast<std::streamsize>(kFaultBlock));
  return data;
}

#define SLUICE_REQUIRE_LAB_DAEMON() \
  SLUICE_REQUIRE(kFuse);            \
  if (!daemon_built()) GTEST_SKIP() << "sluice was built without libfuse3"

TEST(LabFaults, ReadErrorAtAnOffset) {
  SLUICE_REQUIRE_LAB_DAEMON();
  TempDir dir;
  ServedLab lab(dir, faulty_model(dir, "read_time = 1ms\nfault = read:eio:at=1m\n"));
  ASSERT_TRUE(lab.mounted());
  const int fd = ::open(lab.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  auto buf = block_of(0);
  errno = 0;
  EXPECT_EQ(::pread(fd, buf.get(), kFaultBlock, 1 << 20), -1);
  EXPECT_EQ(errno, EIO);
  EXPECT_EQ(::pread(fd, buf.get(), kFaultBlock, 0), static_cast<ssize_t>(kFaultBlock)) << std::strerror(errno);
  EXPECT_EQ(::pread(fd, buf.get(), kFaultBlock, (1 << 20) + kFaultBlock),
            static_cast<ssize_t>(kFaultBlock));  // past the byte
  ::close(fd);
  const nlohmann::json stats = lab.stats_json();
  ASSERT_EQ(stats.at("faults").size(), 1u);
  EXPECT_EQ(stats.at("faults").at(0).at("rule"), "read:eio:at=1m");
  EXPECT_EQ(stats.at("faults").at(0).at("fired"), 1);
  EXPECT_EQ(stats.at("ops").at("read").at("count"), 3);  // the failed read took the model's time too
  const RunOutput table = run_binary({"lab", "stats", lab.mount()});
  EXPECT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_THAT(table.out, HasSubstr("faults injected"));
  EXPECT_THAT(table.out, HasSubstr("read:eio:at=1m"));
  const RunOutput json = run_binary({"lab", "stats", lab.mount(), "--output-format=json"});
  const auto doc = parse_document(json.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->at("sluice").at("lab").at("stats").at("faults").at(0).at("fired"), 1);
  EXPECT_EQ(lab.stop(), 0);
}

TEST(LabFaults, ALieIsAcknowledgedAndNotStored) {
  SLUICE_REQUIRE_LAB_DAEMON();
  TempDir dir;
  ServedLab lab(dir, faulty_model(dir, "read_time = 1ms\nfault = write:lie:count=1\n"));
  ASSERT_TRUE(lab.mounted());
  const int fd = ::open(lab.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  EXPECT_EQ(::pwrite(fd, block_of('A').get(), kFaultBlock, 0), static_cast<ssize_t>(kFaultBlock));  // acknowledged
  EXPECT_EQ(stored_at(lab.backing(), 0), std::string(kFaultBlock, '\0'));                           // not stored
  EXPECT_EQ(::pwrite(fd, block_of('B').get(), kFaultBlock, kFaultBlock), static_cast<ssize_t>(kFaultBlock));
  EXPECT_EQ(stored_at(lab.backing(), kFaultBlock), std::string(kFaultBlock, 'B'));  // the second is stored
  auto back = block_of(0);
  ASSERT_EQ(::pread(fd, back.get(), kFaultBlock, 0), static_cast<ssize_t>(kFaultBlock));
  EXPECT_EQ(std::string(back.get(), kFaultBlock), std::string(kFaultBlock, '\0'));  // a read shows the lie
  ::close(fd);
  EXPECT_EQ(lab.stats_json().at("faults").at(0).at("fired"), 1);
  EXPECT_EQ(lab.stop(), 0);
}

TEST(LabFaults, AStallDelaysTheThirdRequest) {
  SLUICE_REQUIRE_LAB_DAEMON();
  TempDir dir;
  ServedLab lab(dir, faulty_model(dir, "read_time = 1ms\nfault = any:stall=200ms:after=2:count=1\n"));
  ASSERT_TRUE(lab.mounted());
  const int fd = ::open(lab.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  auto buf = block_of('S');
  std::vector<Steady::duration> took;
  for (int i = 0; i < 4; ++i) {
    const auto start = Steady::now();
    ASSERT_EQ(i % 2 == 0 ? ::pwrite(fd, buf.get(), kFaultBlock, 0) : ::pread(fd, buf.get(), kFaultBlock, 0),
              static_cast<ssize_t>(kFaultBlock));
    took.push_back(Steady::now() - start);
  }
  ::close(fd);
  EXPECT_GE(took[2], 201ms);  // the model's 1 ms and the stall; a reply is never early
  EXPECT_LT(took[0], took[2]);
  EXPECT_LT(took[1], took[2]);
  EXPECT_LT(took[3], took[2]);  // count=1: once only
  EXPECT_EQ(lab.stats_json().at("faults").at(0).at("fired"), 1);
  EXPECT_EQ(lab.stop(), 0);
}

}  // namespace
}  // namespace sluice::testing
