// The nbdkit cross-check of the lab (issue 34; docs/lab.md, "Cross-check with nbdkit"; bench/lab-nbdkit.sh):
// one model served two independent ways, each a loop device with direct I/O over a FUSE file, and fio's 4 KiB
// random reads at depth 1 and 32 on both:
//   sluice lab up (4 servers of read_time = 2ms, --fs=none);
//   nbdkit --threads=4 --filter=delay memory delay-read=2ms on a Unix socket, nbdfuse -C 1 (one connection,
//   of which nbdkit serves up to --threads requests at once), losetup --direct-io=on over nbdfuse's file.
// Everything is taken down by destructors, so a failed assertion leaves nothing behind.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/it_test_util.h"
#include "support/lab_place.h"
#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {
namespace nbd_check {  // the it_lab unity build: names of its own

constexpr int kServers = 4;
constexpr const char* kModel =
    "description = the nbdkit cross-check: 4 servers of 2 ms\n"
    "servers = 4\n"
    "read_time = 2ms\n"
    "write_time = 2ms\n";

struct Measured {
  double iops = 0;
  double mean_lat_ns = 0;
};

RunOutput run_program(const std::string& program, const std::vector<std::string>& args, int timeout_ms = 20000) {
  RunOptions options;
  options.program = program;
  options.timeout = std::chrono::milliseconds(timeout_ms);
  return run_binary(args, options);
}

// nbdkit (memory plugin, delay filter) on a Unix socket, nbdfuse's file over it, a loop device over that.
class NbdkitDevice {
 public:
  NbdkitDevice() {
    std::filesystem::create_directories(mountpoint());
    nbdkit_ = spawn({"nbdkit", "--foreground", "--unix", socket(), "--threads=" + std::to_string(kServers),
                     "--filter=delay", "memory", "64m", "delay-read=2ms", "delay-write=2ms"},
                    dir_.file("nbdkit.log"));
    if (!wait_for([&] { return std::filesystem::exists(socket()); })) return;
    nbdfuse_ = spawn({"nbdfuse", "-C", "1", "-P", dir_.file("nbdfuse.pid"), file(), "--unix", socket()},
                     dir_.file("nbdfuse.log"));
    if (!wait_for([&] { return std::filesystem::file_size(dir_.file("nbdfuse.pid")) > 0; })) return;
    mounted_ = true;
    const RunOutput losetup = run_program("losetup", {"-f", "--show", "--direct-io=on", file()});
    if (losetup.exit_code == 0) device_ = losetup.out.substr(0, losetup.out.find('\n'));
  }
  ~NbdkitDevice() {
    if (!device_.empty()) run_program("losetup", {"-d", device_});
    // Unmounting makes nbdfuse disconnect and exit; nbdkit is stopped after, so nbdfuse never sees it vanish.
    if (mounted_) run_program("fusermount3", {"-u", mountpoint()});
    stop(nbdfuse_);
    stop(nbdkit_);
  }
  NbdkitDevice(const NbdkitDevice&) = delete;
  NbdkitDevice& operator=(const NbdkitDevice&) = delete;

  const std::string& device() const { return device_; }
  std::string log() const {
    return "nbdkit: " + file_text(dir_.file("nbdkit.log")) + "\nnbdfuse: " + file_text(dir_.file("nbdfuse.log"));
  }

 private:
  std::string socket() const { return dir_.file("nbdkit.sock"); }
  std::string mountpoint() const { return dir_.file("mnt"); }
  std::string file() const { return mountpoint() + "/disk"; }

  static pid_t spawn(const std::vector<std::string>& argv, const std::string& log) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int in = ::open("/dev/null", O_RDONLY);
      const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in >= 0) ::dup2(in, 0);
      if (out >= 0) {
        ::dup2(out, 1);
        ::dup2(out, 2);
      }
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    return pid;
  }
  template <class Ready>
  static bool wait_for(Ready ready) {
    for (int i = 0; i < 100; ++i) {
      std::error_code ec;
      try {
        if (ready()) return true;
      } catch (const std::filesystem::filesystem_error&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // SIGTERM, up to 5 s, then SIGKILL; reaps the child.
  static void stop(pid_t pid) {
    if (pid <= 0) return;
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid, nullptr, WNOHANG) == pid) return;
      if (i == 0) ::kill(pid, SIGTERM);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }

  TempDir dir_;
  pid_t nbdkit_ = -1;
  pid_t nbdfuse_ = -1;
  bool mounted_ = false;
  std::string device_;
};

std::optional<Measured> fio_randread(const std::string& device, int depth) {
  const RunOutput r =
      run_program("fio",
                  {"--name=nbdkit", "--filename=" + device, "--rw=randread", "--bs=4k", "--direct=1",
                   "--ioengine=libaio", "--iodepth=" + std::to_string(depth), "--time_based", "--runtime=3",
                   depth > 1 ? "--ramp_time=1" : "--ramp_time=0", "--output-format=json"},
                  30000);
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  if (r.exit_code != 0 || !doc || !doc->contains("jobs") || (*doc)["jobs"].empty()) return std::nullopt;
  const nlohmann::json& read = (*doc)["jobs"][0]["read"];
  return Measured{read.value("iops", 0.0), read["lat_ns"].value("mean", 0.0)};
}

// Tolerances from bench/lab-nbdkit.sh's runs (bench/README.md, "The nbdkit cross-check"), on this 2-vCPU
// machine shared with other builds. The two do not serve the same way, so they are not held to 10%:
// - depth 1: nbdkit's reply is its delay filter's sleep (ppoll: it wakes late, 2.17-2.45 ms a read by its
//   stats filter) plus the whole path (nbdfuse, FUSE, loop), which nothing subtracts; sluice's daemon sends the
//   reply early by the path it measured. Measured: nbdkit's mean latency 1.11-1.35x sluice's. Asserted: at
//   least as slow as sluice less 5%, at most 1.6x.
// - depth 32: sluice's 4 servers stay busy (1 999 IOPS, the truth 2 000); nbdkit's do not (its stats filter:
//   4 workers busy 62-77% of the time): requests do not reach nbdkit fast enough through nbdfuse (one NBD
//   connection, libfuse's high-level API) on this loaded machine. Measured: nbdkit 0.46-0.64x sluice's IOPS.
//   Asserted: between 0.35x and 1.05x, and sluice's own within 10% of the truth.
constexpr double kDepth1LatMin = 0.95, kDepth1LatMax = 1.6;
constexpr double kDepth32IopsMin = 0.35, kDepth32IopsMax = 1.05;

TEST(LabNbdkit, SluiceLabAndNbdkitDelayAgreeOnFourServersOfTwoMs) {
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  SLUICE_REQUIRE(kNbdkit);
  SLUICE_REQUIRE(kFio);
  LabPlace lab(kModel);
  const RunOutput up =
      lab.sluice({"lab", "up", lab.model(), lab.dir(), "--size=64m", "--fs=none", "--output-format=json"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  const std::string lab_device = lab_json(up).value("device", "");
  ASSERT_THAT(lab_device, ::testing::HasSubstr("/dev/loop"));
  NbdkitDevice nbd;
  ASSERT_THAT(nbd.device(), ::testing::HasSubstr("/dev/loop")) << nbd.log();

  for (const int depth : {1, 32}) {
    const std::optional<Measured> s = fio_randread(lab_device, depth);
    const std::optional<Measured> n = fio_randread(nbd.device(), depth);
    ASSERT_TRUE(s && n) << "fio failed at depth " << depth << "\n" << nbd.log();
    const double iops = s->iops / n->iops, lat = n->mean_lat_ns / s->mean_lat_ns;
    RecordProperty("depth " + std::to_string(depth) + " sluice/nbdkit iops", std::to_string(iops));
    const std::string what = "depth " + std::to_string(depth) + ": sluice " + std::to_string(s->iops) + " IOPS " +
                             std::to_string(s->mean_lat_ns / 1e6) + " ms, nbdkit " + std::to_string(n->iops) +
                             " IOPS " + std::to_string(n->mean_lat_ns / 1e6) + " ms";
    if (depth == 1) {
      EXPECT_GE(lat, kDepth1LatMin) << what;
      EXPECT_LE(lat, kDepth1LatMax) << what;
    } else {
      EXPECT_NEAR(s->iops / (kServers / 2e-3), 1.0, 0.10) << what;
      EXPECT_GE(n->iops / s->iops, kDepth32IopsMin) << what;
      EXPECT_LE(n->iops / s->iops, kDepth32IopsMax) << what;
    }
  }
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
  EXPECT_EQ(lab.leftovers(), "");
}

}  // namespace nbd_check
}  // namespace
}  // namespace sluice::testing
