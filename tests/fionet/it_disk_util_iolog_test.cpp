// End to end: fio's DU (disk statistics) and IOLOG (per-io logs sent to the client) over client/server, with
// Debian's fio 3.33 in both roles on loopback. The reference is fio 3.33's own client with a fio 3.33 server
// on the same job: sluice's server (to fio's client) and sluice's client (from fio's server) must give the same
// structure and names (the numbers differ run to run). Servers and client run in separate directories, so a
// log found on the client's side crossed the wire. Every wait is bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
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
namespace fs = std::filesystem;

class DiskUtilAndLogs : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    ASSERT_FALSE(server_dir_.path().empty());
    ASSERT_FALSE(client_dir_.path().empty());
  }

  // `sluice --server` or `fio --server` on a free port of 127.0.0.1, running its jobs in server_dir_.
  std::string server(bool sluice) {
    return servers_.start_server(sluice ? std::string(SLUICE_BINARY) : std::string("fio"), "127.0.0.1",
                                 server_dir_.path());
  }

  RunOutput client(bool sluice, const std::vector<std::string>& args) {
    RunOptions options;
    options.program = sluice ? std::string(SLUICE_BINARY) : std::string("fio");
    options.timeout = 60s;
    options.cwd = client_dir_.path();
    const auto start = std::chrono::steady_clock::now();
    RunOutput r = run_binary(args, options);
    std::printf(
        "[ timing ] %s client: %lld ms\n", sluice ? "sluice" : "fio",
        static_cast<long long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()));
    return r;
  }

  // A job that writes a file of the server's directory (on a block device here) with O_DIRECT for 1 s, so the
  // device's counters move (fio's server samples them every 250 ms: a run of a few ms shows zeros there).
  std::string direct_write_job() {
    const std::string path = client_dir_.file("direct.fio");
    std::ofstream(path) << "[w]\nrw=write\nbs=64k\nsize=8m\ndirect=1\nioengine=psync\ntime_based\nruntime=1\nfilename="
                        << server_dir_.file("data") << "\n";
    return path;
  }

  // 256 random 4 KiB reads of the null engine, with fio's latency log.
  std::string lat_log_job() {
    const std::string path = client_dir_.file("lat.fio");
    std::ofstream(path) << "[l]\nioengine=null\nrw=randread\nbs=4k\nsize=1m\nwrite_lat_log=lj\n";
    return path;
  }

  static std::set<std::string> keys_of(const nlohmann::json& object) {
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items()) keys.insert(key);
    return keys;
  }

  // The files the client wrote whose names start with `prefix`.
  std::set<std::string> client_files(const std::string& prefix) const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(client_dir_.path())) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(prefix, 0) == 0) names.insert(name);
    }
    return names;
  }

  void clear_client_files(const std::string& prefix) {
    for (const std::string& name : client_files(prefix)) fs::remove(client_dir_.file(name));
  }

  TempDir server_dir_;
  TempDir client_dir_;
  ServerProcesses servers_;
};

// The lines of a fio log: each "time, value, ddir, bs, prio" (5 numbers); the count of lines.
std::size_t parsed_log_lines(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string field;
    int count = 0;
    while (std::getline(fields, field, ',')) {
      EXPECT_NO_THROW((void)std::stoull(field, nullptr, 0)) << path << ": " << line;
      ++count;
    }
    EXPECT_EQ(count, 5) << path << ": " << line;
    ++n;
  }
  return n;
}

TEST_F(DiskUtilAndLogs, DiskStatsHaveFiosStructureInBothRoles) {
  const std::string job = direct_write_job();
  // fio 3.33 with a fio 3.33 server: the reference.
  const std::string fio_server = server(false);
  const RunOutput reference = client(false, {"--client=" + fio_server, "--output-format=json", job});
  ASSERT_EQ(reference.exit_code, 0) << describe(reference);
  const auto reference_doc = parse_document(reference.out);
  ASSERT_TRUE(reference_doc);
  const nlohmann::json& reference_disks = reference_doc->at("disk_util");
  if (reference_disks.empty()) GTEST_SKIP() << "no block device under " << server_dir_.path() << " (fio lists none)";
  const std::set<std::string> keys = keys_of(reference_disks.at(0));
  EXPECT_TRUE(keys.count("hostname") && keys.count("port") && keys.count("util"));

  const std::string sluice_server = server(true);
  for (const bool sluice_client : {false, true}) {
    const std::string address = sluice_client ? fio_server : sluice_server;
    const RunOutput r = client(sluice_client, {"--client=" + address, "--output-format=json", job});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc);
    const nlohmann::json& disks = doc->at("disk_util");
    ASSERT_EQ(disks.size(), reference_disks.size()) << r.out.substr(0, 3000);
    EXPECT_EQ(keys_of(disks.at(0)), keys) << disks.dump();
    EXPECT_EQ(disks.at(0).at("name"), reference_disks.at(0).at("name"));
    EXPECT_EQ(disks.at(0).at("hostname"), "127.0.0.1");
    EXPECT_GE(disks.at(0).at("write_ios").get<long long>(), 1) << disks.dump();
    std::printf("%s client, %s server: %s\n", sluice_client ? "sluice" : "fio", sluice_client ? "fio" : "sluice",
                disks.at(0).dump().c_str());

    const RunOutput normal = client(sluice_client, {"--client=" + address, "--output-format=normal", job});
    ASSERT_EQ(normal.exit_code, 0) << describe(normal);
    EXPECT_NE(normal.out.find("Disk stats (read/write):\n  " + disks.at(0).at("name").get<std::string>() + ": ios="),
              std::string::npos)
        << normal.out;
  }
  std::printf("reference (fio both sides): %s\n", reference_disks.at(0).dump().c_str());
}

TEST_F(DiskUtilAndLogs, LatencyLogsReachTheClientUnderFiosNames) {
  const std::string job = lat_log_job();
  // The reference: the names fio 3.33's client gives the logs of a fio 3.33 server.
  const std::string fio_server = server(false);
  const RunOutput reference = client(false, {"--client=" + fio_server, "--output-format=json", job});
  ASSERT_EQ(reference.exit_code, 0) << describe(reference);
  const std::set<std::string> names = client_files("lj_");
  ASSERT_FALSE(names.empty()) << "fio's client wrote no log";
  EXPECT_TRUE(names.count("lj_lat.1.log.127.0.0.1")) << ::testing::PrintToString(names);
  clear_client_files("lj_");

  const std::string sluice_server = server(true);
  for (const bool sluice_client : {false, true}) {
    const std::string address = sluice_client ? fio_server : sluice_server;
    const RunOutput r = client(sluice_client, {"--client=" + address, "--output-format=json", job});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(client_files("lj_"), names) << (sluice_client ? "sluice client" : "fio client");
    for (const std::string kind : {"lat", "clat"}) {
      EXPECT_EQ(parsed_log_lines(client_dir_.file("lj_" + kind + ".1.log.127.0.0.1")), 256u) << kind;
    }
    // The server keeps no copy (fio's server never writes them).
    for (const auto& entry : fs::directory_iterator(server_dir_.path())) {
      EXPECT_NE(entry.path().filename().string().rfind("lj_", 0), 0u) << entry.path();
    }
    clear_client_files("lj_");
  }
}

}  // namespace
}  // namespace sluice::testing
