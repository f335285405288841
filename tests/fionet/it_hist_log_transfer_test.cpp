// End to end: write_hist_log over fio's client/server protocol (IOLOG), on loopback, in the three pairings with
// sluice: sluice server to sluice client, Debian's fio 3.33 server to sluice's client, sluice's server to fio
// 3.33's client. The client's NAME.HOST must hold fio's text histogram log with each window's own counts: the
// job's bins per line for its log_hist_coarseness, both directions in step, each line's sum the ios the same
// job's clat log (which crosses the wire too) has in that window (the log's times are whole milliseconds, so the
// ios in a line's own millisecond may count on either side), and the lines' total the ios of the JSON report
// (sluice logs the last, partial window; fio does not). The server keeps no copy. fio 3.33's own client with a
// fio server writes sums that grow window after window (its server's deltas); that pairing is printed as the
// reference, not checked. Every wait is bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/loopback_port.h"
#include "support/machine_features.h"
#include "support/server_processes.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr int kCoarseness = 2;
constexpr std::size_t kValuesPerLine = 1856 >> kCoarseness;

struct HistLine {
  std::uint64_t time_ms = 0;
  int ddir = 0;
  std::size_t values = 0;
  std::uint64_t sum = 0;
};

struct LatLine {
  std::uint64_t time_ms = 0;
  int ddir = 0;
};

// The lines of a log file, split at commas into numbers.
std::vector<std::vector<std::uint64_t>> numbers_of(const std::string& path) {
  std::vector<std::vector<std::uint64_t>> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::uint64_t> fields;
    std::istringstream parts(line);
    for (std::string f; std::getline(parts, f, ',');) fields.push_back(std::stoull(f, nullptr, 0));
    lines.push_back(std::move(fields));
  }
  return lines;
}

std::vector<HistLine> hist_lines(const std::string& path) {
  std::vector<HistLine> out;
  for (const auto& f : numbers_of(path)) {
    HistLine h{.time_ms = f.at(0), .ddir = static_cast<int>(f.at(1)), .values = f.size() - 3};
    for (std::size_t i = 3; i < f.size(); ++i) h.sum += f[i];
    out.push_back(h);
  }
  return out;
}

std::vector<LatLine> lat_lines(const std::string& path) {
  std::vector<LatLine> out;
  for (const auto& f : numbers_of(path)) out.push_back({.time_ms = f.at(0), .ddir = static_cast<int>(f.at(2))});
  return out;
}

class HistLogTransfer : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(server_dir_.path().empty());
    ASSERT_FALSE(client_dir_.path().empty());
    job_ = client_dir_.file("hist.fio");
    // 2000 reads and 2000 writes a second for 1 s, windows of 100 ms: about 200 ios a window and direction.
    std::ofstream(job_) << "[h]\nioengine=null\nrw=randrw\nbs=4k\nsize=1g\ntime_based\nruntime=1\nrate_iops=2000\n"
                           "write_hist_log=h\nlog_hist_msec=100\nlog_hist_coarseness="
                        << kCoarseness << "\nwrite_lat_log=l\n";
  }

  // `sluice --server` or `fio --server` on a free port of 127.0.0.1, running its jobs in server_dir_.
  std::string server(bool sluice) {
    return servers_.start_server(sluice ? std::string(SLUICE_BINARY) : std::string("fio"), "127.0.0.1",
                                 server_dir_.path());
  }

  // Runs the job through `address` with sluice's or fio's client; the JSON report's ios per direction.
  std::map<int, std::uint64_t> run(bool sluice_client, const std::string& address, const std::string& job) {
    for (const auto& entry : fs::directory_iterator(client_dir_.path())) {
      if (entry.path().filename().string().rfind("h_", 0) == 0 || entry.path().filename().string().rfind("l_", 0) == 0)
        fs::remove(entry.path());
    }
    RunOptions options;
    options.program = sluice_client ? std::string(SLUICE_BINARY) : std::string("fio");
    options.timeout = 60s;
    options.cwd = client_dir_.path();
    const RunOutput r = run_binary({"--client=" + address, "--output-format=json", job}, options);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    if (!r.err.empty()) std::printf("client's stderr: %s", r.err.c_str());
    const auto doc = parse_document(r.out);
    std::map<int, std::uint64_t> ios;
    if (!doc) {
      ADD_FAILURE() << "no JSON document: " << describe(r);
      return ios;
    }
    const nlohmann::json& stats = doc->at("client_stats").at(0);
    ios[0] = stats.at("read").at("total_ios").get<std::uint64_t>();
    ios[1] = stats.at("write").at("total_ios").get<std::uint64_t>();
    return ios;
  }

  // Checks the client's histogram log against its clat log and the JSON's ios. last_window_logged: the server
  // logs the last, partial window (sluice) rather than dropping it (fio).
  void check_client_log(const std::string& pairing, const std::map<int, std::uint64_t>& json_ios,
                        bool last_window_logged) {
    SCOPED_TRACE(pairing);
    const std::string hist_path = client_dir_.file("h_clat_hist.1.log.127.0.0.1");
    ASSERT_TRUE(fs::exists(hist_path)) << "the client wrote no histogram log";
    const std::vector<HistLine> hist = hist_lines(hist_path);
    const std::vector<LatLine> lat = lat_lines(client_dir_.file("l_clat.1.log.127.0.0.1"));
    std::map<int, std::size_t> lines;
    std::map<int, std::uint64_t> total, previous_ms, lat_ios;
    for (const LatLine& l : lat) ++lat_ios[l.ddir];
    for (const HistLine& h : hist) {
      EXPECT_EQ(h.values, kValuesPerLine) << "at " << h.time_ms << " ms";
      // The window's ios by the clat log: those completed after the direction's previous line and before this
      // one, and those in the millisecond of either line, which may fall on either side.
      std::uint64_t inside = 0, at_ends = 0;
      const bool first = lines[h.ddir] == 0;
      for (const LatLine& l : lat) {
        if (l.ddir != h.ddir) continue;
        if ((first || l.time_ms > previous_ms[h.ddir]) && l.time_ms < h.time_ms) ++inside;
        if ((!first && l.time_ms == previous_ms[h.ddir]) || l.time_ms == h.time_ms) ++at_ends;
      }
      // A compressed clat log from a fio server may lack its last samples (docs/multi-host.md).
      const std::uint64_t lost = json_ios.at(h.ddir) - std::min(json_ios.at(h.ddir), lat_ios[h.ddir]);
      EXPECT_GE(h.sum + lost, inside) << "ddir " << h.ddir << ", window ending " << h.time_ms << " ms";
      EXPECT_LE(h.sum, inside + at_ends + lost) << "ddir " << h.ddir << ", window ending " << h.time_ms << " ms";
      previous_ms[h.ddir] = h.time_ms;
      ++lines[h.ddir];
      total[h.ddir] += h.sum;
    }
    EXPECT_EQ(lines[0], lines[1]) << "both directions log every window";
    EXPECT_GE(lines[0], 5u);
    EXPECT_LE(lines[0], 12u);
    for (const int d : {0, 1}) {
      if (last_window_logged) {
        EXPECT_EQ(total[d], json_ios.at(d)) << "ddir " << d;
      } else {
        // fio drops the ios after its last window: those the clat log has after it (and some of its millisecond).
        std::uint64_t after = 0, at_end = 0;
        for (const LatLine& l : lat) {
          if (l.ddir == d && l.time_ms > previous_ms[d]) ++after;
          if (l.ddir == d && l.time_ms == previous_ms[d]) ++at_end;
        }
        const std::uint64_t lost = json_ios.at(d) - std::min(json_ios.at(d), lat_ios[d]);
        ASSERT_LE(total[d], json_ios.at(d)) << "ddir " << d;
        EXPECT_GE(json_ios.at(d) - total[d], after) << "ddir " << d;
        EXPECT_LE(json_ios.at(d) - total[d], after + at_end + lost) << "ddir " << d;
      }
    }
    std::printf("%s: %zu + %zu lines of %zu values, %llu + %llu ios (JSON %llu + %llu)\n", pairing.c_str(), lines[0],
                lines[1], hist.empty() ? 0 : hist[0].values, static_cast<unsigned long long>(total[0]),
                static_cast<unsigned long long>(total[1]), static_cast<unsigned long long>(json_ios.at(0)),
                static_cast<unsigned long long>(json_ios.at(1)));
    for (const auto& entry : fs::directory_iterator(server_dir_.path())) {
      EXPECT_NE(entry.path().filename().string().rfind("h_", 0), 0u) << "the server kept " << entry.path();
    }
  }

  TempDir server_dir_;
  TempDir client_dir_;
  ServerProcesses servers_;
  std::string job_;
};

TEST_F(HistLogTransfer, SluiceServerToSluiceClient) {
  const std::string address = server(true);
  const auto ios = run(true, address, job_);
  check_client_log("sluice server, sluice client", ios, true);
}

TEST_F(HistLogTransfer, FioServerToSluiceClientGivesEachWindowsCounts) {
  const std::string address = server(false);
  // The reference: fio 3.33's own client, whose line sums grow (its server sends cumulative minus last sent).
  run(false, address, job_);
  const std::vector<HistLine> reference = hist_lines(client_dir_.file("h_clat_hist.1.log.127.0.0.1"));
  std::string sums;
  for (const HistLine& h : reference) sums += " " + std::to_string(h.sum);
  std::printf("fio server, fio client: %zu lines, sums:%s\n", reference.size(), sums.c_str());

  const auto ios = run(true, address, job_);
  check_client_log("fio server, sluice client", ios, false);
}

TEST_F(HistLogTransfer, FioServerWithLogOffsetToSluiceClient) {
  // log_offset makes fio's samples 8 bytes longer; fio 3.33's client then misreads them (it crashed here).
  const std::string job = client_dir_.file("offset.fio");
  std::ifstream in(job_);
  std::ostringstream text;
  text << in.rdbuf() << "log_offset=1\n";
  std::ofstream(job) << text.str();
  const auto ios = run(true, server(false), job);
  check_client_log("fio server with log_offset, sluice client", ios, false);
}

TEST_F(HistLogTransfer, SluiceServerToFioClient) {
  const std::string address = server(true);
  const auto ios = run(false, address, job_);
  check_client_log("sluice server, fio client", ios, true);
}

}  // namespace
}  // namespace sluice::testing
