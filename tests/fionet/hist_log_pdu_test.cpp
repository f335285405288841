// The histogram log in fio's IOLOG: the records fio 3.33's client reads, sluice's text log to records and back,
// fio 3.33's server's in-place deltas undone, and what a cut or bin-less transfer leaves.
#include "fionet/hist_log_pdu.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "fionet/bytes.h"
#include "fionet/client_logs.h"
#include "fionet/iolog_pdu.h"
#include "fionet/pdu.h"
#include "fionet/server_logs.h"
#include "support/temp_dir.h"

namespace sluice::fionet {
namespace {

constexpr std::size_t kRecordBytes = 32 + kHistEntryBytes;

HistWindow window_of(std::uint64_t time_ms, std::uint32_t ddir,
                     std::vector<std::pair<std::size_t, std::uint64_t>> set) {
  HistWindow w{.time_ms = time_ms, .ddir = ddir, .block_size = 4096};
  for (const auto& [bin, count] : set) w.bins[bin] = count;
  return w;
}

// The values of each line after its time, ddir and bs; and their sum.
std::vector<std::vector<std::uint64_t>> values_of(const std::string& text) {
  std::vector<std::vector<std::uint64_t>> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::uint64_t> values;
    std::istringstream fields(line);
    int n = 0;
    for (std::string f; std::getline(fields, f, ','); ++n) {
      if (n >= 3) values.push_back(std::stoull(f));
    }
    lines.push_back(values);
  }
  return lines;
}

std::uint64_t sum(const std::vector<std::uint64_t>& v) {
  std::uint64_t s = 0;
  for (const std::uint64_t x : v) s += x;
  return s;
}

TEST(HistLogRecords, LaidOutAsFiosClientReadsThem) {
  std::vector<std::uint8_t> out;
  append_hist_record(out, window_of(300, 1, {{0, 7}, {1855, 2}}));
  ASSERT_EQ(out.size(), kRecordBytes);  // io_sample (32) + io_u_plat_entry (16 + 1856 * 8)
  EXPECT_EQ(get_u64(out.data(), 0), 300u);
  EXPECT_EQ(get_u32(out.data(), 16), 1u);
  EXPECT_EQ(get_u64(out.data(), 24), 4096u);
  EXPECT_EQ(get_u64(out.data(), 32 + 16), 7u);             // bin 0 after the list head
  EXPECT_EQ(get_u64(out.data(), 32 + 16 + 1855 * 8), 2u);  // the last bin
}

// A line of sluice's histogram log: time, ddir, bs and `values` values (a few of them non-zero).
std::string text_line(std::uint64_t time_ms, int ddir, std::size_t values, std::uint64_t seed) {
  std::string line = std::to_string(time_ms) + ", " + std::to_string(ddir) + ", 4096";
  for (std::size_t v = 0; v < values; ++v) {
    const std::uint64_t count = (v * 7 + seed) % 13 == 0 ? (v + seed) % 50 : 0;
    line += ", " + std::to_string(count);
  }
  return line + "\n";
}

std::optional<std::vector<std::uint8_t>> records_of(const std::string& text, unsigned coarseness, std::size_t& bad_line,
                                                    std::uint64_t& count, bool deflated = false) {
  std::istringstream in(text);
  return hist_records_of_log_text(in, coarseness, deflated, bad_line, count);
}

TEST(HistLogRecords, SluicesTextLinesComeBackTheSameForEachCoarseness) {
  for (const unsigned coarseness : {0u, 2u, 6u}) {
    const std::size_t values = kHistBins >> coarseness;
    const std::string text = text_line(100, 0, values, 1) + text_line(100, 1, values, 2) + text_line(200, 0, values, 3);
    std::size_t bad_line = 0;
    std::uint64_t count = 0;
    const auto records = records_of(text, coarseness, bad_line, count);
    ASSERT_TRUE(records) << "coarseness " << coarseness << ", line " << bad_line;
    EXPECT_EQ(count, 3u);
    ASSERT_EQ(records->size(), 3 * kRecordBytes);
    const HistLogText back = hist_log_text_of_records(*records, count, coarseness, false);
    EXPECT_EQ(back.text, text) << "coarseness " << coarseness;
    EXPECT_EQ(back.lines, 3u);
    EXPECT_EQ(back.incomplete, 0u);
    EXPECT_EQ(back.missing_bins, 0u);
    // fio's client sums 2^coarseness bins per value: the value is the first bin of its group, the rest are 0.
    EXPECT_EQ(get_u64(records->data(), 48 + 8 * (std::size_t{1} << coarseness)), 0u);
  }
}

TEST(HistLogRecords, DeflatedAsTheyAreMadeTheyInflateToThePlainRecords) {
  std::string text;
  for (int line = 0; line < 300; ++line) text += text_line(100 * (line / 2 + 1), line % 2, kHistBins, line);
  std::size_t bad_line = 0;
  std::uint64_t count = 0;
  const auto plain = records_of(text, 0, bad_line, count);
  ASSERT_TRUE(plain);
  const auto deflated = records_of(text, 0, bad_line, count, true);
  ASSERT_TRUE(deflated);
  EXPECT_EQ(count, 300u);
  EXPECT_LT(deflated->size(), plain->size() / 10);
  EXPECT_EQ(inflate_transfer(*deflated), plain);
  const auto empty = records_of("", 0, bad_line, count, true);  // a stream with nothing in it
  ASSERT_TRUE(empty);
  EXPECT_EQ(inflate_transfer(*empty), std::vector<std::uint8_t>());
}

TEST(HistLogRecords, ALineOfAnotherCoarsenessOrNotNumbersIsRefusedWithItsNumber) {
  std::size_t bad_line = 0;
  std::uint64_t count = 0;
  const std::string good = text_line(100, 0, 464, 1);
  EXPECT_TRUE(records_of(good, 2, bad_line, count));
  EXPECT_FALSE(records_of(good + text_line(200, 0, 1856, 1), 2, bad_line, count));
  EXPECT_EQ(bad_line, 2u);
  EXPECT_FALSE(records_of(good + text_line(200, 0, 232, 1), 2, bad_line, count));
  EXPECT_EQ(bad_line, 2u);
  EXPECT_FALSE(records_of("100, 0, x, 1\n", 0, bad_line, count));
  EXPECT_EQ(bad_line, 1u);
}

// What fio 3.33's server sends for a direction's windows: each record's bins are its cumulative histogram minus
// the record sent before it (already so reduced), not minus the previous cumulative histogram.
std::vector<std::uint8_t> as_fio_server_sends(const std::vector<HistWindow>& windows) {
  std::map<std::uint32_t, std::vector<std::uint64_t>> cumulative, sent;
  std::vector<std::uint8_t> out;
  for (const HistWindow& w : windows) {
    auto& cum = cumulative.try_emplace(w.ddir, kHistBins, 0).first->second;
    auto& last = sent.try_emplace(w.ddir, kHistBins, 0).first->second;
    HistWindow wire = w;
    for (std::size_t b = 0; b < kHistBins; ++b) {
      cum[b] += w.bins[b];
      wire.bins[b] = cum[b] - last[b];
    }
    last = wire.bins;
    append_hist_record(out, wire);
  }
  return out;
}

std::vector<HistWindow> two_directions_five_windows() {
  std::vector<HistWindow> windows;
  for (std::uint64_t k = 1; k <= 5; ++k) {
    windows.push_back(window_of(100 * k, 0, {{700, 100 + k}, {764, k}}));
    windows.push_back(window_of(100 * k, 1, {{640, 200}, {900 + k, 3}}));
  }
  return windows;
}

TEST(HistLogRecords, FioServersDeltasAreUndoneToEachWindowsCounts) {
  const std::vector<HistWindow> windows = two_directions_five_windows();
  const std::vector<std::uint8_t> wire = as_fio_server_sends(windows);
  const HistLogText fixed = hist_log_text_of_records(wire, windows.size(), 0, true);
  const auto lines = values_of(fixed.text);
  ASSERT_EQ(lines.size(), windows.size());
  for (std::size_t i = 0; i < windows.size(); ++i) EXPECT_EQ(lines[i], windows[i].bins) << "window " << i;
  // Read as they come (fio 3.33's client does so), the sums grow from the third window of a direction on.
  const auto as_sent = values_of(hist_log_text_of_records(wire, windows.size(), 0, false).text);
  // Read window k holds 100 + 2k ios; sent_3 = cumulative_3 - sent_2 = window 1 + window 3.
  EXPECT_EQ(sum(as_sent[0]), 102u);
  EXPECT_EQ(sum(as_sent[2]), 104u);
  EXPECT_EQ(sum(as_sent[4]), 102u + 106u);
}

TEST(HistLogRecords, LogOffsetSamplesAreEightBytesLonger) {
  std::vector<std::uint8_t> wire;
  for (const HistWindow& w : {window_of(100, 0, {{10, 4}}), window_of(200, 0, {{10, 6}})}) {
    std::vector<std::uint8_t> record;
    append_hist_record(record, w);
    put_u32(record.data(), 16, w.ddir | 0x80000000u);                 // LOG_OFFSET_SAMPLE_BIT
    record.insert(record.begin() + 32, {0, 0x10, 0, 0, 0, 0, 0, 0});  // the offset
    wire.insert(wire.end(), record.begin(), record.end());
  }
  ASSERT_EQ(wire.size(), 2 * (kRecordBytes + 8));
  const auto lines = values_of(hist_log_text_of_records(wire, 2, 0, false).text);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0][10], 4u);
  EXPECT_EQ(lines[1][10], 6u);
}

TEST(HistLogRecords, ACutStreamKeepsTheWindowsThatArrivedAndCountsTheLoss) {
  const std::vector<HistWindow> windows = two_directions_five_windows();
  std::vector<std::uint8_t> wire = as_fio_server_sends(windows);
  wire.resize(wire.size() - 100);  // the last record lacks its last 100 bytes: 13 bins
  HistLogText r = hist_log_text_of_records(wire, windows.size(), 0, true);
  EXPECT_EQ(r.lines, windows.size());
  EXPECT_EQ(r.incomplete, 0u);
  EXPECT_EQ(r.missing_bins, 13u);
  EXPECT_EQ(values_of(r.text).back(), windows.back().bins);  // the lost bins were 0
  wire.resize(3 * kRecordBytes + 20);                        // the fourth sample cut
  r = hist_log_text_of_records(wire, windows.size(), 0, true);
  EXPECT_EQ(r.lines, 3u);
  EXPECT_EQ(r.incomplete, windows.size() - 3);
  EXPECT_EQ(r.missing_bins, 0u);
}

TEST(HistLogRecords, BareSamplesAreKnownAsHavingNoBins) {
  // fio 3.33's server without zlib: the samples alone, a pointer in their value field.
  std::vector<std::uint8_t> wire(3 * 32, 0);
  for (int i = 0; i < 3; ++i) put_u64(wire.data(), 32 * i + 8, 0x55d0c0ffee00ull);
  const HistLogText r = hist_log_text_of_records(wire, 3, 0, true);
  EXPECT_TRUE(r.without_bins);
  EXPECT_TRUE(r.text.empty());
}

TEST(HistLogRecords, ProbeOffersZlibOnlyWhenAsked) {
  EXPECT_TRUE(probe_offers_zlib(encode_probe("h", true)));
  EXPECT_FALSE(probe_offers_zlib(encode_probe("h", false)));
}

// The job's logs are named under a temporary directory, so the client's NAME.HOST lands there too.
class HistLogFiles : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(dir_.path().empty()); }

  sluice::testing::TempDir dir_;
};

TEST_F(HistLogFiles, ServerSendsTheJobsHistogramLogAndTheClientWritesTheSameLines) {
  JobSpec job;
  job.control.numjobs = 2;
  job.logs.write_hist_log = dir_.file("h");
  job.logs.log_hist_coarseness = 3;
  job.logs.log_store_compressed = true;  // histogram logs stay text: no .fz
  const std::vector<JobLogFile> files = job_log_files({job});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[1].path, dir_.file("h_clat_hist.2.log"));
  EXPECT_EQ(files[1].type, IoLogType::kHist);
  EXPECT_EQ(files[1].hist_coarseness, 3u);
  EXPECT_FALSE(files[1].stored_compressed);

  const std::string text = text_line(100, 0, 232, 1) + text_line(200, 0, 232, 2);
  std::ofstream(files[0].path) << text;
  std::string problem;
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "compressed" : "plain");
    const auto log = log_for_client(files[0], std::filesystem::file_time_type::min(), compressed, problem);
    ASSERT_TRUE(log) << problem;
    EXPECT_EQ(log->samples, 2u);
    EXPECT_EQ(log->compression, compressed ? IoLogCompression::kTransfer : IoLogCompression::kNone);
    if (compressed) {
      const auto records = inflate_transfer(log->data);
      EXPECT_EQ(records ? records->size() : 0, 2 * kRecordBytes);
    }
    const auto payload = encode_iolog(*log);
    EXPECT_EQ(get_u32(payload.data(), 12), 6u);  // IO_LOG_TYPE_HIST
    EXPECT_EQ(get_u32(payload.data(), 28), 3u);  // log_hist_coarseness
    const auto received = decode_iolog(payload);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->hist_coarseness, 3u);
    const std::string path = save_client_log(*received, "10.0.0.7", false, problem);
    EXPECT_EQ(path, dir_.file("h_clat_hist.1.log.10.0.0.7"));
    EXPECT_TRUE(problem.empty()) << problem;
    std::ifstream in(path);
    std::ostringstream written;
    written << in.rdbuf();
    EXPECT_EQ(written.str(), text);
  }
  std::ofstream(files[1].path) << "100, 0, 4096, 1, 2\n";  // not 232 values
  EXPECT_FALSE(log_for_client(files[1], std::filesystem::file_time_type::min(), false, problem));
  EXPECT_NE(problem.find("h_clat_hist.2.log:1: not a line of fio's histogram log format"), std::string::npos)
      << problem;
}

TEST_F(HistLogFiles, BinlessRecordsAreNotWrittenAndSaySo) {
  IoLog log{.name = dir_.file("h_clat_hist.1.log"),
            .type = IoLogType::kHist,
            .samples = 2,
            .data = std::vector<std::uint8_t>(64)};
  std::string problem;
  EXPECT_EQ(save_client_log(log, "host", true, problem), "");
  EXPECT_NE(problem.find("came without its bins"), std::string::npos) << problem;
  EXPECT_FALSE(std::filesystem::exists(dir_.file("h_clat_hist.1.log.host")));
}

TEST_F(HistLogFiles, ACoarsenessOutOfFiosRangeIsRefused) {
  IoLog log{.name = dir_.file("h_clat_hist.1.log"),
            .type = IoLogType::kHist,
            .samples = 1,
            .hist_coarseness = 64,
            .data = {}};
  append_hist_record(log.data, window_of(100, 0, {{3, 1}}));
  std::string problem;
  EXPECT_EQ(save_client_log(log, "host", true, problem), "");
  EXPECT_NE(problem.find("log_hist_coarseness=64"), std::string::npos) << problem;
  log.hist_coarseness = 6;
  EXPECT_EQ(save_client_log(log, "host", true, problem), dir_.file("h_clat_hist.1.log.host")) << problem;
}

}  // namespace
}  // namespace sluice::fionet
