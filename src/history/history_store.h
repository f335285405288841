#pragma once
// The result history: a SQLite database of StoredResults (schema.h). Every save is one transaction (a crash
// mid-save leaves the database as before); WAL and a busy timeout let several sluice processes save at once.
// Problems (missing, read-only, locked, corrupt, foreign or newer database; unknown id) are UserErrors of
// one line naming the file or id and what to do.
#include <string>
#include <string_view>
#include <vector>

#include "history/sqlite_db.h"
#include "history/stored_result.h"

namespace sluice {

// $SLUICE_DB when set and not empty, else ~/.local/share/sluice/history.db ($HOME; the password database
// when HOME is unset).
std::string default_history_path();

// What `list` keeps; empty fields do not filter. since/until compare with started_at as ISO 8601 text, so
// "2026-11-30" means from the start of that day (since) or before it (until).
struct HistoryFilter {
  std::string label, command, host, since, until;
  std::string job_text;  // exact match when `match_job_text`
  bool match_job_text = false;
};

class HistoryStore {
 public:
  // Opens the database at `path`. create: for saving; makes the directory (mkdir -p) and the database,
  // applies migrations, turns on WAL. Otherwise read-only: a missing file is an error, nothing is written.
  static HistoryStore open(const std::string& path, bool create);

  // Stores `result` with a new id (result.id is ignored) in one transaction; returns the id.
  std::string save(const StoredResult& result);
  // By id, unique id prefix (at least 4 characters), or label (the latest result with it). Throws UserError
  // when nothing matches or a prefix is ambiguous, or when a repetition's result schema version is newer than
  // this sluice's (common/json_read.h, check_result_schema), as list() does.
  StoredResult load(std::string_view id_or_label);
  // Matching results, oldest first, with their repetitions.
  std::vector<StoredResult> list(const HistoryFilter& filter);
  // Removes the result `id_or_label` names (as load() resolves it); returns its id.
  std::string remove(std::string_view id_or_label);

  const std::string& path() const noexcept { return path_; }

 private:
  HistoryStore(SqliteDb db, std::string path) : db_(std::move(db)), path_(std::move(path)) {}
  std::string resolve(std::string_view id_or_label);
  void load_repetitions(StoredResult& result);

  SqliteDb db_;
  std::string path_;
};

}  // namespace sluice
