// HistoryStore on temporary databases: round trip, lookup by id, prefix and label, filters, delete, and the
// refusals (newer schema, foreign or corrupt file, missing database) that must leave the file unchanged.
#include "history/history_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/result_schema.h"
#include "history/schema.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

StoredResult sample(std::string label, std::string started_at = "2026-11-30T10:00:00Z") {
  StoredResult r;
  r.label = std::move(label);
  r.command = "run";
  r.host = "hostA";
  r.sluice_version = "0.1.0";
  r.command_line = "sluice run --name=a --ioengine=null --size=1m";
  r.job_text = "--name=a --ioengine=null --size=1m";
  r.started_at = started_at;
  r.ended_at = started_at;
  r.repetitions = {nlohmann::json{{"jobs", {{{"jobname", "a"}, {"read", {{"iops", 100.5}}}}}},
                                  {"sluice", {{"environment", {{"host", "hostA"}}}}}},
                   nlohmann::json{{"jobs", {{{"jobname", "a"}, {"read", {{"iops", 101.5}}}}}}}};
  return r;
}

HistoryFilter filter(std::string HistoryFilter::*field, std::string value) {
  HistoryFilter f;
  f.*field = std::move(value);
  return f;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `sql` on a database outside the store (a foreign writer).
void raw_exec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

std::string user_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(HistoryStore, SavedResultLoadsBackFieldForField) {
  testing::TempDir dir;
  const std::string path = dir.file("deep/er/history.db");  // the directory is created
  HistoryStore store = HistoryStore::open(path, true);
  const StoredResult in = sample("before");
  const std::string id = store.save(in);
  EXPECT_EQ(id.size(), 8u);
  const StoredResult out = store.load(id);
  EXPECT_EQ(out.id, id);
  EXPECT_EQ(to_export(out).dump(), [&] {
    StoredResult expected = in;
    expected.id = id;
    return to_export(expected).dump();
  }());
}

TEST(HistoryStore, ExportReadsBack) {
  StoredResult r = sample("x");
  r.id = "0123abcd";
  EXPECT_EQ(to_export(from_export(to_export(r))).dump(), to_export(r).dump());
  EXPECT_THAT(user_error_of([] { from_export(nlohmann::json{{"id", "1"}}); }), HasSubstr("\"label\""));
}

TEST(HistoryStore, FindsByUniquePrefixAndLabelMeansTheLatest) {
  testing::TempDir dir;
  HistoryStore store = HistoryStore::open(dir.file("h.db"), true);
  const std::string older = store.save(sample("before", "2026-11-30T10:00:00Z"));
  const std::string newer = store.save(sample("before", "2026-11-30T11:00:00Z"));
  store.save(sample("after", "2026-11-30T12:00:00Z"));
  EXPECT_EQ(store.load("before").id, newer);
  EXPECT_EQ(store.load(older.substr(0, 8)).id, older);
  if (older.substr(0, 4) != newer.substr(0, 4)) {
    EXPECT_EQ(store.load(older.substr(0, 4)).id, older);
  }
  EXPECT_THAT(user_error_of([&] { store.load("nosuchlabel"); }),
              HasSubstr("no result with the id or label 'nosuchlabel'"));
}

TEST(HistoryStore, ListFiltersByLabelCommandHostAndDate) {
  testing::TempDir dir;
  HistoryStore store = HistoryStore::open(dir.file("h.db"), true);
  store.save(sample("a", "2026-11-28T10:00:00Z"));
  StoredResult quick = sample("b", "2026-11-29T10:00:00Z");
  quick.command = "quick";
  quick.host = "hostB";
  store.save(quick);
  store.save(sample("a", "2026-11-30T10:00:00Z"));
  EXPECT_EQ(store.list({}).size(), 3u);
  EXPECT_EQ(store.list(filter(&HistoryFilter::label, "a")).size(), 2u);
  EXPECT_EQ(store.list(filter(&HistoryFilter::command, "quick")).size(), 1u);
  EXPECT_EQ(store.list(filter(&HistoryFilter::host, "hostB")).front().label, "b");
  EXPECT_EQ(store.list(filter(&HistoryFilter::since, "2026-11-29")).size(), 2u);
  EXPECT_EQ(store.list(filter(&HistoryFilter::until, "2026-11-29")).size(), 1u);
  const std::vector<StoredResult> all = store.list({});
  EXPECT_LT(all.front().started_at, all.back().started_at);  // oldest first
  EXPECT_EQ(all.front().repetitions.size(), 2u);
}

TEST(HistoryStore, DeleteRemovesOnlyThatResult) {
  testing::TempDir dir;
  HistoryStore store = HistoryStore::open(dir.file("h.db"), true);
  const std::string keep = store.save(sample("keep"));
  const std::string gone = store.save(sample("gone"));
  EXPECT_EQ(store.remove("gone"), gone);
  EXPECT_EQ(store.list({}).size(), 1u);
  EXPECT_EQ(store.load(keep).repetitions.size(), 2u);
  EXPECT_THAT(user_error_of([&] { store.load(gone); }), HasSubstr(gone));
}

TEST(HistoryStore, NewSchemaRecordsItsVersionAndMigration) {
  testing::TempDir dir;
  const std::string path = dir.file("h.db");
  HistoryStore::open(path, true);
  SqliteDb db(path, false);
  EXPECT_EQ(schema_version(db), kHistorySchemaVersion);
  SqliteStatement s = db.prepare("SELECT max(version), count(*) FROM migrations");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.integer(0), kHistorySchemaVersion);
  EXPECT_EQ(s.integer(1), kHistorySchemaVersion);
  SqliteStatement mode = db.prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.text(0), "wal");
}

TEST(HistoryStore, NewerSchemaIsRefusedAndNotRewritten) {
  testing::TempDir dir;
  const std::string path = dir.file("h.db");
  HistoryStore::open(path, true).save(sample("old"));
  raw_exec(path, "PRAGMA journal_mode=DELETE; PRAGMA user_version = 99;");
  const std::string before = slurp(path);
  for (bool create : {true, false}) {
    EXPECT_THAT(user_error_of([&] { HistoryStore::open(path, create); }),
                HasSubstr("schema version 99, newer than this sluice's"));
  }
  EXPECT_EQ(slurp(path), before);
}

// The database's schema is the store's; each stored document has its own (a newer sluice may share the file).
TEST(HistoryStore, ADocumentOfANewerResultSchemaIsRefusedOnReadButCanBeDeleted) {
  testing::TempDir dir;
  HistoryStore store = HistoryStore::open(dir.file("h.db"), true);
  StoredResult newer = sample("newer");
  newer.repetitions[1]["sluice"] = {{"command", "run"}, {"schema_version", kResultSchemaVersion + 1}};
  const std::string id = store.save(newer);
  const std::string expected = "result " + id + ": result schema version " + std::to_string(kResultSchemaVersion + 1) +
                               " is newer than this sluice's (" + std::to_string(kResultSchemaVersion) + ")";
  EXPECT_THAT(user_error_of([&] { store.load(id); }), HasSubstr(expected));
  EXPECT_THAT(user_error_of([&] { store.list(HistoryFilter{}); }), HasSubstr(expected));
  EXPECT_EQ(store.remove(id), id);
  EXPECT_TRUE(store.list(HistoryFilter{}).empty());
}

TEST(HistoryStore, DocumentsOfTheCurrentAndTheLegacyResultSchemaLoad) {
  testing::TempDir dir;
  HistoryStore store = HistoryStore::open(dir.file("h.db"), true);
  StoredResult current = sample("current");  // the second repetition declares no version: legacy
  current.repetitions[0]["sluice"]["schema_version"] = kResultSchemaVersion;
  EXPECT_EQ(store.load(store.save(current)).repetitions.size(), 2u);
}

TEST(HistoryStore, CorruptFileIsRefusedAndNotRewritten) {
  testing::TempDir dir;
  const std::string path = dir.file("h.db");
  std::ofstream(path) << std::string(4096, 'z');
  const std::string before = slurp(path);
  for (bool create : {true, false}) {
    const std::string message = user_error_of([&] { HistoryStore::open(path, create); });
    EXPECT_THAT(message, HasSubstr(path + ": not a sluice history database"));
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
  EXPECT_EQ(slurp(path), before);
}

TEST(HistoryStore, ForeignSqliteDatabaseIsRefused) {
  testing::TempDir dir;
  const std::string path = dir.file("other.db");
  raw_exec(path, "CREATE TABLE customers(name TEXT);");
  EXPECT_THAT(user_error_of([&] { HistoryStore::open(path, true); }), HasSubstr("not a sluice history database"));
  SqliteDb db(path, false);
  EXPECT_EQ(schema_version(db), 0);  // nothing was migrated
}

TEST(HistoryStore, ReadingAMissingDatabaseCreatesNothing) {
  testing::TempDir dir;
  const std::string path = dir.file("none.db");
  EXPECT_THAT(user_error_of([&] { HistoryStore::open(path, false); }), HasSubstr("no history database there yet"));
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(HistoryStore, LockedDatabaseFailsWithOneLineAfterTheBusyTimeout) {
  testing::TempDir dir;
  const std::string path = dir.file("h.db");
  HistoryStore store = HistoryStore::open(path, true);
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  ::setenv("SLUICE_DB_BUSY_MS", "10", 1);  // the holder keeps the lock throughout: any wait ends the same
  HistoryStore waiting = HistoryStore::open(path, true);
  EXPECT_THAT(user_error_of([&] { waiting.save(sample("x")); }), HasSubstr("locked by another process"));
  ::unsetenv("SLUICE_DB_BUSY_MS");
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  EXPECT_TRUE(store.list({}).empty());
}

TEST(HistoryStore, TwoProcessesSavingAtOnceBothSucceed) {
  testing::TempDir dir;
  const std::string path = dir.file("h.db");
  constexpr int kEach = 25;
  pid_t children[2];
  for (pid_t& child : children) {
    child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      try {
        HistoryStore store = HistoryStore::open(path, true);  // both may create the database
        for (int i = 0; i < kEach; ++i) store.save(sample("concurrent"));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "child: %s\n", e.what());
        ::_exit(1);
      }
      ::_exit(0);
    }
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(HistoryStore::open(path, false).list(filter(&HistoryFilter::label, "concurrent")).size(), 2u * kEach);
}

// A process that dies inside a save's transaction (here: after the result row, before the repetitions and
// the commit) leaves the database as before.
TEST(HistoryStore, CrashMidSaveLeavesTheDatabaseAsBefore) {
  testing::TempDir dir;
  const std::string path = dir.file("h.db");
  HistoryStore::open(path, true).save(sample("kept"));
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    SqliteDb db(path, false);
    db.exec("BEGIN IMMEDIATE");
    db.exec("INSERT INTO results VALUES('deadbeef', 'half', 'run', 'h', 'v', 'c', 'j', 's', 'e')");
    ::_exit(0);  // no COMMIT, no ROLLBACK, no close: as if killed
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  HistoryStore store = HistoryStore::open(path, true);
  const std::vector<StoredResult> all = store.list({});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all.front().label, "kept");
  EXPECT_EQ(all.front().repetitions.size(), 2u);
  store.save(sample("after"));  // and the database still takes writes
  EXPECT_EQ(store.list({}).size(), 2u);
}

TEST(HistoryStore, DefaultPathFollowsSluiceDbThenHome) {
  ::setenv("SLUICE_DB", "/tmp/x/history.db", 1);
  EXPECT_EQ(default_history_path(), "/tmp/x/history.db");
  ::unsetenv("SLUICE_DB");
  const char* home = std::getenv("HOME");
  if (home != nullptr) {
    EXPECT_EQ(default_history_path(), std::string(home) + "/.local/share/sluice/history.db");
  }
}

}  // namespace
}  // namespace sluice
