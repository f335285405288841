// End to end: the shared secret between a sluice client and sluice servers (--server-secret, --client-secret)
// on loopback: the right secret runs the job, a wrong one or none is refused before any job is sent, fio 3.33's
// client is refused with a line it prints, a secret file others may read is refused, and a client with a secret
// uses no server without one. Every server is a child of the test (killed on teardown); every wait is bounded.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/it_test_util.h"
#include "support/loopback_port.h"
#include "support/machine_features.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;

class SharedSecret : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    job_ = dir_.file("null.fio");
    std::ofstream(job_) << "[global]\nioengine=null\nbs=4k\n\n[nullread]\nrw=randread\nsize=16m\n";
    secret_ = write_secret("secret", "correct horse battery staple\n", 0600);
  }
  std::string write_secret(const std::string& name, const std::string& text, mode_t mode) {
    const std::string path = dir_.file(name);
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
    return path;
  }
  // `sluice --server=127.0.0.1,PORT EXTRA...`; returns "127.0.0.1,PORT" once it accepts (at most 10 s).
  std::string server(const std::vector<std::string>& extra) {
    const std::uint16_t port = unused_port("127.0.0.1");
    const std::string address = "127.0.0.1," + std::to_string(port);
    std::vector<std::string> args = {"--server=" + address};
    args.insert(args.end(), extra.begin(), extra.end());
    servers_.spawn(args);
    for (int i = 0; i < 200 && !accepts_connections("127.0.0.1", port); ++i) std::this_thread::sleep_for(50ms);
    EXPECT_TRUE(accepts_connections("127.0.0.1", port)) << "server " << address << " did not start";
    return address;
  }
  RunOutput run(const std::vector<std::string>& args, const char* program = nullptr) {
    RunOptions options;
    options.timeout = 60s;
    if (program != nullptr) options.program = program;
    return run_binary(args, options);
  }

  TempDir dir_;
  std::string job_;
  std::string secret_;
  SluiceChildren servers_{{}};
};

TEST_F(SharedSecret, RightSecretRunsTheJob) {
  const std::string s = server({"--server-secret=" + secret_});
  // The client's copy of the file: the same secret, another file (and no trailing newline: not part of it).
  const std::string copy = write_secret("copy", "correct horse battery staple", 0400);
  const RunOutput r = run({"--client=" + s, "--client-secret=" + copy, "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"total_ios\": 4096"), std::string::npos) << describe(r);
}

TEST_F(SharedSecret, WrongSecretIsRefusedBeforeAnyJob) {
  const std::string s = server({"--server-secret=" + secret_});
  const std::string wrong = write_secret("wrong", "tr0ub4dor&3\n", 0600);
  const RunOutput r = run({"--client=" + s, "--client-secret=" + wrong, "--output-format=json", job_});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("shared secret is not this client's"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find(s), std::string::npos) << describe(r);  // names the server
  EXPECT_EQ(r.out.find("total_ios"), std::string::npos) << describe(r);
}

TEST_F(SharedSecret, NoSecretIsRefusedNamingTheOption) {
  const std::string s = server({"--server-secret=" + secret_});
  const RunOutput r = run({"--client=" + s, "--output-format=json", job_});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("--client-secret=FILE"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out.find("total_ios"), std::string::npos) << describe(r);
}

TEST_F(SharedSecret, ClientWithSecretUsesNoServerWithoutOne) {
  const std::string s = server({});
  const RunOutput r = run({"--client=" + s, "--client-secret=" + secret_, "--output-format=json", job_});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("started without --server-secret"), std::string::npos) << describe(r);
}

TEST_F(SharedSecret, FioClientIsRefusedWithALineItPrints) {
  SLUICE_REQUIRE(kFio);
  const std::string s = server({"--server-secret=" + secret_});
  const RunOutput r = run({"--client=" + s, "--output-format=normal", job_}, "fio");
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("requires a shared secret"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out.find("read: IOPS="), std::string::npos) << describe(r);
}

TEST_F(SharedSecret, SecretFileOthersMayReadIsRefused) {
  const std::string open = write_secret("open", "x\n", 0644);
  const RunOutput server_side =
      run({"--server=127.0.0.1," + std::to_string(unused_port("127.0.0.1")), "--server-secret=" + open});
  EXPECT_NE(server_side.exit_code, 0) << describe(server_side);
  EXPECT_NE(server_side.err.find("chmod 600"), std::string::npos) << describe(server_side);
  const RunOutput client_side = run({"--client=127.0.0.1,1", "--client-secret=" + open, job_});
  EXPECT_NE(client_side.exit_code, 0) << describe(client_side);
  EXPECT_NE(client_side.err.find("--client-secret=" + open), std::string::npos) << describe(client_side);
}

}  // namespace
}  // namespace sluice::testing
