#include "suites/filetree_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "common/error.h"

namespace sluice {
namespace {

TEST(FiletreePlan, EvenSplitSharesTheTotalExactly) {
  FiletreeOptions o;
  o.total_size = 1000003;
  o.dirs = 4;
  o.files_per_dir = 5;
  const FiletreePlan plan = make_filetree_plan(o);
  ASSERT_EQ(plan.files.size(), 20u);
  EXPECT_EQ(plan.total_bytes, 1000003u);
  std::uint64_t sum = 0;
  std::map<std::uint32_t, int> per_dir;
  for (const PlannedFile& f : plan.files) {
    sum += f.size;
    ++per_dir[f.dir];
    EXPECT_TRUE(f.size == 50000 || f.size == 50001) << f.size;
  }
  EXPECT_EQ(sum, 1000003u);
  ASSERT_EQ(per_dir.size(), 4u);
  for (const auto& [dir, count] : per_dir) EXPECT_EQ(count, 5) << dir;
}

TEST(FiletreePlan, DefaultIsOneGibInSixteenDirectoriesOfSixtyFourFiles) {
  const FiletreePlan plan = make_filetree_plan(FiletreeOptions{});
  EXPECT_EQ(plan.total_bytes, 1ull << 30);
  EXPECT_EQ(plan.files.size(), 1024u);
  EXPECT_EQ(plan.files.front().size, 1u << 20);
}

TEST(FiletreePlan, PathsAreUniqueAndNamedByDirectory) {
  FiletreeOptions o;
  o.total_size = 1 << 20;
  o.dirs = 3;
  o.files_per_dir = 4;
  const FiletreePlan plan = make_filetree_plan(o);
  std::set<std::string> paths;
  for (const PlannedFile& f : plan.files) paths.insert(plan.file_path(f));
  EXPECT_EQ(paths.size(), plan.files.size());
  EXPECT_EQ(plan.file_path(plan.files[5]), "d0001/f000005");
}

TEST(FiletreePlan, ModesVarySoACopyThatDropsThemShows) {
  FiletreeOptions o;
  o.total_size = 1 << 20;
  o.dirs = 1;
  o.files_per_dir = 22;
  const FiletreePlan plan = make_filetree_plan(o);
  std::set<mode_t> modes;
  for (const PlannedFile& f : plan.files) modes.insert(f.mode);
  EXPECT_EQ(modes, (std::set<mode_t>{0600, 0644, 0755}));
}

TEST(FiletreePlan, DistributionReachesTheTotalAndFollowsTheWeights) {
  FiletreeOptions o;
  o.total_size = 64ull << 20;
  o.dirs = 8;
  o.file_sizes = parse_file_size_spec("4k/75:64k/25");
  const FiletreePlan plan = make_filetree_plan(o);
  EXPECT_EQ(plan.total_bytes, o.total_size);
  std::size_t small = 0;
  for (const PlannedFile& f : plan.files) small += f.size == 4096 ? 1 : 0;
  const double share = static_cast<double>(small) / static_cast<double>(plan.files.size());
  EXPECT_NEAR(share, 0.75, 0.03);
  EXPECT_EQ(plan.files[9].dir, 1u);  // dealt round-robin
}

TEST(FiletreePlan, SameSeedSameTreeOtherSeedOtherTree) {
  FiletreeOptions o;
  o.total_size = 4 << 20;
  o.file_sizes = parse_file_size_spec("4k/1:16k/1:64k/1");
  const FiletreePlan a = make_filetree_plan(o);
  const FiletreePlan b = make_filetree_plan(o);
  o.seed = 7;
  const FiletreePlan c = make_filetree_plan(o);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (std::size_t i = 0; i < a.files.size(); ++i) EXPECT_EQ(a.files[i].size, b.files[i].size);
  bool differs = a.files.size() != c.files.size();
  for (std::size_t i = 0; !differs && i < a.files.size(); ++i) differs = a.files[i].size != c.files[i].size;
  EXPECT_TRUE(differs);
}

TEST(FileSizeSpec, ParsesOneSizeAndWeightedSizes) {
  const std::vector<FileSizePart> one = parse_file_size_spec("64k");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].size, 65536u);
  const std::vector<FileSizePart> split = parse_file_size_spec("4k/50:1m/20");
  ASSERT_EQ(split.size(), 2u);
  EXPECT_EQ(split[1].size, 1u << 20);
  EXPECT_EQ(split[1].weight, 20u);
  EXPECT_TRUE(parse_file_size_spec("").empty());
}

TEST(FileSizeSpec, RefusesBadSpecsNamingTheOption) {
  for (const char* bad : {"4q", "0", "4k/0", "4k/50:1m", "4k/x", "4k/50:"}) {
    try {
      parse_file_size_spec(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find("--file-size"), std::string::npos) << e.what();
    }
  }
}

TEST(FiletreePlan, RefusesAnEmptyTree) {
  FiletreeOptions o;
  o.dirs = 0;
  EXPECT_THROW(make_filetree_plan(o), UserError);
  o.dirs = 1;
  o.total_size = 0;
  EXPECT_THROW(make_filetree_plan(o), UserError);
}

TEST(FiletreePlan, RefusesMoreFilesThanTheLimit) {
  FiletreeOptions o;
  o.total_size = 1ull << 40;
  o.file_sizes = parse_file_size_spec("4k");
  EXPECT_THROW(make_filetree_plan(o), UserError);
}

}  // namespace
}  // namespace sluice
