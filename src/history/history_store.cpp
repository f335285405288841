#include "history/history_store.h"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <system_error>

#include "common/error.h"
#include "common/json_read.h"
#include "history/schema.h"

namespace sluice {
namespace {

constexpr int kBusyTimeoutMs = 10000;
// Test hook: a shorter wait for a locked database (milliseconds).
constexpr const char* kBusyVariable = "SLUICE_DB_BUSY_MS";

int busy_timeout_ms() {
  const char* text = std::getenv(kBusyVariable);
  if (text == nullptr || *text == '\0') return kBusyTimeoutMs;
  return std::atoi(text);
}

// One line for the user from a SQLite failure on `path` while doing `action` ("save", "read").
[[noreturn]] void fail(const SqliteError& e, const std::string& path, std::string_view action) {
  switch (e.code()) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw UserError(
          fmt::format("{}: the history database is locked by another process (waited {} ms); try again; "
                      "nothing was changed",
                      path, busy_timeout_ms()));
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      throw UserError(
          fmt::format("{}: cannot {} the history database ({}); use --db=PATH or SLUICE_DB for one you can "
                      "write; nothing was changed",
                      path, action, e.what()));
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      throw UserError(
          fmt::format("{}: not a sluice history database, or a damaged one ({}); move it away or use "
                      "--db=PATH; the file was not changed",
                      path, e.what()));
    default:
      throw UserError(fmt::format("{}: history database error while trying to {}: {}", path, action, e.what()));
  }
}

std::string new_id() {
  static std::random_device device;
  static std::mt19937_64 gen(device());
  return fmt::format("{:08x}", static_cast<std::uint32_t>(gen()));
}

bool is_hex_prefix(std::string_view s) {
  if (s.size() < 4 || s.size() > 8) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

constexpr const char* kColumns =
    "id, label, command, host, sluice_version, command_line, job_text, started_at, ended_at";

StoredResult row_of(const SqliteStatement& s) {
  StoredResult r;
  r.id = s.text(0);
  r.label = s.text(1);
  r.command = s.text(2);
  r.host = s.text(3);
  r.sluice_version = s.text(4);
  r.command_line = s.text(5);
  r.job_text = s.text(6);
  r.started_at = s.text(7);
  r.ended_at = s.text(8);
  return r;
}

}  // namespace

std::string default_history_path() {
  const char* db = std::getenv("SLUICE_DB");
  if (db != nullptr && *db != '\0') return db;
  std::string home;
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    home = h;
  } else if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) {
    home = pw->pw_dir;
  }
  return home + "/.local/share/sluice/history.db";
}

HistoryStore HistoryStore::open(const std::string& path, bool create) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (create) {
    const fs::path dir = fs::path(path).parent_path();
    if (!dir.empty() && !fs::is_directory(dir, ec) && !fs::create_directories(dir, ec) && ec) {
      throw UserError(fmt::format("{}: cannot create the directory {} ({}); use --db=PATH or SLUICE_DB", path,
                                  dir.string(), ec.message()));
    }
  } else if (!fs::exists(path, ec)) {
    throw UserError(path +
                    ": no history database there yet; save a result with --save first (or name another with "
                    "--db=PATH or SLUICE_DB)");
  }
  if (fs::is_directory(path, ec)) throw UserError(path + ": is a directory, not a history database; use --db=FILE");
  try {
    SqliteDb db(path, create);
    // A database this process cannot write is still readable: SQLite cannot open a WAL database read-only
    // without its -shm file, so it is read as an immutable file.
    if (!create && db.read_only()) db = SqliteDb::open_immutable(path);
    sqlite3_busy_timeout(db.handle(), busy_timeout_ms());
    if (create) {
      if (db.read_only()) {
        throw UserError(path +
                        ": the history database is read-only; use --db=PATH or SLUICE_DB for one you can "
                        "write; nothing was saved");
      }
      if (schema_version(db) != kHistorySchemaVersion) migrate(db, path);
      SqliteStatement wal = db.prepare("PRAGMA journal_mode=WAL");
      wal.step();
    } else {
      require_current_schema(db, path);
    }
    return HistoryStore(std::move(db), path);
  } catch (const SqliteError& e) {
    fail(e, path, create ? "write" : "read");
  }
}

std::string HistoryStore::save(const StoredResult& result) {
  std::string id;
  try {
    with_write_transaction(db_, [&] {
      do {
        id = new_id();
        SqliteStatement taken = db_.prepare("SELECT 1 FROM results WHERE id = ?");
        taken.bind(1, id);
        if (!taken.step()) break;
      } while (true);
      SqliteStatement insert = db_.prepare(
          "INSERT INTO results(id, label, command, host, sluice_version, command_line, job_text, started_at, ended_at)"
          " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
      insert.bind(1, id).bind(2, result.label).bind(3, result.command).bind(4, result.host);
      insert.bind(5, result.sluice_version).bind(6, result.command_line).bind(7, result.job_text);
      insert.bind(8, result.started_at).bind(9, result.ended_at).step();
      for (std::size_t i = 0; i < result.repetitions.size(); ++i) {
        SqliteStatement rep = db_.prepare("INSERT INTO repetitions(result_id, idx, document) VALUES(?, ?, ?)");
        rep.bind(1, id).bind(2, static_cast<std::int64_t>(i)).bind(3, result.repetitions[i].dump()).step();
      }
    });
  } catch (const SqliteError& e) {
    fail(e, path_, "write");
  }
  return id;
}

std::string HistoryStore::resolve(std::string_view key) {
  const std::string text(key);
  SqliteStatement exact = db_.prepare("SELECT id FROM results WHERE id = ?");
  exact.bind(1, text);
  if (exact.step()) return exact.text(0);
  if (is_hex_prefix(key)) {
    SqliteStatement prefix = db_.prepare("SELECT id FROM results WHERE substr(id, 1, ?) = ? ORDER BY id");
    prefix.bind(1, static_cast<std::int64_t>(key.size())).bind(2, text);
    std::vector<std::string> ids;
    while (prefix.step()) ids.push_back(prefix.text(0));
    if (ids.size() == 1) return ids.front();
    if (ids.size() > 1) {
      throw UserError(fmt::format("{}: the id prefix '{}' matches {} results ({}); give more characters", path_, text,
                                  ids.size(), fmt::join(ids, ", ")));
    }
  }
  SqliteStatement label =
      db_.prepare("SELECT id FROM results WHERE label = ? ORDER BY started_at DESC, rowid DESC LIMIT 1");
  label.bind(1, text);
  if (label.step()) return label.text(0);
  throw UserError(
      fmt::format("{}: no result with the id or label '{}'; `sluice history list` shows them", path_, text));
}

void HistoryStore::load_repetitions(StoredResult& result) {
  SqliteStatement s = db_.prepare("SELECT document FROM repetitions WHERE result_id = ? ORDER BY idx");
  s.bind(1, result.id);
  while (s.step()) {
    try {
      result.repetitions.push_back(nlohmann::json::parse(s.text(0)));
    } catch (const nlohmann::json::exception& e) {
      throw UserError(
          fmt::format("{}: result {}: a stored repetition is not valid JSON ({})", path_, result.id, e.what()));
    }
    // A newer sluice may share the database (its schema unchanged) and store documents this one would misread.
    check_result_schema(result.repetitions.back(), fmt::format("{}: result {}", path_, result.id));
  }
}

StoredResult HistoryStore::load(std::string_view id_or_label) {
  try {
    const std::string id = resolve(id_or_label);
    SqliteStatement s = db_.prepare(std::string("SELECT ") + kColumns + " FROM results WHERE id = ?");
    s.bind(1, id);
    s.step();
    StoredResult r = row_of(s);
    load_repetitions(r);
    return r;
  } catch (const SqliteError& e) {
    fail(e, path_, "read");
  }
}

std::vector<StoredResult> HistoryStore::list(const HistoryFilter& f) {
  std::string sql = std::string("SELECT ") + kColumns + " FROM results WHERE 1";
  std::vector<std::string> values;
  auto where = [&](const std::string& value, const char* clause) {
    if (value.empty()) return;
    sql += clause;
    values.push_back(value);
  };
  where(f.label, " AND label = ?");
  where(f.command, " AND command = ?");
  where(f.host, " AND host = ?");
  where(f.since, " AND started_at >= ?");
  where(f.until, " AND started_at < ?");
  if (f.match_job_text) {
    sql += " AND job_text = ?";
    values.push_back(f.job_text);
  }
  sql += " ORDER BY started_at, rowid";
  try {
    SqliteStatement s = db_.prepare(sql);
    for (std::size_t i = 0; i < values.size(); ++i) s.bind(static_cast<int>(i + 1), values[i]);
    std::vector<StoredResult> out;
    while (s.step()) out.push_back(row_of(s));
    for (StoredResult& r : out) load_repetitions(r);
    return out;
  } catch (const SqliteError& e) {
    fail(e, path_, "read");
  }
}

std::string HistoryStore::remove(std::string_view id_or_label) {
  try {
    std::string id;
    with_write_transaction(db_, [&] {
      id = resolve(id_or_label);
      db_.prepare("DELETE FROM repetitions WHERE result_id = ?").bind(1, id).step();
      db_.prepare("DELETE FROM results WHERE id = ?").bind(1, id).step();
    });
    return id;
  } catch (const SqliteError& e) {
    fail(e, path_, "write");
  }
}

}  // namespace sluice
