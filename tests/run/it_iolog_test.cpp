// write_iolog and read_iolog against fio 3.33: a log fio wrote replays in sluice with fio's counts, a log
// sluice wrote replays in fio with sluice's, the replay keeps the log's order and offsets, and its timing
// (replay_no_stall, replay_time_scale) follows the log's timestamps. Skips the fio halves without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/blktrace_writer.h"
#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

struct Counts {
  std::uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;
  bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Counts& c) {
  return os << c.reads << " reads (" << c.read_bytes << " B), " << c.writes << " writes (" << c.write_bytes << " B)";
}

// The first job's counts in a fio-shaped JSON document (fio may print notes before it).
std::optional<Counts> counts_of(const RunOutput& r) {
  const std::size_t start = r.out.find("{\n");
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  if (!doc) return std::nullopt;
  const nlohmann::json& job = (*doc)["jobs"][0];
  return Counts{job["read"]["total_ios"].get<std::uint64_t>(), job["write"]["total_ios"].get<std::uint64_t>(),
                job["read"]["io_bytes"].get<std::uint64_t>(), job["write"]["io_bytes"].get<std::uint64_t>()};
}

std::uint64_t runtime_ms(const RunOutput& r) {
  const auto doc = parse_document(r.out);
  return doc ? (*doc)["jobs"][0]["job_runtime"].get<std::uint64_t>() : 0;
}

// The log's io lines without their timestamps ("FILE ACTION OFFSET LENGTH").
std::vector<std::string> io_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string time, file, action, offset, length;
    if (fields >> time >> file >> action >> offset >> length)
      lines.push_back(file + " " + action + " " + offset + " " + length);
  }
  return lines;
}

RunOutput fio(std::vector<std::string> args) {
  RunOptions options;
  options.program = "fio";
  args.insert(args.begin(), "--output-format=json");
  return run_binary(args, options);
}

RunOutput sluice(std::vector<std::string> args) {
  args.insert(args.begin(), {"run", "--output-format=json"});
  return run_binary(args);
}

class IoLogReplay : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return tmp_.file(name); }
  // A timed v3 log: `count` reads of 4 KiB, `spacing_us` apart, on the file "t" in the temporary directory.
  std::string timed_log(int count, int spacing_us) {
    const std::string path = file("timed.log");
    std::ofstream out(path);
    out << "fio version 3 iolog\n0 " << file("t") << " add\n10 " << file("t") << " open\n";
    for (int i = 0; i < count; ++i)
      out << 1000 + i * spacing_us << " " << file("t") << " read " << i * 4096 << " 4096\n";
    return path;
  }
  TempDir tmp_;
};

TEST_F(IoLogReplay, ALogFioWroteReplaysWithFiosCounts) {
  SLUICE_REQUIRE(kFio);
  const std::string data = file("data");
  const RunOutput wrote = fio({"--name=w", "--filename=" + data, "--size=512k", "--bs=4k", "--bsrange=4k-16k",
                               "--rw=randrw", "--fsync=5", "--write_iolog=" + file("fio.log")});
  ASSERT_EQ(wrote.exit_code, 0) << describe(wrote);
  const RunOutput replayed_by_fio = fio({"--name=r", "--read_iolog=" + file("fio.log")});
  const RunOutput replayed_by_sluice = sluice({"--name=r", "--read_iolog=" + file("fio.log")});
  ASSERT_EQ(replayed_by_sluice.exit_code, 0) << describe(replayed_by_sluice);
  ASSERT_EQ(replayed_by_fio.exit_code, 0) << describe(replayed_by_fio);
  const auto by_fio = counts_of(replayed_by_fio);
  const auto by_sluice = counts_of(replayed_by_sluice);
  ASSERT_TRUE(by_fio && by_sluice);
  EXPECT_EQ(*by_sluice, *by_fio);
  EXPECT_EQ(by_sluice->reads + by_sluice->writes, 0u + counts_of(wrote)->reads + counts_of(wrote)->writes);
  EXPECT_TRUE(replayed_by_sluice.err.empty()) << replayed_by_sluice.err;
}

TEST_F(IoLogReplay, ALogSluiceWroteReplaysInFioWithSluicesCounts) {
  const std::string data = file("data");
  const RunOutput wrote = sluice({"--name=w", "--filename=" + data, "--size=512k", "--bs=4k", "--rw=randrw",
                                  "--fsync=3", "--write_iolog=" + file("sluice.log")});
  ASSERT_EQ(wrote.exit_code, 0) << describe(wrote);
  const auto written = counts_of(wrote);
  ASSERT_TRUE(written);
  const std::vector<std::string> lines = io_lines(file("sluice.log"));
  std::uint64_t reads = 0, writes = 0, syncs = 0;
  for (const std::string& l : lines) {
    reads += l.find(" read ") != std::string::npos;
    writes += l.find(" write ") != std::string::npos;
    syncs += l.find(" sync ") != std::string::npos;
  }
  EXPECT_EQ(reads, written->reads);
  EXPECT_EQ(writes, written->writes);
  EXPECT_EQ(syncs, written->writes / 3);
  SLUICE_REQUIRE(kFio);
  const RunOutput replayed = fio({"--name=r", "--read_iolog=" + file("sluice.log")});
  ASSERT_EQ(replayed.exit_code, 0) << describe(replayed);
  EXPECT_EQ(*counts_of(replayed), *written);
}

TEST_F(IoLogReplay, TheReplayIssuesTheLogsIosInOrder) {
  const std::string data = file("data");
  ASSERT_EQ(sluice({"--name=w", "--filename=" + data, "--size=256k", "--bs=4k", "--bsrange=4k-12k", "--rw=randrw",
                    "--write_iolog=" + file("first.log")})
                .exit_code,
            0);
  // Replayed with its own write_iolog through a second job file: the two logs' ios are the same, line by line.
  const RunOutput replayed = sluice({"--name=r", "--read_iolog=" + file("first.log"), "--replay_no_stall=1",
                                     "--write_lat_log=" + file("lat"), "--log_offset=1"});
  ASSERT_EQ(replayed.exit_code, 0) << describe(replayed);
  std::vector<std::string> expected;
  for (const std::string& l : io_lines(file("first.log"))) {
    std::istringstream f(l);
    std::string name, action, offset, length;
    f >> name >> action >> offset >> length;
    expected.push_back((action == "read" ? "0 " : "1 ") + length + " " + offset);
  }
  // fio's per-io log: "time, value, ddir, bs, offset"; psync issues one io at a time, so completion order
  // is issue order.
  std::ifstream lat(file("lat_clat.1.log"));
  std::vector<std::string> got;
  std::string line;
  while (std::getline(lat, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, ',')) cols.push_back(col.substr(col.find_first_not_of(' ')));
    ASSERT_GE(cols.size(), 5u) << line;
    got.push_back(cols[2] + " " + cols[3] + " " + cols[4]);
  }
  EXPECT_EQ(got, expected);
}

TEST_F(IoLogReplay, TimingFollowsTheTimestampsAndItsScale) {
  // 19 gaps of 50 ms: 950 ms. The lower bounds are the log's own (a sleep never ends early); the upper bounds
  // leave half the span and more for a busy machine (load 10 on 2 cores) and still catch a replay that
  // ignores no_stall (950 ms) or counts the gaps twice (1900 ms).
  const std::string log = timed_log(20, 50'000);
  const RunOutput timed = sluice({"--name=r", "--read_iolog=" + log});
  ASSERT_EQ(timed.exit_code, 0) << describe(timed);
  EXPECT_GE(runtime_ms(timed), 945u);
  EXPECT_LT(runtime_ms(timed), 1800u);
  const RunOutput fast = sluice({"--name=r", "--read_iolog=" + log, "--replay_no_stall=1"});
  ASSERT_EQ(fast.exit_code, 0) << describe(fast);
  EXPECT_LT(runtime_ms(fast), 475u);
  const RunOutput doubled = sluice({"--name=r", "--read_iolog=" + log, "--replay_time_scale=200"});
  ASSERT_EQ(doubled.exit_code, 0) << describe(doubled);
  EXPECT_GE(runtime_ms(doubled), 470u);
  EXPECT_LT(runtime_ms(doubled), runtime_ms(timed));
}

// A blktrace binary trace (as blkparse -d writes it), replayed on a file by replay_redirect in fio and in
// sluice: the same ios; and fio's probed depth (two reads queued before a completion) in sluice too.
TEST_F(IoLogReplay, ABlktraceTraceReplaysWithFiosCounts) {
  const std::string data = file("data");
  std::ofstream(data, std::ios::binary) << std::string(1 << 20, 'x');
  Trace trace;
  std::uint64_t t = 1'000'000;
  for (std::uint64_t i = 0; i < 40; ++i) {
    trace.queue_read(t, i * 16, 4096).queue_read(t + 1000, 1000 + i * 8, 8192);
    trace.complete_read(t + 50'000, i * 16, 4096);
    if (i % 4 == 0) trace.queue_write(t + 60'000, 1500 + i * 8, 4096);
    trace.event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_NOTIFY), t + 70'000, 0, 0);
    t += 100'000;  // 100 us apart: 40 rounds, 4 ms
  }
  const std::string trace_path = file("trace.bin");
  std::ofstream(trace_path, std::ios::binary) << trace.bytes();
  const RunOutput by_sluice =
      sluice({"--name=r", "--read_iolog=" + trace_path, "--replay_redirect=" + data, "--ioengine=io_uring"});
  ASSERT_EQ(by_sluice.exit_code, 0) << describe(by_sluice);
  const auto counts = counts_of(by_sluice);
  ASSERT_TRUE(counts);
  EXPECT_EQ(*counts, (Counts{80, 10, 40 * (4096 + 8192), 10 * 4096}));
  // fio's latency_depth is the job's iodepth: the depth probed from the trace.
  EXPECT_EQ(parse_document(by_sluice.out)->at("jobs")[0].value("latency_depth", 0), 2);
  SLUICE_REQUIRE(kFio);
  // psync: fio 3.33's io_uring replay leaves the bytes of the io still in flight at the trace's end out of
  // io_bytes (4 KiB or 8 KiB short here, run to run); its psync replay counts them all.
  const RunOutput by_fio =
      fio({"--name=r", "--read_iolog=" + trace_path, "--replay_redirect=" + data, "--ioengine=psync"});
  ASSERT_EQ(by_fio.exit_code, 0) << describe(by_fio);
  EXPECT_EQ(*counts_of(by_fio), *counts);
  EXPECT_EQ(parse_document(by_fio.out.substr(by_fio.out.find("{\n")))->at("jobs")[0].value("latency_depth", 0), 2);
}

// A sync of the log waits its own time, like an io (fio's read_iolog_get delays it too), and the write after
// it counts its delay from the sync.
TEST_F(IoLogReplay, ASyncWaitsItsTimeAndTheNextIoCountsFromIt) {
  const std::string log = file("sync.log"), f = file("s");
  std::ofstream(log) << "fio version 3 iolog\n1 " << f << " add\n2 " << f << " open\n1000 " << f
                     << " write 0 4096\n301000 " << f << " sync 0 0\n401000 " << f << " write 4096 4096\n";
  const RunOutput r = sluice({"--name=r", "--read_iolog=" + log, "--ioengine=psync"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_GE(runtime_ms(r), 398u);  // 300 ms to the sync, 100 ms from it to the second write
  EXPECT_LT(runtime_ms(r), 2000u);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["sync"]["total_ios"], 1);
}

// Clones replaying standard input share one reading of it.
TEST_F(IoLogReplay, StandardInputFeedsEveryClone) {
  const std::string log = file("in.log"), f = file("i");
  std::ofstream(log) << "fio version 2 iolog\n" << f << " add\n" << f << " read 0 4096\n" << f << " read 8192 4096\n";
  RunOptions options;
  options.program = "sh";
  const RunOutput r = run_binary({"-c", std::string(SLUICE_BINARY) +
                                            " run --output-format=json --name=r "
                                            "--numjobs=2 --read_iolog=- < " +
                                            log},
                                 options);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  ASSERT_EQ((*doc)["jobs"].size(), 2u);
  for (const auto& job : (*doc)["jobs"]) EXPECT_EQ(job["read"]["io_bytes"], 8192);
}

TEST_F(IoLogReplay, EachCloneReplaysItsOwnLog) {
  const std::string a = file("a.log"), b = file("b.log");
  std::ofstream(a) << "fio version 2 iolog\n" << file("fa") << " add\n" << file("fa") << " read 0 4096\n";
  std::ofstream(b) << "fio version 2 iolog\n"
                   << file("fb") << " add\n"
                   << file("fb") << " read 0 4096\n"
                   << file("fb") << " read 4096 8192\n";
  const RunOutput r = sluice({"--name=r", "--numjobs=2", "--read_iolog=" + a + ":" + b});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["read"]["io_bytes"], 4096);
  EXPECT_EQ((*doc)["jobs"][1]["read"]["io_bytes"], 4096 + 8192);
}

// verify= with a replayed log: the log's writes carry verify headers and are read back and checked after the
// replay, as fio does (256 random 4 KiB writes replayed: 256 writes, 256 verify reads, no error, in both).
TEST_F(IoLogReplay, ReplayedWritesVerifyAsFio) {
  SLUICE_REQUIRE(kFio);
  const RunOutput wrote = fio({"--name=w", "--filename=" + file("v"), "--size=1m", "--bs=4k", "--rw=randwrite",
                               "--write_iolog=" + file("v.log")});
  ASSERT_EQ(wrote.exit_code, 0) << describe(wrote);
  for (const bool by_fio : {true, false}) {
    const std::vector<std::string> args = {"--name=r", "--read_iolog=" + file("v.log"), "--verify=crc32c",
                                           "--verify_state_save=0"};
    const RunOutput r = by_fio ? fio(args) : sluice(args);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const auto counts = counts_of(r);
    ASSERT_TRUE(counts);
    EXPECT_EQ(counts->writes, 256u) << (by_fio ? "fio" : "sluice");
    EXPECT_EQ(counts->reads, 256u) << (by_fio ? "fio" : "sluice") << ": every replayed write is verified";
  }
}

TEST_F(IoLogReplay, BadLogsAndCombinationsAreRefusedWithTheirReason) {
  const RunOutput missing = sluice({"--name=r", "--read_iolog=" + file("none.log")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("read_iolog=" + file("none.log") + ": cannot open the log: No such file or directory"),
            std::string::npos)
      << missing.err;
  std::ofstream(file("bad.log")) << "fio version 2 iolog\nf add\nf read 0 4096\nf reed 0 4096\n";
  const RunOutput bad = sluice({"--name=r", "--read_iolog=" + file("bad.log")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find(file("bad.log") + ":4: unknown io action 'reed'"), std::string::npos) << bad.err;
  const RunOutput readonly = sluice({"--readonly", "--name=r", "--read_iolog=" + file("bad.log")});
  EXPECT_EQ(readonly.exit_code, 1);
  EXPECT_NE(readonly.err.find("add replay_skip=write,trim"), std::string::npos) << readonly.err;
  const RunOutput clones =
      sluice({"--name=w", "--filename=" + file("d"), "--size=64k", "--numjobs=2", "--write_iolog=" + file("w.log")});
  EXPECT_EQ(clones.exit_code, 1);
  EXPECT_NE(clones.err.find("with numjobs=2: the clones would interleave"), std::string::npos) << clones.err;
  std::ofstream(file("good.log")) << "fio version 2 iolog\n" << file("g") << " add\n" << file("g") << " read 0 4096\n";
  const RunOutput skip = sluice({"--name=r", "--read_iolog=" + file("good.log"), "--replay_skip=read,wirte"});
  EXPECT_EQ(skip.exit_code, 1);
  EXPECT_NE(skip.err.find("--replay_skip=read,wirte"), std::string::npos) << skip.err;
  EXPECT_NE(skip.err.find("'write'"), std::string::npos) << skip.err;  // the nearest choice
}

}  // namespace
}  // namespace sluice::testing
