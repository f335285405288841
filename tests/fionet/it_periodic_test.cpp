// --status-interval over fio's client/server protocol, parsed as scripts parse fio's periodic output: a sluice
// client prints a complete report (each server's statistics so far and "All clients") every interval, from
// sluice servers and from fio 3.33 servers; fio 3.33's client gets from a sluice server what it gets from a
// fio server (the periodic statistics, which it gathers into its one JSON document). Servers on loopback
// addresses, children of the test; a 3 s job with a report every second.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/json_documents.h"
#include "support/loopback_port.h"
#include "support/machine_features.h"
#include "support/server_processes.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

class PeriodicOverClientServer : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(dir_.path().empty());
    job_ = dir_.file("timed.fio");
    std::ofstream(job_) << "[timed]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\ntime_based\nruntime=3\n";
  }
  std::string sluice_server(const std::string& host) {
    const std::uint16_t port = unused_port(host);
    sluice_servers_.spawn({"--server=" + host + "," + std::to_string(port)});
    ServerProcesses::wait_until_accepting(host, port);
    return host + "," + std::to_string(port);
  }
  RunOutput client(const std::string& program, const std::vector<std::string>& args) {
    RunOptions options;
    if (!program.empty()) options.program = program;
    options.timeout = 30s;
    const auto start = std::chrono::steady_clock::now();
    RunOutput r = run_binary(args, options);
    std::printf(
        "[ timing ] %s client: %lld ms\n", program.empty() ? "sluice" : program.c_str(),
        static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()));
    return r;
  }

  TempDir dir_;
  std::string job_;
  ServerProcesses fio_servers_;
  SluiceChildren sluice_servers_{{}};
};

// Each server's reads in one document of a sluice client, by "hostname,port"; "All clients" under that name.
std::map<std::string, std::uint64_t> reads_by_client(const json& doc) {
  std::map<std::string, std::uint64_t> reads;
  for (const json& entry : doc.at("client_stats")) {
    const std::string name = entry.at("jobname") == "All clients" ? std::string("All clients")
                                                                  : entry.at("hostname").get<std::string>() + "," +
                                                                        std::to_string(entry.at("port").get<int>());
    reads[name] = total_ios(entry, "read");
  }
  return reads;
}

// A sluice client's periodic output for two servers: 3 or 4 complete documents (reports at about 1, 2 and
// 3 s, the last of which a busy machine may lose to the job's end, then the final one); each server's reads
// never go down; "All clients" is the sum of the servers in every document that has both (a fio server that
// started later may miss from the first); the last is the final report, with more reads than the first.
void expect_periodic_documents(const std::string& out, const std::vector<std::string>& servers) {
  const std::vector<json> documents = documents_of(out);
  ASSERT_GE(documents.size(), 3u) << out.substr(0, 3000);
  ASSERT_LE(documents.size(), 4u) << out.substr(0, 3000);
  std::map<std::string, std::uint64_t> before;
  for (std::size_t i = 0; i < documents.size(); ++i) {
    const std::map<std::string, std::uint64_t> reads = reads_by_client(documents[i]);
    std::uint64_t sum = 0;
    std::size_t present = 0;
    for (const std::string& server : servers) {
      const auto found = reads.find(server);
      if (found == reads.end()) continue;
      ++present;
      sum += found->second;
      EXPECT_GE(found->second, before[server]) << "document " << i + 1 << ", " << server;
      before[server] = found->second;
    }
    if (present == servers.size()) {
      ASSERT_TRUE(reads.count("All clients")) << "document " << i + 1;
      EXPECT_EQ(reads.at("All clients"), sum) << "document " << i + 1;
    }
  }
  const std::map<std::string, std::uint64_t> first = reads_by_client(documents.front());
  const std::map<std::string, std::uint64_t> last = reads_by_client(documents.back());
  for (const std::string& server : servers) {
    ASSERT_TRUE(last.count(server)) << "the final report lacks " << server;
    if (first.count(server)) {
      EXPECT_GT(last.at(server), first.at(server)) << server;
    }
  }
}

TEST_F(PeriodicOverClientServer, SluiceClientPrintsEveryIntervalFromSluiceServers) {
  const std::vector<std::string> servers = {sluice_server("127.0.0.1"), sluice_server("127.0.0.2")};
  const RunOutput r = client(
      "", {"--client=" + servers[0], "--client=" + servers[1], "--status-interval=1", "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_periodic_documents(r.out, servers);
  // Each periodic document is one interval further: the first server's runtime grows by about a second.
  const std::vector<json> documents = documents_of(r.out);
  for (std::size_t i = 0; i + 1 < documents.size(); ++i) {
    const auto runtime = documents[i].at("client_stats")[0].at("read").at("runtime").get<std::uint64_t>();
    EXPECT_NEAR(static_cast<double>(runtime), 1000.0 * static_cast<double>(i + 1), 400.0) << "document " << i + 1;
  }
}

// Over the wire too, each server's periodic set holds the ios completed up to its time while the server's job
// sleeps for its rate (4 ios a second: 4, 8 and 12 reads in the sets at about 1, 2 and 3 s, one more for a set
// late by up to 250 ms); before, each set held the previous one's moment (0, 5, 9).
TEST_F(PeriodicOverClientServer, EachSetHoldsTheIosCompletedUpToItsTime) {
  const std::string slow = dir_.file("slow.fio");
  std::ofstream(slow) << "[slow]\nioengine=null\nrw=read\nbs=4k\nsize=1g\ntime_based\nruntime=3\nrate_iops=4\n";
  const std::string server = sluice_server("127.0.0.1");
  const RunOutput r = client("", {"--client=" + server, "--status-interval=1", "--output-format=json", slow});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<json> documents = documents_of(r.out);
  ASSERT_GE(documents.size(), 3u) << r.out.substr(0, 3000);
  for (std::size_t k = 1; k < documents.size() && k <= 3; ++k) {
    const std::map<std::string, std::uint64_t> reads = reads_by_client(documents[k - 1]);
    ASSERT_TRUE(reads.count(server)) << "set " << k;
    EXPECT_GE(reads.at(server), 4 * k) << "set " << k;
    EXPECT_LE(reads.at(server), 4 * k + 1) << "set " << k;
  }
}

TEST_F(PeriodicOverClientServer, SluiceClientPrintsEveryIntervalFromFioServers) {
  const std::vector<std::string> servers = {fio_servers_.start_fio("127.0.0.1", dir_.path()),
                                            fio_servers_.start_fio("127.0.0.2", dir_.path())};
  const RunOutput r = client(
      "", {"--client=" + servers[0], "--client=" + servers[1], "--status-interval=1", "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_periodic_documents(r.out, servers);
}

TEST_F(PeriodicOverClientServer, NormalReportsRepeatWithAllClients) {
  const std::vector<std::string> servers = {sluice_server("127.0.0.1"), sluice_server("127.0.0.2")};
  const RunOutput r = client("", {"--client=" + servers[0], "--client=" + servers[1], "--status-interval=1", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::size_t all_clients = 0;
  for (std::size_t at = r.out.find("All clients: (groupid=0"); at != std::string::npos;
       at = r.out.find("All clients: (groupid=0", at + 1)) {
    ++all_clients;
  }
  EXPECT_GE(all_clients, 3u) << r.out.substr(0, 3000);
  EXPECT_LE(all_clients, 4u) << r.out.substr(0, 3000);
}

// fio's client gathers a server's periodic statistics into the client_stats of its one JSON document: a sluice
// server gives it as many entries as a fio server does for the same job (within one: the last interval's
// report may be lost to the job's end on either), with reads that never go down.
TEST_F(PeriodicOverClientServer, FioClientGetsFromASluiceServerWhatAFioServerSends) {
  const std::string sluice = sluice_server("127.0.0.1");
  const std::string fio = fio_servers_.start_fio("127.0.0.2", dir_.path());
  std::map<std::string, std::size_t> entries;
  for (const std::string& server : {sluice, fio}) {
    const RunOutput r = client("fio", {"--client=" + server, "--status-interval=1", "--output-format=json", job_});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const std::vector<json> documents = documents_of(r.out.substr(r.out.find('{')));
    ASSERT_EQ(documents.size(), 1u) << r.out.substr(0, 2000);
    std::uint64_t before = 0;
    for (const json& entry : documents[0].at("client_stats")) {
      EXPECT_GE(total_ios(entry, "read"), before) << server;
      before = total_ios(entry, "read");
    }
    entries[server] = documents[0].at("client_stats").size();
  }
  EXPECT_GE(entries[sluice], 3u);
  EXPECT_LE(entries[sluice], 4u);
  EXPECT_LE(entries[sluice] > entries[fio] ? entries[sluice] - entries[fio] : entries[fio] - entries[sluice], 1u)
      << "sluice server " << entries[sluice] << " entries, fio server " << entries[fio];
}

}  // namespace
}  // namespace sluice::testing
