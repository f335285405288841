#include "suites/filetree_steps.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "common/error.h"
#include "common/stop_signal.h"
#include "suites/filetree_tar.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

FiletreePlan small_plan() {
  FiletreeOptions o;
  o.total_size = 3 << 20;
  o.dirs = 3;
  o.file_sizes = parse_file_size_spec("1k/2:100k/2:1500k/1");  // within one 1 MiB call and across two
  return make_filetree_plan(o);
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct stat stat_of(const std::string& path) {
  struct stat s {};
  EXPECT_EQ(::stat(path.c_str(), &s), 0) << path;
  return s;
}

std::size_t entries_under(const std::string& dir) {
  std::size_t n = 0;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) ++n;
  return n;
}

TEST(FiletreeSteps, CreateMakesEveryPlannedFileWithItsSizeAndMode) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  const mode_t umask_before = ::umask(022);
  const StepResult step = create_tree(plan, dir.file("tree"), 3, 1);
  ::umask(umask_before);
  EXPECT_TRUE(step.completed);
  EXPECT_EQ(step.bytes, plan.total_bytes);
  EXPECT_EQ(step.files, plan.files.size());
  EXPECT_GT(step.seconds, 0);
  for (const PlannedFile& f : plan.files) {
    const struct stat s = stat_of(dir.file("tree/" + plan.file_path(f)));
    EXPECT_EQ(static_cast<std::uint64_t>(s.st_size), f.size);
    EXPECT_EQ(s.st_mode & 07777, f.mode) << plan.file_path(f);
  }
  EXPECT_EQ(step.latency.of(FileOp::kCreate).histogram.total(), plan.files.size());
  EXPECT_EQ(step.latency.of(FileOp::kMkdir).histogram.total(), plan.dirs + 1u);
  EXPECT_EQ(step.latency.of(FileOp::kSync).histogram.total(), 1u);
}

TEST(FiletreeSteps, CreatedDataIsRandomAndNoTwoBlocksAreEqual) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  create_tree(plan, dir.file("tree"), 1, 1);
  std::set<std::string> blocks;
  std::size_t total = 0;
  for (const PlannedFile& f : plan.files) {
    const std::string data = contents(dir.file("tree/" + plan.file_path(f)));
    for (std::size_t at = 0; at + 4096 <= data.size(); at += 4096, ++total) blocks.insert(data.substr(at, 4096));
  }
  EXPECT_GT(total, 500u);
  EXPECT_EQ(blocks.size(), total);
}

TEST(FiletreeSteps, ReadReadsEveryByte) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  create_tree(plan, dir.file("tree"), 2, 1);
  const StepResult step = read_tree(plan, dir.file("tree"), 2);
  EXPECT_TRUE(step.completed);
  EXPECT_EQ(step.bytes, plan.total_bytes);
  EXPECT_EQ(step.files, plan.files.size());
  EXPECT_EQ(step.latency.of(FileOp::kOpen).histogram.total(), plan.files.size());
}

TEST(FiletreeSteps, CopyKeepsDataModesAndTimesAsCpA) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  const std::string tree = dir.file("tree");
  create_tree(plan, tree, 2, 1);
  // Times in the past, so a copy that stamps "now" shows.
  const timespec old_times[2] = {{1000000000, 123456789}, {1100000000, 987654321}};
  for (const PlannedFile& f : plan.files) ::utimensat(AT_FDCWD, (tree + "/" + plan.file_path(f)).c_str(), old_times, 0);
  ::chmod((tree + "/d0001").c_str(), 0750);
  for (std::uint32_t d = 0; d < plan.dirs; ++d)
    ::utimensat(AT_FDCWD, (tree + "/" + FiletreePlan::dir_name(d)).c_str(), old_times, 0);
  const StepResult step = copy_tree(plan, tree, dir.file("copy"), 3);
  EXPECT_TRUE(step.completed);
  EXPECT_EQ(step.bytes, plan.total_bytes);
  EXPECT_EQ(step.files, plan.files.size());
  for (const PlannedFile& f : plan.files) {
    const std::string from = tree + "/" + plan.file_path(f);
    const std::string to = dir.file("copy/" + plan.file_path(f));
    EXPECT_EQ(contents(from), contents(to)) << to;
    const struct stat a = stat_of(from);
    const struct stat b = stat_of(to);
    EXPECT_EQ(a.st_mode, b.st_mode) << to;
    EXPECT_EQ(b.st_mtim.tv_sec, 1100000000) << to;
    EXPECT_EQ(b.st_mtim.tv_nsec, 987654321) << to;
  }
  for (std::uint32_t d = 0; d < plan.dirs; ++d) {
    const struct stat a = stat_of(tree + "/" + FiletreePlan::dir_name(d));
    const struct stat b = stat_of(dir.file("copy/" + FiletreePlan::dir_name(d)));
    EXPECT_EQ(a.st_mode, b.st_mode);
    EXPECT_EQ(b.st_mtim.tv_sec, 1100000000);
  }
}

TEST(FiletreeSteps, TarIsListedAndExtractedByGnuTarAsTheTree) {
  if (!fs::exists("/usr/bin/tar")) GTEST_SKIP() << "/usr/bin/tar is not installed";
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  const std::string tree = dir.file("tree");
  create_tree(plan, tree, 2, 1);
  const StepResult step = write_tar(plan, tree, dir.file("tree.tar"));
  EXPECT_TRUE(step.completed);
  EXPECT_EQ(step.files, plan.files.size());
  EXPECT_EQ(step.bytes, fs::file_size(dir.file("tree.tar")));
  EXPECT_EQ(step.bytes % 10240, 0u);  // whole 10 KiB records, as tar writes them
  testing::RunOptions tar;
  tar.program = "/usr/bin/tar";
  const testing::RunOutput list = testing::run_binary({"-tf", dir.file("tree.tar")}, tar);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("tree/" + plan.file_path(plan.files.back())), std::string::npos);
  EXPECT_EQ(static_cast<std::size_t>(std::count(list.out.begin(), list.out.end(), '\n')),
            plan.files.size() + plan.dirs + 1);
  fs::create_directory(dir.file("out"));
  const testing::RunOutput extract = testing::run_binary({"-xpf", dir.file("tree.tar"), "-C", dir.file("out")}, tar);
  ASSERT_EQ(extract.exit_code, 0) << extract.err;
  for (const PlannedFile& f : plan.files) {
    const std::string from = tree + "/" + plan.file_path(f);
    const std::string to = dir.file("out/tree/" + plan.file_path(f));
    EXPECT_EQ(contents(from), contents(to)) << to;
    EXPECT_EQ(stat_of(from).st_mode, stat_of(to).st_mode) << to;
    EXPECT_EQ(stat_of(from).st_mtim.tv_sec, stat_of(to).st_mtim.tv_sec) << to;
  }
}

TEST(FiletreeSteps, ReadTarReadsTheWholeArchive) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  create_tree(plan, dir.file("tree"), 1, 1);
  write_tar(plan, dir.file("tree"), dir.file("tree.tar"));
  const StepResult step = read_tar(dir.file("tree.tar"));
  EXPECT_TRUE(step.completed);
  EXPECT_EQ(step.files, plan.files.size());
  EXPECT_EQ(step.bytes, fs::file_size(dir.file("tree.tar")));
}

TEST(FiletreeSteps, ReadTarRefusesADamagedArchive) {
  testing::TempDir dir;
  const std::string path = dir.make_file("bad.tar", 20000);  // 'x' bytes: no tar header
  EXPECT_THROW(read_tar(path), IoError);
}

TEST(FiletreeSteps, DeleteRemovesBothTreesAndTheArchiveAndNothingElse) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  create_tree(plan, dir.file("tree"), 2, 1);
  copy_tree(plan, dir.file("tree"), dir.file("copy"), 2);
  write_tar(plan, dir.file("tree"), dir.file("tree.tar"));
  dir.make_file("users-file", 10);
  const std::uint64_t archive_size = fs::file_size(dir.file("tree.tar"));
  const StepResult step = delete_trees(plan, {dir.file("tree"), dir.file("copy")}, {dir.file("tree.tar")}, 3);
  EXPECT_TRUE(step.completed);
  EXPECT_EQ(step.files, 2 * plan.files.size() + 1);
  EXPECT_EQ(step.bytes, 2 * plan.total_bytes + archive_size);
  EXPECT_EQ(entries_under(dir.path()), 1u);
  EXPECT_TRUE(fs::exists(dir.file("users-file")));
}

TEST(FiletreeSteps, AStopRequestEndsAStepEarlyAndSaysSo) {
  testing::TempDir dir;
  const FiletreePlan plan = small_plan();
  request_stop();
  const StepResult step = create_tree(plan, dir.file("tree"), 2, 1);
  clear_stop_request();
  EXPECT_FALSE(step.completed);
  EXPECT_EQ(step.files, 0u);
}

}  // namespace
}  // namespace sluice
