#include "workload/iolog.h"

#include <charconv>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "workload/iolog_builder.h"

namespace sluice {
namespace {

constexpr std::string_view kVersion2 = "fio version 2 iolog";
constexpr std::string_view kVersion3 = "fio version 3 iolog";

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

// The io actions of a line with offset and length; nothing for a file action.
bool io_kind_of(std::string_view action, IoLogEntry::Kind& kind) {
  static constexpr std::pair<std::string_view, IoLogEntry::Kind> kActions[] = {
      {"read", IoLogEntry::Kind::kRead},
      {"write", IoLogEntry::Kind::kWrite},
      {"trim", IoLogEntry::Kind::kTrim},
      {"sync", IoLogEntry::Kind::kSync},
      {"datasync", IoLogEntry::Kind::kDatasync},
      {"wait", IoLogEntry::Kind::kWait},
      {"sync_file_range", IoLogEntry::Kind::kSyncRange}};
  for (const auto& [name, k] : kActions) {
    if (name == action) {
      kind = k;
      return true;
    }
  }
  return false;
}

class Parser {
 public:
  Parser(const std::string& source, const ReplaySettings& settings) : source_(source), log_(settings) {}

  void version_line(std::string_view line) {
    line_ = 1;
    if (line.substr(0, kVersion2.size()) == kVersion2) {
      version_ = 2;
    } else if (line.substr(0, kVersion3.size()) == kVersion3) {
      version_ = 3;
    } else {
      fail(
          "not a fio iolog nor a blktrace binary trace: the first line must be \"fio version 2 iolog\" or "
          "\"fio version 3 iolog\" (fio no longer reads version 1)");
    }
  }

  void line(std::string_view text, int number) {
    line_ = number;
    // A second run appended to the same file (fio appends to write_iolog): fio skips the line; its lines
    // then replay after the first run's.
    if (text.substr(0, kVersion3.size()) == (version_ == 3 ? kVersion3 : kVersion2)) return;
    std::vector<std::string_view> fields = split_fields(text);
    if (fields.empty()) return;
    std::uint64_t delay_us = 0;  // this line's own time (v3)
    if (version_ == 3) {
      delay_us = log_.delay_since(number_of(fields.front(), "timestamp (microseconds)"));
      if (delay_us > detail::kMaxReplayDelayUs) {
        fail("a wait of " + std::to_string(delay_us) +
             " us since the line before (more than a day): are the "
             "timestamps microseconds?");
      }
      fields.erase(fields.begin());
    }
    if (fields.size() == 2) {
      file_event(fields[0], fields[1]);
      log_.wait(delay_us);
    } else if (fields.size() == 4) {
      io_event(fields[0], fields[1], fields[2], fields[3], delay_us);
    } else {
      const std::string time = version_ == 3 ? "TIME " : "";
      fail("expected \"" + time + "FILE ACTION\" or \"" + time + "FILE ACTION OFFSET LENGTH\", found " +
           std::to_string(fields.size() + (version_ == 3 ? 1 : 0)) + " fields");
    }
  }

  IoLog finish() {
    line_ = 0;
    if (!log_.holds_io()) fail("the log holds no io to replay");
    return log_.take(version_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UserError(source_ + (line_ > 0 ? ":" + std::to_string(line_) : std::string()) + ": " + what);
  }

  std::uint64_t number_of(std::string_view text, const char* what) const {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) fail("'" + std::string(text) + "' is not a " + what);
    return value;
  }

  std::uint32_t added_file(std::string_view name) const {
    const std::int64_t index = log_.known_file(name);
    if (index < 0) {
      fail("io on " + std::string(name) + ", which the log did not add (\"" + std::string(name) + " add\" first)");
    }
    return static_cast<std::uint32_t>(index);
  }

  void file_event(std::string_view name, std::string_view action) {
    if (action == "add") {
      (void)log_.file(name);
    } else if (action == "open" || action == "close") {
      (void)added_file(name);  // timing only: sluice keeps every file open
    } else {
      fail("unknown file action '" + std::string(action) + "'; a file line is add, open or close");
    }
  }

  void io_event(std::string_view name, std::string_view action, std::string_view offset_text,
                std::string_view length_text, std::uint64_t delay_us) {
    IoLogEntry::Kind kind = IoLogEntry::Kind::kRead;
    if (!io_kind_of(action, kind)) {
      fail("unknown io action '" + std::string(action) + "'; an io line is read, write, trim, sync, datasync" +
           (version_ == 2 ? " or wait" : ""));
    }
    if (kind == IoLogEntry::Kind::kWait && version_ == 3) {
      fail("\"wait\" is not allowed in a version 3 log (its timestamps time it)");
    }
    const std::uint64_t offset = number_of(offset_text, "byte offset");
    const std::uint64_t length = number_of(length_text, "length in bytes");
    const std::uint32_t file = added_file(name);
    if (log_.skipped(kind)) return;  // its own time is not replayed either (fio)
    log_.wait(delay_us);
    const std::string wrong = log_.add(kind, file, offset, length);
    if (!wrong.empty()) fail(wrong);
  }

  const std::string& source_;
  detail::IoLogBuilder log_;
  int version_ = 0;
  int line_ = 0;
};

}  // namespace

IoLog parse_iolog(std::istream& in, const std::string& source, const ReplaySettings& settings) {
  Parser parser(source, settings);
  std::string text;
  if (!std::getline(in, text))
    throw UserError(source + ": the log is empty; it must start with \"fio version 3 iolog\"");
  parser.version_line(text);
  int number = 1;
  while (std::getline(in, text)) parser.line(text, ++number);
  if (in.bad()) throw UserError(source + ": cannot read the log");
  return parser.finish();
}

}  // namespace sluice
