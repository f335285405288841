// The created-files journal: what it records, and what a replay removes and keeps. A journal object that
// is alive holds its lock exactly as a running sluice does; destroying it is what a killed process leaves.
#include "common/created_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

class CreatedFiles : public ::testing::Test {
 protected:
  std::string journal_path() const { return state_.file("created-files.1.2.journal"); }
  std::string work(const std::string& name) const { return work_.file(name); }
  // Creates a file the way sluice does: journal first, then the file, then its identity.
  void create(CreatedFilesJournal& j, const std::string& path) {
    j.creating({path});
    std::ofstream(path) << "data";
    j.created(path);
  }
  std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  testing::TempDir state_;
  testing::TempDir work_;
};

TEST_F(CreatedFiles, RecordsIntentIdentityAndRemovalOneLineEach) {
  CreatedFilesJournal j(journal_path());
  EXPECT_FALSE(fs::exists(journal_path() + ".new"));
  create(j, work("a"));
  FileIdentity id;
  ASSERT_TRUE(file_identity(work("a"), id));
  fs::remove(work("a"));
  j.removed(work("a"));
  EXPECT_EQ(slurp(journal_path()), "# sluice created-files journal v1 pid=" + std::to_string(::getpid()) + "\n" +
                                       "+\t" + work("a") + "\n" + "=\t" + std::to_string(id.dev) + "\t" +
                                       std::to_string(id.ino) + "\t" + std::to_string(id.birth_ns) + "\t" + work("a") +
                                       "\n" + "-\t" + work("a") + "\n");
}

TEST_F(CreatedFiles, DeadProcessFilesAreRemovedAndTheJournalWithThem) {
  {
    CreatedFilesJournal j(journal_path());
    create(j, work("bg"));
  }  // the lock is released: a dead writer
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_FALSE(fs::exists(work("bg")));
  EXPECT_FALSE(fs::exists(journal_path()));
  EXPECT_EQ(r.journals, 1);
  ASSERT_THAT(r.removed, SizeIs(1));
  EXPECT_THAT(describe_leftovers(r),
              HasSubstr("removed " + work("bg") + " (left by sluice pid " + std::to_string(::getpid()) + ")"));
}

TEST_F(CreatedFiles, BatchIsJournaledBeforeAnyIsCreated) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("1"), work("2"), work("3")});
    EXPECT_THAT(slurp(journal_path()), HasSubstr("+\t" + work("1") + "\n+\t" + work("2") + "\n+\t" + work("3") + "\n"));
    for (const char* name : {"1", "2"}) {
      std::ofstream(work(name)) << "x";
      j.created(work(name));
    }
  }  // killed before creating the third
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_THAT(r.removed, SizeIs(2));
  EXPECT_THAT(r.kept, IsEmpty());
  EXPECT_FALSE(fs::exists(work("1")));
  EXPECT_FALSE(fs::exists(work("2")));
}

TEST_F(CreatedFiles, LiveProcessJournalIsLeftAlone) {
  CreatedFilesJournal j(journal_path());
  create(j, work("mine"));
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_TRUE(fs::exists(work("mine")));
  EXPECT_TRUE(fs::exists(journal_path()));
  EXPECT_TRUE(r.empty());
}

TEST_F(CreatedFiles, FileReplacedByTheUserIsKept) {
  {
    CreatedFilesJournal j(journal_path());
    create(j, work("f"));
  }
  std::ofstream(work("users")) << "precious";
  fs::rename(work("users"), work("f"));  // a different inode at the same path
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_EQ(slurp(work("f")), "precious");
  EXPECT_THAT(r.removed, IsEmpty());
  ASSERT_THAT(r.kept, SizeIs(1));
  EXPECT_THAT(r.kept.front(), HasSubstr("kept " + work("f") + ": not the file sluice pid"));
  EXPECT_FALSE(fs::exists(journal_path()));
}

TEST_F(CreatedFiles, FileSluiceRemovedThenTheUserCreatedIsNotTouched) {
  {
    CreatedFilesJournal j(journal_path());
    create(j, work("f"));
    fs::remove(work("f"));
    j.removed(work("f"));
  }
  std::ofstream(work("f")) << "precious";
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_EQ(slurp(work("f")), "precious");
  EXPECT_THAT(r.removed, IsEmpty());
  EXPECT_THAT(r.kept, IsEmpty());
  EXPECT_EQ(r.journals, 1);
}

TEST_F(CreatedFiles, KilledBetweenIntentAndIdentityKeepsTheFileAndSaysWhy) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("f")});
    std::ofstream(work("f")) << "?";
  }
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_TRUE(fs::exists(work("f")));
  ASSERT_THAT(r.kept, SizeIs(1));
  EXPECT_THAT(r.kept.front(), HasSubstr("cannot be told from a file made later"));
}

TEST_F(CreatedFiles, KilledBetweenIntentAndIdentityRemovesAnEmptyDirectoryOnly) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("empty"), work("full")});
    fs::create_directory(work("empty"));
    fs::create_directory(work("full"));
    std::ofstream(work("full") + "/x") << "?";
  }
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_FALSE(fs::exists(work("empty")));
  EXPECT_TRUE(fs::exists(work("full") + "/x"));
  ASSERT_THAT(r.removed, SizeIs(1));
  EXPECT_THAT(r.removed.front(), HasSubstr("(empty; left by sluice pid"));
  ASSERT_THAT(r.kept, SizeIs(1));
}

TEST_F(CreatedFiles, DirectoryIsRemovedAfterTheFilesInIt) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("d")});
    fs::create_directory(work("d"));
    j.created(work("d"));
    create(j, work("d/file"));
  }
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_FALSE(fs::exists(work("d")));
  EXPECT_THAT(r.removed, SizeIs(2));
}

TEST_F(CreatedFiles, DirectoryWithSomethingElseInsideIsKept) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("d")});
    fs::create_directory(work("d"));
    j.created(work("d"));
  }
  std::ofstream(work("d/users")) << "x";
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_TRUE(fs::exists(work("d/users")));
  ASSERT_THAT(r.kept, SizeIs(1));
  EXPECT_THAT(r.kept.front(), HasSubstr("kept " + work("d")));
}

TEST_F(CreatedFiles, TreeIsRemovedWithEverythingInIt) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("t")});
    fs::create_directories(work("t/a/b"));
    j.created(work("t"));
    j.tree(work("t"));
  }
  std::ofstream(work("t/a/b/f")) << "x";  // written after the journal record, as filetree's files are
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_FALSE(fs::exists(work("t")));
  ASSERT_THAT(r.removed, SizeIs(1));
  EXPECT_THAT(r.removed.front(), HasSubstr(work("t") + " and the 3 entries in it (left by sluice pid"));
}

TEST_F(CreatedFiles, TreeReplacedByAnotherDirectoryIsKept) {
  {
    CreatedFilesJournal j(journal_path());
    j.creating({work("t")});
    fs::create_directory(work("t"));
    j.created(work("t"));
    j.tree(work("t"));
  }
  fs::rename(work("t"), work("old"));
  fs::create_directory(work("t"));  // the user's directory now: a new inode
  std::ofstream(work("t/users")) << "x";
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_TRUE(fs::exists(work("t/users")));
  ASSERT_THAT(r.kept, SizeIs(1));
  EXPECT_THAT(r.kept.front(), HasSubstr("replaced since"));
}

TEST_F(CreatedFiles, TornLastLineIsIgnored) {
  {
    CreatedFilesJournal j(journal_path());
    create(j, work("f"));
  }
  std::ofstream(journal_path(), std::ios::app) << "=\t1\t2";  // died mid-write
  const LeftoverReport r = remove_leftovers({state_.path()});
  EXPECT_FALSE(fs::exists(work("f")));
  EXPECT_THAT(r.removed, SizeIs(1));
}

TEST_F(CreatedFiles, OtherFilesInTheStateDirectoryAreNotJournals) {
  std::ofstream(state_.file("knobs.journal")) << "# sluice knob journal v1 pid=1\n";
  std::ofstream(state_.file("created-files.9.9.journal.new")) << "+\t" + work("x") + "\n";
  std::ofstream(work("x")) << "x";
  EXPECT_TRUE(remove_leftovers({state_.path()}).empty());
  EXPECT_TRUE(fs::exists(work("x")));
  EXPECT_TRUE(fs::exists(state_.file("knobs.journal")));
}

TEST_F(CreatedFiles, ProcessJournalLivesInTheStateDirAndANormalEndDeletesIt) {
  const char* before = std::getenv("SLUICE_STATE_DIR");  // ctest sets one for every test
  const std::string saved = before ? before : "";
  ::setenv("SLUICE_STATE_DIR", state_.path().c_str(), 1);
  EXPECT_EQ(created_files_dirs(), std::vector<std::string>{state_.path()});
  journal_removed(work("never"));  // nothing journaled yet: no journal is opened for this
  EXPECT_TRUE(fs::is_empty(state_.path()));
  journal_creating(work("p"));
  std::ofstream(work("p")) << "p";
  journal_created(work("p"));
  int journals = 0;
  for (const auto& e : fs::directory_iterator(state_.path())) journals += e.path().string().ends_with(".journal");
  EXPECT_EQ(journals, 1);
  EXPECT_TRUE(remove_leftovers({state_.path()}).empty());  // this process is alive
  end_created_files_journal();
  EXPECT_TRUE(fs::is_empty(state_.path()));
  EXPECT_TRUE(fs::exists(work("p")));  // a normal end keeps what it kept on purpose
  if (before) {
    ::setenv("SLUICE_STATE_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("SLUICE_STATE_DIR");
  }
}

TEST_F(CreatedFiles, UnwritableStateDirectoryThrowsOnOpen) {
  EXPECT_THROW(CreatedFilesJournal(work("no/such/dir/created-files.1.1.journal")), UserError);
}

}  // namespace
}  // namespace sluice
