#include "job/option_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <set>

#include "job/option_builders.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

const SourcePos kCli{};
const SourcePos kFile{"job.fio", 12};

std::string option_error_of(JobSpec& job, std::string_view name, std::string_view value,
                            const SourcePos& where = kCli) {
  try {
    apply_option(job, name, value, where);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string option_error_of(std::string_view name, std::string_view value, const SourcePos& where = kCli) {
  JobSpec job;
  return option_error_of(job, name, value, where);
}

JobSpec table_with(std::string_view name, std::string_view value) {
  JobSpec job;
  apply_option(job, name, value, kCli);
  return job;
}

// ---- every entry

TEST(OptionTable, EveryEntryHasHelpAndCategory) {
  for (const OptionDef& def : option_table()) {
    EXPECT_FALSE(def.help.empty()) << def.name;
    EXPECT_FALSE(def.category.empty()) << def.name;
    EXPECT_TRUE(def.apply) << def.name;
  }
}

TEST(OptionTable, EveryDefaultParsesWithItsOwnApply) {
  for (const OptionDef& def : option_table()) {
    if (def.default_text.empty()) {
      EXPECT_FALSE(def.reason.empty()) << def.name << " has no default and no reason";
      continue;
    }
    JobSpec job;
    EXPECT_NO_THROW(def.apply(job, def.default_text, kCli)) << def.name << "=" << def.default_text;
  }
}

TEST(OptionTable, UnsupportedEntriesHaveAReason) {
  for (const OptionDef& def : option_table()) {
    if (!def.supported) {
      EXPECT_FALSE(def.reason.empty()) << def.name;
    }
  }
}

TEST(OptionTable, NamesAndAliasesAreUnique) {
  std::set<std::string> seen;
  for (const OptionDef& def : option_table()) {
    EXPECT_TRUE(seen.insert(def.name).second) << def.name;
    for (const std::string& alias : def.aliases) EXPECT_TRUE(seen.insert(alias).second) << alias;
  }
}

TEST(OptionTable, DefaultsMatchAFreshJobSpec) {
  JobSpec fresh;
  JobSpec applied;
  for (const OptionDef& def : option_table()) {
    if (!def.default_text.empty() && def.supported) def.apply(applied, def.default_text, kCli);
  }
  EXPECT_EQ(applied.workload.bs, fresh.workload.bs);
  EXPECT_EQ(applied.workload.rw, fresh.workload.rw);
  EXPECT_EQ(applied.queue.iodepth, fresh.queue.iodepth);
  EXPECT_EQ(applied.workload.rwmixread, fresh.workload.rwmixread);
  EXPECT_EQ(applied.workload.randseed, fresh.workload.randseed);
  EXPECT_EQ(applied.report.percentile_list, fresh.report.percentile_list);
  EXPECT_EQ(applied.target.fallocate, fresh.target.fallocate);
  EXPECT_EQ(applied.target.direct, fresh.target.direct);
  EXPECT_EQ(applied.report.clat_percentiles, fresh.report.clat_percentiles);
  EXPECT_EQ(applied.report.kb_base, fresh.report.kb_base);
  EXPECT_EQ(applied.engine.ioengine, fresh.engine.ioengine);
}

TEST(OptionTable, TakesFiosLocalOptionsOnceRefused) {
  for (const char* name : {"cgroup_nodelete", "cgroup_weight", "cgroup", "block_error_percentiles", "zonecapacity",
                           "max_open_zones", "read_beyond_wp", "zone_reset_frequency"}) {
    const OptionDef* def = find_option(name);
    ASSERT_NE(def, nullptr) << name;
    EXPECT_TRUE(def->supported) << name;
  }
}

// ---- lookup and suggestions

TEST(FindOption, ByNameAndAlias) {
  EXPECT_EQ(find_option("bs")->name, "bs");
  EXPECT_EQ(find_option("blocksize")->name, "bs");
  EXPECT_EQ(find_option("timeout")->name, "runtime");
  EXPECT_EQ(find_option("iodepth_batch")->name, "iodepth_batch_submit");
  EXPECT_EQ(find_option("iodepth_batch_complete")->name, "iodepth_batch_complete_min");
  EXPECT_EQ(find_option("io_limit")->name, "io_size");
  EXPECT_EQ(find_option("wait_for_previous")->name, "stonewall");
  EXPECT_EQ(find_option("readwrite")->name, "rw");
  EXPECT_EQ(find_option("nope"), nullptr);
}

TEST(NearestOption, SuggestsCloseNames) {
  EXPECT_EQ(nearest_option("bsz"), "bs");
  EXPECT_EQ(nearest_option("iodepht"), "iodepth");
  EXPECT_EQ(nearest_option("runtim"), "runtime");
  EXPECT_EQ(nearest_option("numjob"), "numjobs");
  EXPECT_EQ(nearest_option("random_distributoin"), "random_distribution");
}

TEST(NearestOption, NothingWhenFar) { EXPECT_EQ(nearest_option("completelydifferent"), ""); }

TEST(ApplyOption, UnknownOnCommandLineSuggests) {
  EXPECT_EQ(option_error_of("bsz", "4k"), "--bsz=4k: unknown option; did you mean --bs?");
}

TEST(ApplyOption, UnknownInFileSuggests) {
  EXPECT_EQ(option_error_of("bsz", "4k", kFile), "job.fio:12: unknown option 'bsz'; did you mean 'bs'?");
}

TEST(ApplyOption, FiosLateOptionsCheckTheirValues) {
  EXPECT_THAT(option_error_of("verify_offset", "20"), HasSubstr("--verify_offset=20: 0 or at least 40 bytes"));
  EXPECT_EQ(table_with("verify_offset", "1k").verification.verify_offset, 1024u);
  EXPECT_THAT(option_error_of("log_compression", "512"), HasSubstr("between 1024 and 512m"));
  EXPECT_EQ(table_with("log_compression", "64k").logs.log_compression, 65536u);
  EXPECT_THAT(option_error_of("log_hist_coarseness", "7"), HasSubstr("--log_hist_coarseness=7"));
  EXPECT_THAT(option_error_of("rw_sequencer", "identicall"), HasSubstr("did you mean 'identical'"));
  EXPECT_TRUE(table_with("rw_sequencer", "identical").workload.rw_sequencer_identical);
  EXPECT_EQ(table_with("buffer_compress_chunk", "2k").buffers.buffer_compress_chunk, 2048u);
  EXPECT_THAT(option_error_of("log_compression_cpus", "0-x"), HasSubstr("--log_compression_cpus=0-x"));
}

// fio's cmdprio-bssplit.fio: entries sorted by size, 0 % entries dropped, class/level folded into the value.
TEST(ApplyOption, CmdprioBssplitParsesFiosTwoForms) {
  const JobSpec job = table_with("cmdprio_bssplit", "64k/25/1/1:1024k/0:64k/75/3/2:8k/10,1024k/0");
  ASSERT_EQ(job.placement.cmdprio_bssplit[0].size(), 3u);
  EXPECT_EQ(job.placement.cmdprio_bssplit[0][0].size, 8192u);
  EXPECT_EQ(job.placement.cmdprio_bssplit[0][0].ioprio, -1);  // takes cmdprio_class/cmdprio
  EXPECT_EQ(job.placement.cmdprio_bssplit[0][1].ioprio, 0x2001);
  EXPECT_EQ(job.placement.cmdprio_bssplit[0][2].percent, 75u);
  EXPECT_EQ(job.placement.cmdprio_bssplit[0][2].ioprio, 0x6002);
  EXPECT_TRUE(job.placement.cmdprio_bssplit[1].empty());
  const JobSpec both = table_with("cmdprio_percentage", "30");
  EXPECT_EQ(both.placement.cmdprio_percentage[0], 30u);
  EXPECT_EQ(both.placement.cmdprio_percentage[1], 30u);
  EXPECT_EQ(table_with("cmdprio_class", ",2").placement.cmdprio_class[0], 0u);
  EXPECT_EQ(table_with("cmdprio_class", ",2").placement.cmdprio_class[1], 2u);
  EXPECT_THAT(option_error_of("cmdprio_bssplit", "4k/50/4/0"),
              HasSubstr("the class must be a whole number from 1 to 3"));
  EXPECT_THAT(option_error_of("cmdprio", "8"), HasSubstr("--cmdprio=8"));
  EXPECT_TRUE(table_with("log_prio", "1").logs.log_prio);
}

TEST(ApplyOption, BsIsSeqRandTakesTheModesSizes) {
  const auto parsed = [](std::string_view rw) {
    JobSpec job;
    apply_option(job, "bs", "4k,16k", kCli);
    apply_option(job, "bs_is_seq_rand", "1", kCli);
    apply_option(job, "rw", rw, kCli);
    detail::finish_parsed_job(job);
    return job;
  };
  const JobSpec random = parsed("randread");
  EXPECT_EQ(random.workload.bs[0], 16384u);
  EXPECT_EQ(random.workload.bs[1], 16384u);
  EXPECT_EQ(parsed("write").workload.bs[1], 4096u);
}

TEST(ApplyOption, UnsupportedIsRefusedByName) {
  EXPECT_THAT(option_error_of("skip_bad", "1"), HasSubstr("--skip_bad=1: not supported by sluice ("));
  EXPECT_THAT(option_error_of("pool", "x", kFile), HasSubstr("job.fio:12: pool=x: not supported"));
}

TEST(ApplyOption, RecordsGivenValueAndPosition) {
  JobSpec job;
  apply_option(job, "blocksize", "8k", kFile);
  EXPECT_EQ(job.given_options.at("bs"), "8k");
  EXPECT_EQ(job.option_pos.at("bs").line, 12);
}

TEST(ApplyOption, ValueMissingForNonFlag) {
  EXPECT_EQ(option_error_of("iodepth", ""), "--iodepth: value missing; use --iodepth=VALUE");
}

// ---- value errors

TEST(SizeErrors, CommandLineFormat) {
  EXPECT_EQ(option_error_of("bs", "4q"), "--bs=4q: not a size; sizes look like 4k, 1m, 10%");
}

TEST(SizeErrors, FileFormat) {
  EXPECT_EQ(option_error_of("bs", "4q", kFile), "job.fio:12: bs=4q: not a size; sizes look like 4k, 1m, 10%");
}

TEST(SizeErrors, ListQuotesTheWholeValue) {
  EXPECT_EQ(option_error_of("bs", "4k,4q"), "--bs=4k,4q: not a size; sizes look like 4k, 1m, 10%");
}

TEST(ChoiceErrors, ListValuesAndSuggest) {
  EXPECT_EQ(option_error_of("rw", "randwirte"),
            "--rw=randwirte: not one of read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, "
            "randrmw, trimwrite, randtrimwrite; did you mean 'randwrite'?");
}

TEST(RangeErrors, NameTheRange) {
  EXPECT_EQ(option_error_of("iodepth", "0"), "--iodepth=0: out of range 1-65536");
  EXPECT_EQ(option_error_of("rwmixread", "101"), "--rwmixread=101: out of range 0-100");
}

TEST(BoolErrors, SayWhatIsAccepted) {
  EXPECT_THAT(option_error_of("direct", "2"), HasSubstr("--direct=2: not a boolean"));
}

TEST(IoEngine, FioEngineNotInSluice) {
  EXPECT_THAT(option_error_of("ioengine", "rbd"),
              HasSubstr("ioengine=rbd is not supported by sluice: fio's Ceph RBD engine (librbd): remote storage "
                        "(supported: psync, sync, libaio, io_uring, mmap, "
                        "null, falloc, ftruncate, filecreate, filestat, filedelete, cpuio, exec, posixaio, pvsync, "
                        "pvsync2, vsync, splice, e4defrag, dircreate, dirstat, dirdelete, page_fault)"));
}

TEST(IoEngine, TypoSuggests) {
  EXPECT_THAT(option_error_of("ioengine", "io_urin"), HasSubstr("did you mean 'io_uring'?"));
}

TEST(IoEngine, Supported) {
  EXPECT_EQ(table_with("ioengine", "io_uring").engine.ioengine, EngineKind::kIoUring);
  EXPECT_EQ(table_with("ioengine", "libaio").engine.ioengine, EngineKind::kLibaio);
  EXPECT_EQ(table_with("ioengine", "null").engine.ioengine, EngineKind::kNull);
}

// ---- per-option semantics

TEST(Bs, SingleValueForAllDirections) {
  EXPECT_EQ(table_with("bs", "64k").workload.bs, (PerDirection<std::uint64_t>{65536, 65536, 65536}));
}

TEST(Bs, TwoValuesTrimFollowsWrite) {
  EXPECT_EQ(table_with("bs", "4k,64k").workload.bs, (PerDirection<std::uint64_t>{4096, 65536, 65536}));
}

TEST(Bs, ThreeValues) {
  EXPECT_EQ(table_with("bs", "4k,64k,8k").workload.bs, (PerDirection<std::uint64_t>{4096, 65536, 8192}));
}

TEST(Bs, LeadingCommaKeepsRead) {
  EXPECT_EQ(table_with("bs", ",64k").workload.bs, (PerDirection<std::uint64_t>{4096, 65536, 65536}));
}

TEST(Bs, TrailingCommaSetsOnlyThatDirection) {
  EXPECT_EQ(table_with("bs", ",64k,").workload.bs, (PerDirection<std::uint64_t>{4096, 65536, 4096}));
}

TEST(Bs, ZeroAndTooManyRejected) {
  EXPECT_THAT(option_error_of("bs", "0"), HasSubstr("at least 1 byte"));
  EXPECT_THAT(option_error_of("bs", "4k,4k,4k,4k"), HasSubstr("at most 3"));
}

TEST(KbBase, ChangesLaterSizes) {
  JobSpec job;
  apply_option(job, "kb_base", "1000", kCli);
  apply_option(job, "bs", "4k", kCli);
  EXPECT_EQ(job.workload.bs[0], 4000u);
  apply_option(job, "bs", "4KiB", kCli);
  EXPECT_EQ(job.workload.bs[0], 4096u);
}

TEST(KbBase, OnlyTwoValues) { EXPECT_THAT(option_error_of("kb_base", "1001"), HasSubstr("not one of 1000, 1024")); }

TEST(Bsrange, DashAndColon) {
  const JobSpec job = table_with("bsrange", "4k-64k,8k:16k");
  EXPECT_EQ(job.workload.bsrange[0].min, 4096u);
  EXPECT_EQ(job.workload.bsrange[0].max, 65536u);
  EXPECT_EQ(job.workload.bsrange[1].min, 8192u);
  EXPECT_EQ(job.workload.bsrange[2].max, 16384u);
}

TEST(Bsrange, MinAboveMaxRejected) { EXPECT_THAT(option_error_of("bsrange", "64k-4k"), HasSubstr("minimum is above")); }

TEST(Bssplit, GivenPercentages) {
  const JobSpec job = table_with("bssplit", "4k/50:64k/50");
  ASSERT_EQ(job.workload.bssplit[0].size(), 2u);
  EXPECT_EQ(job.workload.bssplit[0][1].size, 65536u);
  EXPECT_DOUBLE_EQ(job.workload.bssplit[0][1].percent, 50.0);
  EXPECT_EQ(job.workload.bssplit[2].size(), 2u);
}

TEST(Bssplit, BlanksShareTheRemainder) {
  const JobSpec job = table_with("bssplit", "4k/40:8k:16k/");
  ASSERT_EQ(job.workload.bssplit[0].size(), 3u);
  EXPECT_DOUBLE_EQ(job.workload.bssplit[0][1].percent, 30.0);
  EXPECT_DOUBLE_EQ(job.workload.bssplit[0][2].percent, 30.0);
}

TEST(Bssplit, PerDirection) {
  const JobSpec job = table_with("bssplit", "4k/100,64k/90:128k/10");
  EXPECT_EQ(job.workload.bssplit[0].size(), 1u);
  EXPECT_EQ(job.workload.bssplit[1].size(), 2u);
  EXPECT_EQ(job.workload.bssplit[2].size(), 2u);
}

TEST(Bssplit, OverfullRejected) { EXPECT_THAT(option_error_of("bssplit", "4k/80:8k/30"), HasSubstr("more than 100")); }

TEST(Rw, SuffixSetsSequentialRun) {
  const JobSpec job = table_with("rw", "randread:8");
  EXPECT_EQ(job.workload.rw, RwMode::kRandRead);
  EXPECT_EQ(job.workload.rw_sequential_run, 8u);
}

TEST(Rw, ReadwriteAliasesRw) {
  EXPECT_EQ(table_with("rw", "readwrite").workload.rw, RwMode::kReadWrite);
  EXPECT_EQ(table_with("readwrite", "randrw").workload.rw, RwMode::kRandRW);
}

TEST(Rw, BadSuffixRejected) { EXPECT_THAT(option_error_of("rw", "randread:x"), HasSubstr("':N' suffix")); }

TEST(Rwmix, EachSetsTheOther) {
  EXPECT_EQ(table_with("rwmixwrite", "30").workload.rwmixread, 70u);
  EXPECT_EQ(table_with("rwmixread", "30").workload.rwmixread, 30u);
}

TEST(Filename, ColonSeparatedWithEscape) {
  const JobSpec job = table_with("filename", "/dev/a:/tmp/b\\:c");
  EXPECT_EQ(job.target.filenames, (std::vector<std::string>{"/dev/a", "/tmp/b:c"}));
}

TEST(Size, BytesOrPercent) {
  EXPECT_EQ(table_with("size", "1g").target.size.bytes, 1ULL << 30);
  EXPECT_DOUBLE_EQ(table_with("size", "10%").target.size.percent, 10.0);
  EXPECT_DOUBLE_EQ(table_with("offset", "50%").target.offset.percent, 50.0);
  EXPECT_THAT(option_error_of("size", "120%"), HasSubstr("percentage"));
}

TEST(Buffered, InvertsDirect) {
  EXPECT_TRUE(table_with("buffered", "0").target.direct);
  EXPECT_FALSE(table_with("buffered", "1").target.direct);
}

TEST(Flags, GivenAloneMeanTrue) {
  EXPECT_TRUE(table_with("direct", "").target.direct);
  EXPECT_TRUE(table_with("time_based", "").time.time_based);
  EXPECT_TRUE(table_with("group_reporting", "").report.group_reporting);
}

TEST(Sync, Modes) {
  EXPECT_EQ(table_with("sync", "1").durability.sync, SyncMode::kSync);
  EXPECT_EQ(table_with("sync", "dsync").durability.sync, SyncMode::kDsync);
  EXPECT_EQ(table_with("sync", "0").durability.sync, SyncMode::kNone);
}

TEST(Durations, RuntimeSecondsThinktimeMicroseconds) {
  EXPECT_EQ(table_with("runtime", "30").time.runtime, std::chrono::seconds(30));
  EXPECT_EQ(table_with("timeout", "2m").time.runtime, std::chrono::minutes(2));
  EXPECT_EQ(table_with("thinktime", "100").pacing.thinktime, std::chrono::microseconds(100));
  EXPECT_TRUE(table_with("thinktime_spin", "10").pacing.thinktime_spin_set);
  EXPECT_THAT(option_error_of("runtime", "ten"), HasSubstr("--runtime=ten: not a duration"));
}

TEST(Rate, PerDirection) {
  EXPECT_EQ(table_with("rate", ",5m,").pacing.rate, (PerDirection<std::uint64_t>{0, 5u << 20, 0}));
  EXPECT_EQ(table_with("rate_iops", "100,200").pacing.rate_iops, (PerDirection<std::uint64_t>{100, 200, 200}));
}

TEST(RandomDistribution, KindsAndDefaults) {
  EXPECT_EQ(table_with("random_distribution", "zipf:1.2").workload.random_distribution.kind, DistributionKind::kZipf);
  EXPECT_DOUBLE_EQ(table_with("random_distribution", "zipf:1.2").workload.random_distribution.parameter, 1.2);
  EXPECT_DOUBLE_EQ(table_with("random_distribution", "zipf").workload.random_distribution.parameter, 1.1);
  EXPECT_DOUBLE_EQ(table_with("random_distribution", "pareto").workload.random_distribution.parameter, 0.2);
  EXPECT_DOUBLE_EQ(table_with("random_distribution", "normal:5").workload.random_distribution.parameter, 5.0);
}

TEST(RandomDistribution, Ranges) {
  EXPECT_THAT(option_error_of("random_distribution", "zipf:1"), HasSubstr("not 1.0"));
  EXPECT_THAT(option_error_of("random_distribution", "pareto:1.5"), HasSubstr("between 0 and 1"));
  EXPECT_THAT(option_error_of("random_distribution", "normal:100"), HasSubstr("up to (not including) 100"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned"), HasSubstr("zones follow 'zoned:'"));
}

TEST(RandomDistribution, ZonedAsFioParsesIt) {
  const Distribution d = table_with("random_distribution", "zoned:60/10:30/20:8/30:2/40").workload.random_distribution;
  EXPECT_EQ(d.kind, DistributionKind::kZoned);
  const std::vector<AccessZone> zones = {{60, 10}, {30, 20}, {8, 30}, {2, 40}};
  for (int dir = 0; dir < kNumDirections; ++dir) EXPECT_EQ(d.zones[dir], zones) << dir;
  // fio's rand-zones.fio: a zone without a size shares what the others leave of 100%.
  EXPECT_EQ(table_with("random_distribution", "zoned:50/5:30/15:20/").workload.random_distribution.zones[0],
            (std::vector<AccessZone>{{50, 5}, {30, 15}, {20, 80}}));
  // Per direction like bssplit; an empty element leaves that direction uniform.
  const Distribution rw = table_with("random_distribution", "zoned:100/10,,50/50:50/50").workload.random_distribution;
  EXPECT_EQ(rw.zones[0], (std::vector<AccessZone>{{100, 10}}));
  EXPECT_TRUE(rw.zones[1].empty());
  EXPECT_EQ(rw.zones[2], (std::vector<AccessZone>{{50, 50}, {50, 50}}));
  const Distribution abs =
      table_with("random_distribution", "zoned_abs:60/20g:30/100g:10/500g").workload.random_distribution;
  EXPECT_EQ(abs.kind, DistributionKind::kZonedAbs);
  EXPECT_EQ(abs.zones[1], (std::vector<AccessZone>{{60, 20ull << 30}, {30, 100ull << 30}, {10, 500ull << 30}}));
}

TEST(RandomDistribution, ZonedErrorsNameTheProblem) {
  EXPECT_THAT(option_error_of("random_distribution", "zoned:60/10:30/20"),
              HasSubstr("--random_distribution=zoned:60/10:30/20: the access percentages add up to 90, not 100"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned:50/60:50/60"), HasSubstr("add up to 120% of the region"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned:x/10"), HasSubstr("whole percentage"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned_abs:100"), HasSubstr("needs a size after '/'"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned_abs:100/1q"), HasSubstr("not a size"));
  // Found by the option_value fuzzer: a share beyond uint32_t was cast before its range was checked (UB).
  EXPECT_THAT(option_error_of("random_distribution", "zoned:5/85:5000000000000000000000000000000/9"),
              HasSubstr("whole percentage"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned:nan/10"), HasSubstr("whole percentage"));
  EXPECT_THAT(option_error_of("random_distribution", "zoned:100/nan"), HasSubstr("must be a percentage of the region"));
}

TEST(PercentileList, ParsesAndLimits) {
  EXPECT_EQ(table_with("percentile_list", "99:50").report.percentile_list, (std::vector<double>{50, 99}));
  EXPECT_THAT(option_error_of("percentile_list", "50:101"), HasSubstr("from 0 to 100"));
  EXPECT_THAT(option_error_of("percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21"),
              HasSubstr("at most 20"));
}

TEST(ContinueOnError, FioValuesAreClassBits) {
  EXPECT_EQ(table_with("continue_on_error", "none").errors.continue_on_error, 0u);
  EXPECT_EQ(table_with("continue_on_error", "0").errors.continue_on_error, 0u);
  EXPECT_EQ(table_with("continue_on_error", "read").errors.continue_on_error, 1u);
  EXPECT_EQ(table_with("continue_on_error", "write").errors.continue_on_error, 2u);
  EXPECT_EQ(table_with("continue_on_error", "io").errors.continue_on_error, 3u);
  EXPECT_EQ(table_with("continue_on_error", "verify").errors.continue_on_error, 4u);
  EXPECT_EQ(table_with("continue_on_error", "all").errors.continue_on_error, 0xffffu);
  EXPECT_EQ(table_with("continue_on_error", "1").errors.continue_on_error, 0xffffu);
}

// fio's td_non_fatal_error: the class must be set, and the errno in the class's list (default EIO, EILSEQ).
TEST(ContinueOnError, OnlyListedErrorsOfASetClassPass) {
  const JobSpec io = table_with("continue_on_error", "io");
  EXPECT_TRUE(error_is_non_fatal(io.errors, ErrorClass::kRead, EIO));
  EXPECT_TRUE(error_is_non_fatal(io.errors, ErrorClass::kWrite, EIO));
  EXPECT_FALSE(error_is_non_fatal(io.errors, ErrorClass::kWrite, ENOSPC));
  EXPECT_FALSE(error_is_non_fatal(io.errors, ErrorClass::kVerify, EILSEQ));
  EXPECT_FALSE(error_is_non_fatal(table_with("continue_on_error", "write").errors, ErrorClass::kRead, EIO));
  EXPECT_EQ(error_class_of(true, EILSEQ), ErrorClass::kVerify);
  EXPECT_EQ(error_class_of(false, EIO), ErrorClass::kWrite);
}

TEST(IgnoreError, FiosExampleSetsListsAndClasses) {
  const JobSpec job = table_with("ignore_error", "EAGAIN,ENOSPC:122");  // fio's HOWTO example
  EXPECT_EQ(job.errors.continue_on_error, 3u);
  EXPECT_EQ(job.errors.ignore_errors[0], std::vector<int>({EAGAIN}));
  EXPECT_EQ(job.errors.ignore_errors[1], std::vector<int>({ENOSPC, 122}));
  EXPECT_TRUE(job.errors.ignore_errors[2].empty());
  EXPECT_TRUE(error_is_non_fatal(job.errors, ErrorClass::kWrite, EDQUOT));
  EXPECT_FALSE(error_is_non_fatal(job.errors, ErrorClass::kRead, EIO));  // the list replaces the default
  EXPECT_EQ(table_with("ignore_error", ",0x1c,-5").errors.ignore_errors[1], std::vector<int>({28}));
  EXPECT_EQ(table_with("ignore_error", ",,EILSEQ").errors.continue_on_error, 4u);
  EXPECT_EQ(table_with("ignore_error", "EIO::ENOSPC").errors.ignore_errors[0], std::vector<int>({EIO}));  // stops at ""
}

TEST(IgnoreError, BadValuesAreNamed) {
  EXPECT_THAT(option_error_of("ignore_error", "EFOO"), HasSubstr("unknown error name 'EFOO' (use its number)"));
  EXPECT_THAT(option_error_of("ignore_error", "five"), HasSubstr("'five' is not an error name (EIO) or number (5)"));
  EXPECT_THAT(option_error_of("ignore_error", "0"), HasSubstr("is not an error name"));
  EXPECT_THAT(option_error_of("ignore_error", "EIO,EIO,EIO,EIO"), HasSubstr("at most 3 comma-separated lists"));
  EXPECT_THAT(option_error_of("ignore_error", "EFOO"), HasSubstr("ignore_error=EFOO"));
}

TEST(CacheHints, FioDefaultsAndValues) {
  const JobSpec defaults;
  EXPECT_TRUE(defaults.target.invalidate);
  EXPECT_TRUE(defaults.target.create_fsync);
  EXPECT_FALSE(defaults.target.pre_read);
  EXPECT_FALSE(defaults.target.create_only);
  EXPECT_EQ(defaults.target.fadvise_hint, FadviseHint::kWorkload);
  EXPECT_EQ(table_with("fadvise_hint", "0").target.fadvise_hint, FadviseHint::kNone);
  EXPECT_EQ(table_with("fadvise_hint", "random").target.fadvise_hint, FadviseHint::kRandom);
  EXPECT_EQ(table_with("fadvise_hint", "sequential").target.fadvise_hint, FadviseHint::kSequential);
  EXPECT_EQ(table_with("fadvise_hint", "noreuse").target.fadvise_hint, FadviseHint::kNoReuse);
  EXPECT_FALSE(table_with("invalidate", "0").target.invalidate);
  EXPECT_FALSE(table_with("create_fsync", "0").target.create_fsync);
  EXPECT_TRUE(table_with("pre_read", "1").target.pre_read);
  EXPECT_TRUE(table_with("create_only", "1").target.create_only);
  EXPECT_THAT(option_error_of("fadvise_hint", "randum"), HasSubstr("random"));
  EXPECT_EQ(defaults.target.write_hint, 0);
  EXPECT_EQ(table_with("write_hint", "none").target.write_hint, 1);
  EXPECT_EQ(table_with("write_hint", "extreme").target.write_hint, 5);
  EXPECT_TRUE(defaults.target.allow_file_create);
  EXPECT_FALSE(table_with("allow_file_create", "0").target.allow_file_create);
}

TEST(ErrorDump, IsABool) {
  EXPECT_FALSE(table_with("error_dump", "0").errors.error_dump);
  EXPECT_TRUE(table_with("error_dump", "1").errors.error_dump);
}

TEST(Fallocate, Modes) {
  EXPECT_EQ(table_with("fallocate", "none").target.fallocate, FallocateMode::kNone);
  EXPECT_EQ(table_with("fallocate", "1").target.fallocate, FallocateMode::kPosix);
  EXPECT_EQ(table_with("fallocate", "keep").target.fallocate, FallocateMode::kKeep);
}

// ---- help

TEST(Help, GroupsByCategory) {
  const std::string help = render_options_help();
  EXPECT_THAT(help, HasSubstr("workload options:"));
  EXPECT_THAT(help, HasSubstr("bs (blocksize)"));
  EXPECT_THAT(help, HasSubstr("KiB/MiB always mean powers of 1024"));
}

TEST(Help, OneOption) {
  const std::string help = render_option_help("bs");
  EXPECT_THAT(help, HasSubstr("aliases:  blocksize"));
  EXPECT_THAT(help, HasSubstr("default:  4k"));
}

TEST(Help, UnknownOptionSuggests) {
  EXPECT_THROW(render_option_help("bsz"), UserError);
  try {
    render_option_help("bsz");
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "unknown option 'bsz'; did you mean 'bs'?");
  }
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(RwModifier, SequentialModeTakesAHoleSize) {
  JobSpec job;
  apply_option(job, "rw", "write:4k", SourcePos{});
  EXPECT_EQ(job.workload.rw, RwMode::kWrite);
  EXPECT_EQ(job.workload.rw_sequential_run, 4096u);
}

TEST(RwModifier, RandomModeTakesACount) {
  JobSpec job;
  apply_option(job, "rw", "randread:8", SourcePos{});
  EXPECT_EQ(job.workload.rw_sequential_run, 8u);
  EXPECT_THROW(apply_option(job, "rw", "randread:4k", SourcePos{}), UserError);
}

TEST(RwModifier, BackwardsOffsetsOfARandomModeAreRefused) {
  JobSpec job;
  try {
    apply_option(job, "rw", "randread:-8", SourcePos{});
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("backwards"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(MemoryOptions, KindsFilesAlignmentAndHugePages) {
  EXPECT_EQ(JobSpec{}.buffers.io_memory.kind, IoMemKind::kMalloc);
  EXPECT_EQ(table_with("mem", "shm").buffers.io_memory.kind, IoMemKind::kShm);
  const JobSpec mapped = table_with("iomem", "mmaphuge:/mnt/huge/f");
  EXPECT_EQ(mapped.buffers.io_memory.kind, IoMemKind::kMmapHuge);
  EXPECT_EQ(mapped.buffers.io_memory.file, "/mnt/huge/f");
  EXPECT_EQ(table_with("mem_align", "512").buffers.io_memory.align, 512u);
  EXPECT_EQ(table_with("hugepage-size", "2m").buffers.io_memory.hugepage_size, 2u << 20);
  EXPECT_THAT(option_error_of("mem", "shm:/x"), HasSubstr("only the mmap kinds take a file"));
  EXPECT_THAT(option_error_of("mem", "cudamalloc"), HasSubstr("GPU memory"));
  EXPECT_THAT(option_error_of("hugepage-size", "3k"), HasSubstr("multiple of 1 MiB"));
}

TEST(TargetOptions, LockfileOpendirUsersAndSchedulers) {
  EXPECT_EQ(table_with("lockfile", "readwrite").target.lockfile, FileLockMode::kReadWrite);
  EXPECT_THAT(option_error_of("lockfile", "exclusiv"), HasSubstr("exclusive"));
  EXPECT_EQ(table_with("opendir", "/data/tree").target.opendir, "/data/tree");
  EXPECT_EQ(table_with("uid", "65534").placement.uid, 65534);
  EXPECT_EQ(JobSpec{}.placement.gid, -1);
  EXPECT_THROW(table_with("gid", "staff"), UserError);
  EXPECT_EQ(table_with("ioscheduler", "mq-deadline").target.ioscheduler, "mq-deadline");
  EXPECT_THROW(table_with("ioscheduler", "[none]"), UserError);
  EXPECT_TRUE(table_with("allow_mounted_write", "1").target.allow_mounted_write);
  EXPECT_TRUE(table_with("unlink_each_loop", "1").target.unlink_each_loop);
  EXPECT_TRUE(table_with("disable_bw", "1").report.disable_bw);
  EXPECT_TRUE(table_with("gtod_reduce", "1").report.disable_bw);
}

TEST(VerifyOptions, TrimVerification) {
  const JobSpec job = table_with("trim_percentage", "25");
  EXPECT_EQ(job.verification.trim_percentage, 25u);
  EXPECT_TRUE(job.verification.trim_verify_zero);
  EXPECT_EQ(table_with("trim_backlog", "16").verification.trim_backlog, 16u);
  EXPECT_EQ(table_with("trim_backlog_batch", "4").verification.trim_backlog_batch, 4u);
  EXPECT_FALSE(table_with("trim_verify_zero", "0").verification.trim_verify_zero);
  EXPECT_THAT(option_error_of("trim_percentage", "101"), HasSubstr("out of range 0-100"));
}

}  // namespace
}  // namespace sluice
