// A server session asked to run a job with verify_state_load (it fetches the state from the client: SENDFILE)
// and sent gfio's UPDATE_JOB (refused by name); over a socket pair.
#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <vector>

#include "fionet/bytes.h"
#include "fionet/job_update.h"
#include "fionet/pdu.h"
#include "fionet/verify_state_transfer.h"
#include "fionet/wire.h"
#include "session_fixture.h"
#include "support/temp_dir.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;

class SendFileSession : public SessionOverSocketPair {
 protected:
  void SetUp() override {
    SessionOverSocketPair::SetUp();
    ASSERT_FALSE(dir_.path().empty());
    dir_.make_file("data", 64 * 1024);
    // fio's client probes first, naming the server as it knows it; the server asks for states under that name.
    ASSERT_TRUE(send_message(client_, Op::kProbe, 1, encode_probe("10.9.8.7"), 1s));
    ASSERT_EQ(next().op, static_cast<std::uint16_t>(Op::kProbe));
  }
  void send_verify_job() {
    const std::string job = "[vjob]\nfilename=" + dir_.file("data") +
                            "\nsize=64k\nbs=4k\nrw=write\nverify=crc32c\nverify_only=1\nverify_state_load=1\n";
    ASSERT_TRUE(send_message(client_, Op::kJob, 0, encode_job_file(job, 1), 1s));
    ASSERT_EQ(next().op, static_cast<std::uint16_t>(Op::kStart));
    ASSERT_TRUE(send_message(client_, Op::kRun, 0, {}, 1s));
  }
  // The messages after the state's reply, up to QUIT: STOP's error and the TEXT lines.
  std::uint32_t finish(std::string& text) {
    std::uint32_t error = 0;
    for (;;) {
      const ReadResult r = read_message(client_, 10s);
      if (r.status != ReadStatus::kOk) {
        ADD_FAILURE() << "no QUIT";
        return error;
      }
      if (r.message.op == static_cast<std::uint16_t>(Op::kText)) text += decode_text(r.message.payload);
      if (r.message.op == static_cast<std::uint16_t>(Op::kStop)) error = decode_stop(r.message.payload).error;
      if (r.message.op == static_cast<std::uint16_t>(Op::kQuit)) return error;
    }
  }
  testing::TempDir dir_;
};

TEST_F(SendFileSession, TheStateComesFromTheClientUnderTheNameItGaveTheServer) {
  send_verify_job();
  const Message request = next();
  ASSERT_EQ(request.op, static_cast<std::uint16_t>(Op::kSendFile));
  EXPECT_EQ(decode_sendfile_request(request.payload), "10.9.8.7-vjob-0-verify.state");
  // A state of no completed write: the replay checks nothing, and the run succeeds (without a state it fails).
  const std::string state = "sluice verify state 1\njob vjob\nwrites 0\nincomplete\n";
  ASSERT_TRUE(send_message(client_, Op::kSendFile, request.tag,
                           encode_sendfile_reply({0, std::vector<std::uint8_t>(state.begin(), state.end())}), 1s));
  std::string text;
  EXPECT_EQ(finish(text), 0u) << text;
}

TEST_F(SendFileSession, AStateTheClientCannotSendEndsTheRunWithItsErrno) {
  send_verify_job();
  const Message request = next();
  ASSERT_EQ(request.op, static_cast<std::uint16_t>(Op::kSendFile));
  ASSERT_TRUE(send_message(client_, Op::kSendFile, request.tag, encode_sendfile_reply({ENOENT, {}}), 1s));
  std::string text;
  EXPECT_EQ(finish(text), static_cast<std::uint32_t>(ENOENT));
  EXPECT_NE(text.find("10.9.8.7-vjob-0-verify.state"), std::string::npos) << text;
}

TEST_F(SendFileSession, AStateOfAnotherJobFailsTheJobNamingIt) {
  send_verify_job();
  const Message request = next();
  ASSERT_EQ(request.op, static_cast<std::uint16_t>(Op::kSendFile));
  const std::string state = "sluice verify state 1\njob other\nwrites 3\nincomplete\n";
  ASSERT_TRUE(send_message(client_, Op::kSendFile, request.tag,
                           encode_sendfile_reply({0, std::vector<std::uint8_t>(state.begin(), state.end())}), 1s));
  std::string text;
  EXPECT_EQ(finish(text), static_cast<std::uint32_t>(EILSEQ));  // as fio's server for a state it cannot use
  EXPECT_NE(text.find("10.9.8.7-vjob-0-verify.state: the state of job 'other', not of job 'vjob'"), std::string::npos)
      << text;
}

TEST_F(SendFileSession, GfiosUpdateJobIsRefusedByNameAndTheSessionGoesOn) {
  ASSERT_TRUE(send_message(client_, Op::kJob, 0, encode_job_file("[j]\nioengine=null\nsize=1m\n", 1), 1s));
  ASSERT_EQ(next().op, static_cast<std::uint16_t>(Op::kStart));
  std::vector<std::uint8_t> update(8 + 4096, 0);  // cmd_add_job_pdu: job 1, group 0, the options (unread)
  put_u32(update.data(), 0, 1);
  ASSERT_TRUE(send_message(client_, Op::kUpdateJob, 77, update, 1s));
  const Message line = next();
  ASSERT_EQ(line.op, static_cast<std::uint16_t>(Op::kText));
  EXPECT_NE(decode_text(line.payload).find("UPDATE_JOB refused"), std::string::npos);
  const Message reply = next();
  ASSERT_EQ(reply.op, static_cast<std::uint16_t>(Op::kUpdateJob));
  EXPECT_EQ(reply.tag, 77u);
  ASSERT_EQ(reply.payload.size(), 4u);
  EXPECT_EQ(get_u32(reply.payload.data(), 0), static_cast<std::uint32_t>(EOPNOTSUPP));
  ASSERT_TRUE(send_message(client_, Op::kQuit, 0, {}, 1s));
}

}  // namespace
}  // namespace sluice::fionet
