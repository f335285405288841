// Compatibility corpus, run for real: every example of Debian's fio-examples that sluice parses runs to
// completion with its size and runtime shrunk and its files redirected to a temporary directory
// (sluice's --cap-size, --cap-runtime and --override=directory/filename). Examples that parse but cannot
// run are listed in kCannotRun with the reason (docs/fio-compatibility.md keeps the same list).
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "support/run_binary.h"
#include "job/job_file.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr const char* kExamples = "/usr/share/doc/fio/examples";

// Examples that parse but cannot run here, and why.
const std::map<std::string, std::string> kCannotRun = {};

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kExamples, ec)) {
    if (entry.path().extension() == ".fio") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

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

TEST(FioExamplesRun, EverySupportedExampleRunsShrunk) {
  const std::vector<std::string> files = example_files();
  if (files.empty()) GTEST_SKIP() << kExamples << " is missing (Debian package fio-examples)";
  testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const bool direct_ok = supports_direct_io(dir.path());
  int ran = 0;
  std::printf("| example | run |\n|---|---|\n");
  for (const std::string& file : files) {
    const std::string name = fs::path(file).filename().string();
    std::vector<FileJob> jobs;
    try {
      jobs = parse_job_file(file, corpus_settings());
    } catch (const JobFileError&) {
      continue;  // refused by name: fio_examples_test.cpp lists why
    }
    const bool names_files = std::any_of(jobs.begin(), jobs.end(), [](const FileJob& j) {
      return !j.spec.filenames.empty();
    });
    const std::string scratch = dir.file(name + ".d");
    fs::create_directories(scratch);
    std::vector<std::string> args = {"run", "--no-status", "--output-format=json", "--cap-size=1m",
                                     "--cap-runtime=200ms", "--override=directory=" + scratch};
    if (names_files) args.push_back("--override=filename=example.dat");
    if (!direct_ok) args.push_back("--override=direct=0");
    args.push_back(file);
    testing::RunOptions options;
    options.timeout = 20s;
    const testing::RunOutput out = testing::run_binary(args, options);
    fs::remove_all(scratch);
    const auto known = kCannotRun.find(name);
    if (known != kCannotRun.end()) {
      std::printf("| %s | cannot run: %s |\n", name.c_str(), known->second.c_str());
      continue;
    }
    ++ran;
    std::printf("| %s | %s (%lld ms) |\n", name.c_str(), out.exit_code == 0 ? "runs" : "FAILS",
                static_cast<long long>(out.elapsed.count()));
    EXPECT_EQ(out.exit_code, 0) << name << ":\n" << out.err.substr(0, 2000);
    EXPECT_FALSE(out.timed_out) << name;
  }
  std::printf("%d examples ran\n", ran);
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace sluice
