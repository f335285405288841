// End to end: fio's triggers (--trigger-file, --trigger-timeout, --trigger, --trigger-remote), locally next to
// fio 3.33 and over fio's client/server protocol in both roles (fio 3.33's client with a sluice server, sluice's
// client with fio 3.33 and sluice servers) on loopback. Each trigger command writes a marker file; each job
// would run 30 s without the trigger, so a run that ends early was stopped by it. Every wait is bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/it_test_util.h"
#include "support/loopback_port.h"
#include "support/machine_features.h"
#include "support/server_processes.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr long long kJobMs = 30000;  // the job's runtime without a trigger

class Trigger : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    job_ = dir_.file("long.fio");
    std::ofstream(job_) << "[long]\nioengine=null\nbs=4k\nrw=read\nsize=1g\ntime_based\nruntime=30s\n";
  }
  std::string marker(const std::string& name) const { return dir_.file(name); }
  std::string touch(const std::string& name) const { return "touch " + marker(name); }

  std::string sluice_server(const std::string& host) {
    const std::uint16_t port = unused_port(host);
    sluice_servers_.spawn({"--server=" + host + "," + std::to_string(port)});
    ServerProcesses::wait_until_accepting(host, port);
    return host + "," + std::to_string(port);
  }

  static RunOutput run(const std::vector<std::string>& args, const std::string& program, const std::string& cwd) {
    RunOptions options;
    options.program = program;
    options.timeout = 60s;
    options.cwd = cwd;
    const auto start = std::chrono::steady_clock::now();
    RunOutput r = run_binary(args, options);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    std::printf("[ timing ] %s %s ...: %lld ms\n", program.c_str(), args.front().c_str(), static_cast<long long>(ms));
    return r;
  }

  // The first job entry of a fio JSON document (`jobs`, or a client's `client_stats`).
  static nlohmann::json first_job(const RunOutput& r, const char* key) {
    const auto doc = parse_document(r.out);
    EXPECT_TRUE(doc) << r.out.substr(0, 2000);
    if (!doc || !doc->contains(key) || doc->at(key).empty()) return nlohmann::json::object();
    return doc->at(key).at(0);
  }

  TempDir dir_;
  std::string job_;
  ServerProcesses fio_;
  SluiceChildren sluice_servers_{{}};
};

TEST_F(Trigger, LocalTimeoutStopsTheJobsAndRunsTheCommandAsFio) {
  SLUICE_REQUIRE(kFio);
  for (const std::string& program : {std::string(SLUICE_BINARY), std::string("fio")}) {
    const std::string mark = program == "fio" ? "fio.mark" : "sluice.mark";
    std::vector<std::string> args = {"--trigger-timeout=2", "--trigger=" + touch(mark), "--output-format=json", job_};
    if (program != "fio") args.insert(args.begin(), "run");
    const RunOutput r = run(args, program, dir_.path());
    ASSERT_EQ(r.exit_code, 0) << program << ": " << describe(r);  // a trigger is no interruption: fio exits 0
    EXPECT_TRUE(fs::exists(marker(mark))) << program;
    const nlohmann::json job = first_job(r, "jobs");
    ASSERT_TRUE(job.contains("job_runtime")) << r.out.substr(0, 2000);
    const long long runtime = job.at("job_runtime").get<long long>();
    EXPECT_GT(runtime, 500) << program;
    EXPECT_LT(runtime, 2500) << program << " (the trigger comes 2 s after the start)";
    EXPECT_EQ(job.at("error").get<int>(), 0) << program;
    EXPECT_GT(job.at("read").at("io_bytes").get<long long>(), 0) << program;
  }
}

TEST_F(Trigger, LocalTriggerFileStopsTheRunAndIsRemoved) {
  const std::string trigger_file = dir_.file("cut-now");
  std::thread later([&trigger_file] {
    std::this_thread::sleep_for(1500ms);
    std::ofstream(trigger_file) << "x";
  });
  const RunOutput r =
      run({"run", "--trigger-file=" + trigger_file, "--trigger=" + touch("file.mark"), "--output-format=json", job_},
          SLUICE_BINARY, dir_.path());
  later.join();
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(fs::exists(marker("file.mark")));
  EXPECT_FALSE(fs::exists(trigger_file)) << "fio removes the trigger file when it fires";
  const nlohmann::json job = first_job(r, "jobs");
  ASSERT_TRUE(job.contains("job_runtime"));
  EXPECT_LT(job.at("job_runtime").get<long long>(), kJobMs / 3);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_NE(doc->at("sluice").at("notes").dump().find("the trigger fired"), std::string::npos) << r.out.substr(0, 3000);
}

TEST_F(Trigger, FioClientTriggersASluiceServer) {
  SLUICE_REQUIRE(kFio);
  const std::string server = sluice_server("127.0.0.1");
  const RunOutput r =
      run({"--trigger-timeout=2", "--trigger=" + touch("client.mark"), "--trigger-remote=" + touch("server.mark"),
           "--client=" + server, "--output-format=json", job_},
          "fio", dir_.path());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(fs::exists(marker("server.mark"))) << "the sluice server ran the remote command";
  EXPECT_TRUE(fs::exists(marker("client.mark"))) << "fio's client ran its own on the server's answer";
  const nlohmann::json job = first_job(r, "client_stats");
  ASSERT_TRUE(job.contains("job_runtime")) << r.out.substr(0, 2000);
  EXPECT_LT(job.at("job_runtime").get<long long>(), kJobMs / 3);
  EXPECT_EQ(job.at("error").get<int>(), 0);
  EXPECT_GT(job.at("read").at("io_bytes").get<long long>(), 0);
}

TEST_F(Trigger, SluiceClientTriggersFioAndSluiceServers) {
  SLUICE_REQUIRE(kFio);
  const std::string fio_server = fio_.start_fio("127.0.0.1", dir_.path());
  const std::string sluice = sluice_server("127.0.0.2");
  const RunOutput r = run({"--client=" + fio_server, "--client=" + sluice, "--trigger-timeout=3",
                           "--trigger=echo >> " + marker("client.mark"),
                           "--trigger-remote=echo >> " + marker("server.mark"), "--output-format=json", job_},
                          SLUICE_BINARY, dir_.path());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto lines = [](const std::string& path) {
    std::ifstream in(path);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) ++n;
    return n;
  };
  EXPECT_EQ(lines(marker("server.mark")), 2) << "each server ran the remote command once";
  EXPECT_EQ(lines(marker("client.mark")), 2) << "the client ran its own once per server's answer, as fio's";
  // fio's server answered with its job's write state: saved as fio's client saves it, named after the server.
  const std::string state = dir_.file("127.0.0.1-long-0-verify.state");
  ASSERT_TRUE(fs::exists(state));
  EXPECT_EQ(fs::file_size(state), 24u + 152u + 16u);  // header, thread_io_list, one file_comp (iodepth 1, 1 file)
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 3u) << r.out.substr(0, 2000);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_LT(clients[i].at("job_runtime").get<long long>(), kJobMs / 3) << clients[i].at("hostname");
    EXPECT_GT(clients[i].at("read").at("io_bytes").get<long long>(), 0) << clients[i].at("hostname");
  }
}

}  // namespace
}  // namespace sluice::testing
