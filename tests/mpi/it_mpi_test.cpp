// sluice under mpirun on this machine: three ranks (--oversubscribe), with the null engine and with files,
// a failing rank, a hung run ended by the time limit, and three "hosts" in network namespaces (root only).
// Each mpirun is bounded by timeout -k so nothing is left behind. Ranks waiting in a collective yield the CPU
// (mpi_yield_when_idle): on two cores shared with other tests a spinning rank would starve the one working.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/namespace_hosts.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using json = nlohmann::json;

// mpirun -n N build/sluice ARGS, bounded by timeout; `mpmd` appends ": -n 1 PROGRAM MPMD..." (one more rank
// running other arguments, or another program: build/sluice by default).
RunOutput mpirun(int ranks, const std::vector<std::string>& args, const std::vector<std::string>& mpmd = {},
                 int seconds = 40, const std::string& mpmd_program = SLUICE_BINARY) {
  std::vector<std::string> command = {"-k",
                                      "5",
                                      std::to_string(seconds),
                                      "mpirun",
                                      "--allow-run-as-root",
                                      "--oversubscribe",
                                      "--mca",
                                      "btl",
                                      "self,tcp",
                                      "--mca",
                                      "mpi_yield_when_idle",
                                      "1",
                                      "-n",
                                      std::to_string(ranks),
                                      SLUICE_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  if (!mpmd.empty()) {
    command.insert(command.end(), {":", "-n", "1", mpmd_program});
    command.insert(command.end(), mpmd.begin(), mpmd.end());
  }
  RunOptions o;
  o.program = "timeout";
  o.timeout = std::chrono::seconds(seconds + 10);
  return run_binary(command, o);
}

std::uint64_t read_ios(const json& entry) { return entry.at("read").at("total_ios").get<std::uint64_t>(); }

TEST(Mpi, ThreeRanksNullEngineGiveClientStatsAndAnExactAggregate) {
  SLUICE_REQUIRE(kMpirun);
  const RunOutput r = mpirun(3, {"run", "--name=r", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g",
                                 "--runtime=1", "--time_based", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const json& clients = doc->at("client_stats");
  ASSERT_EQ(clients.size(), 4u) << clients.dump(1).substr(0, 2000);
  std::uint64_t sum = 0;
  std::vector<int> ranks;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(clients[i].at("hostname").is_string());
    EXPECT_TRUE(clients[i].contains("port"));
    EXPECT_GT(read_ios(clients[i]), 0u);
    ranks.push_back(clients[i].at("rank").get<int>());
    sum += read_ios(clients[i]);
  }
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2}));
  const json& all = clients[3];
  EXPECT_EQ(all.at("jobname"), "All clients");
  EXPECT_EQ(read_ios(all), sum);
  const json& group = doc->at("sluice").at("mpi").at("groups").at(0);
  EXPECT_DOUBLE_EQ(group.at("window").at("ios").get<double>(), static_cast<double>(sum));
  EXPECT_LE(group.at("all_active").at("ios").get<double>(), static_cast<double>(sum));
  EXPECT_GT(group.at("all_active").at("ios").get<double>(), 0.0);
  // The aggregate rate is the sum of ios over the window, not a sum of rates.
  const double window_s = group.at("window").at("seconds").get<double>();
  EXPECT_NEAR(group.at("window").at("iops").get<double>(), static_cast<double>(sum) / window_s, 1e-6 * sum);
  ASSERT_EQ(doc->at("sluice").at("hosts").size(), 3u);
  EXPECT_TRUE(doc->at("sluice").at("hosts")[1].at("environment").is_object());
  EXPECT_EQ(doc->at("jobs").at(0).at("jobname"), "All clients");  // fio tools reading "jobs" see the aggregate
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// --repeat and --save under MPI: every rank runs each repetition in step, rank 0 alone saves the aggregate
// documents (one result, two repetitions, each with the clients and "All clients").
TEST(Mpi, RepeatAndSaveStoreTheAggregateOnceFromRankZero) {
  SLUICE_REQUIRE(kMpirun);
  TempDir dir;
  const std::string db = dir.file("history.db");
  const RunOutput r =
      mpirun(2, {"run", "--name=r", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g", "--runtime=1",
                 "--time_based", "--output-format=json", "--repeat=2", "--label=mpi", "--db=" + db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto printed = parse_document(r.out);
  ASSERT_TRUE(printed);
  EXPECT_EQ(printed->at("sluice").at("repeat").at("count"), 2);
  std::size_t saved = 0;
  for (std::size_t at = r.err.find("saved as "); at != std::string::npos; at = r.err.find("saved as ", at + 1)) ++saved;
  EXPECT_EQ(saved, 1u) << r.err;

  const RunOutput exported = run_binary({"history", "export", "mpi", "--db=" + db});
  ASSERT_EQ(exported.exit_code, 0) << describe(exported);
  const auto e = parse_document(exported.out);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->at("repetitions").size(), 2u);
  for (const json& repetition : e->at("repetitions")) {
    const json& clients = repetition.at("client_stats");
    ASSERT_EQ(clients.size(), 3u);
    EXPECT_EQ(clients[2].at("jobname"), "All clients");
    EXPECT_EQ(read_ios(clients[2]), read_ios(clients[0]) + read_ios(clients[1]));
    EXPECT_EQ(repetition.at("sluice").at("hosts").size(), 2u);
  }
  const RunOutput list = run_binary({"history", "--db=" + db});
  EXPECT_EQ(std::count(list.out.begin(), list.out.end(), '\n'), 2) << list.out;  // the header and one result
}

TEST(Mpi, ThreeRanksOnFilesInOneDirectoryUseTheirOwnFilesAndPrintTheHostTable) {
  SLUICE_REQUIRE(kMpirun);
  TempDir dir;
  const RunOutput r = mpirun(3, {"run", "--name=w", "--ioengine=psync", "--rw=randwrite", "--bs=4k", "--size=2m",
                                 "--runtime=1", "--time_based", "--directory=" + dir.path()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (int rank = 0; rank < 3; ++rank) {
    EXPECT_TRUE(std::filesystem::exists(dir.file("w.0.0.rank" + std::to_string(rank)))) << rank;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("w.0.0")));
  EXPECT_NE(r.out.find("MPI run: 3 ranks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Group 0, per host"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("start skew"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("All clients, window"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("All clients, all active"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merged histograms"), std::string::npos) << r.out;
  // Each rank's own file (.rank<N>) is not a difference between the hosts.
  EXPECT_NE(r.out.find("Hosts' environments: no differences from rank 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("All clients: (groupid=0"), std::string::npos) << r.out;  // fio's report of the aggregate
}

TEST(Mpi, AFailingRankStopsTheOthersAndIsNamed) {
  SLUICE_REQUIRE(kMpirun);
  TempDir dir;
  // The others' runtime (120 s) is what a missed stop would cost; the bound leaves mpirun a minute to start
  // and end its ranks on a busy machine (load 10 on 2 cores), far from it.
  const std::vector<std::string> common = {"run",           "--name=r",     "--ioengine=psync",
                                           "--rw=read",     "--bs=4k",      "--size=1m",
                                           "--runtime=120", "--time_based", "--output-format=json"};
  std::vector<std::string> good = common;
  good.push_back("--directory=" + dir.path());
  std::vector<std::string> bad = common;
  bad.push_back("--filename=" + dir.file("no-such-dir/f"));
  const RunOutput r = mpirun(2, good, bad, 90);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(60)) << "the others did not stop: " << describe(r);
  EXPECT_NE(r.err.find(":2]"), std::string::npos) << describe(r);  // "sluice[host:2]: ..."
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const json& failures = doc->at("sluice").at("mpi").at("failures");
  ASSERT_EQ(failures.size(), 1u) << failures;
  EXPECT_NE(failures[0].get<std::string>().find("(rank 2)"), std::string::npos) << failures;
}

// SIGTERM to one rank alone (a host's own kill, not ^C on mpirun): every rank stops soon after, and rank 0
// names the signalled one.
TEST(Mpi, ASignalToOneRankStopsTheOthersAndNamesIt) {
  SLUICE_REQUIRE(kMpirun);
  const std::vector<std::string> args = {"run",           "--name=r",     "--ioengine=null",
                                         "--rw=randread", "--bs=4k",      "--size=1g",
                                         "--runtime=120", "--time_based", "--output-format=json"};
  // The kill waits for sluice's SIGTERM handler (bit 15 of /proc/PID/status SigCgt), then a second for the
  // run to be under way: a fixed sleep could end before a busy machine has started the program.
  std::string signalled =
      "(until m=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$$/status) && [ $((0x$m & 0x4000)) -ne 0 ]; do "
      "sleep 0.1; done; sleep 1; kill -TERM $$) & exec " SLUICE_BINARY;
  for (const std::string& a : args) signalled += " " + a;
  const RunOutput r = mpirun(2, args, {"-c", signalled}, 90, "sh");
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(60)) << "the others did not stop: " << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << describe(r);
  const json& failures = doc->at("sluice").at("mpi").at("failures");
  ASSERT_EQ(failures.size(), 1u) << failures;
  EXPECT_NE(failures[0].get<std::string>().find("(rank 2): stopped by SIGTERM"), std::string::npos) << failures;
  const json& clients = doc->at("client_stats");
  for (std::size_t i = 0; i + 1 < clients.size(); ++i) {
    EXPECT_LT(clients[i].at("job_runtime").get<std::uint64_t>(), 10'000u) << clients[i].at("hostname");
  }
}

TEST(Mpi, ARunBeyondItsTimeLimitIsEndedWithAClearMessage) {
  SLUICE_REQUIRE(kMpirun);
  // Ended at 1 s, not at the runtime (120 s); the bound leaves mpirun time to start on a busy machine.
  const RunOutput r = mpirun(
      2, {"run", "--mpi-timeout=1s", "--name=r", "--ioengine=null", "--size=1g", "--runtime=120", "--time_based"}, {},
      90);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(60)) << describe(r);
  EXPECT_NE(r.err.find("did not finish within its time limit of 1 s"), std::string::npos) << describe(r);
}

// sluice capacity across ranks: every point runs on all three in step, the concurrency counts every host,
// and the point's IOPS and ios are those of all hosts (the answer's All-clients ios = the hosts' sum).
TEST(Mpi, CapacityScalesAcrossRanksAndReportsTheAggregateAndEachHost) {
  SLUICE_REQUIRE(kMpirun);
  const RunOutput r = mpirun(3,
                             {"capacity", "--ioengine=null", "--size=1g", "--slo=1s", "--budget=6s",
                              "--max-concurrency=4", "--output-format=json"},
                             {}, 60);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const json& capacity = doc->at("sluice").at("capacity");
  EXPECT_EQ(capacity.at("hosts"), 3);
  const json& curve = capacity.at("curve");
  ASSERT_GE(curve.size(), 2u) << capacity.dump(1);
  for (const json& point : curve) {
    EXPECT_EQ(point.at("hosts"), 3);
    EXPECT_EQ(point.at("concurrency").get<int>(), 3 * point.at("iodepth").get<int>() * point.at("numjobs").get<int>());
  }
  EXPECT_EQ(curve.front().at("concurrency"), 3);  // one stream per host first
  const int answer = capacity.at("concurrency").get<int>();
  const json& points = doc->at("sluice").at("mpi").at("points");
  ASSERT_EQ(points.size(), curve.size());
  double hosts_ios = 0;
  for (const json& point : points) {
    ASSERT_EQ(point.at("hosts").size(), 3u) << point.dump(1);
    for (int rank = 0; rank < 3; ++rank) {
      EXPECT_EQ(point.at("hosts")[rank].at("rank"), rank);
      EXPECT_GT(point.at("hosts")[rank].at("ios").get<double>(), 0.0);
    }
    if (point.at("concurrency") != answer) continue;
    for (const json& host : point.at("hosts")) hosts_ios += host.at("ios").get<double>();
  }
  const json& all = doc->at("jobs").at(0);
  EXPECT_EQ(all.at("jobname"), "All clients");
  EXPECT_DOUBLE_EQ(static_cast<double>(read_ios(all)), hosts_ios);
  EXPECT_EQ(doc->at("sluice").at("hosts").size(), 3u);
}

TEST(Mpi, CapacityOnFilesPrintsEachHostAndNamesAFailingRank) {
  SLUICE_REQUIRE(kMpirun);
  TempDir dir;
  const std::vector<std::string> common = {"capacity", "--ioengine=psync", "--direct=0",         "--size=1m",
                                           "--slo=1s", "--budget=4s",      "--max-concurrency=2"};
  std::vector<std::string> good = common;
  good.push_back("--directory=" + dir.path());
  const RunOutput ok = mpirun(3, good, {}, 60);
  ASSERT_EQ(ok.exit_code, 0) << describe(ok);
  EXPECT_NE(ok.out.find("concurrency = iodepth x numjobs x hosts"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("3 hosts (MPI ranks) ran each point in step"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("Per host at the answer (concurrency "), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("Hosts' environments: no differences from rank 0"), std::string::npos) << ok.out;

  std::vector<std::string> bad = common;
  bad.push_back("--filename=" + dir.file("no-such-dir/f"));
  const RunOutput failed = mpirun(2, good, bad, 60);
  EXPECT_NE(failed.exit_code, 0) << describe(failed);
  EXPECT_LT(failed.elapsed, std::chrono::seconds(30)) << describe(failed);
  EXPECT_NE(failed.err.find("capacity: failed on "), std::string::npos) << describe(failed);
  EXPECT_NE(failed.err.find("(rank 2)"), std::string::npos) << describe(failed);
}

// sluice metadata across ranks: mdtest's tasks are every rank's threads; phases are in step across all of
// them, the items and latencies count every task, and the one work directory is gone afterwards.
TEST(Mpi, MetadataTasksAreEveryRanksThreads) {
  SLUICE_REQUIRE(kMpirun);
  TempDir dir;
  const RunOutput r = mpirun(
      3, {"metadata", "-d", dir.path(), "-n", "60", "-i", "2", "--threads=2", "--output-format=normal,json"}, {}, 60);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("was launched with 6 total task(s) on 1 node(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Nodemap: 100000\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6 tasks, 360 files/directories"), std::string::npos) << r.out;
  const std::size_t brace = r.out.find("\n{");
  ASSERT_NE(brace, std::string::npos) << r.out;
  const auto doc = parse_document(r.out.substr(brace + 1));
  ASSERT_TRUE(doc) << r.out;
  const json& metadata = doc->at("sluice").at("metadata");
  EXPECT_EQ(metadata.at("plan").at("tasks"), 6);
  EXPECT_EQ(metadata.at("plan").at("hosts").size(), 3u);
  // Every task's items of both iterations were timed: 6 tasks x 60 items x 2 iterations per phase.
  EXPECT_EQ(metadata.at("latency_ns").at("file_create").at("count"), 720) << metadata.at("latency_ns").dump(1);
  EXPECT_EQ(metadata.at("iterations").at(0).at("phases").at("file_create").at("items"), 360);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "the work directory was left behind";
}

TEST(Mpi, MetadataStopsEveryRankWhenOneCannotUseItsDirectoryAndCreatesNothing) {
  SLUICE_REQUIRE(kMpirun);
  TempDir dir;
  const RunOutput r = mpirun(2, {"metadata", "-d", dir.path(), "-n", "60"},
                             {"metadata", "-d", dir.file("no-such-dir"), "-n", "60"}, 40);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(30)) << describe(r);
  EXPECT_NE(r.err.find(":2]: -d/--dir '" + dir.file("no-such-dir") + "'"), std::string::npos) << describe(r);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "something was created";
}

// --mpi-wearout (IOR's stonewall wear-out): rank 2 runs at half the rate; after the 1 s deadline it goes on
// until it has done what the others did, and the cluster's wear-out figures count every rank at the busiest
// rank's work.
TEST(Mpi, StonewallWearOutEvensOutTheRanksWork) {
  SLUICE_REQUIRE(kMpirun);
  const std::vector<std::string> job = {
      "--mpi-wearout", "run",       "--name=r",    "--ioengine=null", "--rw=randread",
      "--bs=4k",       "--size=1g", "--runtime=1", "--time_based",    "--output-format=json"};
  std::vector<std::string> fast = job;
  fast.push_back("--rate_iops=2000");
  std::vector<std::string> slow = job;
  slow.push_back("--rate_iops=1000");
  const RunOutput r = mpirun(2, fast, slow, 60);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const json& wearout = doc->at("sluice").at("mpi").at("groups").at(0).at("wearout");
  const std::uint64_t most = wearout.at("deadline_max_ios").get<std::uint64_t>();
  EXPECT_LT(wearout.at("deadline_min_ios").get<std::uint64_t>(), most * 3 / 4) << wearout.dump(1);
  const json& hosts = wearout.at("hosts");
  ASSERT_EQ(hosts.size(), 3u);
  for (const json& h : hosts) {
    // One clone per rank: each ends with exactly the busiest rank's ios.
    EXPECT_EQ(h.at("deadline_ios").get<std::uint64_t>() + h.at("extra_ios").get<std::uint64_t>(), most) << h;
  }
  EXPECT_GT(hosts[2].at("extra_ios").get<std::uint64_t>(), 0u);
  EXPECT_GT(hosts[2].at("seconds").get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(wearout.at("total").at("ios").get<double>(), 3.0 * static_cast<double>(most));
  EXPECT_GT(wearout.at("total").at("seconds").get<double>(),
            doc->at("sluice").at("mpi").at("groups").at(0).at("window").at("seconds").get<double>());
}

TEST(Mpi, WearOutWithoutMpiIsRefused) {
  const RunOutput r = run_binary({"--mpi-wearout", "run", "--name=r", "--ioengine=null", "--size=1m"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--mpi-wearout is for runs under mpirun (or with --mpi)"), std::string::npos) << describe(r);
}

TEST(Mpi, OtherCommandsAreRefusedUnderMpi) {
  SLUICE_REQUIRE(kMpirun);
  const RunOutput r = mpirun(1, {"bonnie", "--help"}, {}, 20);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("under MPI only `sluice run` (or its fio form), `sluice capacity` and `sluice metadata` "
                       "run on every rank; 'bonnie' does not"),
            std::string::npos)
      << describe(r);
}

TEST(Mpi, ThreeNetworkNamespacesAreThreeHosts) {
  SLUICE_REQUIRE(kMpirun);
  SLUICE_REQUIRE(kNetNamespaces);
  if (!have_program("unshare")) GTEST_SKIP() << "unshare is not in PATH (Debian package util-linux)";
  TempDir dir;
  const NamespaceHosts hosts(dir.path());
  ASSERT_TRUE(hosts.ok()) << "could not create the namespaces and bridge";
  std::vector<std::string> command = {"-k",    "5",   "60",       "mpirun", "--allow-run-as-root",
                                      "--mca", "btl", "self,tcp", "--mca",  "mpi_yield_when_idle",
                                      "1"};
  for (const std::string& a : hosts.mpirun_args()) command.push_back(a);
  const std::vector<std::string> sluice = {
      SLUICE_BINARY, "run",       "--name=r",    "--ioengine=psync", "--rw=randread",
      "--bs=4k",     "--size=4m", "--runtime=2", "--time_based",     "--directory=" + dir.path()};
  command.insert(command.end(), sluice.begin(), sluice.end());
  RunOptions o;
  o.program = "timeout";
  o.timeout = std::chrono::seconds(70);
  const RunOutput r = run_binary(command, o);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("MPI run: 3 ranks on 3 hosts"), std::string::npos) << r.out;
  for (const std::string& name : hosts.names()) EXPECT_NE(r.out.find("  " + name + " "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Hosts' environments: no differences from rank 0"), std::string::npos) << r.out;
  for (int rank = 0; rank < 3; ++rank) {
    EXPECT_TRUE(std::filesystem::exists(dir.file("r.0.0.rank" + std::to_string(rank)))) << rank;
  }
}

}  // namespace
}  // namespace sluice::testing
