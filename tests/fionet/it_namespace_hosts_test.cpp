// fio's client/server mode across hosts: three network namespaces the test creates (veth pairs on a bridge,
// addresses on a private 10.79.x.0/24, each its own host name; tests/support/namespace_hosts.h, as the MPI
// tests), each a server on fio's default port, the client in the test's own namespace: fio 3.33's client
// driving sluice servers, sluice's client driving fio 3.33 servers, a mix with a job that fails on one host,
// and a listed host that does not answer. Needs root, ip and unshare (skipped, with the reason, otherwise);
// the servers are killed and the namespaces deleted when each test ends, also when it fails; every client has
// 15 s.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/namespace_hosts.h"
#include "support/server_processes.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;

constexpr std::uint16_t kFioPort = 8765;     // each host has its own, so every server is on fio's default
constexpr std::uint64_t kIosPerHost = 4096;  // 16 MiB of 4 KiB reads

class ClientServerHosts : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kNetNamespaces);
    SLUICE_REQUIRE(kFio);
    if (!have_program("unshare")) GTEST_SKIP() << "unshare is not in PATH (Debian package util-linux)";
    ASSERT_FALSE(dir_.path().empty());
    hosts_ = std::make_unique<NamespaceHosts>(dir_.path(), 3, "10.79");
    ASSERT_TRUE(hosts_->ok()) << "could not create the namespaces and bridge";
    job_ = dir_.file("null.fio");
    std::ofstream(job_) << "[nullread]\nioengine=null\nrw=randread\nbs=4k\nsize=16m\n";
  }

  // A server in host i's namespace, on fio's default port; returns the address a client names.
  std::string start_server(std::size_t i, bool fio) {
    std::string address = hosts_->addresses().at(i);
    const std::string program = fio ? std::string("fio") : std::string(SLUICE_BINARY);
    servers_.spawn({hosts_->launcher(), address, program, "--server=" + address}, dir_.path());
    ServerProcesses::wait_until_accepting(address, kFioPort);
    return address;
  }

  RunOutput client(const std::string& program, const std::vector<std::string>& args) {
    RunOptions options;
    if (!program.empty()) options.program = program;
    options.timeout = 15s;
    const auto start = std::chrono::steady_clock::now();
    RunOutput r = run_binary(args, options);
    std::printf(
        "[ timing ] %s client across namespaces: %lld ms\n", program.empty() ? "sluice" : program.c_str(),
        static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()));
    return r;
  }

  // client_stats: one entry per host with kIosPerHost reads each (in the order they finished, as fio's client
  // lists them), then "All clients".
  static void expect_each_host_and_all_clients(const std::string& out, const std::vector<std::string>& hosts) {
    const auto doc = parse_document(out);
    ASSERT_TRUE(doc);
    const auto& clients = doc->at("client_stats");
    ASSERT_EQ(clients.size(), hosts.size() + 1) << out.substr(0, 2000);
    std::vector<std::string> reported;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      reported.push_back(clients[i].at("hostname"));
      EXPECT_EQ(total_ios(clients[i], "read"), kIosPerHost) << reported.back();
    }
    std::sort(reported.begin(), reported.end());
    std::vector<std::string> expected = hosts;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(reported, expected);
    EXPECT_EQ(clients[hosts.size()].at("jobname"), "All clients");
    EXPECT_EQ(total_ios(clients[hosts.size()], "read"), kIosPerHost * hosts.size());
  }

  // Declared in this order so that the servers die before their namespaces go, and those before the directory.
  TempDir dir_;
  std::unique_ptr<NamespaceHosts> hosts_;
  ServerProcesses servers_;
  std::string job_;
};

TEST_F(ClientServerHosts, FioClientDrivesThreeSluiceServers) {
  const std::vector<std::string> hosts = {start_server(0, false), start_server(1, false), start_server(2, false)};
  const RunOutput r = client(
      "fio", {"--client=" + hosts[0], "--client=" + hosts[1], "--client=" + hosts[2], "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_each_host_and_all_clients(r.out, hosts);
}

TEST_F(ClientServerHosts, SluiceClientDrivesThreeFioServers) {
  const std::vector<std::string> hosts = {start_server(0, true), start_server(1, true), start_server(2, true)};
  const RunOutput r = client(
      "", {"--client=" + hosts[0], "--client=" + hosts[1], "--client=" + hosts[2], "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_each_host_and_all_clients(r.out, hosts);
}

// sluice, fio and sluice servers; the third host's job cannot be set up (its file would be under a regular
// file): the client exits 1 naming that host and the errno the server sent, and still reports the others.
TEST_F(ClientServerHosts, MixedServersAndAJobThatFailsOnOneHost) {
  const std::vector<std::string> hosts = {start_server(0, false), start_server(1, true), start_server(2, false)};
  const std::string plain = dir_.make_file("plain", 1);
  const std::string bad = dir_.file("bad.fio");
  std::ofstream(bad) << "[bad]\nrw=read\nsize=1m\nfilename=" << plain << "/file\n";
  const RunOutput r = client("", {"--output-format=json", "--client=" + hosts[0], job_, "--client=" + hosts[1], job_,
                                  "--client=" + hosts[2], bad});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("server " + hosts[2] + ",8765: its run ended with error 20 (Not a directory"), std::string::npos)
      << describe(r);
  EXPECT_EQ(r.err.find("server " + hosts[0]), std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("server " + hosts[1]), std::string::npos) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  std::uint64_t good_reads = 0;
  for (const auto& entry : doc->at("client_stats")) {
    if (entry.at("hostname") != hosts[2] && entry.at("jobname") == "nullread") good_reads += total_ios(entry, "read");
  }
  EXPECT_EQ(good_reads, 2 * kIosPerHost) << r.out.substr(0, 2000);
}

TEST_F(ClientServerHosts, HostThatDoesNotAnswerIsNamedAndNothingRuns) {
  const std::string live = start_server(0, false);
  const std::string absent = hosts_->absent_address();
  const RunOutput r = client("", {"--client=" + live, "--client=" + absent, "--output-format=normal", job_});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find(absent + ",8765"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("no job was sent"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out.find("read: IOPS="), std::string::npos) << describe(r);
}

}  // namespace
}  // namespace sluice::testing
