#pragma once
// A small RAII wrapper over SQLite's C API: a connection and prepared statements. Errors become
// SqliteError carrying SQLite's result code, so the store can turn "busy", "read-only" and "not a database"
// into messages for the user.
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sluice {

class SqliteError : public std::runtime_error {
 public:
  SqliteError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
  // The primary result code (SQLITE_BUSY, SQLITE_READONLY, SQLITE_NOTADB, ...).
  int code() const noexcept { return code_ & 0xff; }

 private:
  int code_;
};

class SqliteStatement;

class SqliteDb {
 public:
  // Opens `path` for reading and writing (SQLite falls back to read-only for a file it cannot write: see
  // read_only()); `create` creates a missing file, otherwise a missing file is an error. Throws SqliteError.
  SqliteDb(const std::string& path, bool create);
  // Opens `path` read-only as an immutable file (no locks, no -wal/-shm files): for reading a database this
  // process cannot write, which SQLite cannot open normally once it is in WAL mode. Throws SqliteError.
  static SqliteDb open_immutable(const std::string& path);
  SqliteDb(SqliteDb&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  SqliteDb& operator=(SqliteDb&& other) noexcept;
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;
  ~SqliteDb();

  // Runs one or more statements without results. Throws SqliteError.
  void exec(std::string_view sql);
  SqliteStatement prepare(std::string_view sql);
  // True when SQLite opened the file without write access (a read-only file or directory).
  bool read_only() const;
  sqlite3* handle() const noexcept { return db_; }

  // Throws SqliteError for a result code other than the expected ones, with SQLite's message.
  void check(int rc, std::string_view what) const;

 private:
  SqliteDb() = default;
  sqlite3* db_ = nullptr;
};

// A prepared statement; bind() indices start at 1. step() is true while a row is available.
class SqliteStatement {
 public:
  SqliteStatement(const SqliteDb& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  SqliteStatement(SqliteStatement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) { other.stmt_ = nullptr; }
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  SqliteStatement& operator=(SqliteStatement&&) = delete;
  ~SqliteStatement();

  SqliteStatement& bind(int index, std::string_view text);
  SqliteStatement& bind(int index, std::int64_t value);
  bool step();
  std::string text(int column) const;
  std::int64_t integer(int column) const;

 private:
  const SqliteDb* db_;
  sqlite3_stmt* stmt_;
};

// Runs `body` in a BEGIN IMMEDIATE transaction: committed when it returns, rolled back when it throws (the
// database is then as before). IMMEDIATE takes the write lock at the start, so two writers wait for each
// other (busy timeout) instead of failing at commit.
template <typename Body>
void with_write_transaction(SqliteDb& db, Body&& body) {
  db.exec("BEGIN IMMEDIATE");
  try {
    body();
    db.exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace sluice
