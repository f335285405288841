// fio's mem= (iomem=), iomem_align and hugepage-size next to fio 3.33: the io buffers live in the kind of
// memory asked for, seen in /proc/PID/maps of the running process (fio runs with --thread so that its buffers
// are in the process started), huge pages come from the pool reserved with vm.nr_hugepages (the test
// reserves a few and puts the setting back), and an offset buffer start is refused by direct I/O in both.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Starts `program` with `args` (output discarded), waits until its maps name `mapping` or 10 s pass, stops
// it, and says whether the mapping was seen.
bool maps_show(const std::string& program, const std::vector<std::string>& args, const std::string& mapping) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    std::vector<char*> argv;
    std::string name = program;
    argv.push_back(name.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  bool seen = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!seen && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = read_text("/proc/" + std::to_string(pid) + "/maps").find(mapping) != std::string::npos;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return seen;
  }
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return seen;
}

std::vector<std::string> memory_job(const std::string& program, const std::string& file, const std::string& mem) {
  std::vector<std::string> args = {"--name=mem",    "--filename=" + file, "--size=4m",
                                   "--rw=randread", "--runtime=3",        "--time_based",
                                   "--iodepth=4",   "--mem=" + mem,       "--output-format=json"};
  if (program == "fio")
    args.push_back("--thread");
  else
    args.insert(args.begin(), "run");
  return args;
}

std::string program_path(const std::string& program) { return program == "fio" ? "fio" : SLUICE_BINARY; }

// Reserves `pages` huge pages while alive, then restores the earlier count.
class HugePages {
 public:
  explicit HugePages(int pages) {
    before_ = read_text("/proc/sys/vm/nr_hugepages");
    std::ofstream("/proc/sys/vm/nr_hugepages") << pages;
    ok_ = read_text("/proc/meminfo").find("HugePages_Free:") != std::string::npos &&
          std::stoi(read_text("/proc/sys/vm/nr_hugepages")) >= pages;
  }
  ~HugePages() { std::ofstream("/proc/sys/vm/nr_hugepages") << before_; }
  bool ok() const { return ok_; }

 private:
  std::string before_;
  bool ok_ = false;
};

TEST(IoMemory, BuffersLiveInTheMemoryAskedForAsFio) {
  struct Case {
    std::string mem;
    std::string mapping;
  };
  TempDir tmp;
  const std::string backing = tmp.file("buffers.mem");
  for (const Case& c : {Case{"shm", "/SYSV00000000 (deleted)"}, Case{"mmap:" + backing, backing},
                        Case{"mmapshared:" + backing, backing}}) {
    for (const std::string program : {"fio", "sluice"}) {
      if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
      // fio 3.33 does not size a new mmapshared file (only mmap's), so its first touch faults (EFAULT).
      if (program == "fio" && c.mem.rfind("mmapshared:", 0) == 0) continue;
      SCOPED_TRACE(program + " mem=" + c.mem);
      const std::string file = tmp.file(program);
      run_as(program, {"--name=lay", "--filename=" + file, "--size=4m", "--rw=write"});
      EXPECT_TRUE(maps_show(program_path(program), memory_job(program, file, c.mem), c.mapping));
      EXPECT_FALSE(std::filesystem::exists(backing));  // created for the run, removed at its end
    }
  }
}

TEST(IoMemory, AnExistingBackingFileIsKept) {
  TempDir tmp;
  const std::string backing = tmp.file("keep.mem");
  std::ofstream(backing) << "x";
  run_as("sluice", {"--name=k", "--filename=" + tmp.file("f"), "--size=1m", "--rw=randread", "--mem=mmap:" + backing,
                    "--output-format=json"});
  EXPECT_TRUE(std::filesystem::exists(backing));
}

TEST(IoMemory, HugePagesComeFromTheReservedPool) {
  TempDir tmp;
  const std::string file = tmp.file("f");
  run_as("sluice", {"--name=lay", "--filename=" + file, "--size=4m", "--rw=write"});
  {
    // Nothing reserved: refused with what is free, as fio refuses ("no huge pages available").
    HugePages none(0);
    if (!none.ok()) GTEST_SKIP() << "cannot set vm.nr_hugepages here";
    for (const char* mem : {"shmhuge", "mmaphuge"}) {
      std::vector<std::string> args = memory_job("sluice", file, mem);
      const RunOutput r = run_binary(args);
      EXPECT_EQ(r.exit_code, 1) << describe(r);
      EXPECT_NE(r.err.find("huge pages free here: 0"), std::string::npos) << r.err;
    }
  }
  HugePages some(8);  // 16 MiB of 2 MiB pages: the 4 MiB-rounded buffers fit
  ASSERT_TRUE(some.ok());
  EXPECT_TRUE(maps_show(SLUICE_BINARY, memory_job("sluice", file, "mmaphuge"), "/anon_hugepage (deleted)"));
  EXPECT_TRUE(maps_show(SLUICE_BINARY, memory_job("sluice", file, "shmhuge"), "/SYSV00000000 (deleted)"));
}

TEST(IoMemory, OffsetBuffersWorkBufferedAndAreRefusedByDirectIoAsInFio) {
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const std::string file = tmp.file(program);
    std::vector<std::string> args = {"--name=al",     "--filename=" + file, "--size=1m",
                                     "--rw=randread", "--iomem_align=1",    "--output-format=json"};
    run_as(program, args);  // buffered: any address works
    args.push_back("--direct=1");
    if (program != "fio") args.insert(args.begin(), "run");
    RunOptions options;
    if (program == "fio") options.program = "fio";
    const RunOutput r = run_binary(args, options);
    EXPECT_NE(r.exit_code, 0) << program << ": " << describe(r);
    const std::size_t start = r.out.find('{');  // fio prints its error line on stdout first
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    ASSERT_TRUE(doc) << program << ": " << r.out;
    EXPECT_EQ((*doc)["jobs"][0]["error"].get<int>(), EINVAL) << program;
  }
}

TEST(IoMemory, BadValuesAreRefused) {
  const auto refused = [](std::vector<std::string> args, const std::string& message) {
    args.insert(args.end(), {"--name=bad", "--filename=/nonexistent/never", "--size=1m"});
    expect_run_refused(std::move(args), message);
  };
  refused({"--mem=cudamalloc"}, "GPU memory");
  refused({"--mem=shm:/tmp/x"}, "only the mmap kinds take a file");
  refused({"--iomem=mallocc"}, "malloc");
  refused({"--hugepage-size=3k"}, "multiple of 1 MiB");
}

}  // namespace
}  // namespace sluice::testing
