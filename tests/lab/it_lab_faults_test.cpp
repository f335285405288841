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
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using Steady = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::size_t kFaultBlock = 4096;

dev_t faulty_device_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_dev : 0;
}

// `sluice lab serve MODEL DIR/mnt --backing=DIR/backing --size=16m` as a child, for one model text; SIGTERM at
// the end.
class FaultyLab {
 public:
  FaultyLab(const TempDir& dir, const std::string& model_text)
      : mount_(dir.file("mnt")), backing_(dir.file("backing")) {
    const std::string model = dir.file("faulty.model");
    std::ofstream(model) << model_text;
    ::mkdir(mount_.c_str(), 0755);
    const dev_t parent = faulty_device_of(mount_);
    pid_ = ::fork();
    if (pid_ == 0) {
      const int null_fd = ::open("/dev/null", O_RDWR);
      ::dup2(null_fd, STDIN_FILENO);
      ::dup2(null_fd, STDOUT_FILENO);
      std::vector<std::string> args = {SLUICE_BINARY,           "lab",       "serve", model, mount_,
                                       "--backing=" + backing_, "--size=16m"};
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    for (int i = 0; i < 1000; ++i) {  // 10 s
      if (faulty_device_of(mount_) != parent) return;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(10ms);
    }
  }
  ~FaultyLab() { stop(); }
  FaultyLab(const FaultyLab&) = delete;
  FaultyLab& operator=(const FaultyLab&) = delete;

  bool mounted() const { return pid_ > 0; }
  std::string device() const { return mount_ + "/device"; }
  const std::string& mount() const { return mount_; }
  const std::string& backing() const { return backing_; }

  nlohmann::json stats() const {
    std::ifstream in(mount_ + "/stats");
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
  }

  int stop() {
    if (pid_ <= 0) return -1;
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(10ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    std::system(("fusermount3 -uz " + mount_ + " 2>/dev/null").c_str());
    return -1;
  }

 private:
  std::string mount_;
  std::string backing_;
  pid_t pid_ = -1;
};

bool faulty_daemon_built() {
  const RunOutput r = run_binary({"lab", "serve", "ssd", "/nonexistent-lab-dir", "--backing=/nonexistent"});
  return r.err.find("built without libfuse3") == std::string::npos;
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
  if (!faulty_daemon_built()) GTEST_SKIP() << "sluice was built without libfuse3"

TEST(LabFaults, ReadErrorAtAnOffset) {
  SLUICE_REQUIRE_LAB_DAEMON();
  TempDir dir;
  FaultyLab lab(dir, "read_time = 1ms\nfault = read:eio:at=1m\n");
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
  const nlohmann::json stats = lab.stats();
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
  FaultyLab lab(dir, "read_time = 1ms\nfault = write:lie:count=1\n");
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
  EXPECT_EQ(lab.stats().at("faults").at(0).at("fired"), 1);
  EXPECT_EQ(lab.stop(), 0);
}

TEST(LabFaults, AStallDelaysTheThirdRequest) {
  SLUICE_REQUIRE_LAB_DAEMON();
  TempDir dir;
  FaultyLab lab(dir, "read_time = 1ms\nfault = any:stall=200ms:after=2:count=1\n");
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
  EXPECT_EQ(lab.stats().at("faults").at(0).at("fired"), 1);
  EXPECT_EQ(lab.stop(), 0);
}

}  // namespace
}  // namespace sluice::testing
