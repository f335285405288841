// PostMark's report from a run's counters and time() stamps, against the real postmark's output for the
// default configuration (seed 42): the verbose sample when every interval was under a second, and
// `set report terse` from a run whose time() stamps fell 1 s, 1 s and 0 s apart.
#include "suites/postmark_report.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

PostmarkRunResult default_run(std::int64_t start, std::int64_t t_start, std::int64_t t_end, std::int64_t end) {
  PostmarkRunResult r;
  r.counts.created = 764;
  r.counts.deleted = 764;
  r.counts.read = 243;
  r.counts.appended = 257;
  r.counts.bytes_read = 1430770;
  r.counts.bytes_written = 4662068;
  r.counts.bytes_read_float = 1430770.0f;
  r.counts.bytes_written_float = 4662068.0f;
  r.pool_created = 500;
  r.deleted_alone = 528;
  r.transactions_done = 500;
  r.progress_ticks = 10;
  r.start_s = start;
  r.transactions_start_s = t_start;
  r.transactions_end_s = t_end;
  r.end_s = end;
  r.creation_ns = 300'000'000;
  r.transactions_ns = 200'000'000;
  r.deletion_ns = 20'000'000;
  for (int i = 0; i < 243; ++i) r.latencies.read.record(10'000);
  return r;
}

TEST(PostmarkReport, VerboseIsPostmarks) {
  const std::string expected =
      "Time:\n\t1 seconds total\n\t1 seconds of transactions (500 per second)\n\nFiles:\n"
      "\t764 created (764 per second)\n\t\tCreation alone: 500 files (500 per second)\n"
      "\t\tMixed with transactions: 264 files (264 per second)\n\t243 read (243 per second)\n"
      "\t257 appended (257 per second)\n\t764 deleted (764 per second)\n"
      "\t\tDeletion alone: 528 files (528 per second)\n\t\tMixed with transactions: 236 files (236 per second)\n\n"
      "Data:\n\t1.36 megabytes read (1.36 megabytes per second)\n\t4.45 megabytes written (4.45 megabytes per "
      "second)\n";
  EXPECT_EQ(render_postmark_report(default_run(100, 100, 100, 100)), expected);
}

TEST(PostmarkReport, TerseIsPostmarksIncludingItsDeletionAloneQuirk) {
  PostmarkRunResult r = default_run(100, 101, 102, 102);
  r.config.terse = true;
  EXPECT_EQ(render_postmark_report(r),
            "2 1 500.00 382.00 500.00 264.00 243.00 257.00 382.00 528.00 236.00 715385.00 2331034.00\n");
}

TEST(PostmarkReport, NoPostmarkReportForAnIncompleteRunButSluiceSaysWhatItMeasured) {
  PostmarkRunResult r = default_run(100, 100, 100, 100);
  r.end = PostmarkRunResult::End::kInterrupted;
  r.transactions_done = 120;
  EXPECT_EQ(render_postmark_report(r), "");
  const std::string extras = render_postmark_extras(r);
  EXPECT_NE(extras.find("run interrupted after 120 of 500 transactions"), std::string::npos) << extras;
  EXPECT_NE(render_postmark_progress(r).find("interrupted\nDeleting files...Done\n"), std::string::npos);
  EXPECT_FALSE(postmark_run_json(r).contains("postmark"));
}

TEST(PostmarkReport, ExtrasAndJsonCarryExactTimesAndLatency) {
  const PostmarkRunResult r = default_run(100, 100, 100, 100);
  const std::string extras = render_postmark_extras(r);
  EXPECT_NE(
      extras.find("0.520000 seconds total: creation alone 0.300000, transactions 0.200000, deletion alone 0.020000"),
      std::string::npos)
      << extras;
  EXPECT_NE(extras.find("2500.0 transactions per second"), std::string::npos) << extras;
  const nlohmann::json j = postmark_run_json(r);
  EXPECT_EQ(j["end"], "complete");
  EXPECT_EQ(j["postmark"]["created"], 764);
  EXPECT_EQ(j["postmark"]["transactions_per_second"], 500);
  EXPECT_EQ(j["measured"]["bytes_written"], 4662068u);
  EXPECT_DOUBLE_EQ(j["measured"]["transactions_per_second"].get<double>(), 2500.0);
  EXPECT_EQ(j["latency_ns"]["read"]["N"], 243u);
  EXPECT_EQ(j["latency_ns"]["read"]["percentile"]["50.000000"], 10000u);
  EXPECT_EQ(j["latency_ns"]["create"]["N"], 0u);
}

TEST(PostmarkReport, ScaleWordsAreSizesAsPostmarkPrintsThem) {
  EXPECT_EQ(postmark_scale(512), "512 bytes");
  EXPECT_EQ(postmark_scale(10000), "9.77 kilobytes");
  EXPECT_EQ(postmark_scale(1048576), "1.00 megabytes");
  // scalef switches to megabytes only above 1 MiB.
  EXPECT_EQ(postmark_scalef(1048576.0f), "1024.00 kilobytes");
  EXPECT_EQ(postmark_scalef(0.0f), "0.000000 bytes");
}

}  // namespace
}  // namespace sluice
