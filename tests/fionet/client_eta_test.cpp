// The client's ETA line (fionet/client_eta.h): fio's number and time formats, the layout of fio 3.33's client
// line, the sum of the servers' replies, and when a round is printed.
#include "fionet/client_eta.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>

#include "fionet/pdu.h"

namespace sluice::fionet {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text += static_cast<char>(c);
  return text;
}

TEST(FioNum2str, AsFiosNum2str) {
  // The ETA line's rates: KiB/s with base 1024, SI prefixes, no unit (fio's client line "[r=4093k]").
  EXPECT_EQ(fio_num2str(4093, 4, 1024, false, 0), "4093k");
  EXPECT_EQ(fio_num2str(20'000'000, 4, 1024, false, 0), "20.0G");
  EXPECT_EQ(fio_num2str(19'600'000, 4, 1024, false, 0), "19.6G");
  EXPECT_EQ(fio_num2str(1023, 4, 1, false, 0), "1023");
  EXPECT_EQ(fio_num2str(262'144, 4, 1, false, 0), "262k");
  EXPECT_EQ(fio_num2str(4'897'000, 4, 1, false, 0), "4897k");
  EXPECT_EQ(fio_num2str(12'345, 4, 1, false, 0), "12.3k");
  EXPECT_EQ(fio_num2str(99'960, 4, 1, false, 0), "100.0k");  // fio's carry: 0.96 rounds to 1.0
  EXPECT_EQ(fio_num2str(2'097'152, 4, 1, false, 4), "2097kB/s");
  EXPECT_EQ(fio_num2str(2'097'152, 4, 1, true, 4), "2048KiB/s");
  EXPECT_EQ(fio_num2str(0, 4, 1, false, 4), "0B/s");
}

TEST(FioEtaText, MinutesHoursDays) {
  EXPECT_EQ(fio_eta_text(0), "00m:00s");
  EXPECT_EQ(fio_eta_text(65), "01m:05s");
  EXPECT_EQ(fio_eta_text(7210), "02h:00m:10s");
  EXPECT_EQ(fio_eta_text(86400), "01d:00h:00m:00s");
}

JobsEta running(std::uint64_t elapsed, std::uint64_t eta, std::uint64_t read_kib, std::uint32_t read_iops) {
  JobsEta je;
  je.nr_running = 1;
  je.files_open = 1;
  je.elapsed_sec = elapsed;
  je.eta_sec = eta;
  je.rate[0] = read_kib;
  je.iops[0] = read_iops;
  je.run_str = "R";
  return je;
}

TEST(FioEtaLine, LaidOutAsFiosClientLine) {
  JobsEta sum;
  add_jobs_eta(sum, running(1, 2, 2046, 511));
  add_jobs_eta(sum, running(1, 2, 2047, 512));
  bool eta_good = false;
  EXPECT_EQ(format_eta_line(sum, eta_good), "Jobs: 2 (f=2): [RR][33.3%][r=4093k][r=1023 IOPS][eta 00m:02s]");
  EXPECT_TRUE(eta_good);
  sum.rate[1] = 10;
  sum.iops[1] = 2;
  EXPECT_EQ(format_eta_line(sum, eta_good), "Jobs: 2 (f=2): [RR][33.3%][r=4093k,w=10k][r=1023,w=2 IOPS][eta 00m:02s]");
}

TEST(FioEtaLine, RateLimitsUnknownEtaAndRampAsFio) {
  JobsEta je = running(1, 2, 100, 25);
  je.t_rate[0] = 2'097'152;
  bool eta_good = false;
  EXPECT_EQ(format_eta_line(je, eta_good), "Jobs: 1 (f=1), 0B/s-2097kB/s: [R][33.3%][r=100k][r=25 IOPS][eta 00m:02s]");
  je.eta_sec = kEtaUnknown;  // a job without a known end: the counts only
  EXPECT_EQ(format_eta_line(je, eta_good), "Jobs: 1 (f=1), 0B/s-2097kB/s");
  JobsEta ramp = running(1, 2, 0, 0);
  ramp.nr_ramp = 1;
  EXPECT_EQ(format_eta_line(ramp, eta_good), "Jobs: 1 (f=1): [R][-.-%][eta 00m:02s]");
  JobsEta done = running(3, 0, 0, 0);
  bool fresh = false;  // an ETA of 0 before any percentage was shown: fio shows none
  EXPECT_EQ(format_eta_line(done, fresh), "Jobs: 1 (f=1): [R][-.-%][eta 00m:00s]");
}

TEST(FioEtaSum, CountsAndRatesAddTheLongestElapsedAndLargestEtaCount) {
  JobsEta sum;
  add_jobs_eta(sum, running(5, 10, 100, 25));
  add_jobs_eta(sum, running(7, 3, 50, 12));
  EXPECT_EQ(sum.nr_running, 2u);
  EXPECT_EQ(sum.files_open, 2u);
  EXPECT_EQ(sum.rate[0], 150u);
  EXPECT_EQ(sum.iops[0], 37u);
  EXPECT_EQ(sum.elapsed_sec, 7u);  // fio adds them (12): its percentage then runs ahead with several servers
  EXPECT_EQ(sum.eta_sec, 10u);
  EXPECT_EQ(sum.run_str, "RR");
}

TEST(FioEtaDecode, ReadsWhatSluicesServerSends) {
  EtaInfo info;
  info.running = 3;
  info.elapsed_s = 4;
  info.eta_s = 6;
  info.run_str = "RRR";
  info.rate_kib_s[1] = 777;
  info.iops[1] = 99;
  const auto je = decode_jobs_eta(encode_eta(info));
  ASSERT_TRUE(je);
  EXPECT_EQ(je->nr_running, 3u);
  EXPECT_EQ(je->elapsed_sec, 4u);
  EXPECT_EQ(je->eta_sec, 6u);
  EXPECT_EQ(je->rate[1], 777u);
  EXPECT_EQ(je->iops[1], 99u);
  EXPECT_EQ(je->run_str, "RRR");
  EXPECT_FALSE(decode_jobs_eta(std::vector<std::uint8_t>(100, 0)));
}

std::vector<std::uint8_t> reply(std::uint64_t elapsed) {
  EtaInfo info;
  info.running = 1;
  info.elapsed_s = elapsed;
  info.eta_s = 2;
  info.run_str = "R";
  info.rate_kib_s[0] = 1024;
  info.iops[0] = 256;
  return encode_eta(info);
}

TEST(ClientEtaRounds, PrintedOnceEveryServerAnsweredAndEndedBeforeText) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ClientEta eta(EtaMode::kAlways, false, std::chrono::nanoseconds(0), out);
  ASSERT_TRUE(eta.printing());
  const std::uint64_t tag = eta.begin_round(2);
  eta.on_reply(tag, reply(1));
  EXPECT_EQ(contents(out), "");     // one of two servers answered
  eta.on_reply(tag + 7, reply(1));  // a reply of another round is not counted
  EXPECT_EQ(contents(out), "");
  eta.on_reply(tag, reply(1));
  EXPECT_EQ(contents(out), "Jobs: 2 (f=0): [RR][33.3%][r=2048k][r=512 IOPS][eta 00m:02s]\r");
  eta.end_line();
  EXPECT_EQ(contents(out).back(), '\n');
  std::fclose(out);
}

TEST(ClientEtaRounds, ARoundMissingAReplyIsPrintedWhenTheNextBegins) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ClientEta eta(EtaMode::kAlways, false, std::chrono::nanoseconds(0), out);
  const std::uint64_t first = eta.begin_round(2);
  eta.on_reply(first, reply(1));
  const std::uint64_t second = eta.begin_round(1);
  EXPECT_NE(first, second);
  EXPECT_EQ(contents(out), "Jobs: 1 (f=0): [R][33.3%][r=1024k][r=256 IOPS][eta 00m:02s]\r");
  eta.on_reply(first, reply(1));  // late: dropped
  eta.on_reply(second, reply(2));
  EXPECT_EQ(contents(out),
            "Jobs: 1 (f=0): [R][33.3%][r=1024k][r=256 IOPS][eta 00m:02s]\r"
            "Jobs: 1 (f=0): [R][50.0%][r=1024k][r=256 IOPS][eta 00m:02s]\r");
  std::fclose(out);
}

TEST(ClientEtaRounds, NeverJsonAndAutoOffATerminalPrintNothing) {
  for (const auto& [mode, json] :
       {std::pair{EtaMode::kNever, false}, std::pair{EtaMode::kAlways, true}, std::pair{EtaMode::kAuto, false}}) {
    std::FILE* out = std::tmpfile();  // a file, not a terminal
    ASSERT_NE(out, nullptr);
    ClientEta eta(mode, json, std::chrono::nanoseconds(0), out);
    EXPECT_FALSE(eta.printing());
    const std::uint64_t tag = eta.begin_round(1);
    eta.on_reply(tag, reply(1));
    eta.end_line();
    EXPECT_EQ(contents(out), "");
    std::fclose(out);
  }
}

TEST(ClientEtaRounds, EtaNewlineKeepsALinePerPeriod) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ClientEta eta(EtaMode::kAlways, false, std::chrono::nanoseconds(1), out);  // every line is kept
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t tag = eta.begin_round(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    eta.on_reply(tag, reply(1));
  }
  const std::string text = contents(out);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 3);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);  // the first line sets the clock; the second is kept
  std::fclose(out);
}

}  // namespace
}  // namespace sluice::fionet
