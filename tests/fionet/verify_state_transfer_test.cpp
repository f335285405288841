// fio's SENDFILE and UPDATE_JOB as sluice implements them (fionet/verify_state_transfer.h, fionet/job_update.h):
// the names of the state files, the frames, the client's answer and the server's fetch of each clone's state.
#include "fionet/verify_state_transfer.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>

#include "fionet/bytes.h"
#include "fionet/client_trigger.h"
#include "fionet/job_update.h"
#include "fionet/trigger.h"
#include "support/temp_dir.h"

namespace sluice::fionet {
namespace {

TEST(VerifyStateTransfer, NamesAsFiosVerifyStateGenName) {
  EXPECT_EQ(fio_verify_state_name("127.0.0.1", "vjob", 0), "127.0.0.1-vjob-0-verify.state");
  EXPECT_EQ(fio_verify_state_name("sock", "a/b/c", 3), "sock-a.b.c-3-verify.state");
  EXPECT_EQ(state_file_prefix(parse_endpoint("localhost,9000")), "127.0.0.1");  // fio's client sends the address
  EXPECT_EQ(state_file_prefix(parse_endpoint("ip6:::1,9000")), "::1");
  EXPECT_EQ(state_file_prefix(parse_endpoint("sock:/tmp/x.sock")), "sock");
}

TEST(VerifyStateTransfer, RequestAndReplyFrames) {
  const auto request = encode_sendfile_request("127.0.0.1-vjob-0-verify.state");
  EXPECT_EQ(request.size(), kSendFileNameBytes);  // cmd_sendfile: path[FIO_NET_NAME_MAX]
  EXPECT_EQ(decode_sendfile_request(request), "127.0.0.1-vjob-0-verify.state");
  const auto reply = encode_sendfile_reply({0, {'a', 'b', 'c'}});
  ASSERT_EQ(reply.size(), 11u);
  EXPECT_EQ(get_u32(reply.data(), 0), 3u);  // size, error, data
  EXPECT_EQ(get_u32(reply.data(), 4), 0u);
  const auto back = decode_sendfile_reply(reply);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->data, (std::vector<std::uint8_t>{'a', 'b', 'c'}));
  const auto failed = decode_sendfile_reply(encode_sendfile_reply({ENOENT, {}}));
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->error, static_cast<std::uint32_t>(ENOENT));
  std::vector<std::uint8_t> short_reply = reply;
  short_reply.pop_back();  // fewer bytes than its size says
  EXPECT_FALSE(decode_sendfile_reply(short_reply));
}

TEST(VerifyStateTransfer, TheClientSendsTheFileOrItsErrno) {
  testing::TempDir dir;
  std::ofstream(dir.file("s")) << "sluice verify state 1\n";
  const SendFileReply found = read_requested_file(dir.file("s"));
  EXPECT_EQ(found.error, 0u);
  EXPECT_EQ(std::string(found.data.begin(), found.data.end()), "sluice verify state 1\n");
  EXPECT_EQ(read_requested_file(dir.file("missing")).error, static_cast<std::uint32_t>(ENOENT));
  EXPECT_EQ(read_requested_file(dir.path()).error, static_cast<std::uint32_t>(EINVAL));  // not a regular file
}

TEST(VerifyStateTransfer, TheClientSendsOnlyVerifyStatesFromItsDirectory) {
  EXPECT_EQ(refuse_requested_file("127.0.0.1-vjob-0-verify.state"), "");
  EXPECT_EQ(refuse_requested_file("sock-a.b-3-verify.state"), "");
  for (const char* other : {"/etc/shadow", "../x-verify.state", "dir/h-j-0-verify.state", "notes.txt", "-verify.state",
                            ".hidden-verify.state"}) {
    EXPECT_NE(refuse_requested_file(other), "") << other;
  }
}

// A client that answers each SENDFILE from `files` (name -> content; a missing name: ENOENT).
struct FakeClient {
  std::map<std::string, std::string> files;
  std::vector<std::string> asked;
  std::deque<Message> inbox;
  SendFileIo io() {
    SendFileIo io;
    io.send = [this](Op op, const std::vector<std::uint8_t>& payload, std::uint64_t tag) {
      EXPECT_EQ(op, Op::kSendFile);
      const std::string name = *decode_sendfile_request(payload);
      asked.push_back(name);
      const auto it = files.find(name);
      SendFileReply reply;
      if (it == files.end())
        reply.error = ENOENT;
      else
        reply.data.assign(it->second.begin(), it->second.end());
      inbox.push_back({static_cast<std::uint16_t>(Op::kSendEta), 0, 99, {}});  // something else first
      inbox.push_back({static_cast<std::uint16_t>(Op::kSendFile), 0, tag, encode_sendfile_reply(reply)});
      return true;
    };
    io.read = [this](std::chrono::milliseconds) {
      ReadResult r;
      if (inbox.empty()) {
        r.status = ReadStatus::kTimeout;
        return r;
      }
      r.status = ReadStatus::kOk;
      r.message = inbox.front();
      inbox.pop_front();
      return r;
    };
    io.other = [this](const Message& m) { others.push_back(m.op); };
    return io;
  }
  std::vector<std::uint16_t> others;
};

TEST(VerifyStateTransfer, TheServerAsksForEachCloneOfEveryJobThatLoadsAState) {
  testing::TempDir dir;
  std::vector<JobSpec> jobs(2);
  jobs[0].name = "writer";  // no verify_state_load: nothing asked, but its clones count
  jobs[0].control.numjobs = 2;
  jobs[1].name = "checker";
  jobs[1].control.numjobs = 2;
  jobs[1].verification.verify_state_load = true;
  FakeClient client;
  const std::string two = "sluice verify state 1\njob checker\nwrites 2\nincomplete\n";
  const std::string three = "sluice verify state 1\njob checker\nwrites 3\nincomplete 1\n";
  client.files["10.0.0.1-checker-2-verify.state"] = two;
  client.files["10.0.0.1-checker-3-verify.state"] = three;
  std::string failure;
  ASSERT_TRUE(loads_verify_state(jobs));
  EXPECT_EQ(fetch_verify_states(jobs, "10.0.0.1", dir.path(), client.io(), failure), 0) << failure;
  EXPECT_EQ(client.asked,
            (std::vector<std::string>{"10.0.0.1-checker-2-verify.state", "10.0.0.1-checker-3-verify.state"}));
  EXPECT_EQ(client.others.size(), 2u);  // the messages before each reply were handed on
  EXPECT_EQ(jobs[1].verification.verify_state_load_dir, dir.path());
  EXPECT_EQ(jobs[0].verification.verify_state_load_dir, "");
  std::ostringstream kept;
  kept << std::ifstream(dir.file("local-checker-3-verify.state")).rdbuf();  // where the job's replay reads it
  EXPECT_EQ(kept.str(), three);
}

TEST(VerifyStateTransfer, AStateTheClientDoesNotHaveFailsTheRunNamingTheFile) {
  testing::TempDir dir;
  std::vector<JobSpec> jobs(1);
  jobs[0].name = "checker";
  jobs[0].verification.verify_state_load = true;
  FakeClient client;
  std::string failure;
  EXPECT_EQ(fetch_verify_states(jobs, "127.0.0.1", dir.path(), client.io(), failure), ENOENT);
  EXPECT_NE(failure.find("127.0.0.1-checker-0-verify.state"), std::string::npos) << failure;
  EXPECT_NE(failure.find("No such file"), std::string::npos) << failure;
}

TEST(VerifyStateTransfer, AStateSluiceCannotReadIsRefusedNamingTheClientsFile) {
  testing::TempDir dir;
  std::vector<JobSpec> jobs(1);
  jobs[0].name = "checker";
  jobs[0].verification.verify_state_load = true;
  FakeClient client;
  client.files["h-checker-0-verify.state"] = std::string("\x03\0\0\0\0\0\0\0", 8);  // fio's binary header
  std::string failure;
  EXPECT_EQ(fetch_verify_states(jobs, "h", dir.path(), client.io(), failure), EILSEQ);
  EXPECT_NE(failure.find("h-checker-0-verify.state:1: not a sluice verify state"), std::string::npos) << failure;
  EXPECT_EQ(failure.find(dir.path()), std::string::npos) << "names the client's file, not the server's copy";
}

TEST(VerifyStateTransfer, NoReplyWithinTheWaitIsATimeout) {
  testing::TempDir dir;
  std::vector<JobSpec> jobs(1);
  jobs[0].name = "checker";
  jobs[0].verification.verify_state_load = true;
  SendFileIo io;
  io.send = [](Op, const std::vector<std::uint8_t>&, std::uint64_t) { return true; };
  io.read = [](std::chrono::milliseconds) {
    ReadResult r;
    r.status = ReadStatus::kTimeout;
    return r;
  };
  std::string failure;
  EXPECT_EQ(fetch_verify_states(jobs, "h", dir.path(), io, failure), ETIMEDOUT);
}

TEST(UpdateJob, RefusedByNameWithFiosErrnoForAJobTheServerDoesNotHave) {
  std::vector<std::uint8_t> payload(16, 0);
  put_u32(payload.data(), 0, 0);
  EXPECT_EQ(answer_update_job_request(payload, 2).error, static_cast<std::uint32_t>(ENODEV));  // as fio's server
  put_u32(payload.data(), 0, 3);
  EXPECT_EQ(answer_update_job_request(payload, 2).error, static_cast<std::uint32_t>(ENODEV));
  put_u32(payload.data(), 0, 2);
  const UpdateJobAnswer answer = answer_update_job_request(payload, 2);
  EXPECT_EQ(answer.error, static_cast<std::uint32_t>(EOPNOTSUPP));
  EXPECT_NE(answer.text.find("UPDATE_JOB"), std::string::npos);
  EXPECT_EQ(answer_update_job_request({1, 2}, 2).error, static_cast<std::uint32_t>(EINVAL));
  const auto reply = encode_update_job_reply(ENODEV);
  ASSERT_EQ(reply.size(), 4u);
  EXPECT_EQ(get_u32(reply.data(), 0), static_cast<std::uint32_t>(ENODEV));
}

}  // namespace
}  // namespace sluice::fionet
