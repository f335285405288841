#pragma once
// The history database's schema and its migrations. The version lives in SQLite's user_version and each
// applied migration is a row of the `migrations` table; a database whose version is newer than
// kHistorySchemaVersion came from a newer sluice and is refused, never rewritten.
#include "history/sqlite_db.h"

namespace sluice {

inline constexpr int kHistorySchemaVersion = 1;

// The schema version stored in the database (0 for a new, empty file).
int schema_version(SqliteDb& db);

// Applies the migrations the database lacks, each in its own write transaction (a concurrent process that
// got there first is noticed: the version is read again under the lock). Throws UserError when the
// database's version is newer than this sluice's, or when a version-0 file already holds other tables
// (not a sluice history). `path` is for messages.
void migrate(SqliteDb& db, const std::string& path);

// Throws UserError when the schema is not exactly the current one (newer, older or foreign); for readers,
// which must not change the file. `path` is for messages.
void require_current_schema(SqliteDb& db, const std::string& path);

}  // namespace sluice
