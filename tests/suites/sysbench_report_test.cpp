// sysbench fileio's report layout (from real sysbench 1.0.20 output in classic-suites.md) and its percentile.
#include "suites/sysbench_report.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sluice {
namespace {

TEST(SysbenchReport, SizesPrintAsSysbenchDoes) {
  EXPECT_EQ(sysbench_size_text(16384), "16Ki");
  EXPECT_EQ(sysbench_size_text(15.25 * 1024 * 1024), "15.25Mi");
  EXPECT_EQ(sysbench_size_text(2.0 * 1024 * 1024 * 1024), "2Gi");
  EXPECT_EQ(sysbench_size_text(1000), "1000");
}

TEST(SysbenchReport, PercentileIsOnSysbenchsLogGrid) {
  LatencyHistogram h;
  EXPECT_EQ(sysbench_percentile_ms(h, 95), 0.0);
  for (int i = 0; i < 90; ++i) h.record(10'000);     // 0.01 ms
  for (int i = 0; i < 10; ++i) h.record(4'000'000);  // 4 ms
  EXPECT_EQ(sysbench_percentile_ms(h, 0), 0.0);
  // floor(100 * 0.9 + 0.5) = 90th event: still 0.01 ms; the 95th is 4 ms. sysbench's grid steps are ~2.3%.
  EXPECT_NEAR(sysbench_percentile_ms(h, 90), 0.01, 0.01 * 0.012);
  EXPECT_NEAR(sysbench_percentile_ms(h, 95), 4.0, 4.0 * 0.012);
  // A grid value: exp(i / mult + ln 0.001) for an integer i.
  const double mult = 1023 / (std::log(1e5) - std::log(1e-3));
  const double i = (std::log(sysbench_percentile_ms(h, 95)) - std::log(1e-3)) * mult;
  EXPECT_NEAR(i, std::round(i), 1e-6);
}

TEST(SysbenchReport, HistogramTableAsSysbenchPrintsIt) {
  LatencyHistogram h;
  for (int i = 0; i < 76; ++i) h.record(3'956'000);
  for (int i = 0; i < 109; ++i) h.record(4'028'000);
  h.record(192'000);
  const std::string t = render_sysbench_histogram(h);
  EXPECT_EQ(t.rfind("Latency histogram (values are in milliseconds)\n"
                    "       value  ------------- distribution ------------- count\n",
                    0),
            0u)
      << t;
  // The rows of the sample in classic-suites.md (real sysbench 1.0.20 output).
  EXPECT_NE(t.find("       0.192 |                                         1\n"
                   "       3.956 |****************************             76\n"
                   "       4.028 |**************************************** 109\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.substr(t.size() - 2), " \n");
}

SysbenchOptions sample_options() {
  SysbenchOptions o;
  o.total_size = 64 << 20;
  o.file_num = 4;
  o.mode = SysbenchMode::kRndrw;
  o.time_s = 3;
  o.report_interval_s = 1;
  return o;
}

TEST(SysbenchReport, HeaderMatchesSysbench) {
  EXPECT_EQ(render_sysbench_header(sample_options()),
            "Running the test with following options:\n"
            "Number of threads: 1\n"
            "Report intermediate results every 1 second(s)\n"
            "Initializing random number generator from current time\n"
            "\n\n"
            "Extra file open flags: (none)\n"
            "4 files, 16MiB each\n"
            "64MiB total file size\n"
            "Block size 16KiB\n"
            "Number of IO requests: 0\n"
            "Read/Write ratio for combined random IO test: 1.50\n"
            "Periodic FSYNC enabled, calling fsync() each 100 requests.\n"
            "Calling fsync() at the end of test, Enabled.\n"
            "Using synchronous I/O mode\n"
            "Doing random r/w test\n"
            "Initializing worker threads...\n\nThreads started!\n\n");
}

TEST(SysbenchReport, SequentialHeaderHasNoRandomLines) {
  SysbenchOptions o = sample_options();
  o.mode = SysbenchMode::kSeqwr;
  o.o_direct = true;
  o.o_dsync = true;
  o.fsync_freq = 0;
  o.merged_requests = 4;
  o.rand_seed = 5;
  const std::string h = render_sysbench_header(o);
  EXPECT_NE(h.find("Initializing random number generator from seed (5).\n"), std::string::npos);
  EXPECT_NE(h.find("Extra file open flags: dsync directio\n"), std::string::npos);
  EXPECT_NE(h.find("Block size 16KiB\nMerging requests up to 64KiB for sequential IO.\n"
                   "Calling fsync() at the end of test, Enabled.\nUsing synchronous I/O mode\n"
                   "Doing sequential write (creation) test\n"),
            std::string::npos)
      << h;
}

TEST(SysbenchReport, ReportMatchesSysbenchFieldForField) {
  nlohmann::json b;
  b["file_operations"] = {{"reads_per_s", 4012.16}, {"writes_per_s", 2674.78}, {"fsyncs_per_s", 268.47}};
  b["throughput"] = {{"read_MiB_per_s", 62.69}, {"written_MiB_per_s", 41.79}};
  b["general_statistics"] = {{"total_time_s", 3.0204}, {"total_number_of_events", 21007}};
  b["latency_ms"] = {{"min", 0.001},  {"avg", 0.14}, {"max", 7.65}, {"percentile", 95}, {"percentile_value", 0.012},
                     {"sum", 2994.31}};
  b["threads_fairness"] = {{"events_avg", 21007.0},
                           {"events_stddev", 0.0},
                           {"execution_time_avg_s", 2.9943},
                           {"execution_time_stddev_s", 0.0}};
  b["sluice_latency_ms"] = {{"p50", 0.004}};
  b["engine"] = "psync";
  b["seed_used"] = 1;
  b["interrupted"] = false;
  const std::string text = render_sysbench_report(b, nullptr);
  const std::string sysbench =
      "\n"
      "File operations:\n"
      "    reads/s:                      4012.16\n"
      "    writes/s:                     2674.78\n"
      "    fsyncs/s:                     268.47\n"
      "\n"
      "Throughput:\n"
      "    read, MiB/s:                  62.69\n"
      "    written, MiB/s:               41.79\n"
      "\n"
      "General statistics:\n"
      "    total time:                          3.0204s\n"
      "    total number of events:              21007\n"
      "\n"
      "Latency (ms):\n"
      "         min:                                    0.00\n"
      "         avg:                                    0.14\n"
      "         max:                                    7.65\n"
      "         95th percentile:                        0.01\n"
      "         sum:                                 2994.31\n"
      "\n"
      "Threads fairness:\n"
      "    events (avg/stddev):           21007.0000/0.00\n"
      "    execution time (avg/stddev):   2.9943/0.00\n"
      "\n";
  EXPECT_EQ(text.substr(0, sysbench.size()), sysbench);
  EXPECT_NE(text.find("p50=0.004"), std::string::npos);

  b["latency_ms"]["percentile"] = 0;
  EXPECT_NE(render_sysbench_report(b, nullptr).find("         percentile stats:               disabled\n"),
            std::string::npos);
}

TEST(SysbenchReport, IntervalLine) {
  nlohmann::json iv = {{"time_s", 1.0004},
                       {"reads_MiB_per_s", 61.83},
                       {"writes_MiB_per_s", 41.22},
                       {"fsyncs_per_s", 261.82},
                       {"latency_ms_percentile", 0.0123}};
  EXPECT_EQ(render_sysbench_interval(iv, 95),
            "[ 1s ] reads: 61.83 MiB/s writes: 41.22 MiB/s fsyncs: 261.82/s latency (ms,95%): 0.012\n");
}

TEST(SysbenchReport, PrepareReport) {
  SysbenchOptions o;
  o.total_size = 64 << 20;
  o.file_num = 4;
  SysbenchPrepareResult r;
  r.lines = {"Creating file test_file.0"};
  r.bytes_written = 67108864;
  r.seconds = 0.0709;
  EXPECT_EQ(render_sysbench_prepare_intro(o), "4 files, 16384Kb each, 64Mb total\nCreating files for the test...\n");
  EXPECT_EQ(render_sysbench_prepare(o, r),
            "Extra file open flags: (none)\n"
            "Creating file test_file.0\n67108864 bytes written in 0.07 seconds (902.68 MiB/sec).\n");
}

TEST(SysbenchReport, JsonCarriesTheReportsNumbers) {
  SysbenchOptions o = sample_options();
  SysbenchRunResult r;
  r.total_time_s = 2.0;
  r.counts.reads = 300;
  r.counts.writes = 200;
  r.counts.fsyncs = 24;
  r.counts.events = 520;
  r.counts.bytes_read = 300 * 16384;
  r.latency_sum_ns = 1'000'000'000;
  r.threads = {{260, 600'000'000}, {260, 400'000'000}};
  const nlohmann::json j = sysbench_json(o, r);
  EXPECT_DOUBLE_EQ(j["file_operations"]["reads_per_s"].get<double>(), 150.0);
  EXPECT_DOUBLE_EQ(j["file_operations"]["fsyncs_per_s"].get<double>(), 12.0);
  EXPECT_DOUBLE_EQ(j["throughput"]["read_MiB_per_s"].get<double>(), 300 * 16384 / 1048576.0 / 2);
  EXPECT_DOUBLE_EQ(j["latency_ms"]["avg"].get<double>(), 1000.0 / 520);
  EXPECT_DOUBLE_EQ(j["threads_fairness"]["execution_time_avg_s"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["threads_fairness"]["execution_time_stddev_s"].get<double>(), 0.1);
  EXPECT_EQ(j["options"]["file-test-mode"], "rndrw");
}

}  // namespace
}  // namespace sluice
