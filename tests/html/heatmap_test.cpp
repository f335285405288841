// The latency heatmap from a clat histogram log: cells add up to the I/Os of the log, columns are capped by
// summing adjacent windows, rows span the latencies seen, and malformed logs are refused with the line.
#include "html/heatmap.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "stats/latency_histogram.h"
#include "support/temp_dir.h"

namespace sluice::html {
namespace {

// One log line: window end `msec`, direction `ddir`, and `count` I/Os of `latency_ns` (fio's bin layout).
std::string line(int msec, int ddir, std::uint64_t latency_ns, std::uint64_t count) {
  std::vector<std::uint64_t> bins(1856, 0);
  bins[static_cast<std::size_t>(LatencyHistogram::bucket_of(latency_ns))] = count;
  std::string out = std::to_string(msec) + ", " + std::to_string(ddir) + ", 4096";
  out.reserve(out.size() + 4 * bins.size() + 24);
  for (std::uint64_t n : bins) {
    out += ", ";
    out += std::to_string(n);  // appended in place: a temporary string per bin was half of the test's time
  }
  out += '\n';
  return out;
}

std::uint64_t cell_sum(const Heatmap& m) {
  std::uint64_t sum = 0;
  for (const auto& column : m.counts) {
    for (std::uint64_t n : column) sum += n;
  }
  return sum;
}

TEST(Heatmap, CellsAddUpToTheLoggedIos) {
  testing::TempDir dir;
  const std::string path = dir.file("run_clat_hist.1.log");
  {
    std::ofstream out(path);
    for (int s = 1; s <= 1000; ++s) {
      out << line(s * 100, 0, 20000 + static_cast<std::uint64_t>(s) * 10, 7);
      if (s % 100 == 0) out << line(s * 100, 1, 5000000, 1);  // a few slow writes
    }
  }
  const std::vector<Heatmap> maps = load_heatmaps(path, 300, 40);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].id, "heatmap-run_clat_hist.1-read");
  EXPECT_EQ(maps[0].total, 7000u);
  EXPECT_EQ(cell_sum(maps[0]), 7000u);
  EXPECT_LE(maps[0].counts.size(), 300u);  // 1000 windows summed in groups of 4
  EXPECT_EQ(maps[0].counts.size(), 250u);
  EXPECT_DOUBLE_EQ(maps[0].t_s.back(), 100.0);
  EXPECT_EQ(maps[0].row_edges_ns.size(), 41u);
  EXPECT_LE(maps[0].row_edges_ns.front(), 20010.0);
  EXPECT_GE(maps[0].row_edges_ns.back(), 30000.0);
  EXPECT_EQ(cell_sum(maps[1]), 10u);
  const std::string svg = render_heatmap_svg(maps[0]);
  EXPECT_NE(svg.find("<title id=\"chart-heatmap-run_clat_hist.1-read-title\">"), std::string::npos);
  EXPECT_NE(svg.find(">time (s)</text>"), std::string::npos);
  EXPECT_NE(svg.find("latency (µs), log scale</text>"), std::string::npos);
  EXPECT_EQ(svg, render_heatmap_svg(maps[0]));
  EXPECT_NE(render_heatmap_csv(maps[1]).find("t_s,lat_low_ns,lat_high_ns,count\n10,"), std::string::npos);
}

TEST(Heatmap, BadLogsNameTheLine) {
  testing::TempDir dir;
  std::ofstream(dir.file("bad.log")) << line(100, 0, 1000, 1) << "hello, world\n";
  try {
    load_heatmaps(dir.file("bad.log"));
    FAIL() << "accepted a bad line";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.log: line 2 is not"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_heatmaps(dir.file("missing.log")), UserError);
  std::ofstream(dir.file("empty.log")) << line(100, 0, 1000, 0);
  EXPECT_THROW(load_heatmaps(dir.file("empty.log")), UserError);
}

// Found by the hist_log fuzzer (2026-12-01): a bin of 8.9e67 was cast to an integer (undefined behaviour).
TEST(Heatmap, CountsBeyond64BitsAndTooManyBinsAreRefused) {
  testing::TempDir dir;
  std::ofstream(dir.file("huge.log"))
      << "100, 0, 4096, 1, 88888888888888888888888888888888888888888888888888888888888888888888\n";
  try {
    load_heatmaps(dir.file("huge.log"));
    FAIL() << "accepted a count beyond 64 bits";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("huge.log: line 1: bin 1 is not a count"), std::string::npos) << e.what();
  }
  std::string many = "100, 0, 4096";
  for (int i = 0; i <= LatencyHistogram::kNumBuckets; ++i) many += ", 1";
  std::ofstream(dir.file("many.log")) << many << "\n";
  try {
    load_heatmaps(dir.file("many.log"));
    FAIL() << "accepted more bins than a histogram has";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("more than the"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sluice::html
