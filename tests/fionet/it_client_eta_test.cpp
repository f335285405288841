// End to end: the ETA line of sluice's client (--eta=always) against two sluice servers and against two fio 3.33
// servers: every line parses as fio 3.33's client line does (the same pattern parses fio's own client's lines),
// the rates of a rate-limited null job are above zero and near the limit, both servers' jobs are counted, and
// the line is ended before the report. --eta=never, --eta=auto into a pipe and JSON output print no line.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <regex>
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

// fio 3.33's client line: "Jobs: 2 (f=2): [RR][33.3%][r=2048k][r=512 IOPS][eta 00m:02s]" (the part after the
// counts appears once the servers know an ETA; rate limits add ", MIN-MAX" after the counts).
const std::regex kEtaLine(
    R"(^Jobs: (\d+) \(f=\d+\)(, \S+-\S+)?(: \[[^\]]*\]\[(-\.-|\d+\.\d)%\](\[r=([0-9.]+)([kMG]?)\]\[r=([0-9.]+)([kMG]?) IOPS\])?\[eta [0-9dhms:]+\])? *$)");

double scaled(const std::string& number, const std::string& prefix) {
  const double factor = prefix == "k" ? 1e3 : prefix == "M" ? 1e6 : prefix == "G" ? 1e9 : 1;
  return std::stod(number) * factor;
}

struct EtaLines {
  std::vector<std::string> lines;  // every "Jobs: ..." piece (pieces end at '\r' or '\n')
  std::vector<double> read_kib;    // the read rate of each line that has one
  std::vector<double> read_iops;
  int max_running = 0;
  bool all_parse = true;
};

EtaLines eta_lines(const std::string& out) {
  EtaLines seen;
  std::string piece;
  for (char c : out) {
    if (c != '\r' && c != '\n') {
      piece += c;
      continue;
    }
    if (piece.rfind("Jobs: ", 0) == 0) {
      seen.lines.push_back(piece);
      std::smatch m;
      if (!std::regex_match(piece, m, kEtaLine)) {
        seen.all_parse = false;
        ADD_FAILURE() << "not fio's client ETA line: '" << piece << "'";
      } else {
        seen.max_running = std::max(seen.max_running, std::stoi(m[1]));
        if (m[6].matched) {
          seen.read_kib.push_back(scaled(m[6], m[7]) / 1000);  // "2048k": KiB/s (fio counts from KiB, base 1024)
          seen.read_iops.push_back(scaled(m[8], m[9]));
        }
      }
    }
    piece.clear();
  }
  return seen;
}

class ClientEtaLine : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(dir_.path().empty());
    // 1 MiB/s of 4 KiB reads on each server for 4 s: 256 IOPS, 1024 KiB/s each.
    job_ = dir_.file("rate.fio");
    std::ofstream(job_) << "[rated]\nioengine=null\nrw=read\nbs=4k\nsize=1g\nrate=1m\ntime_based\nruntime=4\n";
  }
  std::vector<std::string> servers(bool fio) {
    std::vector<std::string> list;
    for (const char* host : {"127.0.0.1", "127.0.0.2"}) {
      list.push_back(servers_.start_server(fio ? std::string("fio") : std::string(SLUICE_BINARY), host, dir_.path()));
    }
    return list;
  }
  RunOutput client(const std::string& program, const std::vector<std::string>& servers,
                   std::vector<std::string> extra) {
    std::vector<std::string> args;
    for (const std::string& s : servers) args.push_back("--client=" + s);
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(job_);
    RunOptions options;
    options.program = program;
    options.timeout = 60s;
    return run_binary(args, options);
  }
  void expect_line_of_both_servers(bool fio_servers) {
    const std::vector<std::string> list = servers(fio_servers);
    const RunOutput r = client(SLUICE_BINARY, list, {"--eta=always", "--output-format=normal"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const EtaLines seen = eta_lines(r.out);
    EXPECT_TRUE(seen.all_parse);
    EXPECT_GE(seen.lines.size(), 3u) << r.out.substr(0, 2000);
    EXPECT_EQ(seen.max_running, 2) << "both servers' jobs in one line";
    ASSERT_FALSE(seen.read_kib.empty()) << r.out.substr(0, 2000);
    double best = 0;
    for (std::size_t i = 0; i < seen.read_kib.size(); ++i) {
      EXPECT_GT(seen.read_kib[i], 0) << seen.lines[i];
      EXPECT_GT(seen.read_iops[i], 0) << seen.lines[i];
      best = std::max(best, seen.read_kib[i]);
    }
    // Both servers at 1 MiB/s: the sum near 2048 KiB/s (a second that held one server's sample only, or a
    // sample taken as the limiter catches up, stays within half of it).
    EXPECT_GT(best, 1024 * 1.5) << r.out.substr(0, 2000);
    EXPECT_LT(best, 2048 * 1.5) << r.out.substr(0, 2000);
    // The last line is ended before the report begins.
    const std::size_t report = r.out.find("All clients");
    const std::size_t last = r.out.rfind("Jobs: ");
    ASSERT_NE(report, std::string::npos);
    ASSERT_LT(last, report);
    const std::size_t end = r.out.find('\r', last);
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(r.out.find('\n', end), end + 1) << "the line is ended by a newline after its '\\r'";
    std::printf("%s\n", seen.lines.back().c_str());
  }
  TempDir dir_;
  std::string job_;
  ServerProcesses servers_;
};

TEST_F(ClientEtaLine, TwoSluiceServers) { expect_line_of_both_servers(false); }

TEST_F(ClientEtaLine, TwoFioServers) { expect_line_of_both_servers(true); }

TEST_F(ClientEtaLine, FiosOwnClientLinesParseTheSame) {
  const std::vector<std::string> list = servers(false);
  const RunOutput r = client("fio", list, {"--eta=always", "--output-format=normal"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const EtaLines seen = eta_lines(r.out);
  EXPECT_TRUE(seen.all_parse);
  EXPECT_FALSE(seen.lines.empty()) << r.out.substr(0, 2000);
}

TEST_F(ClientEtaLine, NeverAutoIntoAPipeAndJsonPrintNone) {
  const std::vector<std::string> list = servers(false);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--eta=never"}, std::vector<std::string>{"--eta=auto"},
        std::vector<std::string>{"--eta=always", "--output-format=json"}}) {
    const RunOutput r = client(SLUICE_BINARY, list, extra);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.out.find("Jobs: "), std::string::npos) << extra.back() << ": " << r.out.substr(0, 1000);
    if (extra.back() == "--output-format=json") {
      EXPECT_TRUE(parse_document(r.out));
    }
  }
}

}  // namespace
}  // namespace sluice::testing
