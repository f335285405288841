// The tree and item arithmetic of sluice metadata against mdtest 4.0.0's (mdtest.c, the reference's §5).
#include "suites/metadata_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "common/error.h"
#include "suites/metadata_comm.h"

namespace sluice {
namespace {

MetadataOptions tree(std::uint64_t n, std::uint32_t z, std::uint32_t b) {
  MetadataOptions o;
  o.items = n;
  o.depth = z;
  o.branching = b;
  return o;
}

TEST(MetadataPlan, TreeDirectoriesFollowMdtestsFormula) {
  EXPECT_EQ(metadata_tree_dirs(0, 5), 1u);              // z = 0
  EXPECT_EQ(metadata_tree_dirs(4, 1), 5u);              // b = 1: z + 1
  EXPECT_EQ(metadata_tree_dirs(2, 2), 7u);              // (2^3 - 1) / (2 - 1)
  EXPECT_EQ(metadata_tree_dirs(5, 2), 63u);             // mdtest -z 5 -b 2 (the 3.3.0 sample run)
  EXPECT_EQ(metadata_tree_dirs(3, 10), 1111u);          // (10^4 - 1) / 9
  EXPECT_EQ(metadata_tree_dirs(64, 1000), UINT64_MAX);  // saturates instead of overflowing
}

TEST(MetadataPlan, ItemsAreRoundedDownToAMultipleOfTheTreeAsMdtestDoes) {
  const MetadataPlan p = make_metadata_plan(tree(100, 2, 2));  // 7 directories
  EXPECT_EQ(p.tree_dirs, 7u);
  EXPECT_EQ(p.items_per_dir, 14u);
  EXPECT_EQ(p.items, 98u);
  const auto says_rounded = [](const MetadataPlan& plan) {
    return std::any_of(plan.notes.begin(), plan.notes.end(),
                       [](const std::string& n) { return n.find("rounded down") != std::string::npos; });
  };
  EXPECT_TRUE(says_rounded(p));
  EXPECT_NE(p.notes[0].find("rounded down to 98"), std::string::npos);

  const MetadataPlan exact = make_metadata_plan(tree(200, 2, 2));
  EXPECT_EQ(exact.items, 196u);  // 200 / 7 = 28 per directory
  const MetadataPlan flat = make_metadata_plan(tree(200, 0, 1));
  EXPECT_EQ(flat.items, 200u);
  EXPECT_EQ(flat.items_per_dir, 200u);
  EXPECT_FALSE(says_rounded(flat));
}

TEST(MetadataPlan, ItemsPerDirectoryGiveTheItems) {
  MetadataOptions o = tree(0, 5, 2);
  o.items_per_dir = 10;  // the 3.3.0 sample: -I 10 -z 5 -b 2
  const MetadataPlan p = make_metadata_plan(o);
  EXPECT_EQ(p.items, 630u);
  EXPECT_EQ(p.items_per_dir, 10u);
  o.items = 630;  // consistent with -I: accepted
  EXPECT_EQ(make_metadata_plan(o).items, 630u);
}

TEST(MetadataPlan, RefusesImpossibleTreesBeforeAnythingIsCreated) {
  EXPECT_THROW(make_metadata_plan(tree(0, 0, 1)), UserError);     // no items at all
  EXPECT_THROW(make_metadata_plan(tree(5, 2, 2)), UserError);     // fewer items than the 7 directories
  EXPECT_THROW(make_metadata_plan(tree(100, 30, 2)), UserError);  // 2^31 - 1 directories
  EXPECT_THROW(make_metadata_plan(tree(100, 64, 1000)), UserError);
  MetadataOptions o = tree(105, 0, 1);
  o.items_per_dir = 10;  // mdtest: "items must be a multiple of items per directory"
  try {
    make_metadata_plan(o);
    FAIL() << "accepted -n 105 -I 10";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("multiple"), std::string::npos) << e.what();
  }
  o.items = 100;
  o.unique_dir = true;  // mdtest: "only specify the number of items or the number of items per directory"
  EXPECT_THROW(make_metadata_plan(o), UserError);
  MetadataOptions many = tree(1u << 20, 0, 1);
  many.threads = 128;  // 2^27 items in all
  EXPECT_THROW(make_metadata_plan(many), UserError);
  MetadataOptions reads = tree(10, 0, 1);
  reads.read_bytes = 4096;  // more than -w 0
  EXPECT_THROW(make_metadata_plan(reads), UserError);
  MetadataOptions huge = tree(10, 0, 1);
  huge.write_bytes = huge.read_bytes = 2ull << 30;
  EXPECT_THROW(make_metadata_plan(huge), UserError);
}

TEST(MetadataPlan, PhaseSelectionStillCreatesAndRemoves) {
  MetadataOptions o = tree(10, 0, 1);
  o.only_stat = true;
  const MetadataPlan p = make_metadata_plan(o);
  const auto at = [](const std::array<bool, kMetadataPhaseCount>& a, MetadataPhase ph) {
    return a[static_cast<std::size_t>(ph)];
  };
  EXPECT_TRUE(at(p.runs, MetadataPhase::kFileCreate));
  EXPECT_FALSE(at(p.reported, MetadataPhase::kFileCreate));
  EXPECT_TRUE(at(p.reported, MetadataPhase::kFileStat));
  EXPECT_TRUE(at(p.reported, MetadataPhase::kDirStat));
  EXPECT_FALSE(at(p.runs, MetadataPhase::kFileRead));
  EXPECT_TRUE(at(p.runs, MetadataPhase::kTreeRemove));
  EXPECT_FALSE(at(p.reported, MetadataPhase::kTreeRemove));
  EXPECT_FALSE(at(p.runs, MetadataPhase::kDirRename));

  MetadataOptions files = tree(10, 0, 1);
  files.files_only = true;
  const MetadataPlan f = make_metadata_plan(files);
  EXPECT_FALSE(at(f.runs, MetadataPhase::kDirCreate));
  EXPECT_TRUE(at(f.reported, MetadataPhase::kFileRead));
  EXPECT_FALSE(f.dir_test);
}

TEST(MetadataPlan, TreePathsNestHeapNumberedDirectories) {
  EXPECT_EQ(metadata_tree_path(0, 2, "mdtest_tree"), "mdtest_tree.0");
  EXPECT_EQ(metadata_tree_path(4, 2, "mdtest_tree"), "mdtest_tree.0/mdtest_tree.1/mdtest_tree.4");
  EXPECT_EQ(metadata_tree_path(6, 2, "mdtest_tree.3"), "mdtest_tree.3.0/mdtest_tree.3.2/mdtest_tree.3.6");
  EXPECT_EQ(metadata_tree_path(2, 1, "t"), "t.0/t.1/t.2");
  EXPECT_EQ(metadata_tree_base(false, 3), "mdtest_tree");
  EXPECT_EQ(metadata_tree_base(true, 3), "mdtest_tree.3");
}

TEST(MetadataPlan, PreorderVisitsParentsFirstAsMdtestCreatesThem) {
  EXPECT_EQ(metadata_tree_preorder(2, 2), (std::vector<std::uint64_t>{0, 1, 3, 4, 2, 5, 6}));
  EXPECT_EQ(metadata_tree_preorder(0, 4), (std::vector<std::uint64_t>{0}));
  const std::vector<std::uint64_t> big = metadata_tree_preorder(3, 10);
  EXPECT_EQ(big.size(), metadata_tree_dirs(3, 10));
}

TEST(MetadataComm, ThreadsReduceCountsAndTimesAcrossRanks) {
  constexpr std::uint32_t kRanks = 4;
  ThreadTeam team(kRanks);
  std::vector<std::uint64_t> sums(kRanks);
  std::vector<double> maxima(kRanks);
  std::vector<std::uint64_t> second(kRanks);
  {
    std::vector<std::jthread> threads;
    for (std::uint32_t r = 0; r < kRanks; ++r) {
      threads.emplace_back([&, r] {
        const auto comm = team.member(r);
        comm->barrier();
        sums[r] = comm->sum(r + 1);
        maxima[r] = comm->max(static_cast<double>(r) * 0.5);
        second[r] = comm->sum(10);  // the slots are reused safely
      });
    }
  }
  for (std::uint32_t r = 0; r < kRanks; ++r) {
    EXPECT_EQ(sums[r], 10u);
    EXPECT_DOUBLE_EQ(maxima[r], 1.5);
    EXPECT_EQ(second[r], 40u);
  }
}

}  // namespace
}  // namespace sluice
