// cgroup=, cgroup_weight= and cgroup_nodelete next to fio 3.33, on this machine's cgroup v1 blkio controller:
// a read throttle set on a cgroup holds back the job that joins it, and only that job (sluice's jobs are
// threads, placed one by one through the controller's "tasks" file; fio's jobs are processes here: with
// thread=1 and two jobs fio 3.33 aborts, "smalloc.c:116: mask_clear: Assertion"); a cgroup the run made is
// removed at its end unless cgroup_nodelete. Skipped without root or a v1 blkio controller.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// Where cgroup v1's blkio controller is mounted, as fio looks for it; empty when none comes first.
std::string blkio_mount() {
  std::ifstream mounts("/proc/mounts");
  std::string device, dir, type, options, rest;
  while (mounts >> device >> dir >> type >> options && std::getline(mounts, rest)) {
    if (type == "cgroup2") return "";
    if (type == "cgroup" && ("," + options + ",").find(",blkio,") != std::string::npos) return dir;
  }
  return "";
}

// "MAJ:MIN" of the whole disk under `path` (throttles are set per disk).
std::string disk_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  std::string sys = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  if (std::filesystem::exists(sys + "/partition")) sys = std::filesystem::canonical(sys).parent_path().string();
  std::ifstream dev(sys + "/dev");
  std::string numbers;
  dev >> numbers;
  return numbers;
}

// fio prints a job's banner line before its JSON when the job has a cgroup: the document starts at its "{".
std::uint64_t read_iops(const RunOutput& r, std::size_t job = 0) {
  const std::size_t start = r.out.find('{');
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  if (!doc) return 0;
  return static_cast<std::uint64_t>((*doc)["jobs"][job]["read"]["iops"].get<double>());
}

class Cgroup : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) GTEST_SKIP() << "needs root (cgroups)";
    SLUICE_REQUIRE(kCgroupV1Blkio);
    mount_ = blkio_mount();
    if (mount_.empty()) GTEST_SKIP() << "no cgroup v1 blkio controller is mounted";
    name_ = "sluice-it-" + std::to_string(::getpid());
  }
  void TearDown() override {
    for (const std::string& dir : made_) ::rmdir(dir.c_str());
  }
  std::string make_cgroup(const std::string& name) {
    const std::string dir = mount_ + "/" + name;
    EXPECT_EQ(::mkdir(dir.c_str(), 0755), 0) << dir;
    made_.push_back(dir);
    return dir;
  }
  // A 16 MiB file written by `program`, read back by the tests' jobs.
  std::string data_file(const std::string& program) {
    const std::string path = tmp_.file(program + ".data");
    run_as(program, {"--name=lay", "--filename=" + path, "--size=16m", "--rw=write", "--bs=1m"});
    return path;
  }
  std::string mount_;
  std::string name_;
  std::vector<std::string> made_;
  TempDir tmp_;
};

// 100 reads per second allowed on the cgroup: the job in it reads at that pace in both tools, a job beside it
// at the disk's.
TEST_F(Cgroup, AThrottleOnTheCgroupHoldsBackOnlyItsJobAsFio) {
  const std::string disk = disk_of(tmp_.path());
  if (disk.empty()) GTEST_SKIP() << "no block device under " << tmp_.path();
  const std::string dir = make_cgroup(name_);
  std::ofstream(dir + "/blkio.throttle.read_iops_device") << disk << " 100";
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const std::string path = data_file(program);
    const std::vector<std::string> job = {"--filename=" + path, "--rw=randread", "--bs=4k",
                                          "--direct=1",         "--time_based",  "--runtime=1500ms"};
    std::vector<std::string> args = {"--name=held", "--cgroup=" + name_};
    args.insert(args.end(), job.begin(), job.end());
    args.emplace_back("--name=free");
    args.insert(args.end(), job.begin(), job.end());
    args.emplace_back("--output-format=json");
    const RunOutput r = run_as(program, args);
    const std::uint64_t held = read_iops(r, 0);
    const std::uint64_t free = read_iops(r, 1);
    EXPECT_GE(held, 50u) << program;
    EXPECT_LE(held, 150u) << program;
    EXPECT_GT(free, 4 * held) << program << ": the job beside it is not held back";
    EXPECT_TRUE(std::filesystem::exists(dir)) << program << ": the run did not make it, so it stays";
    std::ifstream tasks(dir + "/tasks");
    std::string left;
    EXPECT_FALSE(static_cast<bool>(tasks >> left)) << program << ": thread " << left << " left in the cgroup";
  }
}

TEST_F(Cgroup, ACgroupTheRunMadeIsRemovedUnlessNodelete) {
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const std::string name = name_ + "-" + program;
    const std::string dir = mount_ + "/" + name;
    const std::vector<std::string> job = {"--name=c", "--filename=" + tmp_.file(program + ".c"), "--size=1m",
                                          "--rw=write", "--cgroup=" + name};
    run_as(program, job);
    EXPECT_FALSE(std::filesystem::exists(dir)) << program;
    std::vector<std::string> keep = job;
    keep.emplace_back("--cgroup_nodelete=1");
    run_as(program, keep);
    EXPECT_TRUE(std::filesystem::exists(dir)) << program;
    made_.push_back(dir);
  }
}

// The weight needs a weight file: blkio.weight (CFQ, gone from current kernels; what fio 3.33 writes) or
// blkio.bfq.weight (with the bfq scheduler loaded). Without either, sluice refuses the job with the reason.
TEST_F(Cgroup, AWeightIsWrittenWhereTheKernelHasOne) {
  const std::string probe = make_cgroup(name_ + "-probe");
  const bool weighs =
      std::filesystem::exists(probe + "/blkio.weight") || std::filesystem::exists(probe + "/blkio.bfq.weight");
  const std::string name = name_ + "-w";
  const RunOutput r = run_binary({"run", "--name=w", "--filename=" + tmp_.file("w"), "--size=1m", "--rw=write",
                                  "--cgroup=" + name, "--cgroup_weight=300", "--cgroup_nodelete=1"});
  made_.push_back(mount_ + "/" + name);
  if (!weighs) {
    EXPECT_NE(r.exit_code, 0) << describe(r);
    EXPECT_NE(r.err.find("has neither blkio.weight nor blkio.bfq.weight"), std::string::npos) << r.err;
    return;
  }
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  std::ifstream weight(mount_ + "/" + name + "/blkio.bfq.weight");
  std::stringstream text;
  text << weight.rdbuf();
  EXPECT_NE(text.str().find("300"), std::string::npos) << text.str();
}

TEST_F(Cgroup, ANameOutsideTheControllerIsRefused) {
  expect_run_refused({"--name=x", "--filename=" + tmp_.file("x"), "--size=1m", "--cgroup=../escape"},
                     "a cgroup is a path below the blkio controller's mount");
  expect_run_refused({"--name=x", "--filename=" + tmp_.file("x"), "--size=1m", "--cgroup_weight=50"}, "cgroup_weight");
}

}  // namespace
}  // namespace sluice::testing
