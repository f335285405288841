// The selftest's plan: which checks run on which model, with which truth (lab/truth.h) and tolerance.
#include "selftest/selftest_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "lab/model_source.h"
#include "lab/truth.h"

namespace sluice {
namespace {

ModelSpec model_of(const std::string& name) {
  ModelSpec m = load_model(name);
  m.resize(std::uint64_t{1} << 30);
  return m;
}

const SelftestCheck* find(const std::vector<SelftestCheck>& checks, const std::string& method_part) {
  const auto it = std::find_if(checks.begin(), checks.end(),
                               [&](const SelftestCheck& c) { return c.method.find(method_part) != std::string::npos; });
  return it == checks.end() ? nullptr : &*it;
}

TEST(SelftestPlan, QuickRunsTheQueueingModelTheCliffAndTheSsd) {
  SelftestPlanOptions options;
  options.quick = true;
  const std::vector<SelftestLab> labs = plan_selftest(options);
  ASSERT_EQ(labs.size(), 4u);
  EXPECT_EQ(labs[0].preset, kQueueModelName);
  EXPECT_EQ(labs[0].model_text, queue_model_text());
  EXPECT_EQ(labs[1].preset, "ssd-cliff");
  EXPECT_EQ(labs[1].model.size_bytes, std::uint64_t{256} << 20);
  EXPECT_EQ(labs[1].model.cliff_after_bytes, std::uint64_t{384} << 20);  // 1.5 x the size served
  ASSERT_EQ(labs[1].checks.size(), 2u);
  EXPECT_EQ(labs[1].checks[0].measure, Measure::kFirstRoundIops);
  EXPECT_NEAR(labs[1].checks[0].truth, 9761.7, 0.1);  // fresh: the ssd
  EXPECT_NEAR(labs[1].checks[1].truth, 2484.8, 0.1);  // after the cliff: 8 servers of 3.2 ms
  EXPECT_EQ(labs[2].preset, "ssd");
  EXPECT_TRUE(labs[2].model_text.empty());  // a preset: lab up finds it by name
  EXPECT_EQ(labs[2].model.size_bytes, std::uint64_t{1} << 30);
  ASSERT_EQ(labs[0].checks.size(), 3u);  // the open loop at 0.5 (mean, p99) and 1.5; 0.9 in the full run only
  EXPECT_EQ(labs[3].preset, "ssd");      // quick's class, on ext4
  EXPECT_EQ(labs[3].fs, "ext4");
  ASSERT_EQ(labs[3].checks.size(), 1u);
  EXPECT_EQ(labs[3].checks[0].measure, Measure::kQuickClass);
  EXPECT_EQ(labs[3].checks[0].truth, 1);  // ssd
  options.methods = {"run"};
  ASSERT_EQ(plan_selftest(options).size(), 1u);  // only ssd has run rows in the quick set
}

TEST(SelftestPlan, FullRunCoversRotatingAndCachedModels) {
  std::vector<std::string> names;
  for (const SelftestLab& lab : plan_selftest({})) names.push_back(lab.preset + (lab.fs == "none" ? "" : "+" + lab.fs));
  EXPECT_EQ(names, (std::vector<std::string>{kQueueModelName, "ssd-cliff", "ssd", "sas15k", "sata7k", "raid-wt",
                                             "raid-wb", "iscsi-1g", "raid-wb+ext4", "ramdisk+ext4", "ssd+ext4",
                                             "sas15k+ext4", "sata7k+ext4"}));
}

// raid-wb's 512 MiB cache: its lab is 6 GiB so that the lint's rows have an area under the cache (flagged) and
// one over 10 x it (not flagged); models without a cache keep the device size, a cliff 256 MiB.
TEST(SelftestPlan, LintRowsStraddleTheDeviceCache) {
  ModelSpec raid = model_of("raid-wb");
  EXPECT_EQ(selftest_lab_size(raid, std::uint64_t{1} << 30), std::uint64_t{6} << 30);
  EXPECT_EQ(selftest_lab_size(model_of("ssd"), std::uint64_t{1} << 30), std::uint64_t{1} << 30);
  raid.resize(std::uint64_t{6} << 30);
  SelftestPlanOptions options;
  options.methods = {"lint"};
  const std::vector<SelftestCheck> checks = checks_for_model(raid, options);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].truth, 1);
  EXPECT_NE(std::find(checks[0].sluice_args.begin(), checks[0].sluice_args.end(), "--size=268435456"),
            checks[0].sluice_args.end());
  EXPECT_EQ(checks[1].truth, 0);
  EXPECT_TRUE(checks_for_model(model_of("raid-wt"), options).empty());  // write-through: no cache to flag
}

// quick must name the class the model's own figures give: ramdisk 0.1 ms / 10 000 IOPS is nearer the ramdisk
// class than the ssd's (0.65 against 0.95 decades), each disk its own; behind a 0.2 ms path the ramdisk's 0.1 ms
// cannot be measured and its class would be ssd's (the runner then does not judge it).
TEST(SelftestPlan, QuickClassesAreTheModelsOwn) {
  const std::chrono::nanoseconds none(0);
  EXPECT_EQ(quick_class_truth(model_of("ramdisk"), none), 0);
  EXPECT_EQ(quick_class_truth(model_of("ssd"), none), 1);
  EXPECT_EQ(quick_class_truth(model_of("sas15k"), none), 2);
  EXPECT_EQ(quick_class_truth(model_of("sata7k"), none), 3);
  EXPECT_EQ(quick_class_truth(model_of("ramdisk"), std::chrono::microseconds(120)), 0);
  EXPECT_EQ(quick_class_truth(model_of("ramdisk"), std::chrono::microseconds(200)), 1);
  EXPECT_EQ(quick_class_truth(model_of("ssd"), std::chrono::microseconds(200)), 1);
  // sata7k's 9.86 ms over the whole device; over 40% of it the seeks are shorter (short-stroking): 8.2 ms and 122
  // IOPS, nearer the sas15k class (quick measured 8.46 ms and 120 on a 410 MiB file of a 1 GiB lab).
  const ModelSpec part = confined_model(model_of("sata7k"), kQuickFileFraction);
  EXPECT_NEAR(std::chrono::duration<double>(part.seek_full).count(), 0.0005 + 0.0095 * std::sqrt(0.4), 1e-9);
  EXPECT_EQ(quick_class_truth(part, none), 2);
  EXPECT_EQ(confined_model(model_of("ssd"), 0.4).seek_full, model_of("ssd").seek_full);  // no seeks to shorten
}

// The verdicts compare must give follow from the two models' truths: raid-wb's battery-backed cache is far better
// on fsync'd writes (1 509 against 130 IOPS) and the same on reads (the same disks); iscsi-1g reads far better
// than a 7200 rpm disk.
TEST(SelftestPlan, ComparisonsExpectTheVerdictsOfTheTruths) {
  const std::vector<SelftestComparison> comparisons = plan_comparisons({});
  ASSERT_EQ(comparisons.size(), 3u);
  EXPECT_EQ(comparisons[0].baseline, "raid-wt");
  EXPECT_EQ(comparisons[0].other, "raid-wb");
  EXPECT_EQ(comparisons[0].direction, "write");
  EXPECT_EQ(comparisons[0].check.truth, 1);  // better
  EXPECT_EQ(comparisons[1].direction, "read");
  EXPECT_EQ(comparisons[1].check.truth, 0);  // within noise
  EXPECT_EQ(comparisons[2].other, "iscsi-1g");
  EXPECT_EQ(comparisons[2].check.truth, 1);
  EXPECT_EQ(comparisons[0].job, "fsync");
  SelftestPlanOptions quick;
  quick.quick = true;
  EXPECT_TRUE(plan_comparisons(quick).empty());
}

// The truths are the model's, computed: ssd's 0.8 ms + 4 KiB at 200 MiB/s alone, 8 servers at depth 32.
TEST(SelftestPlan, SsdTruthsComeFromTheModel) {
  const std::vector<SelftestCheck> checks = checks_for_model(model_of("ssd"), {});
  const SelftestCheck* latency = find(checks, "psync, 4 KiB randread, depth 1");
  ASSERT_NE(latency, nullptr);
  EXPECT_EQ(latency->measure, Measure::kReadLatencyMean);
  EXPECT_NEAR(latency->truth, 819'531, 1);
  EXPECT_DOUBLE_EQ(latency->tolerance, 0.15);  // sub-2 ms alone: the path's drift
  const SelftestCheck* iops = find(checks, "io_uring, 4 KiB randread, depth 32");
  ASSERT_NE(iops, nullptr);
  EXPECT_NEAR(iops->truth, 8 / 819.531e-6, 0.5);
  EXPECT_DOUBLE_EQ(iops->tolerance, 0.10);
  EXPECT_FALSE(iops->fio_args.empty());
  const SelftestCheck* knee = find(checks, "the knee");
  ASSERT_NE(knee, nullptr);
  EXPECT_EQ(knee->truth, 8);  // the model's servers
  EXPECT_EQ(knee->rule, Tolerance::kKneeRange);
  EXPECT_TRUE(knee->fio_args.empty());  // fio has no capacity search
}

// The open loop, on the queueing model (8 servers of 4 ms): Poisson arrivals at 0.5, 0.9 and 1.5 of the most the
// device serves; the mean latency grows with the load (M/D/8), and above capacity the truth is the device's most.
TEST(SelftestPlan, OpenLoopRowsFollowQueueingTheory) {
  SelftestPlanOptions options;
  const std::vector<SelftestLab> labs = plan_selftest(options);
  const ModelSpec& queue = labs[0].model;
  const std::vector<SelftestCheck>& checks = labs[0].checks;
  ASSERT_EQ(checks.size(), 8u);  // and capacity at a p99 limit: answer, knee, thrashing, its concurrency
  const SelftestCheck* at = find(checks, "p99 within 11 ms: the concurrency of the answer");
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->truth, 16);
  const SelftestCheck* p99_capacity = find(checks, "capacity, 4 KiB randread, p99 within 11 ms: IOPS");
  ASSERT_NE(p99_capacity, nullptr);  // 2.75 x 4 ms: 2 x 8 servers wait 8 ms, 17 to 24 some 12 ms
  EXPECT_NEAR(p99_capacity->truth, 2000, 1e-6);
  EXPECT_NE(std::find(p99_capacity->sluice_args.begin(), p99_capacity->sluice_args.end(), "--slo-stat=p99"),
            p99_capacity->sluice_args.end());
  const SelftestCheck* half = find(checks, "open loop at 0.5");
  const SelftestCheck* half_p99 = find(checks, "0.5 of capacity (1000/s Poisson), 4 KiB randread: p99");
  ASSERT_NE(half_p99, nullptr);
  EXPECT_EQ(half_p99->measure, Measure::kReadLatencyP99);
  EXPECT_NEAR(half_p99->truth, 5.1697e6, 0.001e6);  // M/D/8 exact (lab/mdc_wait.h); simulated 5.168 ms
  EXPECT_EQ(find(checks, "0.9 of capacity (1800/s Poisson), 4 KiB randread: p99"), nullptr);  // too noisy in 15 s
  const SelftestCheck* busy = find(checks, "open loop at 0.9");
  const SelftestCheck* over = find(checks, "open loop at 1.5");
  ASSERT_TRUE(half && busy && over);
  EXPECT_NEAR(device_max_iops(queue, false, 4096), 2000, 1e-6);
  EXPECT_GT(half->truth, 4e6);  // a service alone is 4 ms; at half load a request rarely waits
  EXPECT_LT(half->truth, 4.1e6);
  EXPECT_GT(busy->truth, half->truth * 1.1);
  EXPECT_EQ(over->measure, Measure::kReadIops);
  EXPECT_NEAR(over->truth, 2000, 1e-6);
  EXPECT_NE(std::find(over->sluice_args.begin(), over->sluice_args.end(), "--open_loop=1"), over->sluice_args.end());
  EXPECT_EQ(find(checks_for_model(model_of("ssd"), options), "open loop"), nullptr);  // ssd: no open loop
}

// sata7k alone takes 9.86 ms: the capacity limit is not 10 ms (a coin toss) but 40 ms.
TEST(SelftestPlan, SlowModelGetsALimitWithRoom) {
  const std::vector<SelftestCheck> checks = checks_for_model(model_of("sata7k"), {});
  const SelftestCheck* capacity = find(checks, "capacity");
  ASSERT_NE(capacity, nullptr);
  EXPECT_NE(capacity->method.find("40 ms"), std::string::npos) << capacity->method;
  EXPECT_EQ(find(checks, "open loop"), nullptr);           // a rotating model's open loop needs minutes
  EXPECT_NE(find(checks, "a flush after each"), nullptr);  // 9.9 ms a cycle: the lab's path is 1% of it
}

// ssd's flush costs nothing in the model: less than the lab's path, which a reply cannot beat.
TEST(SelftestPlan, FsyncRowOnlyWhereTheLabServesItFaithfully) {
  EXPECT_EQ(find(checks_for_model(model_of("ssd"), {}), "a flush after each"), nullptr);
  EXPECT_NE(find(checks_for_model(model_of("raid-wb"), {}), "a flush after each"), nullptr);  // flush 0.1 ms
  using std::chrono::microseconds;
  EXPECT_TRUE(fsync_judgeable(model_of("raid-wb"), 1509.4, microseconds(90)));
  EXPECT_FALSE(fsync_judgeable(model_of("raid-wb"), 1509.4, microseconds(216)));  // the path outlasts the flush
  EXPECT_TRUE(fsync_judgeable(model_of("sata7k"), 100.6, microseconds(300)));     // 9.9 ms: 33 paths
}

TEST(SelftestPlan, MethodsChooseTheGroups) {
  SelftestPlanOptions options;
  options.methods = {"fsync"};
  const std::vector<SelftestCheck> checks = checks_for_model(model_of("raid-wb"), options);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].group, "fsync");
  EXPECT_NEAR(checks[0].truth, 1509.4, 0.1);
}

}  // namespace
}  // namespace sluice
