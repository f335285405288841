// fio's engines that move no data, run from the command line next to fio 3.33 on the same job: filecreate,
// filestat and filedelete time one operation per file (the counts, bytes and latency samples agree with
// fio's, and the files end as fio leaves them), falloc allocates and punches, ftruncate moves the file's end.
// The fio halves are skipped without fio.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

struct Summary {
  std::uint64_t ios = 0, bytes = 0, clat_samples = 0;
  bool operator==(const Summary&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Summary& s) {
  return os << s.ios << " ios, " << s.bytes << " B, " << s.clat_samples << " latency samples";
}

// The first job's counts of one direction ("read", "write", "trim") in a fio-shaped JSON document.
std::optional<Summary> summary_of(const RunOutput& r, const char* direction) {
  const std::size_t start = r.out.find("{\n");
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  if (!doc) return std::nullopt;
  const nlohmann::json& d = (*doc)["jobs"][0][direction];
  return Summary{d["total_ios"].get<std::uint64_t>(), d["io_bytes"].get<std::uint64_t>(),
                 d["clat_ns"]["N"].get<std::uint64_t>()};
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.emplace_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::int64_t size_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_size) : -1;
}

std::int64_t allocated_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_blocks) * 512 : -1;
}

class FileEngines : public ::testing::Test {
 protected:
  // Runs the job in a directory of its own, by sluice (as `sluice run`) or fio; the directory is `dir`.
  RunOutput run(bool with_fio, const std::string& dir, std::vector<std::string> args) {
    std::filesystem::create_directories(dir);
    args.insert(args.begin(), {"--output-format=json", "--directory=" + dir});
    if (!with_fio) {
      args.insert(args.begin(), "run");
      return run_binary(args);
    }
    RunOptions options;
    options.program = "fio";
    return run_binary(args, options);
  }
  std::string dir(const std::string& name) const { return tmp_.file(name); }
  TempDir tmp_;
};

TEST_F(FileEngines, FilecreateCreatesEveryFileAndTimesOneOpenEachAsFio) {
  const std::vector<std::string> job = {"--name=t",      "--ioengine=filecreate", "--nrfiles=40",    "--filesize=4k",
                                        "--openfiles=1", "--create_on_open=1",    "--fallocate=none"};
  const RunOutput mine = run(false, dir("sluice"), job);
  ASSERT_EQ(mine.exit_code, 0) << describe(mine);
  const auto counts = summary_of(mine, "read");
  ASSERT_TRUE(counts) << mine.out;
  EXPECT_EQ(*counts, (Summary{40, 40 * 4096, 40}));
  const std::vector<std::string> created = names_in(dir("sluice"));
  ASSERT_EQ(created.size(), 40u);
  EXPECT_EQ(size_of(dir("sluice") + "/" + created.front()), 0) << "created, not laid out";
  SLUICE_REQUIRE(kFio);
  const RunOutput theirs = run(true, dir("fio"), job);
  ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
  EXPECT_EQ(summary_of(theirs, "read"), counts);
  EXPECT_EQ(names_in(dir("fio")), created) << "fio's names (jobname.jobnum.filenum)";
}

TEST_F(FileEngines, FilestatAndFiledeleteOperateOnTheLaidOutFilesAsFio) {
  for (const char* engine : {"filestat", "filedelete"}) {
    SCOPED_TRACE(engine);
    const std::vector<std::string> job = {"--name=t", std::string("--ioengine=") + engine, "--nrfiles=25",
                                          "--filesize=8k", "--bs=4k"};
    const RunOutput mine = run(false, dir(std::string("sluice-") + engine), job);
    ASSERT_EQ(mine.exit_code, 0) << describe(mine);
    const auto counts = summary_of(mine, "read");
    ASSERT_TRUE(counts) << mine.out;
    // Two blocks per file: both counted, one operation (one latency sample) per file.
    EXPECT_EQ(*counts, (Summary{50, 50 * 4096, 25}));
    const bool deletes = std::string(engine) == "filedelete";
    EXPECT_EQ(names_in(dir(std::string("sluice-") + engine)).size(), deletes ? 0u : 25u);
    if (!::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const RunOutput theirs = run(true, dir(std::string("fio-") + engine), job);
    ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
    EXPECT_EQ(summary_of(theirs, "read"), counts);
    EXPECT_EQ(names_in(dir(std::string("fio-") + engine)).size(), deletes ? 0u : 25u);
  }
}

TEST_F(FileEngines, FallocAndFtruncateCountAsFioAndLeaveTheSameFile) {
  const std::vector<std::vector<std::string>> jobs = {
      {"--name=grow", "--ioengine=ftruncate", "--filename=f", "--size=1m", "--bs=4k", "--rw=write"},
      {"--name=alloc", "--ioengine=falloc", "--filename=f", "--size=1m", "--bs=64k", "--rw=randwrite"},
      {"--name=punch", "--ioengine=falloc", "--filename=f", "--size=1m", "--bs=64k", "--rw=trim"},
      {"--name=keep", "--ioengine=falloc", "--filename=f", "--size=1m", "--bs=64k", "--rw=randread"},
  };
  for (const auto& job : jobs) {
    SCOPED_TRACE(job.front());
    const char* direction = job.back() == "--rw=trim" ? "trim" : job.back() == "--rw=randread" ? "read" : "write";
    const RunOutput mine = run(false, dir("sluice-" + job.front().substr(7)), job);
    ASSERT_EQ(mine.exit_code, 0) << describe(mine);
    const auto counts = summary_of(mine, direction);
    ASSERT_TRUE(counts) << mine.out;
    const std::uint64_t bs = job[4] == "--bs=4k" ? 4096 : 65536;
    EXPECT_EQ(counts->ios, (1u << 20) / bs);
    EXPECT_EQ(counts->bytes, 1u << 20);
    const std::int64_t size = size_of(dir("sluice-" + job.front().substr(7)) + "/f");
    const std::int64_t allocated = allocated_of(dir("sluice-" + job.front().substr(7)) + "/f");
    if (job.front() == "--name=punch") {
      EXPECT_EQ(allocated, 0) << "every block punched";
    }
    if (job.front() == "--name=grow") {
      EXPECT_EQ(size, (1 << 20) - 4096) << "the last write truncates to its offset";
    }
    if (!::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const RunOutput theirs = run(true, dir("fio-" + job.front().substr(7)), job);
    ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
    EXPECT_EQ(summary_of(theirs, direction), counts);
    EXPECT_EQ(size_of(dir("fio-" + job.front().substr(7)) + "/f"), size);
    EXPECT_EQ(allocated_of(dir("fio-" + job.front().substr(7)) + "/f"), allocated);
  }
}

TEST_F(FileEngines, JobsTheseEnginesCannotDoAreRefusedByName) {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{"--ioengine=ftruncate", "--rw=read"}, "cannot be done with ioengine=ftruncate"},
      {{"--ioengine=falloc", "--rw=write", "--fsync=4"}, "fsync cannot be done with ioengine=falloc"},
      {{"--ioengine=filestat", "--rw=write", "--verify=crc32c"}, "verify needs an engine that moves data"},
      {{"--ioengine=psync", "--nrfiles=4", "--openfiles=2"}, "openfiles=2 is below nrfiles=4"},
      {{"--ioengine=filestat", "--stat_type=fstat"}, "stat_type"},
      {{"--readonly", "--ioengine=filecreate"}, "changes files even when it reads"},
      {{"--readonly", "--ioengine=falloc", "--rw=randread"}, "changes files even when it reads"},
      {{"--readonly", "--ioengine=filedelete"}, "changes files even when it reads"},
      {{"--ioengine=filedelete", "--filename=/dev/null"}, "works on regular files only, and /dev/null is not one"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", "--name=t", "--filename=" + dir("x"), "--size=64k"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunOutput r = run_binary(args);
    EXPECT_NE(r.exit_code, 0) << c.says;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(size_of(dir("x")), -1) << "nothing was created for a refused job";
  }
}

}  // namespace
}  // namespace sluice::testing
