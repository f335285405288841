// Injected faults, real ones: sluice runs on tests/support/faultfs (a FUSE passthrough that fails, shortens
// or delays chosen operations) and on a small loop-mounted ext4 that fills up. Each test checks the exact
// message (job, operation, offset, file), the exit status, and that the results measured before the fault
// are reported; and files and loop devices changed under a running job. Skips when faultfs was not built,
// /dev/fuse is unusable, or (ext4, loop devices) not root.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/faultfs_mount.h"
#include "support/it_test_util.h"
#include "support/loop_device.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// A 1 MiB file of random-ish bytes in the backing directory, and faultfs over it at <tmp>/mnt.
class Faults : public ::testing::Test {
 protected:
  void mount(const std::vector<std::string>& faults) {
    std::filesystem::create_directory(tmp_.file("backing"));
    std::ofstream(tmp_.file("backing/f"), std::ios::binary) << std::string(1 << 20, 'x');
    mount_ = std::make_unique<FaultFsMount>(tmp_.file("backing"), mnt(), faults, tmp_.file("faults.log"));
  }
  std::string mnt() const { return tmp_.file("mnt"); }
  std::string injected() const {
    std::ifstream in(tmp_.file("faults.log"));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  RunOutput sluice(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    for (const char* a : {"--ioengine=psync", "--bs=4k", "--output-format=json"}) args.emplace_back(a);
    RunOptions options;
    options.timeout = std::chrono::seconds(15);
    return run_binary(args, options);
  }
  void TearDown() override { mount_.reset(); }  // unmount before TempDir removes the directory

  TempDir tmp_;
  std::unique_ptr<FaultFsMount> mount_;
};

#define SKIP_UNLESS_MOUNTED() \
  if (!mount_->usable()) GTEST_SKIP() << mount_->skip_reason()

TEST_F(Faults, ReadEioStopsTheJobNamesWhereAndKeepsWhatWasMeasured) {
  mount({"read:eio:at=524288"});
  SKIP_UNLESS_MOUNTED();
  const std::string f = mnt() + "/f";
  const RunOutput r = sluice({"--name=bad", "--filename=" + f, "--size=1m", "--rw=read", "--direct=1"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(
      r.err.find("sluice: job bad: read of 4096 bytes at offset 524288 of " + f + " failed: Input/output error\n"),
      std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& job = doc->at("jobs").at(0);
  EXPECT_EQ(job.at("error"), 5);
  EXPECT_EQ(total_ios(job, "read"), 129u);               // as fio: the 128 blocks before the bad one, and the bad one
  EXPECT_EQ(job.at("read").at("io_bytes"), 128 * 4096);  // what was read is measured and reported
  EXPECT_EQ(injected(), "read eio offset=524288 size=4096 path=/f\n");
}

TEST_F(Faults, ContinueOnErrorCountsTheErrorAndGoesOn) {
  mount({"read:eio:at=524288"});
  SKIP_UNLESS_MOUNTED();
  const std::string f = mnt() + "/f";
  const RunOutput r =
      sluice({"--name=coe", "--filename=" + f, "--size=1m", "--rw=read", "--direct=1", "--continue_on_error=all"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("sluice: job coe: errors ignored (continue_on_error); first: read of 4096 bytes at offset "
                       "524288 of " +
                       f + " failed: Input/output error\n"),
            std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& job = doc->at("jobs").at(0);
  EXPECT_EQ(job.at("error"), 5);  // as fio 3.33: a job that passed errors reports the first as its error
  EXPECT_EQ(job.at("total_err"), 1);
  EXPECT_EQ(job.at("first_error"), 5);
  EXPECT_EQ(total_ios(job, "read"), 256u);  // issued ios, the failed one too (fio)
  EXPECT_EQ(job.at("read").at("io_bytes"), 255 * 4096);
}

// fio's error classes: continue_on_error passes only the errors in the class's list (EIO and EILSEQ unless
// ignore_error says otherwise); fio itself runs the same job on the same faults when it is installed.
TEST_F(Faults, ContinueOnErrorDoesNotPassEnospcButIgnoreErrorDoes) {
  const std::string f = mnt() + "/f";
  const std::vector<std::string> job = {"--name=full", "--filename=" + f, "--size=1m", "--rw=write", "--direct=1"};
  struct Case {
    std::string option;
    int exit_code, error;
    std::uint64_t writes, total_err;
  };
  // ENOSPC is not in the default list: continue_on_error=all still stops at the 51st write (fio counts
  // the failed write among the issued ios: 51). ignore_error=,ENOSPC passes it: the 206 failed writes are
  // errors, the job goes through all 256 and exits 0, its "error" the first passed one (28), as fio 3.33.
  const std::vector<Case> cases = {{"--continue_on_error=all", 1, 28, 51, 0},
                                   {"--ignore_error=,ENOSPC", 0, 28, 256, 206}};
  for (const Case& c : cases) {
    std::vector<std::string> args = job;
    args.push_back(c.option);
    mount_.reset();  // a fresh mount per run: faultfs counts the writes since it mounted
    mount({"write:enospc:after=50"});
    SKIP_UNLESS_MOUNTED();
    const RunOutput r = sluice(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.option << describe(r);
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc) << c.option << describe(r);
    const auto& j = doc->at("jobs").at(0);
    EXPECT_EQ(j.at("error"), c.error) << c.option;
    EXPECT_EQ(total_ios(j, "write"), c.writes) << c.option;
    EXPECT_EQ(j.at("write").at("io_bytes"), 50 * 4096) << c.option;
    if (c.exit_code == 0) {
      EXPECT_EQ(j.at("total_err"), c.total_err) << c.option;
      EXPECT_EQ(j.at("first_error"), 28) << c.option;
    }
    if (!have_tool("fio")) continue;
    mount_.reset();
    mount({"write:enospc:after=50"});
    SKIP_UNLESS_MOUNTED();
    RunOptions fio_options;
    fio_options.program = "fio";
    fio_options.timeout = std::chrono::seconds(15);
    args.insert(args.end(), {"--ioengine=psync", "--bs=4k", "--output-format=json"});
    const RunOutput fio = run_binary(args, fio_options);
    const auto fio_doc = parse_document(fio.out.substr(std::min(fio.out.find('{'), fio.out.size())));
    ASSERT_TRUE(fio_doc) << c.option << describe(fio);
    const auto& fj = fio_doc->at("jobs").at(0);
    EXPECT_EQ(fj.at("error"), j.at("error")) << "fio " << c.option;
    EXPECT_EQ(total_ios(fj, "write"), total_ios(j, "write")) << "fio " << c.option;
    EXPECT_EQ(fj.at("write").at("io_bytes"), j.at("write").at("io_bytes")) << "fio " << c.option;
    if (c.exit_code == 0) {
      EXPECT_EQ(fj.at("total_err"), j.at("total_err")) << "fio " << c.option;
      EXPECT_EQ(fj.at("first_error"), j.at("first_error")) << "fio " << c.option;
    }
  }
}

TEST_F(Faults, ErrorDumpPrintsEachPassedError) {
  mount({"read:eio:at=524288", "read:eio:at=655360"});
  SKIP_UNLESS_MOUNTED();
  const std::string f = mnt() + "/f";
  const RunOutput r = sluice({"--name=dump", "--filename=" + f, "--size=1m", "--rw=read", "--direct=1",
                              "--continue_on_error=read", "--error_dump=1"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  for (const char* offset : {"524288", "655360"}) {
    EXPECT_NE(r.err.find(std::string("sluice: job dump: read of 4096 bytes at offset ") + offset + " of " + f +
                         " failed: Input/output error (passed: continue_on_error)\n"),
              std::string::npos)
        << describe(r);
  }
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->at("jobs").at(0).at("total_err"), 2);
}

TEST_F(Faults, WriteEnospcStopsTheJob) {
  mount({"write:enospc:after=50"});
  SKIP_UNLESS_MOUNTED();
  const std::string f = mnt() + "/f";
  const RunOutput r = sluice({"--name=full", "--filename=" + f, "--size=1m", "--rw=write", "--direct=1"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("sluice: job full: write of 4096 bytes at offset 204800 of " + f +
                       " failed: No space left on device\n"),
            std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 28);
  EXPECT_EQ(total_ios(doc->at("jobs").at(0), "write"), 51u);  // the 50 written and the failed one, as fio
}

TEST_F(Faults, FsyncFailureFailsTheJob) {
  mount({"fsync:eio"});
  SKIP_UNLESS_MOUNTED();
  const std::string f = mnt() + "/f";
  const RunOutput r = sluice({"--name=sync", "--filename=" + f, "--size=1m", "--rw=write", "--direct=0", "--fsync=16"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("sluice: job sync: fsync of " + f + " failed: Input/output error\n"), std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios(doc->at("jobs").at(0), "write"), 16u);  // the writes before the failed fsync
}

TEST_F(Faults, ShortWriteIsCountedNotFatal) {
  mount({"write:short:at=8192"});
  SKIP_UNLESS_MOUNTED();
  const RunOutput r = sluice({"--name=short", "--filename=" + mnt() + "/f", "--size=1m", "--rw=write", "--direct=0"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& write = doc->at("jobs").at(0).at("write");
  EXPECT_EQ(write.at("short_ios"), 1);
  EXPECT_EQ(write.at("io_bytes"), (1 << 20) - 2048);  // half of one block was not written, and not counted
}

TEST_F(Faults, LayoutEnospcRemovesThePartlyWrittenFile) {
  mount({"write:enospc:after=2"});
  SKIP_UNLESS_MOUNTED();
  const std::string f = mnt() + "/new";
  const RunOutput r = sluice({"--name=lay", "--filename=" + f, "--size=8m", "--rw=read", "--direct=1"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("laying out " + f +
                       " failed: a write of 4194304 bytes at offset 0 returned: No space "
                       "left on device (the partly written file, which sluice created, was removed)"),
            std::string::npos)
      << describe(r);
  EXPECT_FALSE(std::filesystem::exists(tmp_.file("backing/new")));
}

TEST_F(Faults, StallShowsAsLatencyAndTheRunEndsOnTime) {
  mount({"read:delay=300:after=20:count=2"});
  SKIP_UNLESS_MOUNTED();
  const RunOutput r = sluice({"--name=stall", "--filename=" + mnt() + "/f", "--size=1m", "--rw=randread", "--direct=1",
                              "--runtime=1", "--time_based"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  // Catches a run held up by the stall or its teardown; room for a busy machine's start (load 10 on 2 cores).
  EXPECT_LT(r.elapsed, std::chrono::seconds(10)) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& clat = doc->at("jobs").at(0).at("read").at("clat_ns");
  EXPECT_GE(clat.at("max").get<std::uint64_t>(), 300'000'000u);
  EXPECT_NE(injected().find("read delay"), std::string::npos);
}

// The same stall under open-loop load: ios keep arriving on schedule (500/s) while the one slot is held for
// 400 ms, so they queue: the wait in the queue, and the latency from the scheduled arrival, show the stall
// for every io that arrived during it, and no arrival is dropped.
TEST_F(Faults, StallUnderOpenLoopLoadShowsAsQueueGrowth) {
  mount({"read:delay=400:after=100:count=1"});
  SKIP_UNLESS_MOUNTED();
  const RunOutput r = sluice({"--name=open", "--filename=" + mnt() + "/f", "--size=1m", "--rw=randread", "--direct=1",
                              "--open_loop=1", "--rate_iops=500", "--iodepth=1", "--runtime=1500ms", "--time_based"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(10)) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const auto& read = doc->at("jobs").at(0).at("read");
  // The io that arrived just after the stalled one waited about the whole stall in the queue.
  EXPECT_GE(read.at("queue_wait_ns").at("max").get<std::uint64_t>(), 300'000'000u) << read.dump();
  EXPECT_GE(read.at("lat_ns").at("max").get<std::uint64_t>(), 400'000'000u) << read.dump();
  // About 200 arrivals fell in the stall: their mean wait is far above the milliseconds of a free slot.
  EXPECT_GE(read.at("queue_wait_ns").at("mean").get<double>(), 20e6) << read.dump();
  EXPECT_GE(read.at("total_ios").get<std::uint64_t>(), 700u) << "arrivals were lost: " << read.dump();
}

TEST_F(Faults, StuckIoPastTheRuntimeIsAbandonedAndReported) {
  mount({"read:delay=6000:after=20:count=1"});  // one read that takes 6 s: longer than runtime + grace
  SKIP_UNLESS_MOUNTED();
  RunOptions options;
  options.timeout = std::chrono::seconds(15);
  options.environment = {{"SLUICE_STALL_GRACE_MS", "500"}};
  const RunOutput r = run_binary({"run", "--name=stuck", "--filename=" + mnt() + "/f", "--size=1m", "--rw=randread",
                                  "--bs=4k", "--ioengine=psync", "--direct=1", "--runtime=1", "--time_based"},
                                 options);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  // The report is printed at 1 s + 0.5 s grace + 1 s; the process itself exits only when the kernel lets go
  // of the stuck thread (here when faultfs answers, at 6 s), so the elapsed time is not checked.
  EXPECT_NE(r.err.find("sluice: job stuck: stalled: an I/O has not completed "), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("after the job's 1.0 s were up; sluice stopped waiting for it (20 ios completed before"),
            std::string::npos)
      << describe(r);
  EXPECT_NE(r.out.find("stuck: (groupid=0, jobs=1): err=110"), std::string::npos) << describe(r);
}

// A 16 MiB ext4 on a loop device, mounted at <tmp>/ext4 (root only).
class OutOfSpace : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root() || !have_tool("mkfs.ext4")) GTEST_SKIP() << "needs root and mkfs.ext4 to mount a loop ext4";
    const std::string image = tmp_.file("img");
    mnt_ = tmp_.file("ext4");
    std::filesystem::create_directory(mnt_);
    if (run_command("truncate -s 16M " + image + " && mkfs.ext4 -q -F " + image + " && mount -o loop " + image + " " +
                    mnt_) != 0) {
      GTEST_SKIP() << "cannot mount a loop ext4 here";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) run_command("umount " + mnt_);
  }
  TempDir tmp_;
  std::string mnt_;
  bool mounted_ = false;
};

TEST_F(OutOfSpace, LayoutLargerThanTheFilesystemIsRefusedAndNothingIsLeft) {
  const std::string f = mnt_ + "/big";
  const RunOutput r =
      run_binary({"run", "--name=big", "--filename=" + f, "--size=64m", "--rw=read", "--bs=4k", "--ioengine=psync"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << describe(r);
  EXPECT_FALSE(std::filesystem::exists(f)) << "a half laid-out file was left";
}

// fio's fill_device for real: a sequential write job without a size writes until the filesystem is full, and
// ENOSPC ends it without an error; fio 3.33 on the same 16 MiB ext4 writes the same 14,024,704 bytes in 214
// writes and counts the 215th, the one that met ENOSPC, in total_ios.
TEST_F(OutOfSpace, FillDeviceWritesUntilTheFilesystemIsFull) {
  const std::string f = mnt_ + "/fill";
  const RunOutput r = run_binary({"run", "--name=fill", "--filename=" + f, "--rw=write", "--bs=64k", "--ioengine=psync",
                                  "--fill_device=1", "--output-format=json"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const auto& job = doc->at("jobs").at(0);
  EXPECT_EQ(job.at("error"), 0);
  const auto written = job.at("write").at("io_bytes").get<std::uint64_t>();
  EXPECT_GT(written, 12u << 20);
  EXPECT_EQ(written % (64 << 10), 0u);
  EXPECT_EQ(job.at("write").at("total_ios").get<std::uint64_t>(), written / (64 << 10) + 1);
  EXPECT_EQ(std::filesystem::file_size(f), written);
  EXPECT_EQ(doc->at("sluice").at("jobs").at(0).at("filled_up"), true);
  EXPECT_NE(doc->at("sluice").at("notes").dump().find("job fill: the filesystem filled up (fill_device) after "),
            std::string::npos)
      << doc->at("sluice").at("notes").dump();
  // Full: not even one more block of the job's size fits (ext4 keeps a little for its metadata).
  EXPECT_NE(run_command("dd if=/dev/zero of=" + mnt_ + "/more bs=64k count=1 oflag=direct"), 0)
      << "the filesystem was not filled";
}

// fio's surface-scan example, as it is (only its directory is ours): the write phase fills the filesystem,
// the verify phase (a later group, its file not there when the run starts) reads and verifies what fitted.
// fio 3.33: write 14,024,704 bytes (215 ios), verify-phase read 14,024,704 (214), error 0 in both.
TEST_F(OutOfSpace, FioSurfaceScanExampleFillsThenVerifiesWhatFitted) {
  const std::string example = "/usr/share/doc/fio/examples/surface-scan.fio";
  SLUICE_REQUIRE(kFioExamples);
  const RunOutput r = run_binary({"run", "--output-format=json", "--override=directory=" + mnt_, example});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const auto& jobs = doc->at("jobs");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs.at(0).at("error"), 0);
  EXPECT_EQ(jobs.at(1).at("error"), 0);
  const auto written = jobs.at(0).at("write").at("io_bytes").get<std::uint64_t>();
  EXPECT_GT(written, 12u << 20);
  EXPECT_EQ(jobs.at(1).at("read").at("io_bytes").get<std::uint64_t>(), written);
  const auto reads = jobs.at(1).at("read").at("total_ios").get<std::uint64_t>();
  EXPECT_EQ(doc->at("sluice").at("jobs").at(1).at("verify").at("verified_ios").get<std::uint64_t>(), reads);
  EXPECT_EQ(doc->at("sluice").at("jobs").at(1).at("verify").at("failures"), 0);
}

// A read job with fill_device fills its new file first, then reads what fitted (fio 3.33: 14,024,704 bytes).
TEST_F(OutOfSpace, FillDeviceReadJobFillsItsFileFirst) {
  const std::string f = mnt_ + "/read";
  const RunOutput r = run_binary({"run", "--name=r", "--filename=" + f, "--rw=read", "--bs=64k", "--ioengine=psync",
                                  "--fill_device=1", "--output-format=json"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const auto read = doc->at("jobs").at(0).at("read").at("io_bytes").get<std::uint64_t>();
  EXPECT_GT(read, 12u << 20);
  EXPECT_EQ(std::filesystem::file_size(f), read);
}

// The report itself does not fit: --output on the full filesystem. The measurements go to stdout, the file
// that was there stays whole (not truncated), no temporary file stays, exit 1. A redirected stdout on a full
// device is an error too (fio 3.33 exits 0 with nothing written).
TEST_F(OutOfSpace, ReportThatDoesNotFitGoesToStdoutAndTheOldReportStaysWhole) {
  const std::string report = mnt_ + "/report.json";
  std::ofstream(report) << "the previous report\n";
  // Until ENOSPC, in the filesystem's 1 KiB blocks (root fills the reserve too).
  run_command("(dd if=/dev/zero of=" + mnt_ + "/fill bs=64k; dd if=/dev/zero of=" + mnt_ + "/fill2 bs=1k)");
  const RunOutput r = run_binary({"run", "--name=n", "--ioengine=null", "--size=64m", "--rw=randread", "--bs=4k",
                                  "--output-format=json+", "--output=" + report});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("sluice: --output=" + report +
                       ": cannot write the file: No space left on device; the report was written to stdout instead"),
            std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ(doc->at("jobs").at(0).at("read").at("total_ios"), 16384);
  std::ifstream in(report);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "the previous report\n");
  for (const auto& entry : std::filesystem::directory_iterator(mnt_)) {
    EXPECT_EQ(entry.path().filename().string().find(".sluice-tmp"), std::string::npos) << entry.path();
  }

  RunOptions shell;
  shell.program = "sh";
  const RunOutput redirected = run_binary(
      {"-c", std::string(SLUICE_BINARY) + " run --name=n --ioengine=null --size=1m --rw=read > " + mnt_ + "/stdout"},
      shell);
  EXPECT_EQ(redirected.exit_code, 1) << describe(redirected);
  EXPECT_NE(redirected.err.find("sluice: cannot write the report to stdout: No space left on device"),
            std::string::npos)
      << describe(redirected);
}

// A read-only bind mount of a temporary directory (root only).
TEST(FilesystemRefusals, ReadOnlyFilesystemIsNamedBeforeAnyIo) {
  if (!is_root()) GTEST_SKIP() << "needs root to bind-mount read-only";
  TempDir tmp;
  std::filesystem::create_directory(tmp.file("d"));
  std::filesystem::create_directory(tmp.file("ro"));
  tmp.make_file("d/small", 100);
  if (run_command("mount --bind " + tmp.file("d") + " " + tmp.file("ro") + " && mount -o remount,ro,bind " +
                  tmp.file("ro")) != 0) {
    run_command("umount " + tmp.file("ro"));
    GTEST_SKIP() << "cannot bind-mount read-only here";
  }
  const RunOutput fresh =
      run_binary({"run", "--name=ro", "--filename=" + tmp.file("ro/new"), "--size=1m", "--rw=read"});
  const RunOutput small =
      run_binary({"run", "--name=ro", "--filename=" + tmp.file("ro/small"), "--size=1m", "--rw=write"});
  run_command("umount " + tmp.file("ro"));
  EXPECT_EQ(fresh.exit_code, 1) << describe(fresh);
  EXPECT_NE(fresh.err.find("sluice: cannot create " + tmp.file("ro/new") + ": Read-only file system"),
            std::string::npos)
      << describe(fresh);
  EXPECT_EQ(small.exit_code, 1) << describe(small);
  EXPECT_NE(small.err.find("sluice: cannot open " + tmp.file("ro/small") +
                           " to lay it out (it is smaller than the job's size): Read-only file system"),
            std::string::npos)
      << describe(small);
}

// A directory the user may not enter: run as nobody through setpriv (root only, so the test can switch).
TEST(FilesystemRefusals, DirectoryWithoutPermissionIsNamed) {
  if (!is_root() || !have_tool("setpriv")) GTEST_SKIP() << "needs root and setpriv to run as another user";
  TempDir tmp;
  std::filesystem::create_directory(tmp.file("closed"));
  ::chmod(tmp.path().c_str(), 0755);
  ::chmod(tmp.file("closed").c_str(), 0700);
  RunOptions options;
  options.program = "setpriv";
  options.environment = {{"SLUICE_STATE_DIR", tmp.file("state")}};
  const RunOutput r = run_binary({"--reuid=65534", "--regid=65534", "--clear-groups", SLUICE_BINARY, "run", "--name=np",
                                  "--filename=" + tmp.file("closed/f"), "--size=1m", "--rw=read"},
                                 options);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("sluice: cannot access " + tmp.file("closed/f") + ": Permission denied"), std::string::npos)
      << describe(r);
}

// Waits until sluice has laid `file` out to `size` bytes, then a second more: the job is then measuring, however
// long a busy machine took to start it (a fixed delay from the start could land in the layout).
void once_the_job_runs(const std::string& file, std::uintmax_t size) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::error_code ec;
  while (std::filesystem::file_size(file, ec) != size && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
}

// The file is truncated under a running job: reads past its new end return 0 bytes. fio 3.33 stops the job
// with err=5 ("full resid"); sluice did count them as done ios of 0 bytes (345k "IOPS", exit 0).
TEST(FileChangedUnderTheJob, TruncatedFileStopsTheJobWithEndOfFile) {
  TempDir tmp;
  const std::string file = tmp.file("f");
  std::thread truncate_later([&] {
    once_the_job_runs(file, 16 << 20);
    std::filesystem::resize_file(file, 0);
  });
  const RunOutput r = run_binary({"run", "--name=t", "--filename=" + file, "--size=16m", "--rw=randread", "--bs=4k",
                                  "--ioengine=psync", "--runtime=4", "--time_based", "--output-format=json"});
  truncate_later.join();
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("returned 0 bytes (end of file: was it truncated or removed while the job ran?): "
                       "Input/output error"),
            std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 5);
  EXPECT_GT(doc->at("jobs").at(0).at("read").at("total_ios").get<std::uint64_t>(), 0u);  // what came before
}

// The file is unlinked under a running job: the open descriptor keeps its data, so the job runs to its end
// and succeeds, as fio 3.33 does; the name is gone afterwards (sluice does not recreate it).
TEST(FileChangedUnderTheJob, UnlinkedFileLetsTheJobFinishOnTheOpenDescriptor) {
  TempDir tmp;
  const std::string file = tmp.file("f");
  std::thread unlink_later([&] {
    once_the_job_runs(file, 16 << 20);
    std::filesystem::remove(file);
  });
  const RunOutput r = run_binary({"run", "--name=u", "--filename=" + file, "--size=16m", "--rw=randread", "--bs=4k",
                                  "--ioengine=psync", "--runtime=3", "--time_based", "--output-format=json"});
  unlink_later.join();
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 0);
  EXPECT_GE(doc->at("jobs").at(0).at("read").at("runtime").get<std::uint64_t>(), 2900u);  // ran to its end
  EXPECT_FALSE(std::filesystem::exists(file));
}

// A loop device under a running job. `losetup -d` of a device in use only marks it to detach on its last
// close (the kernel's autoclear): the job runs to its end and the device goes when sluice closes it. A
// device whose capacity drops to nothing (the backing file truncated, `losetup -c`) fails every I/O with EIO:
// the job stops and names the device and offset, keeping what it measured. fio 3.33: the same in both.
class LoopDeviceUnderTheJob : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why_not = loop_.attach(tmp_.file("disk.img"), 64 << 20);
    if (!why_not.empty()) GTEST_SKIP() << why_not;
  }
  RunOutput run_while(const std::string& command) {
    std::thread later([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      run_command(command);
    });
    const RunOutput r =
        run_binary({"run", "--name=l", "--filename=" + loop_.path(), "--rw=randread", "--bs=4k", "--direct=1",
                    "--ioengine=io_uring", "--iodepth=4", "--runtime=3", "--time_based", "--output-format=json"});
    later.join();
    return r;
  }
  TempDir tmp_;
  LoopDevice loop_;  // after tmp_: detached before the image's directory goes
};

TEST_F(LoopDeviceUnderTheJob, DetachedDeviceGoesWhenTheJobClosesIt) {
  const RunOutput r = run_while("losetup -d " + loop_.path());
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 0);
  EXPECT_GE(doc->at("jobs").at(0).at("read").at("runtime").get<std::uint64_t>(), 2900u);
  // The kernel detaches after the last close, and io_uring lets go of the file in its own exit work: wait up
  // to 10 s.
  std::string attached;
  for (int i = 0; i < 100; ++i) {
    run_command("losetup -a", &attached);
    if (attached.find(tmp_.file("disk.img")) == std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(attached.find(tmp_.file("disk.img")), std::string::npos) << "still attached after the job:\n" << attached;
}

TEST_F(LoopDeviceUnderTheJob, DeviceShrunkToNothingStopsTheJobWithEio) {
  const RunOutput r = run_while("truncate -s 0 " + tmp_.file("disk.img") + " && losetup -c " + loop_.path());
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("sluice: job l: read of 4096 bytes at offset "), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find(" of " + loop_.path() + " failed: Input/output error"), std::string::npos) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 5);
  EXPECT_GT(doc->at("jobs").at(0).at("read").at("total_ios").get<std::uint64_t>(), 0u);  // what came before
}

// A later group's file that an earlier group writes is set up when that group starts (so a verify phase can
// read what a fill_device phase wrote). When it is not there then (the writer had unlink=1), the later job
// fails with ENOENT and the earlier job's results stay, as in fio 3.33 (err=2, func=open).
TEST(FileChangedUnderTheJob, LaterGroupsFileGoneWhenItStartsFailsThatGroupOnly) {
  TempDir tmp;
  const std::string file = tmp.file("F");
  const std::string job = tmp.file("j.fio");
  std::ofstream(job) << "[w]\nfilename=" << file << "\nrw=write\nsize=1m\nunlink=1\n\n[r]\nstonewall\nfilename=" << file
                     << "\nrw=read\n";
  const RunOutput r = run_binary({"run", "--output-format=json", job});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("sluice: job r: --size is needed to create " + file), std::string::npos) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 0);
  EXPECT_EQ(doc->at("jobs").at(0).at("write").at("io_bytes"), 1 << 20);
  EXPECT_EQ(doc->at("jobs").at(1).at("error"), 2);
}

}  // namespace
}  // namespace sluice::testing
