// The methodology lint on synthetic jobs and facts, and its probe of holes on real files.
#include "method/lint.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "job/validate.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
constexpr std::uint64_t kGiB = 1ull << 30;

// A well-behaved file test: direct, 64 GiB, random, 60 s with ramp.
JobSpec good_job() {
  JobSpec job;
  job.name = "j";
  job.engine.ioengine = EngineKind::kIoUring;
  job.queue.iodepth = 32;
  job.target.direct = true;
  job.workload.rw = RwMode::kRandRead;
  job.time.runtime = 60s;
  job.time.time_based = true;
  job.time.ramp_time = 5s;
  return job;
}

LintTarget file_target(std::uint64_t length) {
  LintTarget t;
  t.path = "/data/f";
  t.region_length = length;
  return t;
}

LintFacts facts_with_memory(std::uint64_t bytes) {
  LintFacts facts;
  facts.memory_bytes = bytes;
  return facts;
}

std::vector<std::string> codes_of(const JobSpec& spec, std::vector<LintTarget> targets, const LintFacts& facts) {
  LintJob job{&spec, std::move(targets)};
  std::vector<std::string> codes;
  for (const Problem& p : lint_before_run({job}, facts)) codes.push_back(p.code);
  return codes;
}

bool has(const std::vector<std::string>& codes, std::string_view code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

TEST(Lint, WellDesignedDirectTestGetsNoWarning) {
  const JobSpec job = good_job();
  EXPECT_TRUE(codes_of(job, {file_target(64 * kGiB)}, facts_with_memory(4 * kGiB)).empty());
}

TEST(Lint, BufferedTestAreaUnderTenTimesRamIsSmall) {
  JobSpec job = good_job();
  job.target.direct = false;
  EXPECT_TRUE(has(codes_of(job, {file_target(16 * kGiB)}, facts_with_memory(2 * kGiB)), kLintSmallTestArea));
}

TEST(Lint, BufferedTestAreaOfTenTimesRamIsNotSmall) {
  JobSpec job = good_job();
  job.target.direct = false;
  EXPECT_FALSE(has(codes_of(job, {file_target(20 * kGiB)}, facts_with_memory(2 * kGiB)), kLintSmallTestArea));
}

TEST(Lint, DirectIoOnDeviceWithUnknownCacheIsNotSmall) {
  const JobSpec job = good_job();
  EXPECT_FALSE(has(codes_of(job, {file_target(1 << 20)}, facts_with_memory(64 * kGiB)), kLintSmallTestArea));
}

TEST(Lint, DirectIoUnderTenTimesAKnownDeviceCacheIsSmall) {
  const JobSpec job = good_job();
  LintFacts facts;
  facts.device_cache_bytes["/data/f"] = 1 * kGiB;
  EXPECT_TRUE(has(codes_of(job, {file_target(4 * kGiB)}, facts), kLintSmallTestArea));
}

TEST(Lint, BufferedIoIsReported) {
  JobSpec job = good_job();
  job.target.direct = false;
  EXPECT_TRUE(has(codes_of(job, {file_target(64 * kGiB)}, LintFacts{}), kLintBufferedIo));
}

TEST(Lint, MmapIsNotReportedAsBuffered) {
  JobSpec job = good_job();
  job.target.direct = false;
  job.engine.ioengine = EngineKind::kMmap;
  EXPECT_FALSE(has(codes_of(job, {file_target(64 * kGiB)}, LintFacts{}), kLintBufferedIo));
}

TEST(Lint, ReadingABlockDeviceMayReadUnwrittenBlocks) {
  const JobSpec job = good_job();
  LintTarget device = file_target(64 * kGiB);
  device.is_block_device = true;
  device.exists = true;
  EXPECT_TRUE(has(codes_of(job, {device}, LintFacts{}), kLintUnwrittenReads));
}

TEST(Lint, WritingABlockDeviceIsNotAnUnwrittenRead) {
  JobSpec job = good_job();
  job.workload.rw = RwMode::kRandWrite;
  LintTarget device = file_target(64 * kGiB);
  device.is_block_device = true;
  device.exists = true;
  EXPECT_FALSE(has(codes_of(job, {device}, LintFacts{}), kLintUnwrittenReads));
}

TEST(Lint, ExistingFileWithHolesIsReported) {
  LintTarget t = file_target(64 * kGiB);
  t.exists = true;
  t.has_unwritten = true;
  EXPECT_TRUE(has(codes_of(good_job(), {t}, LintFacts{}), kLintUnwrittenReads));
}

TEST(Lint, ExistingFullyWrittenFileIsNotReported) {
  LintTarget t = file_target(64 * kGiB);
  t.exists = true;
  t.has_unwritten = false;
  EXPECT_FALSE(has(codes_of(good_job(), {t}, LintFacts{}), kLintUnwrittenReads));
}

TEST(Lint, ExistingFileOfUnknownLayoutIsReported) {
  LintTarget t = file_target(64 * kGiB);
  t.exists = true;
  EXPECT_TRUE(has(codes_of(good_job(), {t}, LintFacts{}), kLintUnwrittenReads));
}

TEST(Lint, NewFileSluiceLaysOutIsNotReported) {
  EXPECT_FALSE(has(codes_of(good_job(), {file_target(64 * kGiB)}, LintFacts{}), kLintUnwrittenReads));
}

TEST(Lint, ZeroBuffersOnWritesAreCompressible) {
  JobSpec job = good_job();
  job.workload.rw = RwMode::kRandWrite;
  job.buffers.zero_buffers = true;
  EXPECT_TRUE(has(codes_of(job, {file_target(64 * kGiB)}, LintFacts{}), kLintCompressibleBuffers));
}

TEST(Lint, CompressPercentageOnWritesIsCompressible) {
  JobSpec job = good_job();
  job.workload.rw = RwMode::kWrite;
  job.buffers.buffer_compress_percentage = 50;
  EXPECT_TRUE(has(codes_of(job, {file_target(64 * kGiB)}, LintFacts{}), kLintCompressibleBuffers));
}

TEST(Lint, ShortRuntimeIsReported) {
  JobSpec job = good_job();
  job.time.runtime = 5s;
  EXPECT_TRUE(has(codes_of(job, {file_target(64 * kGiB)}, LintFacts{}), kLintShortRuntime));
}

TEST(Lint, NoRampTimeOnADeviceIsReported) {
  JobSpec job = good_job();
  job.workload.rw = RwMode::kRandWrite;
  job.time.ramp_time = 0s;
  LintTarget device = file_target(64 * kGiB);
  device.is_block_device = true;
  EXPECT_TRUE(has(codes_of(job, {device}, LintFacts{}), kLintNoRampTime));
  job.time.ramp_size = 1ull << 30;  // a ramp by amount of I/O (fio 3.42) is a ramp too
  EXPECT_FALSE(has(codes_of(job, {device}, LintFacts{}), kLintNoRampTime));
}

TEST(Lint, NullEngineGetsNoWarning) {
  JobSpec job = good_job();
  job.engine.ioengine = EngineKind::kNull;
  job.target.direct = false;
  job.time.runtime = 1s;
  job.buffers.zero_buffers = true;
  job.workload.rw = RwMode::kRandRW;
  EXPECT_TRUE(codes_of(job, {file_target(1 << 20)}, facts_with_memory(64 * kGiB)).empty());
}

TEST(Lint, ClonesOfOneJobShareOneWarning) {
  JobSpec job = good_job();
  job.target.direct = false;
  const LintJob a{&job, {file_target(64 * kGiB)}};
  const LintJob b{&job, {file_target(64 * kGiB)}};
  EXPECT_EQ(lint_before_run({a, b}, LintFacts{}).size(), 1u);
}

TEST(Lint, WarningsNameTheOptionAndWhereItWasSet) {
  JobSpec job = good_job();
  job.target.direct = false;
  job.option_pos["direct"] = SourcePos{"job.fio", 7};
  const std::vector<Problem> problems = lint_before_run({LintJob{&job, {file_target(64 * kGiB)}}}, LintFacts{});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].severity, Problem::Severity::kWarning);
  EXPECT_EQ(problems[0].option, "direct");
  EXPECT_EQ(problems[0].where.describe(), "job.fio:7");
  EXPECT_NE(problems[0].message.find("job j:"), std::string::npos) << problems[0].message;
}

TEST(Lint, SyncEngineIodepthComesFromValidateWithItsCode) {
  JobSpec job = good_job();
  job.engine.ioengine = EngineKind::kPsync;
  const std::vector<Problem> problems = validate(job);
  const auto it =
      std::find_if(problems.begin(), problems.end(), [](const Problem& p) { return p.option == "iodepth"; });
  ASSERT_NE(it, problems.end());
  EXPECT_EQ(it->code, kLintSyncEngineIodepth);
  EXPECT_TRUE(codes_of(job, {file_target(64 * kGiB)}, LintFacts{}).empty());  // not repeated by the lint
}

RunResult result_with_runtime(const std::string& name, std::uint64_t runtime_ns) {
  RunResult result;
  result.groups.emplace_back();
  JobResult job;
  job.name = name;
  job.runtime_ns = runtime_ns;
  result.groups[0].jobs.push_back(job);
  return result;
}

TEST(LintAfterRun, SizeBasedJobMeasuredBrieflyIsShort) {
  JobSpec job = good_job();
  job.time.runtime = 0s;
  job.time.time_based = false;
  const std::vector<Problem> problems = lint_after_run({job}, result_with_runtime("j", 400'000'000));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].code, kLintShortRuntime);
}

TEST(LintAfterRun, ShortRuntimeGivenIsNotRepeatedAfterTheRun) {
  JobSpec job = good_job();
  job.time.runtime = 2s;
  EXPECT_TRUE(lint_after_run({job}, result_with_runtime("j", 2'000'000'000)).empty());
}

TEST(LintAfterRun, InterruptedRunsAreNotJudged) {
  JobSpec job = good_job();
  job.time.runtime = 0s;
  RunResult result = result_with_runtime("j", 1'000'000);
  result.interrupted = true;
  EXPECT_TRUE(lint_after_run({job}, result).empty());
}

TEST(LintFacts, MemoryComesFromTheEnvironment) {
  const LintFacts facts = facts_from_environment(nlohmann::json{{"memory_bytes", 8 * kGiB}});
  ASSERT_TRUE(facts.memory_bytes);
  EXPECT_EQ(*facts.memory_bytes, 8 * kGiB);
  EXPECT_FALSE(facts_from_environment(nlohmann::json::object()).memory_bytes);
}

TEST(LintFacts, ATargetsDeviceCacheComesFromTheEnvironment) {
  const nlohmann::json env = nlohmann::json::parse(R"({
    "devices": [{"name": "loop3", "cache_bytes": 536870912}, {"name": "vda", "cache_bytes": null}],
    "targets": [{"path": "/dev/loop3", "device": "loop3"}, {"path": "/srv/file", "device": "vda"}]})");
  const LintFacts facts = facts_from_environment(env);
  ASSERT_EQ(facts.device_cache_bytes.size(), 1u);
  EXPECT_EQ(facts.device_cache_bytes.at("/dev/loop3"), kGiB / 2);
}

TEST(LintBlock, OneHeadingAndOneLinePerWarningWithItsCode) {
  JobSpec job = good_job();
  job.target.direct = false;
  job.time.runtime = 3s;
  const std::string block = render_lint_block(lint_before_run({LintJob{&job, {file_target(64 * kGiB)}}}, LintFacts{}));
  EXPECT_EQ(std::count(block.begin(), block.end(), '\n'), 2) << block;
  EXPECT_NE(block.find("[buffered-io] job j:"), std::string::npos) << block;
  EXPECT_NE(block.find("[short-runtime] job j:"), std::string::npos) << block;
  EXPECT_TRUE(render_lint_block({}).empty());
}

// Real files: a sparse file has a hole; a written one has none.
class LintProbe : public ::testing::Test {
 protected:
  std::string make_file(const std::string& name, bool write_data) {
    const std::string path = dir_.file(name);
    const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
    EXPECT_GE(fd, 0);
    std::vector<char> block(1 << 20, 'x');
    if (write_data) {
      EXPECT_EQ(::write(fd, block.data(), block.size()), static_cast<ssize_t>(block.size()));
    } else {
      EXPECT_EQ(::ftruncate(fd, static_cast<off_t>(block.size())), 0);
    }
    ::fsync(fd);
    ::close(fd);
    return path;
  }
  testing::TempDir dir_;
};

TEST_F(LintProbe, SparseFileHasUnwrittenRegion) {
  const std::optional<bool> r = region_has_unwritten(make_file("sparse", false), 0, 1 << 20);
  if (!r) GTEST_SKIP() << "the file system under " << dir_.path() << " does not report holes";
  EXPECT_TRUE(*r);
}

TEST_F(LintProbe, WrittenFileHasNoUnwrittenRegion) {
  const std::optional<bool> r = region_has_unwritten(make_file("full", true), 0, 1 << 20);
  if (!r) GTEST_SKIP() << "the file system under " << dir_.path() << " does not report holes";
  EXPECT_FALSE(*r);
}

TEST_F(LintProbe, MissingFileIsUnknown) { EXPECT_FALSE(region_has_unwritten(dir_.file("none"), 0, 4096)); }

}  // namespace
}  // namespace sluice
