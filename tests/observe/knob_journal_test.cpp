#include "observe/knob_journal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "knob_test_tree.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using testing::KernelLikeIo;
using testing::KnobTree;

// Writes the knob, then fails as a crash right after the change would: the session never got to record
// anything after the write. It notes what the journal said at the moment of the write.
class CrashAfterWriteIo : public KernelLikeIo {
 public:
  explicit CrashAfterWriteIo(std::string journal) : journal_(std::move(journal)) {}
  void write(const std::string& path, const std::string& value) override {
    journal_at_write = std::filesystem::exists(journal_) ? read(journal_) : "";
    KernelLikeIo::write(path, value);
    throw UserError("simulated crash after writing " + path);
  }
  std::string journal_at_write;

 private:
  std::string journal_;
};

TEST(KnobJournalFormat, RoundTrips) {
  const std::vector<JournalEntry> entries = {{"vm.dirty_ratio", "", "/proc/sys/vm/dirty_ratio", "20"},
                                             {"queue.scheduler", "sda", "/sys/block/sda/queue/scheduler", "none"}};
  const std::vector<JournalEntry> back = parse_journal(format_journal(entries), "j");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].device, "sda");
  EXPECT_EQ(back[1].original, "none");
}

TEST(KnobJournalFormat, MalformedLineNamesTheJournalAndLine) {
  try {
    parse_journal("# header\nvm.dirty_ratio 20\n", "/x/knobs.journal");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/x/knobs.journal:2"));
  }
}

TEST(KnobJournal, OriginalIsJournalledBeforeTheKnobIsWritten) {
  KnobTree tree;
  auto io = std::make_shared<CrashAfterWriteIo>(tree.journal);
  KnobSessionOptions options = tree.options();
  options.io = io;
  KnobSession session(options);
  EXPECT_THROW(session.set("vm.dirty_expire_centisecs", "100"), UserError);
  EXPECT_THAT(io->journal_at_write, HasSubstr("vm.dirty_expire_centisecs\t\t" + tree.roots.proc_root +
                                              "/sys/vm/dirty_expire_centisecs\t3000"));
  // The knob was changed and the journal, still there, holds its original.
  EXPECT_EQ(tree.vm("dirty_expire_centisecs"), "100");
  EXPECT_THAT(tree.journal_text(), HasSubstr("\t3000"));
}

TEST(KnobJournal, PairChangeJournalsBothMembersBeforeTheWrite) {
  KnobTree tree;
  auto io = std::make_shared<CrashAfterWriteIo>(tree.journal);
  KnobSessionOptions options = tree.options();
  options.io = io;
  KnobSession session(options);
  EXPECT_THROW(session.set("vm.dirty_bytes", "15M"), UserError);
  const auto entries = parse_journal(io->journal_at_write, tree.journal);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].knob, "vm.dirty_ratio");
  EXPECT_EQ(entries[0].original, "20");
  EXPECT_EQ(entries[1].knob, "vm.dirty_bytes");
  EXPECT_EQ(entries[1].original, "0");
}

TEST(KnobJournal, FailedWriteIsStillRestored) {
  KnobTree tree;
  auto io = std::make_shared<CrashAfterWriteIo>(tree.journal);
  KnobSessionOptions options = tree.options();
  options.io = io;
  {
    KnobSession session(options);
    EXPECT_THROW(session.set("vm.dirty_bytes", "15M"), UserError);
    // Restore goes through the same writer, which throws after each write; the journal is kept.
    EXPECT_FALSE(session.restore_all().empty());
    EXPECT_TRUE(tree.journal_exists());
  }
  // What the writer managed to write is the original state; a later replay finishes the job.
  EXPECT_EQ(tree.vm("dirty_ratio"), "20");
  KernelLikeIo plain;
  const ReplayResult result = replay_journal(tree.journal, &plain);
  EXPECT_TRUE(result.failures.empty());
  EXPECT_TRUE(tree.all_original());
  EXPECT_FALSE(tree.journal_exists());
}

// A child sets knobs and dies without restoring; the parent replays its journal.
TEST(KnobJournal, ReplayRestoresExactlyWhatAKilledRunChanged) {
  KnobTree tree;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      KnobSession session(tree.options());
      session.set("vm.dirty_bytes", "15M");
      session.set("vm.dirty_background_bytes", "5M");
      session.set("vm.dirty_expire_centisecs", "500");
      session.set("queue.scheduler", "none", "vda");
      session.set("queue.wbt_lat_usec", "75000", "vda");
      ::_exit(9);  // dies with the knobs changed: no destructor, no restore
    } catch (...) {
      ::_exit(1);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 9);
  ASSERT_TRUE(tree.journal_exists());
  EXPECT_EQ(tree.vm("dirty_bytes"), "15728640");
  EXPECT_EQ(tree.queue("scheduler"), "mq-deadline kyber [none]");

  const ReplayResult result = replay_journal(tree.journal, tree.io.get());
  EXPECT_TRUE(result.found);
  EXPECT_FALSE(result.busy);
  EXPECT_TRUE(result.failures.empty());
  EXPECT_TRUE(tree.all_original());
  EXPECT_FALSE(tree.io->wrote("/dirty_bytes", "0"));
  EXPECT_FALSE(tree.journal_exists());
  EXPECT_THAT(describe_replay(result, tree.journal), HasSubstr("restored vm.dirty_ratio = 20"));
  EXPECT_THAT(describe_replay(result, tree.journal), HasSubstr("restored queue.scheduler of vda = mq-deadline"));
}

std::atomic<bool> g_child_stop{false};
extern "C" void on_child_stop(int) { g_child_stop.store(true); }

// SIGINT in sluice only sets a flag (run/stop_signal.cpp) and the program unwinds; this child does the same
// with its own handler, and the session's destructor restores on the way out.
TEST(KnobJournal, SigintWithNormalUnwindingRestores) {
  KnobTree tree;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    struct sigaction action {};
    action.sa_handler = on_child_stop;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    try {
      KnobSession session(tree.options());
      session.set("vm.dirty_bytes", "15M");
      session.set("queue.scheduler", "kyber", "vda");
      (void)!::write(ready[1], "r", 1);
      while (!g_child_stop.load()) ::usleep(1000);
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  EXPECT_EQ(tree.vm("dirty_ratio"), "0");
  ::kill(child, SIGINT);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::close(ready[0]);
  ::close(ready[1]);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(tree.all_original());
  EXPECT_FALSE(tree.journal_exists());
}

TEST(KnobJournal, JournalOfALiveSessionIsLeftAlone) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_expire_centisecs", "100");
  const ReplayResult result = replay_journal(tree.journal, tree.io.get());
  EXPECT_TRUE(result.busy);
  EXPECT_EQ(result.busy_pid, static_cast<long>(::getpid()));
  EXPECT_EQ(tree.vm("dirty_expire_centisecs"), "100");
  EXPECT_TRUE(tree.journal_exists());
}

TEST(KnobJournal, ASecondSessionIsRefusedWhileTheFirstHoldsTheJournal) {
  KnobTree tree;
  KnobSession first(tree.options());
  first.set("vm.dirty_expire_centisecs", "100");
  KnobSession second(tree.options());
  EXPECT_THROW(second.set("vm.dirty_writeback_centisecs", "100"), UserError);
  EXPECT_EQ(tree.vm("dirty_writeback_centisecs"), "500");
}

// A dead run's journal holds the true originals; a new session replays it before recording its own.
TEST(KnobJournal, NewSessionReplaysAStaleJournalFirst) {
  KnobTree tree;
  std::filesystem::create_directories(std::filesystem::path(tree.journal).parent_path());
  tree.set_vm("dirty_expire_centisecs", "100");  // left by the dead run
  std::ofstream(tree.journal) << format_journal(
      {{"vm.dirty_expire_centisecs", "", tree.roots.proc_root + "/sys/vm/dirty_expire_centisecs", "3000"}});
  {
    KnobSession session(tree.options());
    session.set("vm.dirty_expire_centisecs", "200");
    EXPECT_EQ(session.changes()[0].original, "3000");
  }
  EXPECT_TRUE(tree.all_original());
}

// The two sides of a journal's durability (common/durable_files.h): an entry that cannot be made durable stops
// the change it guards ...
TEST(KnobJournal, AJournalThatCannotBeWrittenStopsTheChange) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_expire_centisecs", "100");
  std::filesystem::remove_all(std::filesystem::path(tree.journal).parent_path());
  EXPECT_THROW(session.set("vm.dirty_writeback_centisecs", "100"), UserError);
  EXPECT_EQ(tree.vm("dirty_writeback_centisecs"), "500");
}

// ... while the journal's removal once every knob is back is best effort: a directory that cannot be synced
// then does not turn a complete restore into a failure.
TEST(KnobJournal, ARestoreCompletesWhenTheJournalsDirectoryCannotBeSynced) {
  KnobTree tree;
  KnobSession session(tree.options());
  session.set("vm.dirty_expire_centisecs", "100");
  std::filesystem::remove_all(std::filesystem::path(tree.journal).parent_path());
  std::vector<std::string> failures{"not run"};
  EXPECT_NO_THROW(failures = session.restore_all());
  EXPECT_TRUE(failures.empty());
  EXPECT_TRUE(session.changes()[0].restored);
  EXPECT_TRUE(tree.all_original());
}

TEST(KnobJournal, NothingToRestoreWithoutAJournal) {
  KnobTree tree;
  const ReplayResult result = replay_journal(tree.journal);
  EXPECT_FALSE(result.found);
  EXPECT_EQ(describe_replay(result, tree.journal), "nothing to restore (no journal at " + tree.journal + ")\n");
}

}  // namespace
}  // namespace sluice
