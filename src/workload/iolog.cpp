#include "workload/iolog.h"

#include <charconv>
#include <limits>
#include <string_view>

#include "common/error.h"

namespace sluice {
namespace {

constexpr std::string_view kVersion2 = "fio version 2 iolog";
constexpr std::string_view kVersion3 = "fio version 3 iolog";
constexpr std::uint64_t kMaxOffset = std::uint64_t{1} << 63;

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r')) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t' && line[pos] != '\r') ++pos;
    if (pos > start) fields.push_back(line.substr(start, pos - start));
  }
  return fields;
}

class Parser {
 public:
  Parser(const std::string& source, const ReplaySettings& settings) : source_(source), settings_(settings) {
    if (!settings_.redirect.empty()) add_file(settings_.redirect);
  }

  void version_line(std::string_view line) {
    line_ = 1;
    if (line.substr(0, kVersion2.size()) == kVersion2) {
      log_.version = 2;
    } else if (line.substr(0, kVersion3.size()) == kVersion3) {
      log_.version = 3;
    } else {
      fail("not a fio iolog: the first line must be \"fio version 2 iolog\" or \"fio version 3 iolog\" (fio "
           "no longer reads version 1; blktrace binary traces are not read by sluice yet)");
    }
  }

  void line(std::string_view text, int number) {
    line_ = number;
    std::vector<std::string_view> fields = split_fields(text);
    if (fields.empty()) return;
    if (log_.version == 3) {
      const std::uint64_t time = number_of(fields.front(), "timestamp (microseconds)");
      // fio: no delay before the first timed line, nor when the clock goes back.
      const std::uint64_t delay = (last_time_ == 0 || time < last_time_) ? 0 : time - last_time_;
      last_time_ = time;
      line_delay_us_ = scaled(delay);
      pending_delay_us_ += line_delay_us_;
      fields.erase(fields.begin());
    }
    if (fields.size() == 2) {
      file_event(fields[0], fields[1]);
    } else if (fields.size() == 4) {
      io_event(fields[0], fields[1], fields[2], fields[3]);
    } else {
      fail("expected \"" + std::string(log_.version == 3 ? "TIME " : "") +
           "FILE ACTION\" or \"" + std::string(log_.version == 3 ? "TIME " : "") +
           "FILE ACTION OFFSET LENGTH\", found " + std::to_string(fields.size() + (log_.version == 3 ? 1 : 0)) +
           " fields");
    }
  }

  IoLog finish() {
    if (log_.reads + log_.writes + log_.trims + log_.syncs + log_.waits == 0) {
      line_ = 0;
      fail("the log holds no io to replay");
    }
    return std::move(log_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UserError(source_ + (line_ > 0 ? ":" + std::to_string(line_) : std::string()) + ": " + what);
  }

  std::uint64_t number_of(std::string_view text, const char* what) const {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      fail("'" + std::string(text) + "' is not a " + what);
    }
    return value;
  }

  std::uint64_t scaled(std::uint64_t delay_us) const {
    if (settings_.no_stall) return 0;
    if (settings_.time_scale == 100) return delay_us;
    return static_cast<std::uint64_t>(static_cast<double>(delay_us) * 100.0 / settings_.time_scale);
  }

  std::uint32_t add_file(std::string_view name) {
    for (std::size_t i = 0; i < log_.files.size(); ++i) {
      if (log_.files[i] == name) return static_cast<std::uint32_t>(i);
    }
    log_.files.emplace_back(name);
    log_.extents.push_back(0);
    return static_cast<std::uint32_t>(log_.files.size() - 1);
  }

  std::uint32_t file_of(std::string_view name) const {
    if (!settings_.redirect.empty()) return 0;
    for (std::size_t i = 0; i < log_.files.size(); ++i) {
      if (log_.files[i] == name) return static_cast<std::uint32_t>(i);
    }
    fail("io on " + std::string(name) + ", which the log did not add (\"" + std::string(name) + " add\" first)");
  }

  void file_event(std::string_view name, std::string_view action) {
    if (action == "add") {
      if (settings_.redirect.empty()) add_file(name);
    } else if (action == "open" || action == "close") {
      (void)file_of(name);  // timing only: sluice keeps every file open
    } else {
      fail("unknown file action '" + std::string(action) + "'; a file line is add, open or close");
    }
  }

  void io_event(std::string_view name, std::string_view action, std::string_view offset_text,
                std::string_view length_text) {
    IoLogEntry entry;
    if (action == "read") {
      entry.kind = IoLogEntry::Kind::kRead;
    } else if (action == "write") {
      entry.kind = IoLogEntry::Kind::kWrite;
    } else if (action == "trim") {
      entry.kind = IoLogEntry::Kind::kTrim;
    } else if (action == "sync") {
      entry.kind = IoLogEntry::Kind::kSync;
    } else if (action == "datasync") {
      entry.kind = IoLogEntry::Kind::kDatasync;
    } else if (action == "wait") {
      if (log_.version == 3) fail("\"wait\" is not allowed in a version 3 log (its timestamps time it)");
      entry.kind = IoLogEntry::Kind::kWait;
    } else {
      fail("unknown io action '" + std::string(action) + "'; an io line is read, write, trim, sync, datasync" +
           (log_.version == 2 ? " or wait" : ""));
    }
    const std::uint64_t offset = number_of(offset_text, "byte offset");
    const std::uint64_t length = number_of(length_text, "length in bytes");
    const std::uint32_t file = file_of(name);
    if (skipped(entry.kind)) {
      pending_delay_us_ -= line_delay_us_;  // its own time is not replayed either (fio)
      return;
    }

    entry.file = file;
    entry.delay_us = pending_delay_us_;
    pending_delay_us_ = 0;
    if (entry.kind == IoLogEntry::Kind::kWait) {
      entry.offset = offset;
      ++log_.waits;
      log_.entries.push_back(entry);
      return;
    }
    if (entry.kind == IoLogEntry::Kind::kSync || entry.kind == IoLogEntry::Kind::kDatasync) {
      ++log_.syncs;
      log_.entries.push_back(entry);
      return;
    }
    if (length == 0) fail("an io of 0 bytes");
    if (length > kMaxIoLogLength) {
      fail("an io of " + std::to_string(length) + " bytes; sluice replays ios of at most 64 MiB");
    }
    std::uint64_t at = offset / (settings_.scale == 0 ? 1 : settings_.scale);
    if (settings_.align != 0) at &= ~(settings_.align - 1);
    if (at >= kMaxOffset - length) fail("offset " + std::to_string(offset) + " is beyond any file");
    entry.offset = at;
    entry.length = static_cast<std::uint32_t>(length);
    const int dir = entry.kind == IoLogEntry::Kind::kRead ? 0 : entry.kind == IoLogEntry::Kind::kWrite ? 1 : 2;
    (dir == 0 ? log_.reads : dir == 1 ? log_.writes : log_.trims)++;
    log_.bytes += length;
    if (entry.length > log_.max_length[dir]) log_.max_length[dir] = entry.length;
    if (at + length > log_.extents[file]) log_.extents[file] = at + length;
    log_.entries.push_back(entry);
  }

  bool skipped(IoLogEntry::Kind kind) const {
    switch (kind) {
      case IoLogEntry::Kind::kRead: return settings_.skip_read;
      case IoLogEntry::Kind::kWrite: return settings_.skip_write;
      case IoLogEntry::Kind::kTrim: return settings_.skip_trim;
      case IoLogEntry::Kind::kSync: return settings_.skip_sync;
      case IoLogEntry::Kind::kWait: return settings_.no_stall;
      default: return false;
    }
  }

  const std::string& source_;
  const ReplaySettings& settings_;
  IoLog log_;
  int line_ = 0;
  std::uint64_t last_time_ = 0;
  std::uint64_t pending_delay_us_ = 0;  // time of file events and lines since the last io
  std::uint64_t line_delay_us_ = 0;     // the current line's share of it
};

}  // namespace

IoLog parse_iolog(std::istream& in, const std::string& source, const ReplaySettings& settings) {
  Parser parser(source, settings);
  std::string text;
  if (!std::getline(in, text)) throw UserError(source + ": the log is empty; it must start with \"fio version 3 iolog\"");
  parser.version_line(text);
  int number = 1;
  while (std::getline(in, text)) parser.line(text, ++number);
  if (in.bad()) throw UserError(source + ": cannot read the log");
  return parser.finish();
}

}  // namespace sluice
