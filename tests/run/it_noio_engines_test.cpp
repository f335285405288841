// fio's engines that do no I/O, from the command line next to fio 3.33: cpuio keeps its share of a CPU busy
// (noop and qsort) with fio's counts (cycles, no bytes), exit_on_io_done ends it with the group's I/O, and
// exec runs a program for the runtime with fio's argument expansion and output files, then stops it and
// leaves nothing running. The fio halves are skipped without fio.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

struct CpuJob {
  double usr = 0;
  std::uint64_t cycles = 0, bytes = 0;
  double mean_cycle_ms = 0;
};

// Every job of a fio-shaped JSON document (fio prints its engine's notes before it).
std::vector<CpuJob> cpu_jobs(const RunOutput& r) {
  std::vector<CpuJob> jobs;
  const std::size_t start = r.out.find('{');
  if (start == std::string::npos) return jobs;
  const auto doc = parse_document(r.out.substr(start));
  if (!doc) return jobs;
  for (const nlohmann::json& j : (*doc)["jobs"]) {
    const nlohmann::json& read = j["read"];
    jobs.push_back({j["usr_cpu"].get<double>(), read["total_ios"].get<std::uint64_t>(),
                    read["io_bytes"].get<std::uint64_t>(), read["clat_ns"]["mean"].get<double>() / 1e6});
  }
  return jobs;
}

RunOutput run_tool(bool with_fio, std::vector<std::string> args, const std::string& cwd = "") {
  RunOptions options;
  options.cwd = cwd;
  args.insert(args.begin(), "--output-format=json");
  if (with_fio) {
    options.program = "fio";
  } else {
    args.insert(args.begin(), "run");
  }
  return run_binary(args, options);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Cpuio, KeepsItsShareOfACpuWithFiosCounts) {
  for (const char* mode : {"noop", "qsort"}) {
    SCOPED_TRACE(mode);
    const std::vector<std::string> job = {"--name=burn",  "--ioengine=cpuio",
                                          "--cpuload=30", std::string("--cpumode=") + mode,
                                          "--time_based", "--runtime=2"};
    const RunOutput mine = run_tool(false, job);
    ASSERT_EQ(mine.exit_code, 0) << describe(mine);
    const std::vector<CpuJob> jobs = cpu_jobs(mine);
    ASSERT_EQ(jobs.size(), 1u) << mine.out;
    // 30% of a CPU: neither spinning all the time (100%) nor idle (0%). Wide bounds: on a loaded machine a
    // spin on the clock gets less of the CPU.
    EXPECT_GT(jobs[0].usr, 5.0);
    EXPECT_LT(jobs[0].usr, 50.0);
    EXPECT_EQ(jobs[0].bytes, 0u) << "a CPU cycle moves no bytes";
    EXPECT_GT(jobs[0].cycles, 0u);
    if (std::string(mode) == "noop") {
      EXPECT_NEAR(jobs[0].mean_cycle_ms, 50.0, 10.0) << "cpuchunks' default: 50 ms cycles";
      EXPECT_NEAR(static_cast<double>(jobs[0].cycles), 12.0, 3.0) << "2 s of 50 ms bursts and ~117 ms thinks";
    }
    if (!::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const RunOutput theirs = run_tool(true, job);
    ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
    const std::vector<CpuJob> fio_jobs = cpu_jobs(theirs);
    ASSERT_EQ(fio_jobs.size(), 1u) << theirs.out;
    EXPECT_NEAR(jobs[0].usr, fio_jobs[0].usr, 15.0);
    EXPECT_EQ(fio_jobs[0].bytes, 0u);
    EXPECT_NEAR(static_cast<double>(jobs[0].cycles), static_cast<double>(fio_jobs[0].cycles),
                std::max(3.0, 0.3 * static_cast<double>(fio_jobs[0].cycles)));
  }
}

// As fio's fio_running_or_pending_io_threads: the run's I/O jobs, running or still to come in later groups.
TEST(Cpuio, ExitOnIoDoneEndsItWithTheRunsIo) {
  const RunOutput r = run_tool(
      false, {"--name=burn", "--ioengine=cpuio", "--cpuload=20", "--time_based", "--runtime=60", "--exit_on_io_done=1",
              "--name=io", "--ioengine=null", "--size=8m", "--rate_iops=2000"});  // about 1 s of I/O
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(15)) << "the cpuio job ran its 60 s runtime";
  EXPECT_GE(r.elapsed, std::chrono::milliseconds(900)) << "it ended before the I/O did";
  // No I/O job in the run: it runs its whole runtime (fio's function says -1, not 0).
  const RunOutput alone = run_tool(false, {"--name=burn", "--ioengine=cpuio", "--cpuload=20", "--time_based",
                                           "--runtime=1500ms", "--exit_on_io_done=1"});
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  EXPECT_GE(alone.elapsed, std::chrono::milliseconds(1400));
  // An I/O group still to come keeps it running too.
  const RunOutput before_io =
      run_tool(false, {"--name=burn", "--ioengine=cpuio", "--cpuload=20", "--time_based", "--runtime=1500ms",
                       "--exit_on_io_done=1", "--name=io", "--stonewall", "--ioengine=null", "--size=1m"});
  ASSERT_EQ(before_io.exit_code, 0) << describe(before_io);
  EXPECT_GE(before_io.elapsed, std::chrono::milliseconds(1400));
}

TEST(Cpuio, NeedsCpuloadAndARuntime) {
  const RunOutput no_load = run_binary({"run", "--name=b", "--ioengine=cpuio", "--runtime=1"});
  EXPECT_NE(no_load.exit_code, 0);
  EXPECT_NE(no_load.err.find("cpuload="), std::string::npos) << no_load.err;
  const RunOutput no_time = run_binary({"run", "--name=b", "--ioengine=cpuio", "--cpuload=10"});
  EXPECT_NE(no_time.exit_code, 0);
  EXPECT_NE(no_time.err.find("give runtime="), std::string::npos) << no_time.err;
}

class Exec : public ::testing::Test {
 protected:
  // A script that prints its arguments, notes a SIGTERM in `term` (and ends, unless `stubborn`), and writes
  // its pid to `pid`.
  std::string script(bool stubborn) {
    const std::string path = tmp_.file(stubborn ? "stubborn.sh" : "polite.sh");
    std::ofstream out(path);
    out << "#!/bin/sh\necho \"$$\" > " << tmp_.file("pid") << "\necho \"args: $*\"\necho oops >&2\n"
        << "trap 'echo term > " << tmp_.file("term") << (stubborn ? "" : "; exit 0") << "' TERM\n"
        << "while :; do sleep 0.05; done\n";
    out.close();
    ::chmod(path.c_str(), 0755);
    return path;
  }
  bool still_running() const {
    const std::string pid = read_all(tmp_.file("pid"));
    return !pid.empty() && ::kill(std::stoi(pid), 0) == 0;
  }
  TempDir tmp_;
};

TEST_F(Exec, RunsTheProgramForTheRuntimeWithFiosExpansionAndOutputFiles) {
  const std::vector<std::string> job = {
      "--name=mon",   "--ioengine=exec", "--program=" + script(false), "--arguments=%n ran %r",
      "--time_based", "--runtime=1"};
  const RunOutput mine = run_tool(false, job, tmp_.path());
  ASSERT_EQ(mine.exit_code, 0) << describe(mine);
  EXPECT_GE(mine.elapsed, std::chrono::milliseconds(900));
  EXPECT_EQ(read_all(tmp_.file("mon.stdout")), "args: mon ran 1\n");
  EXPECT_EQ(read_all(tmp_.file("mon.stderr")), "oops\n");
  EXPECT_EQ(read_all(tmp_.file("term")), "term\n") << "stopped with SIGTERM at the end";
  EXPECT_FALSE(still_running());
  ASSERT_EQ(cpu_jobs(mine).size(), 1u);
  EXPECT_EQ(cpu_jobs(mine)[0].bytes, 0u);
  SLUICE_REQUIRE(kFio);
  std::remove(tmp_.file("mon.stdout").c_str());
  const RunOutput theirs = run_tool(true, job, tmp_.path());
  ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
  EXPECT_EQ(read_all(tmp_.file("mon.stdout")), "args: mon ran 1\n") << "fio's expansion and file names";
  ASSERT_EQ(cpu_jobs(theirs).size(), 1u);
  // One io starts the program, then one per 100 ms (50 ms inside the io, 50 ms of think time), as fio.
  EXPECT_NEAR(static_cast<double>(cpu_jobs(mine)[0].cycles), static_cast<double>(cpu_jobs(theirs)[0].cycles), 3.0);
  // (fio's mean io time differs: its last io sleeps grace_time inside the io after the SIGTERM.)
}

TEST_F(Exec, AProgramIgnoringSigtermIsKilledAfterTheGraceTime) {
  const RunOutput r = run_tool(false,
                               {"--name=mon", "--ioengine=exec", "--program=" + script(true), "--grace_time=0.3",
                                "--std_redirect=0", "--time_based", "--runtime=1"},
                               tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  // 1.3 s (runtime + grace_time) on an idle machine; a program never killed would run to the 20 s timeout.
  EXPECT_LT(r.elapsed, std::chrono::seconds(12)) << describe(r);
  EXPECT_EQ(read_all(tmp_.file("term")), "term\n");
  EXPECT_FALSE(still_running()) << "SIGKILL after grace_time, and reaped";
  EXPECT_NE(r.err.find("args:"), std::string::npos) << "std_redirect=0: its stdout goes to stderr";
  EXPECT_EQ(cpu_jobs(r).size(), 1u) << "stdout holds only the report: " << r.out;
}

TEST_F(Exec, AMissingProgramIsRefusedByName) {
  const RunOutput r = run_binary({"run", "--name=mon", "--ioengine=exec", "--program=/no/such/tool", "--runtime=1"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("program=/no/such/tool"), std::string::npos) << r.err;
  const RunOutput none = run_binary({"run", "--name=mon", "--ioengine=exec", "--runtime=1"});
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.err.find("needs program="), std::string::npos) << none.err;
}

}  // namespace
}  // namespace sluice::testing
