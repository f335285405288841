// End to end: sluice as fio's client (`sluice --client=...`, through the fio link too) driving Debian's fio 3.33
// servers and sluice servers on loopback addresses: per-server counts, "All clients", per-server job files,
// --remote-config, a server that does not answer, a failed job, a server of another protocol version. Every
// server is a child of the test (killed on teardown) or a thread of it; every wait is bounded.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "fionet/bytes.h"
#include "fionet/pdu.h"
#include "fionet/wire.h"
#include "support/it_test_util.h"
#include "support/loopback_port.h"
#include "support/machine_features.h"
#include "support/server_processes.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;

constexpr std::uint64_t kIos = 16384;

class SluiceClient : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(dir_.path().empty());
    job_ = write_job("null.fio", "64m");
  }
  std::string write_job(const std::string& name, const std::string& size) {
    const std::string path = dir_.file(name);
    std::ofstream(path) << "[global]\nioengine=null\nbs=4k\n\n[nullread]\nrw=randread\nsize=" << size << "\n";
    return path;
  }
  std::string sluice_server(const std::string& host) {
    const std::uint16_t port = unused_port(host);
    const std::string address = host + "," + std::to_string(port);
    sluice_servers_.spawn({"--server=" + address});
    for (int i = 0; i < 200 && !accepts_connections(host, port); ++i) std::this_thread::sleep_for(50ms);
    return address;
  }
  RunOutput client(const std::vector<std::string>& args) {
    RunOptions options;
    options.timeout = 60s;
    const auto start = std::chrono::steady_clock::now();
    RunOutput r = run_binary(args, options);
    std::printf(
        "[ timing ] sluice %s...: %lld ms\n", args.front().c_str(),
        static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()));
    return r;
  }
  TempDir dir_;
  std::string job_;
  ServerProcesses fio_;
  SluiceChildren sluice_servers_{{}};
};

TEST_F(SluiceClient, ThreeFioServersJsonPerClientAndAllClients) {
  const std::vector<std::string> servers = {fio_.start_fio("127.0.0.1", dir_.path()),
                                            fio_.start_fio("127.0.0.2", dir_.path()),
                                            fio_.start_fio("127.0.0.3", dir_.path())};
  const RunOutput r = client(
      {"--client=" + servers[0], "--client=" + servers[1], "--client=" + servers[2], "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 4u) << r.out.substr(0, 2000);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(clients[i].at("jobname"), "nullread");
    EXPECT_EQ(total_ios(clients[i], "read"), kIos) << clients[i].at("hostname");
    EXPECT_EQ(clients[i].at("read").at("clat_ns").at("N").get<std::uint64_t>(), kIos);
  }
  EXPECT_EQ(clients[3].at("jobname"), "All clients");
  EXPECT_EQ(total_ios(clients[3], "read"), 3 * kIos);
  EXPECT_EQ(clients[3].at("read").at("io_bytes").get<std::uint64_t>(), 3 * kIos * 4096);
}

TEST_F(SluiceClient, NormalOutputThroughTheFioLinkAgainstFioAndSluiceServers) {
  const std::string fio_server = fio_.start_fio("127.0.0.1", dir_.path());
  const std::string sluice = sluice_server("127.0.0.2");
  RunOptions options;
  options.program = std::string(SLUICE_BINARY).substr(0, std::string(SLUICE_BINARY).rfind('/')) + "/fio";
  options.timeout = 60s;
  const RunOutput r =
      run_binary({"--client=" + fio_server, "--client=" + sluice, "--output-format=normal", job_}, options);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("fio=fio-3.33"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fio=sluice-"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("All clients: (groupid=0, jobs=2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Run status group 0 (all jobs):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("issued rwts: total=32768,0,0,0"), std::string::npos) << r.out;
  std::printf("%s", r.out.substr(0, 1500).c_str());
}

TEST_F(SluiceClient, PerServerJobFilesAndRemoteConfig) {
  const std::string a = fio_.start_fio("127.0.0.1", dir_.path());
  const std::string b = fio_.start_fio("127.0.0.2", dir_.path());
  const std::string c = fio_.start_fio("127.0.0.3", dir_.path());
  const std::string small = write_job("small.fio", "16m");
  const std::string remote = write_job("remote.fio", "32m");  // read by the server from its own disk
  const RunOutput r = client({"--client=" + a, small, "--client=" + b, job_, "--client=" + c,
                              "--remote-config=" + remote, "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 4u);
  EXPECT_EQ(total_ios(clients[0], "read"), kIos / 4);
  EXPECT_EQ(total_ios(clients[1], "read"), kIos);
  EXPECT_EQ(total_ios(clients[2], "read"), kIos / 2);
  EXPECT_EQ(total_ios(clients[3], "read"), kIos / 4 + kIos + kIos / 2);
}

TEST_F(SluiceClient, ServerThatDoesNotAnswerStopsTheRunBeforeItStarts) {
  const std::string live = fio_.start_fio("127.0.0.1", dir_.path());
  const std::string dead = "127.0.0.1," + std::to_string(unused_port("127.0.0.1"));
  const RunOutput r = client({"--client=" + live, "--client=" + dead, "--output-format=normal", job_});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find(dead), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("no job was sent"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out.find("read: IOPS="), std::string::npos) << describe(r);
}

TEST_F(SluiceClient, FailedJobOnAServerMakesTheExitNonZeroNamingIt) {
  const std::string a = fio_.start_fio("127.0.0.1", dir_.path());
  const std::string bad = dir_.file("bad.fio");
  const std::string plain = dir_.make_file("plain", 1);  // a file where the job wants a directory: ENOTDIR
  std::ofstream(bad) << "[bad]\nrw=read\nsize=1m\nfilename=" << plain << "/file\n";
  const RunOutput r = client({"--client=" + a, "--output-format=normal", bad});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("server " + a), std::string::npos) << describe(r);
}

TEST_F(SluiceClient, ServerOfAnotherProtocolVersionIsNamedWithBothVersions) {
  // A stand-in for fio 3.42: answers every frame with a PROBE reply in protocol version 120.
  std::uint16_t port = 0;
  const int listener = loopback_listener(port);
  ASSERT_GE(listener, 0) << std::strerror(errno);
  std::thread fake([listener] {
    pollfd pfd{listener, POLLIN, 0};
    if (::poll(&pfd, 1, 20000) <= 0) return;
    const int fd = ::accept(listener, nullptr, nullptr);
    char buf[4096];
    pfd = {fd, POLLIN, 0};
    if (::poll(&pfd, 1, 20000) > 0 && ::recv(fd, buf, sizeof buf, 0) > 0) {
      fionet::ProbeReply reply;
      reply.hostname = "newer";
      reply.fio_version = "fio-3.42";
      std::vector<std::uint8_t> frame =
          fionet::encode_message(static_cast<std::uint16_t>(fionet::Op::kProbe), 1, fionet::encode_probe_reply(reply));
      fionet::put_u16(frame.data(), 0, 120);
      fionet::put_u16(frame.data(), 20, fionet::crc16({frame.data(), 20}));
      fionet::write_all(fd, frame, 5s);
      pfd = {fd, POLLIN, 0};
      ::poll(&pfd, 1, 5000);  // until the client hangs up
    }
    ::close(fd);
  });
  const std::string address = "127.0.0.1," + std::to_string(port);
  const RunOutput r = client({"--client=" + address, "--output-format=normal", job_});
  fake.join();
  ::close(listener);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("version 120"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("version 97"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find(address), std::string::npos) << describe(r);
}

TEST_F(SluiceClient, SameCountsThroughSluiceServersAsLocally) {
  const std::vector<std::string> servers = {sluice_server("127.0.0.1"), sluice_server("127.0.0.2")};
  const RunOutput r = client({"--client=" + servers[0], "--client=" + servers[1], "--output-format=json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const RunOutput local = run_binary({"run", "--output-format=json", job_});
  ASSERT_EQ(local.exit_code, 0) << describe(local);
  const auto local_doc = parse_document(local.out);
  ASSERT_TRUE(local_doc);
  const auto& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 3u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(total_ios(clients[i], "read"), total_ios(local_doc->at("jobs").at(0), "read"));
    EXPECT_EQ(clients[i].at("read").at("io_bytes"), local_doc->at("jobs").at(0).at("read").at("io_bytes"));
  }
}

TEST_F(SluiceClient, OutputFileTakesTheReport) {
  const std::string server = sluice_server("127.0.0.1");
  const std::string report = dir_.file("report.json");
  const RunOutput r = client({"--client=" + server, "--output-format=json", "--output=" + report, job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  std::ifstream in(report);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto doc = parse_document(text);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios(doc->at("client_stats").at(0), "read"), kIos);
}

}  // namespace
}  // namespace sluice::testing
