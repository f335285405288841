// End-to-end tests of sluice's error messages and safety refusals: each names the option or the file,
// exits non-zero, writes to stderr, and (for errors found before the run) nothing to stdout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

void expect_pre_run_error(const RunOutput& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(message)) << describe(r);
  EXPECT_EQ(r.out, "") << describe(r);
  EXPECT_EQ(r.term_signal, 0);
}

TEST(CliErrors, BadSizeNamesOptionAndValue) {
  expect_pre_run_error(run_binary({"run", "--name=a", "--ioengine=null", "--size=1m", "--bs=4q"}),
                       "--bs=4q: not a size; sizes look like 4k, 1m, 10%");
}

TEST(CliErrors, BadSizeInJsonModeKeepsStdoutEmpty) {
  expect_pre_run_error(
      run_binary({"run", "--output-format=json", "--name=a", "--ioengine=null", "--size=1m", "--bs=4q"}),
      "--bs=4q: not a size");
}

TEST(CliErrors, UnknownOptionSuggestsTheNearest) {
  expect_pre_run_error(run_binary({"run", "--name=a", "--ioengine=null", "--sizee=1m"}),
                       "--sizee=1m: unknown option; did you mean --size?");
}

TEST(CliErrors, ParseOnlyFindsAWaitForThatNamesNoJobWithFileAndLine) {
  TempDir dir;
  const std::string job = dir.file("jobs.fio");
  std::ofstream(job) << "[global]\nioengine=null\nsize=1m\n\n[writer]\nrw=write\n\n[reader]\nrw=read\nwait_for=writr\n";
  expect_pre_run_error(
      run_binary({"run", "--parse-only", job}),
      job + ":10: job reader: wait_for=writr: no earlier job is named 'writr'; did you mean 'writer'?");
}

TEST(CliErrors, ParseOnlyAcceptsAWaitForThatNamesAnEarlierJob) {
  TempDir dir;
  const std::string job = dir.file("jobs.fio");
  std::ofstream(job)
      << "[global]\nioengine=null\nsize=1m\n\n[writer]\nrw=write\n\n[reader]\nrw=read\nwait_for=writer\n";
  const RunOutput r = run_binary({"run", "--parse-only", job});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
}

TEST(CliErrors, UnknownEngineNamesTheValue) {
  const RunOutput r = run_binary({"run", "--name=a", "--ioengine=nul", "--size=1m"});
  expect_pre_run_error(r, "nul");
}

TEST(CliErrors, NonExistentDirectoryOfAFile) {
  TempDir dir;
  const std::string path = dir.file("missing/f");
  expect_pre_run_error(run_binary({"run", "--name=a", "--filename=" + path, "--size=1m", "--rw=write"}), path);
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing")));
}

TEST(CliErrors, NonExistentDirectoryOption) {
  TempDir dir;
  const std::string path = dir.file("missing");
  const RunOutput r = run_binary({"run", "--name=a", "--directory=" + path, "--size=1m", "--rw=write"});
  expect_pre_run_error(r, path);
  EXPECT_THAT(r.err, HasSubstr("does not exist"));
}

TEST(CliErrors, DirectoryWhereAFileIsNeeded) {
  TempDir dir;
  const RunOutput r = run_binary({"run", "--name=a", "--filename=" + dir.path(), "--size=1m", "--rw=write"});
  expect_pre_run_error(r, dir.path() + " is a directory");
}

TEST(CliErrors, ReadOfAMissingFileWithoutSize) {
  TempDir dir;
  const std::string path = dir.file("nofile");
  const RunOutput r = run_binary({"run", "--name=a", "--filename=" + path, "--rw=read"});
  expect_pre_run_error(r, path);
  EXPECT_THAT(r.err, HasSubstr("--size"));
  EXPECT_FALSE(std::filesystem::exists(path));
}

// An 8 MiB tmpfs mounted on a directory of the test; unmounted (lazily) when the test ends.
class SmallTmpfs {
 public:
  explicit SmallTmpfs(const std::string& where) : path_(where) {
    std::filesystem::create_directory(path_);
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, "size=8m") == 0;
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  SmallTmpfs(const SmallTmpfs&) = delete;
  SmallTmpfs& operator=(const SmallTmpfs&) = delete;
  bool mounted() const { return mounted_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool mounted_ = false;
};

// tmpfs refuses O_DIRECT, so these jobs are buffered.
TEST(CliErrors, EnospcDuringLayoutNamesFileAndOffsetAndRemovesTheFile) {
  if (!is_root()) GTEST_SKIP() << "needs root to mount a small tmpfs";
  TempDir dir;
  SmallTmpfs fs(dir.file("mnt"));
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount tmpfs here";
  const std::string path = fs.path() + "/f";
  const RunOutput r = run_binary({"run", "--name=a", "--filename=" + path, "--size=64m", "--rw=write", "--bs=1m",
                                  "--fallocate=none", "--output-format=json"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(path));
  EXPECT_THAT(r.err, HasSubstr("offset 8388608"));
  EXPECT_THAT(r.err, HasSubstr("No space left on device"));
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(path)) << "sluice left behind the partial file it created";
}

TEST(CliErrors, EnospcWithFallocateNamesTheFileAndRemovesIt) {
  if (!is_root()) GTEST_SKIP() << "needs root to mount a small tmpfs";
  TempDir dir;
  SmallTmpfs fs(dir.file("mnt"));
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount tmpfs here";
  const RunOutput r = run_binary({"run", "--name=a", "--directory=" + fs.path(), "--size=64m", "--rw=randwrite"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(fs.path() + "/a.0.0"));
  EXPECT_THAT(r.err, HasSubstr("offset"));
  EXPECT_THAT(r.err, HasSubstr("No space left on device"));
  EXPECT_TRUE(std::filesystem::is_empty(fs.path()));
}

TEST(CliErrors, EnospcKeepsAFileSluiceDidNotCreate) {
  if (!is_root()) GTEST_SKIP() << "needs root to mount a small tmpfs";
  TempDir dir;
  SmallTmpfs fs(dir.file("mnt"));
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount tmpfs here";
  const std::string path = fs.path() + "/mine";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(1 << 20, 'x');
  }
  const RunOutput r =
      run_binary({"run", "--name=a", "--filename=" + path, "--size=64m", "--rw=write", "--bs=1m", "--fallocate=none"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(path));
  EXPECT_TRUE(std::filesystem::exists(path)) << "sluice removed a file the user owns";
}

// A device-mapper "error" target: every I/O fails with EIO. Removed when the test ends.
class ErrorDevice {
 public:
  ErrorDevice() : name_("sluice-it-eio-" + std::to_string(::getpid())) {
    RunOptions o;
    o.program = "dmsetup";
    created_ = run_binary({"create", name_, "--table", "0 16384 error"}, o).exit_code == 0;
    struct stat st {};
    created_ = created_ && ::stat(path().c_str(), &st) == 0 && S_ISBLK(st.st_mode);
  }
  ~ErrorDevice() {
    RunOptions o;
    o.program = "dmsetup";
    run_binary({"remove", name_}, o);
  }
  ErrorDevice(const ErrorDevice&) = delete;
  ErrorDevice& operator=(const ErrorDevice&) = delete;
  bool created() const { return created_; }
  std::string path() const { return "/dev/mapper/" + name_; }

 private:
  std::string name_;
  bool created_ = false;
};

TEST(CliErrors, EioNamesTheDeviceAndOffset) {
  if (!is_root() || !have_program("dmsetup")) GTEST_SKIP() << "needs root and dmsetup for a dm-error device";
  ErrorDevice device;
  if (!device.created()) GTEST_SKIP() << "device-mapper is not available here (dmsetup create failed)";
  const RunOutput r = run_binary({"run", "--name=e", "--filename=" + device.path(), "--rw=read", "--size=1m"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(device.path()));
  EXPECT_THAT(r.err, HasSubstr("offset"));
  EXPECT_THAT(r.err, HasSubstr("Input/output error"));
}

}  // namespace
}  // namespace sluice::testing
