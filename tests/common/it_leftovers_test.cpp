// Nothing left behind after a kill: build/sluice is SIGKILLed while a file it created exists, then
// `sluice restore` or the next start removes that file and says so. Journals go to a temporary
// SLUICE_STATE_DIR (and interfere's knobs to a synthetic SLUICE_KNOB_ROOT), never to /var/lib/sluice.
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
#include <string>
#include <thread>
#include <vector>

#include "support/it_test_util.h"
#include "support/run_binary.h"
#include "support/sluice_children.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;

class Leftovers : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(work_.file("w"));
    fs::create_directories(dir_.file("knobs"));
  }
  std::string work(const std::string& name) const { return work_.file("w/" + name); }
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

  testing::RunOutput sluice(const std::vector<std::string>& args) const {
    testing::RunOptions options;
    options.timeout = 10000ms;
    options.environment = environment();
    return testing::run_binary(args, options);
  }

  // True once a created-files journal holds the identity record ("=") of `path`: from then on a kill leaves
  // a file that restore can tell from one made later. Between sluice's intent record and that one, a kill
  // leaves the file kept as unknown (by design); on a busy machine that moment can be long.
  bool journaled(const std::string& path) const {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_.file("state"), ec)) {
      if (!e.path().filename().string().starts_with("created-files.")) continue;
      std::ifstream in(e.path());
      for (std::string line; std::getline(in, line);) {
        if (line.starts_with("=\t") && line.ends_with("\t" + path)) return true;
      }
    }
    return false;
  }
  // The file exists and is journaled with its identity (see journaled()).
  bool created(const std::string& path) const { return fs::exists(path) && journaled(path); }

  int journals() const {
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_.file("state"), ec)) n += e.path().string().ends_with(".journal");
    return n;
  }

  testing::TempDir dir_;                             // state and knobs
  testing::TempDir work_;                            // the files sluice creates
  testing::SluiceChildren children_{environment()};  // after dir_: its environment names dir_
};

std::vector<std::string> interfere_args(const std::string& fg) {
  return {"interfere", "--filename=" + fg, "--size=8m", "--threads=1", "--budget=4s", "--bg-size=32m"};
}

TEST_F(Leftovers, KilledInterfereLeavesItsBackgroundFileAndRestoreRemovesIt) {
  const std::string bg = work("fg.sluice-bg");
  const pid_t pid = spawn(interfere_args(work("fg")));
  ASSERT_TRUE(wait_for([&] { return created(bg); })) << "the background file never appeared";
  const int status = stop(pid, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_TRUE(fs::exists(bg));
  EXPECT_EQ(journals(), 1);

  const testing::RunOutput r = sluice({"restore"});
  ASSERT_EQ(r.exit_code, 0) << testing::describe(r);
  EXPECT_THAT(r.out, HasSubstr("removed " + bg + " (left by sluice pid " + std::to_string(pid) + ")"));
  EXPECT_THAT(r.out, HasSubstr("removed " + work("fg") + " "));
  EXPECT_TRUE(fs::is_empty(work_.file("w")));
  EXPECT_EQ(journals(), 0);
}

TEST_F(Leftovers, NextInterfereRemovesTheKilledOnesFileInsteadOfRefusing) {
  const std::string bg = work("fg.sluice-bg");
  const pid_t pid = spawn(interfere_args(work("fg")));
  ASSERT_TRUE(wait_for([&] { return created(bg); }));
  stop(pid, SIGKILL);
  ASSERT_TRUE(fs::exists(bg));

  std::vector<std::string> args = interfere_args(work("fg"));
  args[4] = "--budget=1s";
  const testing::RunOutput r = sluice(args);
  ASSERT_EQ(r.exit_code, 0) << testing::describe(r);
  EXPECT_THAT(r.err, HasSubstr("a previous run was killed and left files behind"));
  EXPECT_THAT(r.err, HasSubstr("removed " + bg));
  EXPECT_THAT(r.err, Not(HasSubstr("will not overwrite")));
  EXPECT_TRUE(fs::is_empty(work_.file("w")));
  EXPECT_EQ(journals(), 0);
}

TEST_F(Leftovers, KilledQuickLeavesItsDirectoryAndTheNextQuickRemovesIt) {
  std::string quick_dir;
  const pid_t pid = spawn({"quick", "--budget=20s", "--size=16m", "--no-status", work_.file("w")});
  // Killed once quick's directory holds its test file and both are journaled with their identity: a kill
  // between an intent and an identity record leaves the file as one sluice cannot tell from the user's.
  const bool seen = wait_for([&] {
    for (const auto& e : fs::directory_iterator(work_.file("w"))) {
      std::error_code ec;
      if (!e.is_directory() || fs::is_empty(e.path(), ec) || !journaled(e.path().string())) continue;
      bool inside_journaled = true;
      for (const auto& inside : fs::directory_iterator(e.path(), ec)) {
        inside_journaled = inside_journaled && journaled(inside.path().string());
      }
      if (inside_journaled) quick_dir = e.path().string();
    }
    return !quick_dir.empty();
  });
  ASSERT_TRUE(seen) << "quick's test file never appeared";
  stop(pid, SIGKILL);
  ASSERT_FALSE(fs::is_empty(quick_dir));

  const std::string other = dir_.file("elsewhere");
  fs::create_directories(other);
  const testing::RunOutput r = sluice({"quick", "--budget=3s", "--size=16m", "--no-status", other});
  EXPECT_EQ(r.exit_code, 0) << testing::describe(r);
  EXPECT_THAT(r.err, HasSubstr("removed " + quick_dir + " (left by sluice pid " + std::to_string(pid) + ")"));
  EXPECT_TRUE(fs::is_empty(work_.file("w")));
  EXPECT_TRUE(fs::is_empty(other));
  EXPECT_EQ(journals(), 0);
}

TEST_F(Leftovers, KilledRunRemovesTheFileItCreatedAndKeepsTheUsersFile) {
  std::ofstream(work("mine")) << std::string(1 << 20, 'u');
  const pid_t pid = spawn({"run", "--name=t", "--filename=" + work("mine") + ":" + work("new"), "--size=2m",
                           "--rw=read", "--bs=4k", "--time_based", "--runtime=20s"});
  ASSERT_TRUE(wait_for([&] { return created(work("new")); }));
  stop(pid, SIGKILL);

  const testing::RunOutput r = sluice({"restore"});
  ASSERT_EQ(r.exit_code, 0) << testing::describe(r);
  EXPECT_THAT(r.out, HasSubstr("removed " + work("new")));
  EXPECT_THAT(r.out, Not(HasSubstr(work("mine"))));
  EXPECT_FALSE(fs::exists(work("new")));
  EXPECT_TRUE(fs::exists(work("mine")));
}

TEST_F(Leftovers, KilledPreconditionLeavesTheFileItCreatedAndRestoreRemovesIt) {
  const pid_t pid = spawn({"precondition", "--filename=" + work("p"), "--size=256m", "--passes=2"});
  ASSERT_TRUE(wait_for([&] { return created(work("p")); }));
  stop(pid, SIGKILL);

  const testing::RunOutput r = sluice({"restore"});
  ASSERT_EQ(r.exit_code, 0) << testing::describe(r);
  EXPECT_THAT(r.out, HasSubstr("removed " + work("p") + " (left by sluice pid " + std::to_string(pid) + ")"));
  EXPECT_FALSE(fs::exists(work("p")));
}

TEST_F(Leftovers, FileReplacedAfterTheKillIsKept) {
  const pid_t pid = spawn({"run", "--name=t", "--filename=" + work("f"), "--size=2m", "--rw=read", "--bs=4k",
                           "--time_based", "--runtime=20s"});
  ASSERT_TRUE(wait_for([&] { return created(work("f")); }));
  stop(pid, SIGKILL);
  std::ofstream(work("users")) << "precious";
  fs::rename(work("users"), work("f"));

  const testing::RunOutput r = sluice({"restore"});
  EXPECT_THAT(r.out, HasSubstr("kept " + work("f") + ": not the file sluice pid"));
  EXPECT_TRUE(fs::exists(work("f")));
  EXPECT_EQ(journals(), 0);
}

TEST_F(Leftovers, InterruptedRunKeepsItsFileAsBeforeAndLeavesNoJournal) {
  for (const int signal : {SIGINT, SIGTERM}) {
    fs::remove(work("f"));
    const pid_t pid = spawn({"run", "--name=t", "--filename=" + work("f"), "--size=2m", "--rw=read", "--bs=4k",
                             "--time_based", "--runtime=20s"});
    // Past layout (the file has its full size) and the handler installed: the run is measuring, however slow a
    // busy machine was to get there; the sleep only moves the signal off the layout's last write.
    std::error_code ec;
    ASSERT_TRUE(wait_for([&] {
      return fs::exists(work("f")) && fs::file_size(work("f"), ec) == (2u << 20) &&
             testing::detail::catches_signal(pid, signal);
    }));
    std::this_thread::sleep_for(300ms);
    const int status = stop(pid, signal);
    EXPECT_TRUE(WIFEXITED(status)) << "signal " << signal;
    EXPECT_EQ(journals(), 0) << "signal " << signal;
    const testing::RunOutput r = sluice({"restore"});
    EXPECT_THAT(r.out, Not(HasSubstr("removed"))) << "signal " << signal;
    EXPECT_TRUE(fs::exists(work("f"))) << "fio keeps a run's file; so does sluice";
  }
}

TEST_F(Leftovers, TerminatedInterfereStillRemovesItsFilesAndLeavesNoJournal) {
  const pid_t pid = spawn(interfere_args(work("fg")));
  ASSERT_TRUE(wait_for([&] { return fs::exists(work("fg.sluice-bg")); }));
  const int status = stop(pid, SIGTERM);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_TRUE(fs::is_empty(work_.file("w")));
  EXPECT_EQ(journals(), 0);
}

}  // namespace
}  // namespace sluice
