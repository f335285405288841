#include "observe/knob_journal.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "common/durable_files.h"
#include "common/error.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHeader = "# sluice knob journal v1";

void write_file_synced(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw UserError(fmt::format("cannot create {}: {}", path, errno_text()));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = errno_text();
      ::close(fd);
      throw UserError(fmt::format("cannot write {}: {}", path, why));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) throw UserError(fmt::format("cannot sync {}: {}", path, errno_text()));
}

std::string read_file(const std::string& path) {
  FileKnobIo io;
  return io.read(path);
}

// Opens (creating if it can) "<journal>.lock" and tries to take it. Returns the fd; -1 with *busy set when
// another process holds it; -2 when the lock file cannot be opened and `must` is false (a non-root replay
// then goes on unlocked: its writes fail anyway). The lock file is never deleted: deleting it would let two
// processes lock different inodes.
int take_lock(const std::string& journal_path, bool must, bool* busy) {
  const std::string lock_path = journal_path + ".lock";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (!must) return -2;
    throw UserError(fmt::format("cannot create {}: {}", lock_path, errno_text()));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    *busy = true;
    return -1;
  }
  return fd;
}

long journal_pid(const std::string& text) {
  const auto pos = text.find("pid=");
  return pos == std::string::npos ? 0 : std::strtol(text.c_str() + pos + 4, nullptr, 10);
}

bool is_bytes_knob(const std::string& knob) { return knob.size() > 6 && knob.ends_with("_bytes"); }

// "vm.dirty_ratio" <-> "vm.dirty_bytes", "vm.dirty_background_ratio" <-> "vm.dirty_background_bytes".
std::string pair_partner(const std::string& knob) {
  if (knob.rfind("vm.", 0) != 0) return {};
  if (knob.ends_with("_ratio")) return knob.substr(0, knob.size() - 6) + "_bytes";
  if (is_bytes_knob(knob)) return knob.substr(0, knob.size() - 6) + "_ratio";
  return {};
}

bool try_write(KnobIo& io, const JournalEntry& entry, std::vector<std::string>& failures) {
  try {
    io.write(entry.path, entry.original);
    return true;
  } catch (const std::exception& e) {
    failures.push_back(fmt::format("could not restore {} = {}: {}", entry.knob, entry.original, e.what()));
    return false;
  }
}

}  // namespace

std::vector<JournalEntry> parse_journal(const std::string& text, const std::string& journal_path) {
  std::vector<JournalEntry> entries;
  std::size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    const auto end = std::min(text.find('\n', pos), text.size());
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (auto tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
      fields.push_back(line.substr(start, tab - start));
      start = tab + 1;
    }
    fields.push_back(line.substr(start));
    if (fields.size() != 4 || fields[0].empty() || fields[2].empty() || fields[2].front() != '/') {
      throw UserError(
          fmt::format("{}:{}: not a knob journal line; fix or delete the file after checking the "
                      "knobs by hand",
                      journal_path, line_number));
    }
    entries.push_back({fields[0], fields[1], fields[2], fields[3]});
  }
  return entries;
}

std::string format_journal(const std::vector<JournalEntry>& entries) {
  std::string text = fmt::format("{} pid={}\n", kHeader, static_cast<long>(::getpid()));
  for (const JournalEntry& e : entries) text += fmt::format("{}\t{}\t{}\t{}\n", e.knob, e.device, e.path, e.original);
  return text;
}

std::vector<std::string> restore_entries(const std::vector<JournalEntry>& entries, KnobIo& io,
                                         std::vector<JournalEntry>* restored) {
  std::vector<std::string> failures;
  std::set<std::size_t> done;
  for (std::size_t i = entries.size(); i-- > 0;) {
    if (done.count(i)) continue;
    const JournalEntry& entry = entries[i];
    done.insert(i);
    std::vector<const JournalEntry*> covered = {&entry};
    const JournalEntry* to_write = &entry;
    if (const std::string partner = pair_partner(entry.knob); !partner.empty()) {
      const std::string partner_path = directory_of(entry.path) + "/" + partner.substr(3);
      for (std::size_t j = 0; j < entries.size(); ++j) {
        if (done.count(j) || entries[j].path != partner_path) continue;
        done.insert(j);
        covered.push_back(&entries[j]);
        const JournalEntry& bytes = is_bytes_knob(entry.knob) ? entry : entries[j];
        const JournalEntry& ratio = is_bytes_knob(entry.knob) ? entries[j] : entry;
        // The kernel keeps one member in force and shows the other as 0; writing that one brings both back.
        to_write = bytes.original != "0" ? &bytes : &ratio;
        break;
      }
      if (covered.size() == 1 && is_bytes_knob(entry.knob) && entry.original == "0") {
        failures.push_back(fmt::format("cannot restore {} = 0 without {} in the journal", entry.knob, partner));
        continue;
      }
    }
    if (!try_write(io, *to_write, failures)) continue;
    if (restored) {
      // The member written first, so reports say what was written.
      restored->push_back(*to_write);
      for (const JournalEntry* c : covered) {
        if (c != to_write) restored->push_back(*c);
      }
    }
  }
  return failures;
}

KnobJournal::KnobJournal(std::string path, KnobIo& io) : path_(std::move(path)) {
  std::error_code ec;
  fs::create_directories(directory_of(path_), ec);
  if (ec) throw UserError(fmt::format("cannot create {} for the knob journal: {}", directory_of(path_), ec.message()));
  bool busy = false;
  lock_fd_ = take_lock(path_, true, &busy);
  if (lock_fd_ < 0) {
    throw UserError(fmt::format("another sluice (pid {}) is changing kernel knobs (journal {}); wait for it to end",
                                fs::exists(path_) ? journal_pid(read_file(path_)) : 0L, path_));
  }
  try {
    if (fs::exists(path_)) {
      // A dead run's journal holds the true originals: put them back before recording new ones.
      std::vector<std::string> failures = restore_entries(parse_journal(read_file(path_), path_), io);
      if (!failures.empty()) {
        throw UserError(
            fmt::format("a previous run's knob journal {} could not be replayed: {}", path_, failures.front()));
      }
      remove();
    }
  } catch (...) {
    ::close(lock_fd_);  // the destructor does not run for a constructor that throws
    throw;
  }
}

KnobJournal::~KnobJournal() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

bool KnobJournal::contains(const std::string& knob_file) const {
  for (const JournalEntry& e : entries_) {
    if (e.path == knob_file) return true;
  }
  return false;
}

void KnobJournal::add(const std::vector<JournalEntry>& entries) {
  for (const JournalEntry& e : entries) {
    for (const std::string* field : {&e.knob, &e.device, &e.path, &e.original}) {
      if (field->find_first_of("\t\n") != std::string::npos) {
        throw UserError(fmt::format("{}: value '{}' cannot be journalled; not changing it", e.knob, *field));
      }
    }
  }
  entries_.insert(entries_.end(), entries.begin(), entries.end());
  try {
    persist();
  } catch (...) {
    entries_.resize(entries_.size() - entries.size());
    throw;
  }
}

void KnobJournal::persist() {
  const std::string temp = path_ + ".tmp";
  write_file_synced(temp, format_journal(entries_));
  if (::rename(temp.c_str(), path_.c_str()) != 0) {
    throw UserError(fmt::format("cannot rename {} to {}: {}", temp, path_, errno_text()));
  }
  fsync_directory(directory_of(path_));
}

void KnobJournal::remove() {
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) {
    throw UserError(fmt::format("cannot remove {}: {}", path_, errno_text()));
  }
  entries_.clear();
  // Best effort: every original is back, so a removal lost in a crash only brings back a journal whose replay
  // writes those originals again; a failure here must not report restored knobs as not restored.
  try_fsync_directory(directory_of(path_));
}

ReplayResult replay_journal(const std::string& path, KnobIo* io) {
  ReplayResult result;
  if (!knob_journal_exists(path)) return result;
  result.found = true;
  bool busy = false;
  const int lock_fd = take_lock(path, false, &busy);
  if (busy) {
    result.busy = true;
    result.busy_pid = journal_pid(read_file(path));
    return result;
  }
  FileKnobIo file_io;
  try {
    const std::vector<JournalEntry> entries = parse_journal(read_file(path), path);
    result.failures = restore_entries(entries, io ? *io : file_io, &result.restored);
    if (result.failures.empty()) {
      if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        result.failures.push_back(fmt::format("cannot remove {}: {}", path, errno_text()));
      } else {
        try_fsync_directory(directory_of(path));  // best effort, as KnobJournal::remove
      }
    }
  } catch (...) {
    if (lock_fd >= 0) ::close(lock_fd);
    throw;
  }
  if (lock_fd >= 0) ::close(lock_fd);
  return result;
}

std::string describe_replay(const ReplayResult& result, const std::string& path) {
  if (!result.found) return fmt::format("nothing to restore (no journal at {})\n", path);
  if (result.busy) {
    return fmt::format("the journal {} belongs to a running sluice (pid {}); its knobs are restored when it ends\n",
                       path, result.busy_pid);
  }
  std::string text;
  for (const JournalEntry& e : result.restored) {
    text +=
        fmt::format("restored {}{} = {} ({})\n", e.knob, e.device.empty() ? "" : " of " + e.device, e.original, e.path);
  }
  for (const std::string& failure : result.failures) text += failure + "\n";
  if (!result.failures.empty()) {
    text += fmt::format("the journal {} is kept; run 'sluice restore' as root to try again\n", path);
  } else if (result.restored.empty()) {
    text += fmt::format("the journal {} was empty; removed it\n", path);
  }
  return text;
}

bool knob_journal_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace sluice
