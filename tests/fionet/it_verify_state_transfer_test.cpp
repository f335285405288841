// End to end: a writing job with verify through fio's client/server mode leaves its verify state on the server
// (local-JOB-0-verify.state, fio 3.33 and sluice alike); with that state in the client's working directory under
// fio's name (SERVER-JOB-0-verify.state, as fio's client saves a trigger's state), a verify_only job with
// verify_state_load=1 gets it from the client (SENDFILE) and reads back every write; without it the run fails
// naming the file. Each pairing: fio 3.33's client with a sluice server, sluice's client with a fio 3.33 server
// (asked for through a host name: the probe carries the address), sluice with sluice. Servers are children of
// the test on loopback; every run is bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
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

constexpr std::uint64_t kBlocks = 256;  // 1 MiB of 4 KiB writes

class VerifyStateOverTheWire : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(dir_.path().empty());
    std::filesystem::create_directory(server_dir());
    std::filesystem::create_directory(client_dir());
    const std::string common =
        "[vjob]\nfilename=" + dir_.file("data.bin") + "\nsize=1m\nbs=4k\nrw=randwrite\nverify=crc32c\nrandrepeat=1\n";
    std::ofstream(client_dir() + "/write.fio") << common << "do_verify=0\n";
    std::ofstream(client_dir() + "/verify.fio") << common << "verify_only=1\nverify_state_load=1\n";
  }
  std::string server_dir() const { return dir_.file("server"); }
  std::string client_dir() const { return dir_.file("client"); }

  std::string start_server(bool fio) {
    return servers_.start_server(fio ? std::string("fio") : std::string(SLUICE_BINARY), "127.0.0.1", server_dir());
  }
  RunOutput client(bool fio, const std::string& server, const std::string& job) {
    RunOptions options;
    options.program = fio ? "fio" : SLUICE_BINARY;
    options.cwd = client_dir();
    options.timeout = 60s;
    return run_binary({"--client=" + server, "--output-format=json", job}, options);
  }
  // The write, the verify without the state (refused), the state copied as fio's client names it, the verify.
  void write_then_verify(bool fio_client, bool fio_server, const std::string& address_for_client) {
    const std::string server = start_server(fio_server);
    const std::string port = server.substr(server.find(','));
    const std::string asked_as = address_for_client + port;
    RunOutput r = client(fio_client, asked_as, "write.fio");
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const std::string saved = server_dir() + "/local-vjob-0-verify.state";
    ASSERT_TRUE(std::filesystem::exists(saved)) << "the server keeps the writing job's state";

    r = client(fio_client, asked_as, "verify.fio");
    if (fio_client) {
      // fio's client does not always exit non-zero when its server ends without results (it may exit 0); what
      // holds is that no job ran: no read back.
      const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
      const bool read_back = !doc.is_discarded() && doc.contains("client_stats") && !doc["client_stats"].empty() &&
                             total_ios(doc["client_stats"][0], "read") > 0;
      EXPECT_TRUE(r.exit_code != 0 || !read_back) << "no state on the client: " << describe(r);
    } else {
      EXPECT_NE(r.exit_code, 0) << "no state on the client: " << describe(r);
    }

    std::filesystem::copy_file(saved, client_dir() + "/127.0.0.1-vjob-0-verify.state");
    r = client(fio_client, asked_as, "verify.fio");
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc);
    const auto& job = doc->at("client_stats").at(0);
    EXPECT_EQ(job.at("error").get<int>(), 0);
    EXPECT_EQ(total_ios(job, "read"), kBlocks) << "every write read back and checked";
  }
  TempDir dir_;
  ServerProcesses servers_;
};

TEST_F(VerifyStateOverTheWire, FioClientAndSluiceServer) { write_then_verify(true, false, "127.0.0.1"); }

TEST_F(VerifyStateOverTheWire, SluiceClientAndFioServerNamedByHostName) { write_then_verify(false, true, "localhost"); }

TEST_F(VerifyStateOverTheWire, SluiceClientAndSluiceServer) { write_then_verify(false, false, "127.0.0.1"); }

TEST_F(VerifyStateOverTheWire, FioClientAndFioServerAsTheReference) { write_then_verify(true, true, "127.0.0.1"); }

}  // namespace
}  // namespace sluice::testing
