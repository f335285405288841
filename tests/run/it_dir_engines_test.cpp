// dircreate, dirstat and dirdelete (fio 3.35's directory engines): one mkdir, stat or rmdir per file name,
// timed; the runner makes the directories dirstat and dirdelete work on, as fio's setup does. Checked under
// strace (the calls each makes) and, where the installed fio has the engines (3.35+; Debian 12's 3.33 has
// not), against fio's counts.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

bool fio_has_engine(const std::string& engine) {
  if (!::sluice::testing::have(::sluice::testing::Feature::kFio)) return false;
  RunOptions options;
  options.program = "fio";
  const RunOutput r = run_binary({"--enghelp"}, options);
  return r.out.find("\t" + engine + "\n") != std::string::npos;
}

int directories_in(const std::string& dir) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) count += entry.is_directory() ? 1 : 0;
  return count;
}

std::vector<std::string> job(const std::string& engine, const std::string& dir) {
  return {"--name=d", "--ioengine=" + engine, "--directory=" + dir, "--nrfiles=10", "--filesize=4k",
          "--bs=4k",  "--output-format=json"};
}

std::uint64_t timed_ops(const RunOutput& r) {
  const std::size_t start = r.out.find('{');
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  return doc ? (*doc)["jobs"][0]["read"]["clat_ns"]["N"].get<std::uint64_t>() : 0;
}

TEST(DirEngines, EachMakesItsCallOncePerName) {
  SLUICE_REQUIRE(kStrace);
  TempDir tmp;
  const std::string dir = tmp.file("tree");
  ::mkdir(dir.c_str(), 0755);
  const std::pair<const char*, const char*> engines[] = {
      {"dircreate", "mkdir"}, {"dirstat", "statx,newfstatat,stat"}, {"dirdelete", "rmdir"}};
  for (const auto& [engine, calls] : engines) {
    const TracedRun r = run_traced("sluice", job(engine, dir), calls, tmp.file(std::string(engine) + ".strace"));
    ASSERT_EQ(r.run.exit_code, 0) << engine << ": " << describe(r.run);
    int on_names = 0;
    for (const std::string& line : r.lines) on_names += line.find(dir + "/d.0.") != std::string::npos ? 1 : 0;
    // dircreate: 10 mkdir; dirstat: the runner's 10 checks and 10 stats of its own plus the engine's 10;
    // dirdelete: 10 rmdir.
    if (std::string(engine) == "dirstat") {
      EXPECT_GE(on_names, 10) << engine;
    } else {
      EXPECT_EQ(on_names, 10) << engine;
    }
    EXPECT_EQ(timed_ops(r.run), 10u) << engine << ": one timed operation per name";
  }
  EXPECT_EQ(directories_in(dir), 0) << "dirdelete removed every directory";
}

TEST(DirEngines, DircreateLeavesItsDirectoriesAndUnlinkRemovesThem) {
  TempDir tmp;
  const std::string dir = tmp.file("tree");
  ::mkdir(dir.c_str(), 0755);
  run_as("sluice", job("dircreate", dir));
  EXPECT_EQ(directories_in(dir), 10);
  std::filesystem::remove_all(dir);
  ::mkdir(dir.c_str(), 0755);
  std::vector<std::string> args = job("dirstat", dir);
  args.emplace_back("--unlink=1");
  run_as("sluice", args);
  EXPECT_EQ(directories_in(dir), 0) << "unlink=1 removes the directories the run made";
}

TEST(DirEngines, AFileWhereADirectoryIsExpectedIsRefused) {
  TempDir tmp;
  const std::string dir = tmp.file("tree");
  ::mkdir(dir.c_str(), 0755);
  run_as("sluice", {"--name=f", "--directory=" + dir, "--nrfiles=1", "--filesize=4k", "--rw=write"});
  expect_run_refused({"--name=f", "--ioengine=dirstat", "--directory=" + dir, "--nrfiles=1", "--filesize=4k"},
                     "works on directories only");
}

TEST(DirEngines, CountsAsFio) {
  if (!fio_has_engine("dircreate")) GTEST_SKIP() << "the installed fio has no dircreate (fio 3.35+)";
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string dir = tmp.file(program);
    ::mkdir(dir.c_str(), 0755);
    for (const std::string engine : {"dircreate", "dirstat", "dirdelete"}) {
      const RunOutput r = run_as(program, job(engine, dir));
      EXPECT_EQ(timed_ops(r), 10u) << program << " " << engine;
    }
    EXPECT_EQ(directories_in(dir), 0) << program;
  }
}

}  // namespace
}  // namespace sluice::testing
