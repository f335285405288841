// Compatibility corpus, run for real: every example of Debian's fio-examples that sluice parses runs to
// completion with its size and runtime shrunk and its files redirected to a temporary directory
// (sluice's --cap-size, --cap-runtime and --override=directory/filename). One test case per example, so a
// failure or a slow example is named by ctest.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "job/fio_examples.h"
#include "job/job_file.h"
#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

bool supports_direct_io(const std::string& dir) {
  const std::string path = dir + "/direct-probe";
  const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_DIRECT, 0600);
  if (fd >= 0) ::close(fd);
  ::unlink(path.c_str());
  return fd >= 0;
}

JobFileSettings corpus_settings() {
  JobFileSettings settings;
  settings.expansion.env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "FIO_RW") return "randread";
    if (name == "FIO_IODEPTH") return "1";
    if (name == "FIO_BS") return "4k";
    return std::nullopt;
  };
  return settings;
}

// Examples that may end with an error by design, in fio too, and the error both report. enospc-pressure.fio's
// aio-dio-verifier is a read job with verify=crc32c: it checks every block for a verify header, but the
// blocks were written by the example's other jobs without one (fio 3.33: "verify: bad magic header", error
// 84, EILSEQ). Its real use is the ENOSPC race it provokes, with the verifier on its own file at 128G. With
// exitall in every job, the shrunk punch-hole job may end the group before the verifier reads a block (on a
// loaded machine): then the run ends cleanly.
struct ExpectedFailure {
  const char* example;
  const char* error;  // a part of sluice's stderr
};
// exec.fio runs /usr/sbin/turbostat (linux-cpupower), which this project does not install: sluice refuses
// a program it cannot find before the run starts (fio forks and its child fails to exec, silently).
// e4defrag.fio and e4defrag2.fio run their defragmenters next to numjobs=4 libaio jobs with verify=md5 on one
// file: the clones overwrite each other's blocks, so the verify reads find another clone's writes (fio 3.33,
// shrunk the same way: "verify: bad header rand_seed", exit 4). Their e4defrag jobs complete.
constexpr ExpectedFailure kExpectedFailures[] = {
    {"e4defrag.fio", "verify failed: "},
    {"e4defrag2.fio", "verify failed: "},
    {"enospc-pressure.fio", "no verify header: expected magic 53 4c 56 46"},
    {"exec.fio", "program=/usr/sbin/turbostat is not an executable file"},
};

const ExpectedFailure* expected_failure_of(const std::string& name) {
  for (const ExpectedFailure& f : kExpectedFailures) {
    if (name == f.example) return &f;
  }
  return nullptr;
}

class FioExampleRun : public ::testing::TestWithParam<std::string> {};

TEST_P(FioExampleRun, RunsShrunkWhenItParses) {
  const std::string file = GetParam();
  const std::string name = fs::path(file).filename().string();
  std::vector<FileJob> jobs;
  try {
    jobs = parse_job_file(file, corpus_settings());
  } catch (const JobFileError& e) {
    GTEST_SKIP() << "refused by name (fio_examples_test.cpp lists why): " << e.what();
  }
  if (name.rfind("e4defrag", 0) == 0) SLUICE_REQUIRE(kExt4MoveExt);
  testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const bool names_files =
      std::any_of(jobs.begin(), jobs.end(), [](const FileJob& j) { return !j.spec.target.filenames.empty(); });
  std::vector<std::string> args = {"run",           "--no-status",         "--output-format=json",
                                   "--cap-size=1m", "--cap-runtime=200ms", "--override=directory=" + dir.path()};
  if (names_files) args.push_back("--override=filename=example.dat");
  // allow_file_create=0 (xnvme-compare.fio: "avoid accidentally creating device files") would refuse the
  // scratch files the test gives it instead of the example's devices.
  const bool forbids_create =
      std::any_of(jobs.begin(), jobs.end(), [](const FileJob& j) { return !j.spec.target.allow_file_create; });
  if (forbids_create) args.push_back("--override=allow_file_create=1");
  // zonemode=zbd (zbd-rand-write.fio, zbd-seq-read.fio, xnvme-zoned.fio): the zones shrink with the file, two
  // of 512 KiB in the 1 MiB the size is capped at (their 256 MiB zones would not fit; xnvme-zoned.fio gives
  // none, which fio refuses on a file too: its zones come from the zoned device it names on its command line).
  const bool zoned = std::any_of(jobs.begin(), jobs.end(), [](const FileJob& j) { return j.spec.zones.zone_zbd; });
  if (zoned) args.push_back("--override=zonesize=512k");
  if (!supports_direct_io(dir.path())) args.push_back("--override=direct=0");
  args.push_back(file);
  testing::RunOptions options;
  options.timeout = 60s;     // filecreate-ioengine.fio resolves 16 x 31250 files (~12 s here; fio needs ~7 s)
  options.cwd = dir.path();  // verify_dump writes its dumps in the current directory
  options.environment = {{"FIO_RW", "randread"}, {"FIO_IODEPTH", "1"}, {"FIO_BS", "4k"}};  // as corpus_settings
  const testing::RunOutput out = testing::run_binary(args, options);
  if (const ExpectedFailure* failure = expected_failure_of(name); failure != nullptr && out.exit_code != 0) {
    EXPECT_EQ(out.exit_code, 1) << name << ":\n" << out.err.substr(0, 2000);
    EXPECT_NE(out.err.find(failure->error), std::string::npos) << name << ":\n" << out.err.substr(0, 2000);
    EXPECT_FALSE(out.timed_out) << name;
    return;
  }
  EXPECT_EQ(out.exit_code, 0) << name << ":\n" << out.err.substr(0, 2000);
  EXPECT_FALSE(out.timed_out) << name;
}

std::string test_name_of(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// Without fio-examples there is nothing to instantiate; the parse table test says the package is missing.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FioExampleRun);
INSTANTIATE_TEST_SUITE_P(Corpus, FioExampleRun, ::testing::ValuesIn(testing::fio_example_files()), test_name_of);

}  // namespace
}  // namespace sluice
