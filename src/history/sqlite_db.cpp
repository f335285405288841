#include "history/sqlite_db.h"

namespace sluice {

namespace {

sqlite3* open_or_throw(const std::string& name, int flags) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(name.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    throw SqliteError(message, rc);
  }
  sqlite3_extended_result_codes(db, 1);
  return db;
}

}  // namespace

SqliteDb SqliteDb::open_immutable(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static const char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xf];
      uri += kHex[static_cast<unsigned char>(c) & 0xf];
    } else {
      uri += c;
    }
  }
  SqliteDb db;
  db.db_ = open_or_throw(uri + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
  return db;
}

SqliteDb::SqliteDb(const std::string& path, bool create) {
  db_ = open_or_throw(path, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept {
  if (this != &other) {
    sqlite3_close(db_);
    db_ = other.db_;
    other.db_ = nullptr;
  }
  return *this;
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::check(int rc, std::string_view what) const {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  throw SqliteError(std::string(what) + ": " + sqlite3_errmsg(db_), rc);
}

void SqliteDb::exec(std::string_view sql) {
  const std::string text(sql);
  check(sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr), text.substr(0, 40));
}

SqliteStatement SqliteDb::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  check(sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr), sql.substr(0, 40));
  return SqliteStatement(*this, stmt);
}

bool SqliteDb::read_only() const { return sqlite3_db_readonly(db_, "main") == 1; }

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
  db_->check(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT), "bind");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  db_->check(sqlite3_bind_int64(stmt_, index, value), "bind");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  db_->check(rc, "step");
  return rc == SQLITE_ROW;
}

std::string SqliteStatement::text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  return p == nullptr ? std::string()
                      : std::string(reinterpret_cast<const char*>(p),
                                    static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::int64_t SqliteStatement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

}  // namespace sluice
