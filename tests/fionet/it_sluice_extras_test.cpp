// End to end: what a sluice client adds with sluice servers on loopback (the start skew, each host's sluice
// section and environment, what differs between hosts), and that fio 3.33's servers get exactly fio's protocol
// (no sluice key, no sluice lines). Every server is a child of the test (killed on teardown); waits are bounded.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fionet/pdu.h"
#include "fionet/wire.h"
#include "support/it_test_util.h"
#include "support/loopback_port.h"
#include "support/machine_features.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;

// The JSON document in an output that may start with normal lines.
nlohmann::json json_of(const std::string& out) {
  const std::size_t at = out.find("\n{");
  return nlohmann::json::parse(at == std::string::npos ? out : out.substr(at + 1), nullptr, false);
}

class SluiceExtras : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    job_ = dir_.file("null.fio");
    std::ofstream(job_) << "[global]\nioengine=null\nbs=4k\n\n[nullread]\nrw=randread\nsize=16m\n";
  }
  ~SluiceExtras() override {
    for (pid_t pid : fio_pids_) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
  std::string sluice_server(const std::string& host) {
    const std::uint16_t port = unused_port(host);
    const std::string address = host + "," + std::to_string(port);
    servers_.spawn({"--server=" + address});
    for (int i = 0; i < 200 && !accepts_connections(host, port); ++i) std::this_thread::sleep_for(50ms);
    EXPECT_TRUE(accepts_connections(host, port)) << "sluice server " << address << " did not start";
    return address;
  }
  std::string fio_server(const std::string& host) {
    const std::uint16_t port = unused_port(host);
    const std::string address = host + "," + std::to_string(port);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      const int null_fd = ::open("/dev/null", O_RDWR);
      ::dup2(null_fd, 0);
      ::dup2(null_fd, 1);
      ::dup2(null_fd, 2);
      if (::chdir(dir_.path().c_str()) != 0) ::_exit(126);
      const std::string arg = "--server=" + address;
      ::execlp("fio", "fio", arg.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    if (pid > 0) fio_pids_.push_back(pid);
    for (int i = 0; i < 200 && !accepts_connections(host, port); ++i) std::this_thread::sleep_for(50ms);
    EXPECT_TRUE(accepts_connections(host, port)) << "fio --server=" << address << " did not start";
    return address;
  }
  RunOutput client(const std::vector<std::string>& args) {
    RunOptions options;
    options.timeout = 60s;
    return run_binary(args, options);
  }

  TempDir dir_;
  std::string job_;
  SluiceChildren servers_{{}};
  std::vector<pid_t> fio_pids_;
};

TEST_F(SluiceExtras, ThreeSluiceServersGiveStartSkewAndEachHostsSection) {
  const std::vector<std::string> servers = {sluice_server("127.0.0.1"), sluice_server("127.0.0.2"),
                                            sluice_server("127.0.0.3")};
  const RunOutput r = client({"--client=" + servers[0], "--client=" + servers[1], "--client=" + servers[2],
                              "--output-format=normal,json", job_});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("Start skew of the sluice servers: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Hosts' environments: no differences from " + servers[0]), std::string::npos) << r.out;
  const nlohmann::json doc = json_of(r.out);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const nlohmann::json& clients = doc["sluice"]["clients"];
  ASSERT_EQ(clients["hosts"].size(), 3u) << clients.dump(2);
  std::int64_t latest = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const nlohmann::json& h = clients["hosts"][i];
    EXPECT_EQ(h["hostname"].get<std::string>() + "," + std::to_string(h["port"].get<int>()), servers[i]);
    EXPECT_EQ(h["version"].get<std::string>().rfind("sluice-", 0), 0u);
    ASSERT_TRUE(h["start_offset_ns"].is_number()) << h.dump(2);
    latest = std::max(latest, h["start_offset_ns"].get<std::int64_t>());
    EXPECT_TRUE(h["sluice"]["environment"].is_object()) << h.dump(2);
    EXPECT_TRUE(h["differences"].empty()) << h.dump(2);  // one machine: the same environment
  }
  const std::int64_t skew = clients["start_skew_ns"].get<std::int64_t>();
  EXPECT_EQ(skew, latest);  // max - min, the earliest being 0
  EXPECT_GE(skew, 0);
  EXPECT_LT(skew, 5'000'000'000) << "the servers were sent RUN within a few ms of each other";
  // fio's own document is unchanged: per-client counts as before.
  ASSERT_EQ(doc["client_stats"].size(), 4u);  // three servers and "All clients"
  EXPECT_EQ(doc["client_stats"][3]["read"]["total_ios"], 3 * 4096);
}

TEST_F(SluiceExtras, DifferentFileSystemsAreListedAsDifferences) {
  // One server's job writes under the test's directory, the other's under /dev/shm (tmpfs): when the two are
  // on different file systems, the hosts' environments differ in the target's file system.
  const std::string shm = "/dev/shm/sluice-extras-" + std::to_string(::getpid());
  ASSERT_TRUE(std::filesystem::create_directory(shm));
  struct stat a {
  }, b{};
  ::stat(dir_.path().c_str(), &a);
  ::stat(shm.c_str(), &b);
  const std::string job_a = dir_.file("a.fio");
  const std::string job_b = dir_.file("b.fio");
  std::ofstream(job_a) << "[j]\nioengine=psync\nrw=read\nbs=4k\nsize=1m\ndirectory=" << dir_.path() << "\n";
  std::ofstream(job_b) << "[j]\nioengine=psync\nrw=read\nbs=4k\nsize=1m\ndirectory=" << shm << "\n";
  const std::string s1 = sluice_server("127.0.0.1");
  const std::string s2 = sluice_server("127.0.0.2");
  const RunOutput r = client({"--client=" + s1, job_a, "--client=" + s2, job_b, "--output-format=normal"});
  std::filesystem::remove_all(shm);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  if (a.st_dev == b.st_dev) GTEST_SKIP() << dir_.path() << " is on /dev/shm's file system: nothing differs";
  EXPECT_NE(r.out.find("Hosts' environments differ from " + s1 + ":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(s2 + ": target "), std::string::npos) << r.out;
}

TEST_F(SluiceExtras, FioServersGetOnlyFiosProtocol) {
  SLUICE_REQUIRE(kFio);
  const std::string fio = fio_server("127.0.0.1");
  const RunOutput only_fio = client({"--client=" + fio, "--output-format=normal,json", job_});
  ASSERT_EQ(only_fio.exit_code, 0) << describe(only_fio);
  EXPECT_EQ(only_fio.out.find("Start skew"), std::string::npos) << only_fio.out;
  const nlohmann::json doc = json_of(only_fio.out);
  ASSERT_FALSE(doc.is_discarded()) << only_fio.out;
  EXPECT_FALSE(doc.contains("sluice")) << "a report of fio servers is fio's document";
  // Mixed: the sluice part covers the sluice server only, and the fio server still runs its job.
  const std::string sl = sluice_server("127.0.0.2");
  const RunOutput mixed = client({"--client=" + fio, "--client=" + sl, "--output-format=json", job_});
  ASSERT_EQ(mixed.exit_code, 0) << describe(mixed);
  const nlohmann::json both = json_of(mixed.out);
  ASSERT_EQ(both["sluice"]["clients"]["hosts"].size(), 1u) << mixed.out;
  EXPECT_EQ(both["sluice"]["clients"]["start_skew_ns"], 0);
  EXPECT_EQ(both["client_stats"].size(), 3u);
}

TEST_F(SluiceExtras, OlderSluiceServerThatIgnoresTheHelloIsUsedAsAFioServer) {
  // A stand-in for a sluice server from before sluice's hello: answers the probe, then ignores every message
  // (SLUICE_HELLO included) and hangs up once the client sends its jobs.
  std::uint16_t port = 0;
  const int listener = loopback_listener(port);
  ASSERT_GE(listener, 0) << std::strerror(errno);
  std::thread fake([listener] {
    pollfd pfd{listener, POLLIN, 0};
    if (::poll(&pfd, 1, 20000) <= 0) return;
    const int fd = ::accept(listener, nullptr, nullptr);
    if (fionet::read_message(fd, 10s).status == fionet::ReadStatus::kOk) {  // the probe
      fionet::ProbeReply reply;
      reply.hostname = "older";
      reply.fio_version = "sluice-0.0.1";
      fionet::send_message(fd, fionet::Op::kProbe, 1, fionet::encode_probe_reply(reply), 5s);
      for (;;) {
        const fionet::ReadResult r = fionet::read_message(fd, 20s);
        if (r.status != fionet::ReadStatus::kOk || r.message.op != static_cast<std::uint16_t>(fionet::Op::kSluiceHello))
          break;
      }
    }
    ::close(fd);
  });
  const std::string address = "127.0.0.1," + std::to_string(port);
  const RunOutput r = client({"--client=" + address, "--output-format=normal", job_});
  fake.join();
  ::close(listener);
  EXPECT_NE(r.err.find("did not answer sluice's hello"), std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("not started"), std::string::npos) << "the jobs were sent, as to a fio server: " << describe(r);
  EXPECT_NE(r.err.find("disconnected before it sent results"), std::string::npos) << describe(r);
}

}  // namespace
}  // namespace sluice::testing
