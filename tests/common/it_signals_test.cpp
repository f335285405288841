// Signals at a moment when files exist: SIGINT, SIGTERM and SIGHUP end every command normally (its own
// clean-up runs, no journal is left, a --save'd history is intact), SIGKILL leaves what the next
// `sluice restore` removes and says it removed. Knobs go to a synthetic SLUICE_KNOB_ROOT and journals to a
// temporary SLUICE_STATE_DIR, never the real ones. Each kill waits (polling, bounded) for the files to exist.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "observe/disk_stats.h"
#include "support/it_test_util.h"
#include "support/loop_device.h"
#include "support/run_binary.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

class Signals : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(work_.file("w"));
    fs::create_directories(dir_.file("knobs"));
  }
  std::string work(const std::string& name = "") const { return work_.file("w") + (name.empty() ? "" : "/" + name); }
  std::vector<std::pair<std::string, std::string>> environment() const {
    return {{"SLUICE_STATE_DIR", dir_.file("state")}, {"SLUICE_KNOB_ROOT", dir_.file("knobs")}};
  }

  // build/sluice as children of the test, killed and reaped by children_ when the test ends.
  pid_t spawn(const std::vector<std::string>& args) { return children_.spawn(args); }
  int stop(pid_t pid, int signal) { return children_.stop(pid, signal); }
  template <typename Ready>
  static bool wait_for(Ready ready, std::chrono::milliseconds bound = 8000ms) {
    return testing::SluiceChildren::wait_for(ready, bound);
  }

  // Starts the command, waits for `ready`, sends `signal`; the wait status.
  template <typename Ready>
  int kill_when(const std::vector<std::string>& args, Ready ready, int signal,
                std::chrono::milliseconds bound = 8000ms) {
    const pid_t pid = spawn(args);
    // A signal sluice catches is sent once its handler is installed too (/proc/PID/status SigCgt): on a busy
    // machine the ready condition (a delay, say) can come before the program has got that far.
    const bool caught_kind = signal != SIGKILL;
    EXPECT_TRUE(
        wait_for([&] { return ready() && (!caught_kind || testing::detail::catches_signal(pid, signal)); }, bound))
        << "the files never appeared, or the handler of signal " << signal << " was never installed";
    return stop(pid, signal);
  }

  testing::RunOutput sluice(const std::vector<std::string>& args) const {
    testing::RunOptions options;
    options.timeout = 30000ms;  // a bound on a hang: under ctest -j2 a normal bonnie or filetree run passed 10 s
    options.environment = environment();
    return testing::run_binary(args, options);
  }

  int journals() const {
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_.file("state"), ec)) n += e.path().string().ends_with(".journal");
    return n;
  }
  bool has_entries(const std::string& dir) const {
    std::error_code ec;
    return fs::exists(dir, ec) && !fs::is_empty(dir, ec);
  }
  // After a SIGKILL: the one entry the command made in the work directory is still there, and `sluice
  // restore` names it and removes it (with everything in it).
  void expect_restore_removes_the_entry_left(int status) const {
    ASSERT_TRUE(WIFSIGNALED(status));
    std::string left;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(work(), ec)) left = e.path().string();
    ASSERT_FALSE(left.empty());
    const testing::RunOutput r = sluice({"restore"});
    EXPECT_THAT(r.out, HasSubstr("removed " + left)) << testing::describe(r);
    EXPECT_FALSE(has_entries(work())) << testing::describe(r);
  }
  // A caught signal ends the command like a normal end: exit status, not death by the signal.
  static void expect_handled(int status, int signal) {
    EXPECT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                   << " instead of handling " << signal;
  }

  testing::TempDir dir_;
  testing::TempDir work_;
  testing::SluiceChildren children_{environment()};  // after dir_: its environment names dir_
};

std::string integrity(const std::string& db) {
  std::string out;
  testing::run_command("sqlite3 " + db + " 'PRAGMA integrity_check'", &out);
  return out;
}

std::vector<std::string> run_args(const std::string& file, const std::string& db) {
  return {"run",           "--name=s", "--filename=" + file, "--size=16m",
          "--rw=randread", "--bs=4k",  "--ioengine=psync",   "--runtime=20",
          "--time_based",  "--save",   "--db=" + db};
}

TEST_F(Signals, RunEndsOnSigintAndSighupWithAnIntactHistoryAndNoJournal) {
  for (const int signal : {SIGINT, SIGHUP}) {
    const std::string db = dir_.file("h" + std::to_string(signal) + ".db");
    const std::string f = work("f" + std::to_string(signal));
    // Laid out, then measuring for a moment (the journal entry for f exists from before the layout).
    const auto start = std::chrono::steady_clock::now();
    const int status = kill_when(
        run_args(f, db),
        [&] {
          std::error_code ec;
          return fs::file_size(f, ec) == (16u << 20) && std::chrono::steady_clock::now() - start > 500ms;
        },
        signal);
    expect_handled(status, signal);
    EXPECT_EQ(WEXITSTATUS(status), 130) << "signal " << signal;
    EXPECT_EQ(integrity(db), "ok");
    EXPECT_EQ(journals(), 0);
    EXPECT_TRUE(fs::exists(f)) << "a run keeps its laid-out file, as fio does";
    // What it measured before the signal is saved, marked as a failure (exit code 130).
    const testing::RunOutput list = sluice({"history", "--db=" + db});
    EXPECT_THAT(list.out, HasSubstr("[FAILED: exit code 130]")) << "signal " << signal;
  }
}

// SIGKILL at random moments of `run --repeat=2 --save` (measuring, rendering, saving): the history stays a
// valid database, and every result in it is whole (both repetitions, each a valid JSON document): a save is
// one transaction. The moments are drawn from a fixed seed over a little more than a normal run's duration.
TEST_F(Signals, RunKilledAtRandomMomentsLeavesTheHistoryWhole) {
  const std::string db = dir_.file("k.db");
  const std::vector<std::string> args = {
      "run",     "--name=k",   "--ioengine=null", "--size=256m", "--rw=randread",
      "--bs=4k", "--repeat=2", "--save",          "--db=" + db,  "--output-format=json"};
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(sluice(args).exit_code, 0);
  const auto normal = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  std::mt19937 random(20261201);
  std::uniform_int_distribution<long> moment(0, normal.count() * 12 / 10);
  int killed = 0;
  for (int i = 0; i < 12; ++i) {
    const pid_t pid = spawn(args);
    const long at = moment(random);
    std::this_thread::sleep_for(std::chrono::milliseconds(at));
    killed += WIFSIGNALED(stop(pid, SIGKILL)) ? 1 : 0;
  }
  EXPECT_GT(killed, 0) << "no run was killed before its end (a normal run took " << normal.count() << " ms)";
  EXPECT_EQ(integrity(db), "ok");
  std::string partial, invalid;
  testing::run_command("sqlite3 " + db +
                           " 'SELECT count(*) FROM results r WHERE (SELECT count(*) FROM repetitions "
                           "WHERE result_id = r.id) != 2'",
                       &partial);
  testing::run_command("sqlite3 " + db + " 'SELECT count(*) FROM repetitions WHERE NOT json_valid(document)'",
                       &invalid);
  EXPECT_EQ(partial, "0") << "results saved with a repetition missing";
  EXPECT_EQ(invalid, "0") << "repetitions saved half-written";
  EXPECT_EQ(sluice({"history", "--db=" + db}).exit_code, 0);
  sluice({"restore"});  // journals of the killed runs (their files are the null engine's: none)
  EXPECT_EQ(journals(), 0);
}

TEST_F(Signals, RunKilledDuringLayoutLeavesAFileRestoreRemoves) {
  const std::string f = work("f");
  const std::string db = dir_.file("h.db");
  std::vector<std::string> args = run_args(f, db);
  args[3] = "--size=512m";  // long enough a layout to be caught in it
  const int status = kill_when(
      args, [&] { return fs::exists(f); }, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(status));
  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("removed " + f + " (left by sluice pid"));
  EXPECT_FALSE(fs::exists(f));
  EXPECT_TRUE(!fs::exists(db) || integrity(db) == "ok");
}

TEST_F(Signals, QuickOnSighupRemovesItsDirectory) {
  const int status = kill_when(
      {"quick", "--budget=20s", "--size=16m", "--no-status", work()},
      [&] {
        for (const auto& e : fs::directory_iterator(work()))
          if (has_entries(e.path().string())) return true;
        return false;
      },
      SIGHUP);
  expect_handled(status, SIGHUP);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

TEST_F(Signals, InterfereOnSighupRemovesItsFiles) {
  const int status = kill_when(
      {"interfere", "--filename=" + work("fg"), "--size=8m", "--threads=1", "--budget=4s", "--bg-size=32m"},
      [&] { return fs::exists(work("fg.sluice-bg")); }, SIGHUP);
  expect_handled(status, SIGHUP);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

TEST_F(Signals, InterfereKilledInItsTrialHasItsKnobRestoredAndItsFilesRemoved) {
  const std::vector<std::string> devices = devices_under({work()});
  if (devices.empty()) GTEST_SKIP() << "the temporary directory is not on a block device";
  const std::string knob = dir_.file("knobs/sys/block/" + devices.front() + "/queue/wbt_lat_usec");
  fs::create_directories(fs::path(knob).parent_path());
  std::ofstream(knob) << "2000\n";
  const int status = kill_when(
      {"interfere", "--filename=" + work("fg"), "--size=8m", "--threads=1", "--budget=3s", "--bg-size=64m", "--try",
       "queue.wbt_lat_usec=1000"},
      [&] { return slurp(knob) == "1000"; }, SIGKILL, 15000ms);
  ASSERT_TRUE(WIFSIGNALED(status));
  const testing::RunOutput r = sluice({"restore", "--journal=" + dir_.file("knobs/knobs.journal")});
  EXPECT_EQ(r.exit_code, 0) << testing::describe(r);
  EXPECT_EQ(slurp(knob), "2000");
  // With --journal, restore looks for created-files journals beside that knob journal; the files' journal is
  // in SLUICE_STATE_DIR, which a plain restore reads.
  const testing::RunOutput files = sluice({"restore"});
  EXPECT_THAT(files.out, HasSubstr("removed " + work("fg") + " (left by sluice pid"));
  EXPECT_FALSE(has_entries(work()));
}

TEST_F(Signals, PreconditionOnSigtermEndsAndLeavesNoJournal) {
  const std::string p = work("p");
  const int status = kill_when(
      {"precondition", "--filename=" + p, "--size=256m", "--passes=2"}, [&] { return fs::exists(p); }, SIGTERM);
  expect_handled(status, SIGTERM);
  EXPECT_EQ(journals(), 0);
}

std::vector<std::string> sysbench_args(const std::string& dir, const std::string& step) {
  return {"sysbench",  "fileio", "--dir=" + dir, "--file-num=4", "--file-total-size=256m", "--file-test-mode=rndrw",
          "--time=20", step};
}

TEST_F(Signals, SysbenchPrepareKilledIsUndoneAndRunOnSigtermKeepsThePreparedFiles) {
  const int killed = kill_when(
      sysbench_args(work(), "prepare"), [&] { return fs::exists(work("test_file.0")); }, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(killed));
  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("removed " + work("test_file.0") + " (left by sluice pid"));
  EXPECT_FALSE(has_entries(work())) << "a half-prepared file was left";

  std::vector<std::string> small = sysbench_args(work(), "prepare");
  small[4] = "--file-total-size=16m";
  ASSERT_EQ(sluice(small).exit_code, 0);
  std::vector<std::string> run = sysbench_args(work(), "run");
  run[4] = "--file-total-size=16m";
  const auto start = std::chrono::steady_clock::now();
  const int status = kill_when(
      run, [&] { return std::chrono::steady_clock::now() - start > 700ms; }, SIGTERM);
  expect_handled(status, SIGTERM);
  EXPECT_EQ(journals(), 0);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(fs::exists(work("test_file." + std::to_string(i)))) << "prepare's files stay";
}

std::vector<std::string> postmark_args(const std::string& dir) {
  return {"postmark", "--set=location=" + dir, "--set=subdirectories=2", "--set=number=20000",
          "--set=transactions=10000000"};
}

TEST_F(Signals, PostmarkKilledLeavesItsSubdirectoriesAndRestoreRemovesThem) {
  const int status = kill_when(
      postmark_args(work()), [&] { return has_entries(work("s1")); }, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(status));
  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("removed " + work("s0") + " and the "));
  EXPECT_FALSE(has_entries(work())) << testing::describe(r);
}

TEST_F(Signals, PostmarkOnSigintRemovesItsFiles) {
  const int status = kill_when(
      postmark_args(work()), [&] { return has_entries(work("s1")); }, SIGINT);
  expect_handled(status, SIGINT);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

std::string filetree_dir(const std::string& work) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(work, ec)) return e.path().string();
  return "";
}

TEST_F(Signals, FiletreeKilledLeavesItsTreeAndRestoreRemovesIt) {
  const std::vector<std::string> args = {"filetree", work(), "--size=64m", "--file-size=4k", "--drop-caches=off"};
  const int status = kill_when(
      args, [&] { return has_entries(filetree_dir(work())); }, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(status));
  const std::string tree = filetree_dir(work());
  ASSERT_FALSE(tree.empty());
  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("removed " + tree + " and the "));
  EXPECT_FALSE(has_entries(work()));
}

TEST_F(Signals, FiletreeOnSighupRemovesItsTree) {
  const std::vector<std::string> args = {"filetree", work(), "--size=64m", "--file-size=4k", "--drop-caches=off"};
  const int status = kill_when(
      args, [&] { return has_entries(filetree_dir(work())); }, SIGHUP);
  expect_handled(status, SIGHUP);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

// The one entry a command made in the work directory ("" while there is none).
std::string only_entry(const std::string& work) { return filetree_dir(work); }

std::vector<std::string> bonnie_args(const std::string& dir) {
  return {"bonnie", "-d", dir, "-s", "256", "-r", "0", "-n", "0"};
}

TEST_F(Signals, BonnieKilledLeavesItsTestFileAndRestoreRemovesIt) {
  expect_restore_removes_the_entry_left(kill_when(
      bonnie_args(work()), [&] { return !only_entry(work()).empty(); }, SIGKILL));
}

TEST_F(Signals, BonnieOnSigintRemovesItsFiles) {
  const int status = kill_when(
      bonnie_args(work()), [&] { return !only_entry(work()).empty(); }, SIGINT);
  expect_handled(status, SIGINT);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

std::vector<std::string> iozone_args(const std::string& file) {
  return {"iozone", "-i", "0", "-i", "1", "-s", "512m", "-r", "4k", "-f", file};
}

TEST_F(Signals, IozoneKilledLeavesItsFileAndRestoreRemovesIt) {
  const int status = kill_when(
      iozone_args(work("iozone.tmp")), [&] { return fs::exists(work("iozone.tmp")); }, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(status));
  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("removed " + work("iozone.tmp") + " (left by sluice pid")) << testing::describe(r);
  EXPECT_FALSE(has_entries(work()));
}

TEST_F(Signals, IozoneOnSigtermRemovesItsFile) {
  const int status = kill_when(
      iozone_args(work("iozone.tmp")), [&] { return fs::exists(work("iozone.tmp")); }, SIGTERM);
  expect_handled(status, SIGTERM);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

std::vector<std::string> metadata_args(const std::string& dir) {
  return {"metadata", "-d", dir, "-n", "200000", "-i", "3"};
}

TEST_F(Signals, MetadataKilledLeavesItsTreeAndRestoreRemovesIt) {
  expect_restore_removes_the_entry_left(kill_when(
      metadata_args(work()), [&] { return has_entries(only_entry(work())); }, SIGKILL));
}

TEST_F(Signals, MetadataOnSighupRemovesItsTree) {
  const int status = kill_when(
      metadata_args(work()), [&] { return has_entries(only_entry(work())); }, SIGHUP);
  expect_handled(status, SIGHUP);
  EXPECT_FALSE(has_entries(work()));
  EXPECT_EQ(journals(), 0);
}

std::vector<std::string> capacity_args(const std::string& file) {
  return {"capacity", "--filename=" + file, "--size=512m", "--ioengine=psync", "--rw=randread",
          "--bs=4k",  "--slo=100ms"};
}

TEST_F(Signals, CapacityKilledInItsLayoutLeavesAFileRestoreRemoves) {
  const int status = kill_when(
      capacity_args(work("cap")), [&] { return fs::exists(work("cap")); }, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(status));
  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("removed " + work("cap") + " (left by sluice pid")) << testing::describe(r);
  EXPECT_FALSE(has_entries(work()));
}

TEST_F(Signals, CapacityOnSigtermEndsAndLeavesNoJournal) {
  std::error_code ec;
  const int status = kill_when(
      capacity_args(work("cap")),
      [&] { return fs::exists(work("cap")) && fs::file_size(work("cap"), ec) == (512u << 20); }, SIGTERM, 30000ms);
  expect_handled(status, SIGTERM);
  EXPECT_EQ(journals(), 0);
}

// Every file-creating command, signalled at random moments (drawn from a fixed seed over its normal duration,
// at most 1.5 s): SIGKILL, SIGINT, SIGTERM and SIGHUP in turn. Afterwards, and after `sluice restore` when the
// process died, nothing of it is left in the work directory and no journal stays. A caught signal that
// arrives once the process is running (past 100 ms) must be handled, not kill it.
struct SmallCommand {
  const char* name;
  std::vector<std::string> (*args)(const std::string& work);
};

class SignalsAtRandomMoments : public Signals, public ::testing::WithParamInterface<SmallCommand> {};

// Whether `pid` has a handler for `signal` now (/proc/PID/status SigCgt): before sluice installs its handlers
// (a slow start on a loaded machine), a signal ends it the default way, which is not a fault.
bool catches(pid_t pid, int signal) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
    return (mask >> (signal - 1)) & 1ULL;
  }
  return false;
}

TEST_P(SignalsAtRandomMoments, LeaveNothingBehind) {
  const std::vector<std::string> args = GetParam().args(work());
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(sluice(args).exit_code, 0);
  const long normal_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(has_entries(work())) << "a normal end left files";
  std::mt19937 random(20261201);
  std::uniform_int_distribution<long> moment(0, std::min(normal_ms * 12 / 10, 1500L));
  const int signals[] = {SIGKILL, SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 4; ++i) {
    const pid_t pid = spawn(args);
    const long at = moment(random);
    std::this_thread::sleep_for(std::chrono::milliseconds(at));
    const bool handled = catches(pid, signals[i]);
    const int status = stop(pid, signals[i]);
    const std::string what = "signal " + std::to_string(signals[i]) + " at " + std::to_string(at) + " ms";
    if (WIFSIGNALED(status)) {
      EXPECT_TRUE(signals[i] == SIGKILL || !handled) << what << " killed it instead of being handled";
      sluice({"restore"});
    }
    EXPECT_FALSE(has_entries(work())) << what << " left files";
    EXPECT_EQ(journals(), 0) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Commands, SignalsAtRandomMoments,
    ::testing::Values(
        SmallCommand{"postmark",
                     [](const std::string& w) {
                       return std::vector<std::string>{"postmark", "--set=location=" + w, "--set=subdirectories=2",
                                                       "--set=number=500", "--set=transactions=2000"};
                     }},
        SmallCommand{
            "filetree",
            [](const std::string& w) {
              return std::vector<std::string>{"filetree", w, "--size=4m", "--file-size=4k", "--drop-caches=off"};
            }},
        SmallCommand{"bonnie",
                     [](const std::string& w) {
                       return std::vector<std::string>{"bonnie", "-d", w, "-s", "16", "-r", "0", "-n", "0"};
                     }},
        SmallCommand{"iozone",
                     [](const std::string& w) {
                       return std::vector<std::string>{
                           "iozone", "-i", "0", "-i", "1", "-s", "16m", "-r", "4k", "-f", w + "/iozone.tmp"};
                     }},
        SmallCommand{"metadata",
                     [](const std::string& w) {
                       return std::vector<std::string>{"metadata", "-d", w, "-n", "2000", "-i", "1"};
                     }},
        SmallCommand{"quick",
                     [](const std::string& w) {
                       return std::vector<std::string>{"quick", "--budget=2s", "--size=16m", "--no-status", w};
                     }},
        SmallCommand{"interfere",
                     [](const std::string& w) {
                       return std::vector<std::string>{"interfere",   "--filename=" + w + "/fg",
                                                       "--size=8m",   "--threads=1",
                                                       "--budget=2s", "--bg-size=16m"};
                     }}),
    [](const ::testing::TestParamInfo<SmallCommand>& command) { return std::string(command.param.name); });

}  // namespace
}  // namespace sluice
