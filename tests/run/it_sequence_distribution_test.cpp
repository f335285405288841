// random_distribution=sequence and random_sequence_stride (fio master, after 3.42) from the io log: sluice's
// offsets against the blocks worked out by hand from fio's rule (t/sequence.py's: io n goes to sequence[n % L],
// plus (n / L) * L with stride), and fio's offsets against the same lists when the fio of newer_fio.h knows the
// option (SLUICE_NEWER_FIO=/path/to/fio-master). The null engine, or a small temporary file for offset=.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/newer_fio.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// sluice, and the newer fio when it has the options (asked once per test binary).
const std::vector<std::string>& sequence_programs() {
  static const std::vector<std::string> programs = [] {
    std::vector<std::string> p = {"sluice"};
    if (fio_knows_option(newer_fio(), "random_sequence_stride")) {
      p.push_back(newer_fio());
    } else {
      std::fprintf(stderr, "note: %s lacks random_sequence_stride: sluice's own checks only (set SLUICE_NEWER_FIO)\n",
                   newer_fio().c_str());
    }
    return p;
  }();
  return programs;
}

struct LoggedRun {
  RunOutput output;
  std::vector<LoggedIo> ios;
};

LoggedRun run_logged(const std::string& program, const TempDir& tmp, const std::vector<std::string>& job) {
  const std::string log = tmp.file("io.log");
  std::filesystem::remove(log);  // both tools append to an existing io log
  std::vector<std::string> args = {"--name=sq", "--write_iolog=" + log, "--output-format=terse"};
  args.insert(args.end(), job.begin(), job.end());
  RunOptions options;
  if (program == "sluice")
    args.insert(args.begin(), "run");
  else
    options.program = program;
  LoggedRun run{run_binary(args, options), {}};
  run.ios = logged_ios(log);
  return run;
}

// The offsets of the logged ios of `action` in units of `unit` bytes.
std::vector<std::uint64_t> logged_blocks(const std::vector<LoggedIo>& ios, const std::string& action,
                                         std::uint64_t unit = 4096) {
  std::vector<std::uint64_t> out;
  for (const LoggedIo& io : ios) {
    if (io.action == action) out.push_back(io.offset / unit);
  }
  return out;
}

void expect_blocks(const std::vector<std::string>& job, const std::vector<std::uint64_t>& blocks) {
  TempDir tmp;
  for (const std::string& program : sequence_programs()) {
    const LoggedRun run = run_logged(program, tmp, job);
    ASSERT_EQ(run.output.exit_code, 0) << program << ": " << describe(run.output);
    EXPECT_EQ(logged_blocks(run.ios, "read"), blocks) << program;
  }
}

const std::string kSequence = "--random_distribution=sequence:2,0,1";

TEST(SequenceDistribution, RepeatsTheBlocksUntilTheSizeIsDone) {
  // fio's examples/sequence-distribution.fio, job 1 (io_size=24k), and the whole 48 KiB.
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=4k", "--size=48k", "--io_size=24k", kSequence},
                {2, 0, 1, 2, 0, 1});
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=4k", "--size=48k", kSequence},
                {2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1});
}

TEST(SequenceDistribution, StrideWalksTheRegionInGroups) {
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=4k", "--size=48k", kSequence, "--random_sequence_stride=1"},
                {2, 0, 1, 5, 3, 4, 8, 6, 7, 11, 9, 10});
}

TEST(SequenceDistribution, StrideEndsTheJobWhereTheGroupsLeaveTheRegion) {
  // 5 blocks: block 5 of the second group is past them; later loops and time_based go no further.
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=4k", "--size=20k", kSequence, "--random_sequence_stride=1"},
                {2, 0, 1});
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=4k", "--size=24k", "--loops=2", kSequence,
                 "--random_sequence_stride=1"},
                {2, 0, 1, 5, 3, 4});
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=4k", "--size=20k", "--time_based", "--runtime=2s", kSequence,
                 "--random_sequence_stride=1"},
                {2, 0, 1});
}

TEST(SequenceDistribution, BlocksAreOfTheBlockSizeAndStartAtTheOffset) {
  expect_blocks({"--ioengine=null", "--rw=randread", "--bs=8k", "--size=48k", kSequence, "--random_sequence_stride=1"},
                {4, 0, 2, 10, 6, 8});
  TempDir tmp;
  const std::string file = tmp.make_file("data", 32 * 1024);
  expect_blocks({"--ioengine=psync", "--filename=" + file, "--rw=randread", "--bs=4k", "--offset=8k", "--size=24k",
                 kSequence, "--random_sequence_stride=1"},
                {4, 2, 3, 7, 5, 6});
}

TEST(SequenceDistribution, ReadsAndWritesEachFollowTheSequence) {
  TempDir tmp;
  for (const std::string& program : sequence_programs()) {
    const LoggedRun run = run_logged(
        program, tmp,
        {"--ioengine=null", "--rw=randrw", "--bs=4k", "--size=96k", kSequence, "--random_sequence_stride=1"});
    ASSERT_EQ(run.output.exit_code, 0) << program << ": " << describe(run.output);
    EXPECT_EQ(run.ios.size(), 24u) << program;
    for (const std::string action : {"read", "write"}) {
      const std::vector<std::uint64_t> got = logged_blocks(run.ios, action);
      EXPECT_GT(got.size(), 3u) << program << " " << action;
      const std::uint64_t base[] = {2, 0, 1};
      for (std::size_t n = 0; n < got.size(); ++n) EXPECT_EQ(got[n], n / 3 * 3 + base[n % 3]) << program << " " << n;
    }
  }
}

TEST(SequenceDistribution, TheFilesOfAJobShareTheCount) {
  TempDir tmp;
  for (const std::string& program : sequence_programs()) {
    const LoggedRun run = run_logged(program, tmp,
                                     {"--ioengine=null", "--rw=randread", "--bs=4k", "--nrfiles=2", "--size=48k",
                                      kSequence, "--random_sequence_stride=1"});
    ASSERT_EQ(run.output.exit_code, 0) << program << ": " << describe(run.output);
    EXPECT_EQ(logged_blocks(run.ios, "read"), (std::vector<std::uint64_t>{2, 0, 1, 5, 3, 4})) << program;
    ASSERT_EQ(run.ios.size(), 6u) << program;
    for (std::size_t i = 2; i < run.ios.size(); ++i) EXPECT_EQ(run.ios[i].file, run.ios[i - 2].file) << program;
    EXPECT_NE(run.ios[0].file, run.ios[1].file) << program;
  }
}

TEST(SequenceDistribution, AnIndexPastTheFileFailsTheJob) {
  TempDir tmp;
  for (const std::string& program : sequence_programs()) {
    const LoggedRun run = run_logged(
        program, tmp,
        {"--ioengine=null", "--rw=randread", "--bs=4k", "--size=20k", "--random_distribution=sequence:2,0,7"});
    EXPECT_NE(run.output.exit_code, 0) << program;
    if (program == "sluice") {
      EXPECT_NE(run.output.err.find("block index 7 is past the 5 blocks of 4096 bytes"), std::string::npos)
          << run.output.err;
      EXPECT_TRUE(run.ios.empty()) << "refused before any io";
    } else {
      EXPECT_NE(run.output.err.find("out of bounds"), std::string::npos) << run.output.err;
    }
  }
}

// The ramp's end resets the job's statistics and with them the io numbers the sequence follows (fio's
// reset_all_stats zeroes io_issues): the log holds the ramp's ios from n = 0, then the measured ios from n = 0
// again. The ramp's length varies with the machine; only the shape is checked: two runs of the rule, the
// second as many ios as the job reports (fio master: 190 ramp ios then 100 at rate_iops=100, ramp_time=1).
TEST(SequenceDistribution, TheCountStartsOverWhenTheRampEnds) {
  TempDir tmp;
  for (const std::string& program : sequence_programs()) {
    const LoggedRun run =
        run_logged(program, tmp,
                   {"--ioengine=null", "--rw=randwrite", "--bs=4k", "--size=4m", "--random_distribution=sequence:1,0",
                    "--random_sequence_stride=1", "--rate_iops=200", "--ramp_time=500ms", "--time_based",
                    "--runtime=500ms", "--output-format=json"});
    ASSERT_EQ(run.output.exit_code, 0) << program << ": " << describe(run.output);
    const std::vector<std::uint64_t> blocks = logged_blocks(run.ios, "write");
    auto rule = [](std::size_t n) { return static_cast<std::uint64_t>(n / 2 * 2 + (n % 2 == 0 ? 1 : 0)); };
    std::size_t ramp = 0;
    while (ramp < blocks.size() && blocks[ramp] == rule(ramp)) ++ramp;
    ASSERT_GT(ramp, 10u) << program << ": the ramp's ios follow the sequence from its start";
    ASSERT_LT(ramp, blocks.size()) << program << ": the count never started over";
    for (std::size_t i = ramp; i < blocks.size(); ++i) ASSERT_EQ(blocks[i], rule(i - ramp)) << program << " io " << i;
    const auto doc = parse_document(run.output.out.substr(std::min(run.output.out.find('{'), run.output.out.size())));
    ASSERT_TRUE(doc) << run.output.out;
    EXPECT_EQ((*doc)["jobs"][0]["write"]["total_ios"].get<std::uint64_t>(), blocks.size() - ramp)
        << program << ": the measured ios are the second run";
    std::cout << program << ": " << ramp << " ramp ios, then " << blocks.size() - ramp
              << " from the sequence's start\n";
  }
}

TEST(SequenceDistribution, BadListsAreRefused) {
  expect_run_refused({"--name=sq", "--ioengine=null", "--size=20k", "--rw=randread", "--random_distribution=sequence"},
                     "sequence needs its block indices");
  expect_run_refused(
      {"--name=sq", "--ioengine=null", "--size=20k", "--rw=randread", "--random_distribution=sequence:1,x"},
      "sequence element 'x' is not a block index");
}

}  // namespace
}  // namespace sluice::testing
