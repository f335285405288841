// The shared secret of sluice's client and servers: the secret file's checks, the proofs, and a server session
// with a secret over a socket pair (a job before the proof, a wrong proof, the right one).
#include "fionet/shared_secret.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <thread>

#include "common/error.h"
#include "fionet/client.h"
#include "fionet/pdu.h"
#include "fionet/server_session.h"
#include "fionet/wire.h"
#include "session_fixture.h"
#include "support/temp_dir.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;

TEST(SharedSecretFile, PrivateFileIsReadWithoutItsTrailingNewline) {
  sluice::testing::TempDir dir;
  const std::string path = dir.file("secret");
  std::ofstream(path) << "s3cr3t\n";
  ::chmod(path.c_str(), 0600);
  EXPECT_EQ(read_secret_file(path, "--server-secret"), "s3cr3t");
}

TEST(SharedSecretFile, FileOthersMayReadOrEmptyIsRefused) {
  sluice::testing::TempDir dir;
  const std::string readable = dir.file("readable");
  std::ofstream(readable) << "s3cr3t\n";
  ::chmod(readable.c_str(), 0640);
  try {
    read_secret_file(readable, "--server-secret");
    ADD_FAILURE() << "a group-readable secret file was accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("--server-secret=" + readable), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0640"), std::string::npos) << e.what();
  }
  const std::string empty = dir.file("empty");
  std::ofstream(empty) << "\n";
  ::chmod(empty.c_str(), 0600);
  EXPECT_THROW(read_secret_file(empty, "--client-secret"), UserError);
  EXPECT_THROW(read_secret_file(dir.file("missing"), "--client-secret"), UserError);
}

TEST(SharedSecretFile, ClientSecretIsAClientOptionAnywhere) {
  sluice::testing::TempDir dir;
  const std::string path = dir.file("secret");
  std::ofstream(path) << "s3cr3t";
  ::chmod(path.c_str(), 0400);
  const ClientOptions o = parse_client_arguments({"--client-secret=" + path, "--client=127.0.0.1", "job.fio"});
  EXPECT_EQ(o.secret, "s3cr3t");
  EXPECT_TRUE(o.servers[0].arguments.empty());  // not sent to the server
  EXPECT_TRUE(asks_for_client({"--client-secret=" + path, "job.fio"}));
  EXPECT_THROW(parse_client_arguments({"--client-secret=" + path, "job.fio"}), UserError);  // no --client
}

TEST(SharedSecretProof, DependsOnSecretRoleAndNonce) {
  const Nonce a = random_nonce();
  const Nonce b = random_nonce();
  EXPECT_NE(a, b);
  const Proof p = secret_proof("secret", ProofRole::kClient, a);
  EXPECT_TRUE(proof_matches(p, secret_proof("secret", ProofRole::kClient, a)));
  EXPECT_FALSE(proof_matches(p, secret_proof("secret", ProofRole::kServer, a)));
  EXPECT_FALSE(proof_matches(p, secret_proof("secret", ProofRole::kClient, b)));
  EXPECT_FALSE(proof_matches(p, secret_proof("Secret", ProofRole::kClient, a)));
  EXPECT_FALSE(proof_matches(std::span<const std::uint8_t>(p.data(), 31), p));
}

class SessionWithSecret : public SessionOverSocketPair {
 protected:
  SessionWithSecret() : SessionOverSocketPair(kSecret) {}
  // Expects the refusal: TEXT containing `why`, STOP with EACCES, QUIT; the session ends with 1.
  void expect_refused(const std::string& why) {
    const Message text = next();
    ASSERT_EQ(text.op, static_cast<std::uint16_t>(Op::kText));
    EXPECT_NE(decode_text(text.payload).find(why), std::string::npos) << decode_text(text.payload);
    const Message stop = next();
    ASSERT_EQ(stop.op, static_cast<std::uint16_t>(Op::kStop));
    EXPECT_EQ(decode_stop(stop.payload).error, static_cast<std::uint32_t>(EACCES));
    EXPECT_EQ(next().op, static_cast<std::uint16_t>(Op::kQuit));
    ::close(client_);  // the server waits for the client to hang up after a refusal
    client_ = -1;
    server_.join();
    EXPECT_EQ(code_, 1);
  }
  // Sends the hello and checks the challenge (a proof is required; the server's proof is right); returns the
  // server's nonce.
  std::vector<std::uint8_t> hello() {
    const Nonce mine = random_nonce();
    EXPECT_TRUE(send_message(client_, Op::kSluiceHello, 5, mine, 1s));
    const Message challenge = next();
    EXPECT_EQ(challenge.op, static_cast<std::uint16_t>(Op::kSluiceChallenge));
    EXPECT_EQ(challenge.tag, 5u);
    if (challenge.payload.size() != 4 + kNonceBytes + kProofBytes) {
      ADD_FAILURE() << "challenge of " << challenge.payload.size() << " bytes";
      return {};
    }
    EXPECT_EQ(challenge.payload[0] & 1, 1);
    const std::span<const std::uint8_t> server_proof(challenge.payload.data() + 4 + kNonceBytes, kProofBytes);
    EXPECT_TRUE(proof_matches(server_proof, secret_proof(kSecret, ProofRole::kServer, mine)));
    return {challenge.payload.begin() + 4, challenge.payload.begin() + 4 + kNonceBytes};
  }

  static constexpr const char* kSecret = "shared between the hosts";
};

TEST_F(SessionWithSecret, JobBeforeTheProofIsRefused) {
  ASSERT_TRUE(send_message(client_, Op::kProbe, 1, encode_probe("127.0.0.1"), 1s));
  EXPECT_EQ(next().op, static_cast<std::uint16_t>(Op::kProbe));  // the probe is answered: it says "sluice"
  ASSERT_TRUE(send_message(client_, Op::kJob, 0, encode_job_file("[a]\nioengine=null\nsize=1m\n", 0), 1s));
  expect_refused("requires a shared secret");
}

TEST_F(SessionWithSecret, WrongProofIsRefused) {
  const std::vector<std::uint8_t> nonce = hello();
  const Proof wrong = secret_proof("not the secret", ProofRole::kClient, nonce);
  ASSERT_TRUE(send_message(client_, Op::kSluiceProof, 6, wrong, 1s));
  expect_refused("is not this server's");
  EXPECT_NE(log_.find("test-peer: refused"), std::string::npos) << log_;
}

TEST_F(SessionWithSecret, ServerProofCannotBeSentBack) {
  const std::vector<std::uint8_t> nonce = hello();
  ASSERT_TRUE(send_message(client_, Op::kSluiceProof, 6, secret_proof(kSecret, ProofRole::kServer, nonce), 1s));
  expect_refused("is not this server's");
}

TEST_F(SessionWithSecret, RightProofIsAccepted) {
  const std::vector<std::uint8_t> nonce = hello();
  ASSERT_TRUE(send_message(client_, Op::kSluiceProof, 6, secret_proof(kSecret, ProofRole::kClient, nonce), 1s));
  const Message accepted = next();
  EXPECT_EQ(accepted.op, static_cast<std::uint16_t>(Op::kSluiceAccepted));
  ASSERT_TRUE(send_message(client_, Op::kSendEta, 9, {}, 1s));
  EXPECT_EQ(next().op, static_cast<std::uint16_t>(Op::kEta));  // work is answered now
  ASSERT_TRUE(send_message(client_, Op::kQuit, 0, {}, 1s));
  server_.join();
  EXPECT_EQ(code_, 0);
  EXPECT_NE(log_.find("proved the shared secret"), std::string::npos) << log_;
}

}  // namespace
}  // namespace sluice::fionet
