// A server session's periodic statistics (--status-interval on fio's command line), the errno of a job that
// cannot be set up, the live rates of ETA replies, and the client's own --status-interval; over a socket pair.
#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "fionet/bytes.h"
#include "fionet/client.h"
#include "fionet/pdu.h"
#include "fionet/received_jobs.h"
#include "fionet/shared_secret.h"
#include "fionet/thread_stat_decode.h"
#include "fionet/wire.h"
#include "session_fixture.h"
#include "support/temp_dir.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;

// What a session sent after RUN, up to QUIT: the reads of each TS, SLUICE_INTERIM markers, STOP's error.
struct RunMessages {
  std::vector<std::uint64_t> reads;  // one per TS, in order
  std::vector<std::size_t> marks;    // after how many TS each SLUICE_INTERIM came
  std::uint32_t stop_error = 0;
  bool stopped = false;
};

class PeriodicSession : public SessionOverSocketPair {
 protected:
  // A 1 s null job with a report every 200 ms, as fio's client sends it (JOBLINE with fio's argv[0]).
  void send_periodic_job() {
    const std::vector<std::string> argv = {"fio",          "--status-interval=200ms",
                                           "--name=p",     "--ioengine=null",
                                           "--rw=read",    "--size=1g",
                                           "--time_based", "--runtime=1"};
    ASSERT_TRUE(send_message(client_, Op::kJobLine, 0, encode_job_line(argv, 1), 1s));
    ASSERT_EQ(next().op, static_cast<std::uint16_t>(Op::kStart));
  }
  RunMessages run() {
    RunMessages seen;
    EXPECT_TRUE(send_message(client_, Op::kRun, 0, {}, 1s));
    for (;;) {
      const ReadResult r = read_message(client_, 10s);
      if (r.status != ReadStatus::kOk) {
        ADD_FAILURE() << "no QUIT";
        return seen;
      }
      switch (static_cast<Op>(r.message.op)) {
        case Op::kThreadStat: {
          const auto ts = decode_thread_stat(r.message.payload);
          EXPECT_TRUE(ts);
          if (ts) seen.reads.push_back(ts->job.dirs[0].ios);
          break;
        }
        case Op::kSluiceInterim:
          seen.marks.push_back(seen.reads.size());
          break;
        case Op::kStop:
          seen.stopped = true;
          seen.stop_error = decode_stop(r.message.payload).error;
          break;
        case Op::kQuit:
          return seen;
        default:
          break;
      }
    }
  }
};

// fio's server sends its statistics so far every interval and then the final ones; sluice's does so for fio's
// client, without any message of its own.
TEST_F(PeriodicSession, FioClientGetsTheStatisticsSoFarEveryIntervalThenTheFinalOnes) {
  send_periodic_job();
  const RunMessages seen = run();
  EXPECT_GE(seen.reads.size(), 4u);  // about 5 periodic sets (0.2 ... 1.0 s) and the final one
  EXPECT_LE(seen.reads.size(), 6u);
  for (std::size_t i = 1; i < seen.reads.size(); ++i) EXPECT_GE(seen.reads[i], seen.reads[i - 1]) << i;
  EXPECT_GT(seen.reads.back(), 0u);  // the first may have none: a job's first snapshot can come after 200 ms
  EXPECT_TRUE(seen.marks.empty());
  EXPECT_TRUE(seen.stopped);
  EXPECT_EQ(seen.stop_error, 0u);
}

// A sluice client (it said hello) is told where each periodic set ends; the final set has no mark.
TEST_F(PeriodicSession, SluiceClientGetsEachPeriodicSetMarked) {
  const Nonce nonce{};
  ASSERT_TRUE(send_message(client_, Op::kSluiceHello, 2, nonce, 1s));
  ASSERT_EQ(next().op, static_cast<std::uint16_t>(Op::kSluiceChallenge));
  send_periodic_job();
  const RunMessages seen = run();
  ASSERT_GE(seen.reads.size(), 4u);
  ASSERT_EQ(seen.marks.size(), seen.reads.size() - 1);
  for (std::size_t i = 0; i < seen.marks.size(); ++i) EXPECT_EQ(seen.marks[i], i + 1);  // one TS per set
}

// A job that cannot be set up: STOP carries the system's errno (fio's client prints "exited with error N"),
// not EINVAL.
TEST_F(SessionOverSocketPair, JobThatCannotBeSetUpStopsWithItsErrno) {
  testing::TempDir dir;
  const std::string plain = dir.make_file("plain", 1);
  const std::string job = "[bad]\nrw=read\nsize=1m\nfilename=" + plain + "/file\n";
  ASSERT_TRUE(send_message(client_, Op::kJob, 0, encode_job_file(job, 1), 1s));
  ASSERT_EQ(next().op, static_cast<std::uint16_t>(Op::kStart));
  ASSERT_TRUE(send_message(client_, Op::kRun, 0, {}, 1s));
  std::uint32_t error = 0;
  std::string text;
  for (;;) {
    const Message m = next();
    if (m.op == static_cast<std::uint16_t>(Op::kText)) text += decode_text(m.payload);
    if (m.op == static_cast<std::uint16_t>(Op::kStop)) error = decode_stop(m.payload).error;
    if (m.op == static_cast<std::uint16_t>(Op::kQuit) || m.op == 0) break;
  }
  EXPECT_EQ(error, static_cast<std::uint32_t>(ENOTDIR)) << text;
  EXPECT_NE(text.find("Not a directory"), std::string::npos) << text;
}

TEST(FioPdu, EtaCarriesRatesAtFiosOffsets) {
  EtaInfo eta;
  eta.rate_kib_s[0] = 1000;
  eta.rate_kib_s[1] = 2000;
  eta.iops[0] = 250;
  eta.iops[2] = 7;
  const std::vector<std::uint8_t> p = encode_eta(eta);
  EXPECT_EQ(get_u64(p.data(), 64), 1000u);  // rate[DDIR_READ], KiB/s
  EXPECT_EQ(get_u64(p.data(), 72), 2000u);  // rate[DDIR_WRITE]
  EXPECT_EQ(get_u32(p.data(), 112), 250u);  // iops[DDIR_READ]
  EXPECT_EQ(get_u32(p.data(), 120), 7u);    // iops[DDIR_TRIM]
  EXPECT_EQ(get_u64(p.data(), 16), 0u);     // m_rate: no rate limits
}

TEST(FioClientArguments, StatusIntervalIsTheClientsOwnAnywhere) {
  const ClientOptions o = parse_client_arguments({"--status-interval=2", "--client=127.0.0.1", "job.fio"});
  ASSERT_TRUE(o.report_interval);
  EXPECT_EQ(*o.report_interval, std::chrono::seconds(2));
  EXPECT_EQ(o.report_interval_text, "2");
  EXPECT_TRUE(o.servers[0].arguments.empty());  // sent to every server by the client itself
  const ClientOptions after = parse_client_arguments({"--client=127.0.0.1", "--status-interval=500ms", "job.fio"});
  ASSERT_TRUE(after.report_interval);
  EXPECT_EQ(*after.report_interval, std::chrono::milliseconds(500));
  EXPECT_THROW(parse_client_arguments({"--status-interval=soon", "--client=127.0.0.1"}), UserError);
  EXPECT_THROW(parse_client_arguments({"--status-interval=0", "--client=127.0.0.1"}), UserError);
}

}  // namespace
}  // namespace sluice::fionet

namespace sluice::fionet {
namespace {

// fio's $clientuid in filename_format: the server's address (fio's server: the address it listens on).
TEST(FioReceivedJobs, ClientuidInFilenameFormatIsTheServersAddress) {
  ReceivedJobs received;
  received.clientuid = "10.0.0.11";
  received.args = {"--name=c", "--ioengine=null", "--size=1m", "--description=$clientuid stays",
                   "--filename_format=cli.$clientuid.$jobnum"};
  received.files.push_back({"job file 1", "[a]\nioengine=null\nsize=1m\nfilename_format=f.$clientuid.$jobnum\n"});
  const PreparedJobs prepared = prepare_jobs(received);
  ASSERT_EQ(prepared.jobs.size(), 2u);  // the command line's job, then the file's
  EXPECT_EQ(prepared.jobs[0].target.filename_format, "cli.10.0.0.11.$jobnum");
  EXPECT_EQ(prepared.jobs[0].description, "$clientuid stays");  // fio replaces it in filename_format only
  EXPECT_EQ(prepared.jobs[1].target.filename_format, "f.10.0.0.11.$jobnum");
}

}  // namespace
}  // namespace sluice::fionet
