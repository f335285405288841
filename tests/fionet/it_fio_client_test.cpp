// End to end: Debian's fio 3.33 as the client (`fio --client=...`) drives sluice servers (`sluice --server`)
// on loopback addresses; the per-client counts are compared with the same job run locally. Every server is a
// child of the test, killed on teardown; every wait is bounded.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
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

constexpr std::uint64_t kIosPerJob = 16384;  // 64 MiB of 4 KiB reads

struct Server {
  std::string host;
  std::uint16_t port = 0;
  std::string client_arg() const { return "--client=" + host + "," + std::to_string(port); }
};

class FioClientToSluice : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(dir_.path().empty());
    job_ = dir_.file("null.fio");
    std::ofstream(job_) << "[global]\nioengine=null\nbs=4k\n\n[nullread]\nrw=randread\nsize=64m\n";
  }

  // Starts `sluice [PREFIX...] --server=HOST,PORT [EXTRA...]` and waits (at most 10 s) until it accepts.
  Server start_server(const std::string& host, std::vector<std::string> prefix = {},
                      const std::vector<std::string>& extra = {}) {
    Server s{host, unused_port(host)};
    prefix.push_back("--server=" + host + "," + std::to_string(s.port));
    prefix.insert(prefix.end(), extra.begin(), extra.end());
    servers_.spawn(prefix);
    for (int i = 0; i < 200 && !accepts_connections(host, s.port); ++i) std::this_thread::sleep_for(50ms);
    EXPECT_TRUE(accepts_connections(host, s.port)) << "server on " << host << "," << s.port << " did not start";
    return s;
  }

  RunOutput fio_client(const std::vector<Server>& servers, std::vector<std::string> extra) {
    // `extra` starts with an option: a job file right after a --client is that client's alone (fio's own
    // client does so with fio servers: "--client=A --client=B job.fio" runs job.fio on B only), and fio's
    // global options given after the clients reach the servers (--output-format=json: no banner lines).
    std::vector<std::string> args;
    for (const Server& s : servers) args.push_back(s.client_arg());
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions options;
    options.program = "fio";
    options.timeout = 60s;
    const auto start = std::chrono::steady_clock::now();
    RunOutput r = run_binary(args, options);
    std::printf(
        "[ timing ] fio --client with %zu sluice server(s): %lld ms\n", servers.size(),
        static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()));
    return r;
  }

  TempDir dir_;
  std::string job_;
  SluiceChildren servers_{{}};
};

TEST_F(FioClientToSluice, OneServerJsonCountsEqualTheLocalRun) {
  const Server s = start_server("127.0.0.1");
  const RunOutput r = fio_client({s}, {"--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 1u) << r.out.substr(0, 2000);
  EXPECT_EQ(clients[0].at("jobname"), "nullread");
  EXPECT_EQ(clients[0].at("port"), s.port);
  EXPECT_EQ(total_ios(clients[0], "read"), kIosPerJob);
  EXPECT_EQ(clients[0].at("read").at("io_bytes").get<std::uint64_t>(), kIosPerJob * 4096);
  EXPECT_EQ(clients[0].at("read").at("clat_ns").at("N").get<std::uint64_t>(), kIosPerJob);
  EXPECT_TRUE(clients[0].at("read").at("clat_ns").contains("percentile"));

  const auto start = std::chrono::steady_clock::now();
  const RunOutput local = run_binary({"run", "--output-format=json", job_});
  std::printf(
      "[ timing ] the same job locally (sluice run): %lld ms\n",
      static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()));
  ASSERT_EQ(local.exit_code, 0) << describe(local);
  const auto local_doc = parse_document(local.out);
  ASSERT_TRUE(local_doc);
  const auto& job = local_doc->at("jobs").at(0);
  EXPECT_EQ(total_ios(job, "read"), total_ios(clients[0], "read"));
  EXPECT_EQ(job.at("read").at("io_bytes"), clients[0].at("read").at("io_bytes"));
  std::printf("[ counts ] per client read.total_ios %llu, local %llu\n",
              static_cast<unsigned long long>(total_ios(clients[0], "read")),
              static_cast<unsigned long long>(total_ios(job, "read")));
}

TEST_F(FioClientToSluice, ThreeServersGiveEachClientAndAllClients) {
  const std::vector<Server> servers = {start_server("127.0.0.1"), start_server("127.0.0.2"), start_server("127.0.0.3")};
  const RunOutput r = fio_client(servers, {"--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 4u) << r.out.substr(0, 3000);
  std::uint64_t per_client_sum = 0;
  bool all_seen = false;
  for (const auto& c : clients) {
    if (c.at("jobname") == "All clients") {
      all_seen = true;
      EXPECT_EQ(total_ios(c, "read"), 3 * kIosPerJob);
      EXPECT_EQ(c.at("read").at("io_bytes").get<std::uint64_t>(), 3 * kIosPerJob * 4096);
      continue;
    }
    EXPECT_EQ(total_ios(c, "read"), kIosPerJob) << c.at("hostname");
    per_client_sum += total_ios(c, "read");
  }
  EXPECT_TRUE(all_seen);
  EXPECT_EQ(per_client_sum, 3 * kIosPerJob);
}

TEST_F(FioClientToSluice, NormalAndTerseOutputAsFromFioServers) {
  const std::vector<Server> servers = {start_server("127.0.0.1"), start_server("127.0.0.2")};
  const RunOutput normal = fio_client(servers, {"--output-format=normal", job_});
  ASSERT_EQ(normal.exit_code, 0) << describe(normal);
  EXPECT_NE(normal.out.find("fio=sluice-"), std::string::npos) << normal.out;  // the probe line
  EXPECT_NE(normal.out.find("nullread: (g=0): rw=randread"), std::string::npos) << normal.out;
  EXPECT_NE(normal.out.find("read: IOPS="), std::string::npos) << normal.out;
  EXPECT_NE(normal.out.find("All clients: (groupid=0, jobs=2)"), std::string::npos) << normal.out;
  EXPECT_NE(normal.out.find("Run status group 0 (all jobs):"), std::string::npos) << normal.out;
  EXPECT_NE(normal.out.find("io=64.0MiB"), std::string::npos) << normal.out;
  std::printf("%s", normal.out.substr(0, 2500).c_str());

  const RunOutput terse = fio_client(servers, {"--output-format=terse", job_});
  ASSERT_EQ(terse.exit_code, 0) << describe(terse);
  int lines = 0;
  std::istringstream in(terse.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("3;fio-3.33;", 0) != 0) continue;
    ++lines;
    // field 6 (1-based): read io in KiB
    std::size_t at = 0;
    for (int field = 0; field < 5; ++field) at = line.find(';', at) + 1;
    const bool all = line.find(";All clients;") != std::string::npos;
    EXPECT_EQ(line.substr(at, line.find(';', at) - at), std::to_string(kIosPerJob * 4 * (all ? 2 : 1))) << line;
  }
  EXPECT_EQ(lines, 3) << terse.out;  // two clients and "All clients"
}

// fio's client prints its ETA line from the servers' ETA replies: a sluice server's carry the rates of the
// last second, so the line shows the read rate and IOPS as from a fio server ("[r=...][r=...k IOPS]").
TEST_F(FioClientToSluice, EtaLineShowsTheServersLiveRates) {
  const Server s = start_server("127.0.0.1");
  const std::string timed = dir_.file("timed.fio");
  std::ofstream(timed) << "[timed]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\ntime_based\nruntime=3\n";
  const RunOutput r = fio_client({s}, {"--eta=always", "--output-format=normal", timed});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::regex rates(R"(\[r=[0-9.]+[KMGT]?i?B?/?s?\]\[r=([0-9.]+)([kM]?) IOPS\])");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(r.out, match, rates)) << r.out.substr(0, 1500);
  EXPECT_GT(std::stod(match[1].str()), 0.0) << match[0];
}

TEST_F(FioClientToSluice, FailedJobMakesTheClientExitNonZero) {
  const Server s = start_server("127.0.0.1");
  const std::string bad = dir_.file("bad.fio");
  std::ofstream(bad) << "[bad]\nrw=read\nsize=1m\nfilename=" << dir_.file("no-such-dir/file") << "\n";
  const RunOutput r = fio_client({s}, {"--output-format=normal", bad});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE((r.out + r.err).find("error"), std::string::npos) << describe(r);
}

TEST_F(FioClientToSluice, ServerAllowRefusesOtherNetworks) {
  const Server s = start_server("127.0.0.1", {"fio"}, {"--server-allow=10.0.0.0/8"});  // as `sluice fio --server`
  const RunOutput r = fio_client({s}, {"--output-format=normal", job_});
  EXPECT_EQ(r.out.find("read: IOPS="), std::string::npos) << describe(r);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("--server-allow"), std::string::npos) << describe(r);
}

TEST_F(FioClientToSluice, ServerCommandServesToo) {
  const Server s{"127.0.0.2", unused_port("127.0.0.2")};
  servers_.spawn({"server", "127.0.0.2," + std::to_string(s.port), "--server-allow=127.0.0.0/8"});
  for (int i = 0; i < 200 && !accepts_connections(s.host, s.port); ++i) std::this_thread::sleep_for(50ms);
  const RunOutput r = fio_client({s}, {"--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios(doc->at("client_stats").at(0), "read"), kIosPerJob);
}

TEST_F(FioClientToSluice, DaemonizedServerWritesItsPidAndServes) {
  const Server s{"127.0.0.1", unused_port("127.0.0.1")};
  const std::string pid_file = dir_.file("server.pid");
  const RunOutput started = run_binary({"--server=127.0.0.1," + std::to_string(s.port), "--daemonize=" + pid_file});
  ASSERT_EQ(started.exit_code, 0) << describe(started);
  pid_t pid = 0;
  std::ifstream(pid_file) >> pid;
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 200 && !accepts_connections(s.host, s.port); ++i) std::this_thread::sleep_for(50ms);
  const RunOutput r = fio_client({s}, {"--output-format=json", job_});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  ::kill(pid, SIGTERM);  // the daemon is not our child: wait for it to go, bounded
  for (int i = 0; i < 200 && ::kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(50ms);
  EXPECT_NE(::kill(pid, 0), 0) << "the daemon outlived SIGTERM";
  if (::kill(pid, 0) == 0) ::kill(pid, SIGKILL);
  EXPECT_FALSE(std::ifstream(pid_file).good()) << "the pid file was left behind";
}

TEST_F(FioClientToSluice, UnixSocketServer) {
  const std::string socket = dir_.file("fio.sock");
  servers_.spawn({"--server=sock:" + socket});
  for (int i = 0; i < 200 && ::access(socket.c_str(), F_OK) != 0; ++i) std::this_thread::sleep_for(50ms);
  RunOptions options;
  options.program = "fio";
  options.timeout = 60s;
  const RunOutput r = run_binary({"--client=sock:" + socket, "--output-format=json", job_}, options);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios(doc->at("client_stats").at(0), "read"), kIosPerJob);
}

TEST_F(FioClientToSluice, FilesAJobKeepsAreNotLeftInTheServersJournal) {
  const std::string state = dir_.file("state");
  std::filesystem::create_directories(state);
  SluiceChildren servers({{"SLUICE_STATE_DIR", state}});
  const Server s{"127.0.0.1", unused_port("127.0.0.1")};
  servers.spawn({"--server=127.0.0.1," + std::to_string(s.port)});
  for (int i = 0; i < 200 && !accepts_connections(s.host, s.port); ++i) std::this_thread::sleep_for(50ms);
  const std::string data = dir_.file("written.dat");
  const std::string job = dir_.file("write.fio");
  std::ofstream(job) << "[w]\nrw=write\nbs=64k\nsize=1m\nfilename=" << data << "\n";
  const RunOutput r = fio_client({s}, {"--output-format=json", job});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(std::filesystem::exists(data));
  for (const auto& entry : std::filesystem::directory_iterator(state)) {
    EXPECT_EQ(entry.path().filename().string().rfind("created-files.", 0), std::string::npos)
        << "a session's journal was left: " << entry.path();
  }
}

}  // namespace
}  // namespace sluice::testing
