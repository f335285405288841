// sprandom (fio 3.41+ SSD preconditioning) through build/sluice with the null engine and write_iolog, next to
// the fio of tests/support/newer_fio.h when it knows sprandom (SLUICE_NEWER_FIO=/work/fio-3.42/bin/fio): both
// write every logical block, about the physical capacity in total, and the regions of their write streams lose
// the same shares of blocks to later writes. The two random generators differ, so the order and the exact
// counts do too: totals are compared within 1.5%, per-decile counts within five standard deviations.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "support/it_test_util.h"
#include "support/newer_fio.h"
#include "support/temp_dir.h"
#include "workload/sprandom.h"

namespace sluice::testing {
namespace {

constexpr std::uint64_t kSprBlock = 4096;
constexpr std::uint64_t kSprLogical = 64ull << 20;
constexpr int kSprRegions = 100;

// What the writes of one run look like.
struct SprRun {
  std::uint64_t writes = 0;
  std::uint64_t json_ios = 0;
  std::uint64_t json_bytes = 0;
  std::uint64_t distinct = 0;
  std::uint64_t out_of_range = 0;
  std::vector<double> overwritten_per_decile;  // writes written again later, per 10 regions
};

// fio 3.42's sizes, computed here from its formula: physical = logical + ceil(logical x op) rounded up to a
// block; a region is physical / regions, in whole blocks.
std::uint64_t spr_physical_bytes(double op) {
  return (kSprLogical + static_cast<std::uint64_t>(std::ceil(kSprLogical * op)) + kSprBlock - 1) / kSprBlock *
         kSprBlock;
}

std::uint64_t spr_region_writes(double op) { return spr_physical_bytes(op) / kSprRegions / kSprBlock; }

// Runs a null-engine sprandom random-write job of SIZE in sluice or another fio (PROGRAM) with EXTRA options and
// returns its JSON document (none when the output has none; the exit code is expected 0).
std::optional<nlohmann::json> run_sprandom_job(const std::string& program, const std::string& size,
                                               const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--name=spr",     "--ioengine=null", "--rw=randwrite",      "--bs=4k",
                                   "--size=" + size, "--sprandom=1",    "--output-format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  RunOptions options;
  if (program != "sluice")
    options.program = program;
  else
    args.insert(args.begin(), "run");
  const RunOutput r = run_binary(args, options);
  EXPECT_EQ(r.exit_code, 0) << program << ": " << describe(r);
  // fio prints "fio: sprandom sets ..." before its JSON.
  return parse_document(r.out.substr(std::min(r.out.find('{'), r.out.size())));
}

SprRun run_sprandom(const std::string& program, const TempDir& tmp, const std::vector<std::string>& extra, double op) {
  const std::string log = tmp.file(program == "sluice" ? "sluice.iolog" : "fio.iolog");
  std::vector<std::string> options = extra;
  options.push_back("--write_iolog=" + log);
  SprRun run;
  const auto doc = run_sprandom_job(program, "64m", options);
  if (doc) {
    run.json_ios = (*doc)["jobs"][0]["write"]["total_ios"].get<std::uint64_t>();
    run.json_bytes = (*doc)["jobs"][0]["write"]["io_bytes"].get<std::uint64_t>();
  }
  std::vector<std::uint64_t> blocks;
  for (const LoggedIo& io : logged_ios(log)) {
    if (io.action != "write") continue;
    blocks.push_back(io.offset / kSprBlock);
    if (io.offset % kSprBlock != 0 || io.length != kSprBlock || io.offset + io.length > kSprLogical) {
      ++run.out_of_range;
    }
  }
  run.writes = blocks.size();
  std::unordered_map<std::uint64_t, std::size_t> last;
  for (std::size_t i = 0; i < blocks.size(); ++i) last[blocks[i]] = i;
  run.distinct = last.size();
  const std::uint64_t per_region = spr_region_writes(op);
  run.overwritten_per_decile.assign(10, 0.0);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const std::size_t region = i / per_region;
    if (last[blocks[i]] != i && region < static_cast<std::size_t>(kSprRegions)) {
      run.overwritten_per_decile[region / 10] += 1;
    }
  }
  return run;
}

// The model's expectation per decile: region r (of n) keeps validity close to v_gc^(1 - r/(n-1)).
std::vector<double> expected_overwritten_per_decile(double op) {
  const double gc = 1.0 - 1.0 / (0.5 / op + 0.7);
  std::vector<double> deciles(10, 0.0);
  // The last region's repeats are never written (the sequence ends first); its validity is 1 anyway.
  for (int r = 0; r + 1 < kSprRegions; ++r) {
    deciles[r / 10] += (1.0 - std::pow(gc, 1.0 - r / (kSprRegions - 1.0))) * spr_region_writes(op);
  }
  return deciles;
}

void expect_sprandom_run(const std::string& program, const SprRun& run, double op) {
  EXPECT_EQ(run.json_ios, run.writes) << program;
  EXPECT_EQ(run.json_bytes, run.writes * kSprBlock) << program;
  EXPECT_EQ(run.out_of_range, 0u) << program;
  // The budget is the physical capacity (fio sets io_size to it): every block is written unless the repeats
  // used it up first, which leaves the LFSR's last blocks unwritten (fio 3.42 over 64 MiB: 16,378 of 16,384).
  const std::uint64_t logical_blocks = kSprLogical / kSprBlock;
  const std::uint64_t physical_blocks = spr_physical_bytes(op) / kSprBlock;
  EXPECT_LE(run.writes, physical_blocks) << program;
  if (run.writes < physical_blocks) {
    EXPECT_EQ(run.distinct, logical_blocks) << program << ": every block written at least once";
  } else {
    EXPECT_GE(run.distinct, logical_blocks - logical_blocks / 100) << program;
  }
  const double all_regions = static_cast<double>(spr_region_writes(op) * kSprRegions);
  EXPECT_NEAR(static_cast<double>(run.writes), all_regions, 0.015 * all_regions) << program;
  const std::vector<double> expected = expected_overwritten_per_decile(op);
  for (int d = 0; d < 10; ++d) {
    EXPECT_NEAR(run.overwritten_per_decile[d], expected[d], 5.0 * std::sqrt(expected[d]) + 10.0)
        << program << " decile " << d;
  }
}

void compare_with_newer_fio(const TempDir& tmp, const SprRun& ours, const std::vector<std::string>& extra, double op) {
  const std::string fio = newer_fio();
  if (!fio_knows_option(fio, "sprandom")) {
    std::cout << "[ SKIPPED ] comparison: " << fio << " does not know sprandom (set SLUICE_NEWER_FIO)\n";
    return;
  }
  const SprRun theirs = run_sprandom(fio, tmp, extra, op);
  expect_sprandom_run(fio, theirs, op);
  EXPECT_NEAR(static_cast<double>(ours.writes), static_cast<double>(theirs.writes), 0.015 * theirs.writes);
  for (int d = 0; d < 10; ++d) {
    const double spread = 5.0 * std::sqrt(theirs.overwritten_per_decile[d] + ours.overwritten_per_decile[d]) + 10.0;
    EXPECT_NEAR(ours.overwritten_per_decile[d], theirs.overwritten_per_decile[d], spread) << "decile " << d;
  }
  std::cout << "sprandom " << (extra.empty() ? "" : extra[0]) << ": sluice " << ours.writes << " writes, " << fio << " "
            << theirs.writes << "; overwritten per decile (sluice/fio):";
  for (int d = 0; d < 10; ++d)
    std::cout << " " << ours.overwritten_per_decile[d] << "/" << theirs.overwritten_per_decile[d];
  std::cout << "\n";
}

TEST(Sprandom, WritesEveryBlockAndTheSteadyStateShares) {
  TempDir tmp;
  const SprRun ours = run_sprandom("sluice", tmp, {}, 0.15);
  expect_sprandom_run("sluice", ours, 0.15);
  compare_with_newer_fio(tmp, ours, {}, 0.15);
}

TEST(Sprandom, CacheSizeAndOtherOverProvisioning) {
  TempDir tmp;
  const std::vector<std::string> extra = {"--spr_cs=64k", "--spr_op=0.28"};
  const SprRun ours = run_sprandom("sluice", tmp, extra, 0.28);
  expect_sprandom_run("sluice", ours, 0.28);
  compare_with_newer_fio(tmp, ours, extra, 0.28);
}

// The writes of a sprandom job over 16 MiB (JSON total_ios), size-based or time_based.
std::uint64_t sprandom_writes(const std::string& program, const std::vector<std::string>& extra) {
  const auto doc = run_sprandom_job(program, "16m", extra);
  return doc ? (*doc)["jobs"][0]["write"]["total_ios"].get<std::uint64_t>() : 0;
}

// time_based: the plan runs to its end, then fio 3.42 resets the LFSR, writes once more and ends the job (its
// get_next_rand_block after sprandom's td->done): one write more than size-based when the plan, not the
// physical budget, ended the size-based run (16 MiB: fio 4,703 and 4,704, sluice 4,672 and 4,673; one
// region: 4,096 and 4,097 in both), and long before the runtime.
void expect_one_more_when_time_based(const std::string& program, const std::vector<std::string>& extra) {
  std::vector<std::string> timed = extra;
  timed.insert(timed.end(), {"--time_based", "--runtime=60"});
  const auto started = std::chrono::steady_clock::now();
  const std::uint64_t sized_writes = sprandom_writes(program, extra);
  const std::uint64_t timed_writes = sprandom_writes(program, timed);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30)) << program << ": ends with the plan";
  const std::uint64_t physical_blocks = sprandom_physical_bytes(16ull << 20, 0.15, kSprBlock) / kSprBlock;
  ASSERT_LT(sized_writes, physical_blocks) << program << ": the plan ended the size-based run";
  EXPECT_EQ(timed_writes, sized_writes + 1) << program << (extra.empty() ? "" : " " + extra[0]);
  std::cout << program << (extra.empty() ? "" : " " + extra[0]) << ": " << sized_writes << " writes size-based, "
            << timed_writes << " time_based\n";
}

TEST(Sprandom, TimeBasedWritesOneBlockAfterThePlanAsFio) {
  for (const auto& extra : {std::vector<std::string>{}, std::vector<std::string>{"--spr_num_regions=1"}}) {
    expect_one_more_when_time_based("sluice", extra);
    const std::string fio = newer_fio();
    if (!fio_knows_option(fio, "sprandom")) {
      std::cout << "[ SKIPPED ] comparison: " << fio << " does not know sprandom (set SLUICE_NEWER_FIO)\n";
      continue;
    }
    expect_one_more_when_time_based(fio, extra);
  }
}

TEST(Sprandom, RefusesWhatFioRefuses) {
  TempDir tmp;
  const std::vector<std::string> base = {"--name=spr", "--ioengine=null", "--bs=4k", "--size=16m", "--sprandom=1"};
  auto with = [&](std::initializer_list<const char*> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_run_refused(with({"--rw=write"}), "sprandom needs random writes");
  expect_run_refused(with({"--rw=randwrite", "--random_generator=tausworthe"}), "random_generator=lfsr");
  expect_run_refused(with({"--rw=randwrite", "--spr_op=1"}), "spr_op=1");
  // 16 MiB at 15%: regions of 192962 bytes, smaller than a 1 MiB cache (fio: 18 regions allowed).
  expect_run_refused(with({"--rw=randwrite", "--spr_cs=1m"}), "at most 18 regions");
  expect_run_refused(with({"--rw=randwrite", "--spr_num_regions=5000"}), "spr_num_regions=5000");
}

}  // namespace
}  // namespace sluice::testing
