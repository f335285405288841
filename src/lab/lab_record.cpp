// The registry of labs: see lab/lab_record.h.
#include "lab/lab_record.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/created_files.h"
#include "common/durable_files.h"
#include "common/error.h"

namespace sluice {
namespace {

constexpr const char* kRecordHeader = "# sluice lab v1";
constexpr const char* kRecordSuffix = ".lab";
constexpr const char* kDraftSuffix = ".tmp";

// "key value\n"; a value holding a newline is refused (it would be read as another line).
std::string record_line(const std::string& key, const std::string& value) {
  if (value.find('\n') != std::string::npos) throw UserError(fmt::format("lab: a newline in '{}'", value));
  return value.empty() ? key + "\n" : key + " " + value + "\n";
}

std::string read_whole(const std::string& path, bool& ok) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ok = static_cast<bool>(in);
  return text.str();
}

std::uint64_t to_number(const std::string& text, const std::string& file, const std::string& key) {
  try {
    std::size_t used = 0;
    const std::uint64_t n = std::stoull(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  throw UserError(fmt::format("{}: '{}' is not a number in its {} line", file, text, key));
}

// "pid ticks" into the two fields.
void read_process(const std::string& value, const std::string& file, const std::string& key, pid_t& pid,
                  std::uint64_t& start) {
  const std::size_t space = value.find(' ');
  if (space == std::string::npos) throw UserError(fmt::format("{}: its {} line lacks a start time", file, key));
  pid = static_cast<pid_t>(to_number(value.substr(0, space), file, key));
  start = to_number(value.substr(space + 1), file, key);
}

}  // namespace

LabRecord parse_lab_record(const std::string& text, const std::string& file) {
  LabRecord r;
  r.file = file;
  std::istringstream in(text);
  std::string line;
  bool has_up = false;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "up") {
      read_process(value, file, key, r.up_pid, r.up_start);
      has_up = true;
    } else if (key == "mountpoint") {
      r.mountpoint = value;
    } else if (key == "dir") {
      r.dir = value;
    } else if (key == "model") {
      r.model = value;
    } else if (key == "fs") {
      r.fs = value;
    } else if (key == "size") {
      r.size = to_number(value, file, key);
    } else if (key == "daemon") {
      read_process(value, file, key, r.daemon_pid, r.daemon_start);
    } else if (key == "fuse") {
      r.fuse_connection = static_cast<unsigned>(to_number(value, file, key));
    } else if (key == "loop") {
      r.loop_device = value;
    } else if (key == "mount") {
      r.mounting = true;
    } else if (key == "ready") {
      r.ready = true;
    }
  }
  if (!has_up || r.mountpoint.empty() || r.dir.empty()) {
    throw UserError(fmt::format("{}: not a lab record (it lacks its up, mountpoint or dir line)", file));
  }
  return r;
}

LabState classify_lab(const LabRecord& record, bool up_alive, bool daemon_alive) {
  if (record.ready) return daemon_alive ? LabState::kUp : LabState::kDaemonGone;
  return up_alive ? LabState::kStarting : LabState::kUpKilled;
}

const char* lab_state_name(LabState state) {
  switch (state) {
    case LabState::kUp:
      return "up";
    case LabState::kStarting:
      return "starting";
    case LabState::kDaemonGone:
      return "daemon gone";
    case LabState::kUpKilled:
      return "lab up killed";
  }
  return "?";
}

std::vector<std::string> lab_registry_dirs() {
  std::vector<std::string> dirs;
  for (const std::string& d : created_files_dirs()) dirs.push_back(d + "/labs");
  return dirs;
}

std::string writable_lab_registry() {
  std::string tried;
  for (const std::string& dir : lab_registry_dirs()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!ec && ::access(dir.c_str(), W_OK | X_OK) == 0) return dir;
    tried += fmt::format("{}{} ({})", tried.empty() ? "" : ", ", dir, ec ? ec.message() : errno_text());
  }
  throw UserError("lab: no place to keep the lab's record: tried " + tried + " (set SLUICE_STATE_DIR)");
}

std::vector<LabRecord> read_lab_records(const std::vector<std::string>& dirs, std::vector<std::string>& problems) {
  std::vector<LabRecord> records;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string path = entry.path().string();
      if (!path.ends_with(kRecordSuffix)) continue;
      bool ok = false;
      const std::string text = read_whole(path, ok);
      if (!ok) {
        problems.push_back(path + ": cannot be read");
        continue;
      }
      try {
        records.push_back(parse_lab_record(text, path));
      } catch (const UserError& e) {
        problems.push_back(e.what());
      }
    }
  }
  return records;
}

std::vector<LabRecord> read_lab_record_drafts(const std::vector<std::string>& dirs) {
  std::vector<LabRecord> drafts;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string path = entry.path().string();
      if (!path.ends_with(std::string(kRecordSuffix) + kDraftSuffix)) continue;
      bool ok = false;
      const std::string text = read_whole(path, ok);
      try {
        drafts.push_back(parse_lab_record(text, path));
      } catch (const UserError&) {
        // Killed between creating the draft and writing its lines: the pid is in its name, lab.PID.N.lab.tmp
        // (up_start 0: any process with that pid counts as its lab up).
        LabRecord empty;
        empty.file = path;
        const std::string name = entry.path().filename().string();
        empty.up_pid =
            static_cast<pid_t>(std::strtol(name.c_str() + std::min<std::size_t>(4, name.size()), nullptr, 10));
        drafts.push_back(empty);
      }
    }
  }
  return drafts;
}

LabJournal::LabJournal(const std::string& registry, const std::string& id,
                       const std::vector<std::pair<std::string, std::string>>& first_lines)
    : path_(registry + "/" + id + kRecordSuffix) {
  std::string text = std::string(kRecordHeader) + "\n";
  for (const auto& [key, value] : first_lines) text += record_line(key, value);
  const std::string draft = path_ + kDraftSuffix;
  fd_ = ::open(draft.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw UserError(fmt::format("{}: cannot create the lab's record: {}", draft, errno_text()));
  const bool written =
      ::write(fd_, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fdatasync(fd_) == 0;
  if (!written || ::renameat2(AT_FDCWD, draft.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE) != 0) {
    const std::string why = errno_text();
    ::unlink(draft.c_str());
    ::close(fd_);
    fd_ = -1;
    throw UserError(fmt::format("{}: cannot create the lab's record: {}", path_, why));
  }
  fsync_directory(registry);
}

LabJournal::~LabJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void LabJournal::append(const std::string& key, const std::string& value) {
  const std::string line = record_line(key, value);
  if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()) || ::fdatasync(fd_) != 0) {
    throw UserError(fmt::format("{}: cannot write the lab's record: {}", path_, errno_text()));
  }
}

}  // namespace sluice
