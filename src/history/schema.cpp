#include "history/schema.h"

#include <fmt/format.h>

#include <vector>

#include "common/error.h"

namespace sluice {
namespace {

struct Migration {
  int version;
  const char* description;
  const char* sql;
};

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> kMigrations = {
      {1, "results and their repetitions",
       "CREATE TABLE migrations(version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL);"
       "CREATE TABLE results(id TEXT PRIMARY KEY, label TEXT NOT NULL, command TEXT NOT NULL, host TEXT NOT NULL,"
       " sluice_version TEXT NOT NULL, command_line TEXT NOT NULL, job_text TEXT NOT NULL,"
       " started_at TEXT NOT NULL, ended_at TEXT NOT NULL);"
       "CREATE INDEX results_by_label ON results(label, started_at);"
       "CREATE INDEX results_by_time ON results(started_at);"
       "CREATE TABLE repetitions(result_id TEXT NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
       " idx INTEGER NOT NULL, document TEXT NOT NULL, PRIMARY KEY(result_id, idx));"},
  };
  return kMigrations;
}

int table_count(SqliteDb& db) {
  SqliteStatement s = db.prepare("SELECT count(*) FROM sqlite_master WHERE type='table'");
  s.step();
  return static_cast<int>(s.integer(0));
}

[[noreturn]] void newer_schema(const std::string& path, int version) {
  throw UserError(
      fmt::format("{}: the history database has schema version {}, newer than this sluice's {} (written "
                  "by a newer sluice); use that sluice or another --db; the file was not changed",
                  path, version, kHistorySchemaVersion));
}

}  // namespace

int schema_version(SqliteDb& db) {
  SqliteStatement s = db.prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.integer(0));
}

void migrate(SqliteDb& db, const std::string& path) {
  const int found = schema_version(db);
  if (found == kHistorySchemaVersion) return;
  if (found > kHistorySchemaVersion) newer_schema(path, found);
  for (const Migration& m : migrations()) {
    with_write_transaction(db, [&] {
      const int version = schema_version(db);
      if (version > kHistorySchemaVersion) newer_schema(path, version);
      if (version == 0 && m.version == 1 && table_count(db) > 0) {
        throw UserError(path +
                        ": not a sluice history database (it holds other tables); use another --db; the file "
                        "was not changed");
      }
      if (version >= m.version) return;
      db.exec(m.sql);
      db.prepare(
            "INSERT INTO migrations(version, description, applied_at) VALUES(?, ?, "
            "strftime('%Y-%m-%dT%H:%M:%SZ','now'))")
          .bind(1, std::int64_t{m.version})
          .bind(2, m.description)
          .step();
      db.exec(fmt::format("PRAGMA user_version = {}", m.version));
    });
  }
}

void require_current_schema(SqliteDb& db, const std::string& path) {
  const int version = schema_version(db);
  if (version > kHistorySchemaVersion) newer_schema(path, version);
  if (version == 0) throw UserError(path + ": not a sluice history database (no schema version); use another --db");
  if (version < kHistorySchemaVersion) {
    throw UserError(
        fmt::format("{}: the history database has the older schema version {}; save a result (--save) "
                    "with this sluice to upgrade it",
                    path, version));
  }
}

}  // namespace sluice
