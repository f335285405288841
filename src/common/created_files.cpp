#include "common/created_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "common/durable_files.h"
#include "common/error.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHeader = "# sluice created-files journal v1";
constexpr const char* kPrefix = "created-files.";
constexpr const char* kSuffix = ".journal";

std::string absolute(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

bool read_all(int fd, std::string& text) {
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

// What one journal says about one path, after all its records.
struct Listed {
  std::string path;
  std::optional<FileIdentity> identity;
  bool removed = false;
  bool tree = false;  // remove with everything inside
};

// Records in first-mention order; a "+" after a "-" starts the path over. A torn last line (the process
// died mid-write) is ignored.
std::vector<Listed> parse_records(const std::string& text, long& pid) {
  std::vector<Listed> listed;
  std::map<std::string, std::size_t> index;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto end = text.find('\n', pos);
    if (end == std::string::npos) break;
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind(kHeader, 0) == 0) {
      if (const auto at = line.find("pid="); at != std::string::npos)
        pid = std::strtol(line.c_str() + at + 4, nullptr, 10);
      continue;
    }
    if (line.size() < 3 || line[1] != '\t') continue;
    std::string rest = line.substr(2);
    FileIdentity id;
    if (line[0] == '=') {
      unsigned long long dev = 0, ino = 0, birth = 0;
      int consumed = 0;
      if (std::sscanf(rest.c_str(), "%llu\t%llu\t%llu\t%n", &dev, &ino, &birth, &consumed) != 3 || consumed == 0)
        continue;
      id = {dev, ino, birth};
      rest = rest.substr(static_cast<std::size_t>(consumed));
    }
    if (rest.empty() || rest.front() != '/') continue;
    auto [it, fresh] = index.emplace(rest, listed.size());
    if (fresh) listed.push_back({rest, std::nullopt, false, false});
    Listed& entry = listed[it->second];
    if (line[0] == '+') {
      entry.identity.reset();
      entry.removed = false;
      entry.tree = false;
    } else if (line[0] == 'T') {
      entry.tree = true;
    } else if (line[0] == '=') {
      entry.identity = id;
      entry.removed = false;
    } else if (line[0] == '-') {
      entry.removed = true;
    }
  }
  return listed;
}

// Removes one listed path if it is still the file sluice created.
void remove_listed(const Listed& entry, long pid, LeftoverReport& report) {
  if (entry.removed) return;
  FileIdentity now;
  if (!file_identity(entry.path, now)) return;  // gone already: nothing left behind
  if (!entry.identity) {
    // Killed between the "+" and the create's "=": an empty directory there is the one sluice was making (a
    // user's empty directory at that random name would lose nothing); anything else cannot be told apart.
    struct stat st {};
    if (::lstat(entry.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && ::rmdir(entry.path.c_str()) == 0) {
      report.removed.push_back(fmt::format("{} (empty; left by sluice pid {})", entry.path, pid));
      return;
    }
    report.kept.push_back(
        fmt::format("kept {}: sluice pid {} was killed while creating it, so it cannot be told from "
                    "a file made later; remove it by hand if it is sluice's",
                    entry.path, pid));
    return;
  }
  if (!(now == *entry.identity)) {
    report.kept.push_back(
        fmt::format("kept {}: not the file sluice pid {} created there (replaced since)", entry.path, pid));
    return;
  }
  struct stat st {};
  if (::lstat(entry.path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode) && entry.tree) {
    // The directory is the one sluice created (its identity says so), so what is inside is sluice's tree.
    std::error_code ec;
    const auto count = std::filesystem::remove_all(entry.path, ec);
    if (ec) {
      report.failures.push_back(
          fmt::format("cannot remove {} (left by sluice pid {}): {}", entry.path, pid, ec.message()));
      return;
    }
    report.removed.push_back(
        fmt::format("{} and the {} entries in it (left by sluice pid {})", entry.path, count - 1, pid));
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    if (::rmdir(entry.path.c_str()) != 0) {
      report.kept.push_back(
          fmt::format("kept {}: {} (something sluice did not create is inside)", entry.path, errno_text()));
      return;
    }
  } else if (::unlink(entry.path.c_str()) != 0) {
    report.failures.push_back(
        fmt::format("cannot remove {} (left by sluice pid {}): {}", entry.path, pid, errno_text()));
    return;
  }
  report.removed.push_back(fmt::format("{} (left by sluice pid {})", entry.path, pid));
}

// Handles one journal if its writer is dead; deletes it when every listed path was dealt with.
void replay_one(const std::string& journal, LeftoverReport& report) {
  const int fd = ::open(journal.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;  // another replay took it
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);  // a running sluice owns it
    return;
  }
  struct stat locked {
  }, named{};
  if (::fstat(fd, &locked) != 0 || ::stat(journal.c_str(), &named) != 0 || locked.st_ino != named.st_ino) {
    ::close(fd);  // another replay handled and deleted it while we waited
    return;
  }
  std::string text;
  if (!read_all(fd, text)) {
    report.failures.push_back(fmt::format("cannot read {}: {}", journal, errno_text()));
    ::close(fd);
    return;
  }
  long pid = 0;
  const std::vector<Listed> listed = parse_records(text, pid);
  const std::size_t failures_before = report.failures.size();
  for (auto it = listed.rbegin(); it != listed.rend(); ++it) remove_listed(*it, pid, report);
  if (report.failures.size() == failures_before) {
    ::unlink(journal.c_str());
    try_fsync_directory(directory_of(journal));  // the journal is gone either way: a replay goes on
    ++report.journals;
  } else {
    report.failures.push_back(
        fmt::format("the journal {} is kept; run 'sluice restore' as its owner to try again", journal));
  }
  ::close(fd);
}

struct ProcessJournal {
  std::mutex mutex;
  std::unique_ptr<CreatedFilesJournal> journal;
  bool unavailable = false;  // tried, failed, said so

  // The process ends normally (exit or return from main): what is still listed was kept on purpose.
  ~ProcessJournal() {
    if (journal) journal->discard();
  }

  // Opens the journal in the first directory that takes it. Caller holds the mutex.
  CreatedFilesJournal* get() {
    if (journal || unavailable) return journal.get();
    const auto ns = std::chrono::steady_clock::now().time_since_epoch().count();
    std::string why;
    for (const std::string& dir : created_files_dirs()) {
      try {
        std::error_code ec;
        fs::create_directories(dir, ec);
        journal = std::make_unique<CreatedFilesJournal>(fmt::format(
            "{}/{}{}.{}{}", dir, kPrefix, static_cast<long>(::getpid()), static_cast<long long>(ns), kSuffix));
        return journal.get();
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    unavailable = true;
    std::fprintf(stderr, "sluice: cannot keep a journal of created files (%s); a killed run may leave files behind\n",
                 why.c_str());
    return nullptr;
  }

  template <typename F>
  void record(const std::string& path, F&& write) {
    if (path.find('\n') != std::string::npos) return;
    std::lock_guard<std::mutex> lock(mutex);
    try {
      if (CreatedFilesJournal* j = get()) write(*j, absolute(path));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "sluice: cannot write the journal of created files: %s\n", e.what());
    }
  }
};

ProcessJournal& process_journal() {
  static ProcessJournal instance;
  return instance;
}

}  // namespace

bool file_identity(const std::string& path, FileIdentity& out) {
  struct statx stx {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME, &stx) != 0) return false;
  out.dev = (static_cast<std::uint64_t>(stx.stx_dev_major) << 32) | stx.stx_dev_minor;
  out.ino = stx.stx_ino;
  out.birth_ns = (stx.stx_mask & STATX_BTIME)
                     ? static_cast<std::uint64_t>(stx.stx_btime.tv_sec) * 1000000000ull + stx.stx_btime.tv_nsec
                     : 0;
  return true;
}

CreatedFilesJournal::CreatedFilesJournal(std::string path) : path_(std::move(path)) {
  const std::string temp = path_ + ".new";  // not "*.journal": a replay never picks it up
  fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw UserError(fmt::format("cannot create {}: {}", temp, errno_text()));
  try {
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) throw UserError(fmt::format("cannot lock {}: {}", temp, errno_text()));
    append(fmt::format("{} pid={}\n", kHeader, static_cast<long>(::getpid())), true);
    if (::rename(temp.c_str(), path_.c_str()) != 0) {
      throw UserError(fmt::format("cannot rename {} to {}: {}", temp, path_, errno_text()));
    }
    fsync_directory(directory_of(path_));
  } catch (...) {
    ::close(fd_);
    ::unlink(temp.c_str());
    throw;
  }
}

CreatedFilesJournal::~CreatedFilesJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void CreatedFilesJournal::append(const std::string& line, bool sync) {
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw UserError(fmt::format("cannot write {}: {}", path_, errno_text()));
    done += static_cast<std::size_t>(n);
  }
  if (sync && ::fdatasync(fd_) != 0) throw UserError(fmt::format("cannot sync {}: {}", path_, errno_text()));
}

void CreatedFilesJournal::creating(const std::vector<std::string>& paths) {
  std::string lines;
  for (const std::string& path : paths) lines += fmt::format("+\t{}\n", path);
  if (!lines.empty()) append(lines, true);
}

void CreatedFilesJournal::created(const std::string& path) {
  FileIdentity id;
  if (!file_identity(path, id)) return;
  // Not synced: a kill cannot lose a written record, and after a power loss without it the file is kept
  // (and said), never removed wrongly.
  append(fmt::format("=\t{}\t{}\t{}\t{}\n", id.dev, id.ino, id.birth_ns, path), false);
}

// Not synced either: without it a replay finds the path gone, or a different file there, and keeps it.
void CreatedFilesJournal::removed(const std::string& path) { append(fmt::format("-\t{}\n", path), false); }

void CreatedFilesJournal::tree(const std::string& path) { append(fmt::format("T\t{}\n", path), false); }

void CreatedFilesJournal::discard() {
  ::unlink(path_.c_str());
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::vector<std::string> created_files_dirs() {
  std::vector<std::string> dirs;
  const char* state = std::getenv("SLUICE_STATE_DIR");
  if (state && *state) return {state};  // tests and users who chose a place: only there
  dirs.push_back("/var/lib/sluice");
  const char* xdg = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) {
    dirs.push_back(std::string(xdg) + "/sluice");
  } else if (home && *home) {
    dirs.push_back(std::string(home) + "/.local/state/sluice");
  }
  return dirs;
}

void journal_creating(const std::string& path) { journal_creating(std::vector<std::string>{path}); }

void journal_creating(const std::vector<std::string>& paths) {
  std::vector<std::string> absolute_paths;
  for (const std::string& path : paths) {
    if (path.find('\n') == std::string::npos) absolute_paths.push_back(absolute(path));
  }
  if (absolute_paths.empty()) return;
  ProcessJournal& pj = process_journal();
  std::lock_guard<std::mutex> lock(pj.mutex);
  try {
    if (CreatedFilesJournal* j = pj.get()) j->creating(absolute_paths);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice: cannot write the journal of created files: %s\n", e.what());
  }
}

void journal_created(const std::string& path) {
  process_journal().record(path, [](CreatedFilesJournal& j, const std::string& p) { j.created(p); });
}

void journal_created_tree(const std::string& path) {
  journal_created(path);
  process_journal().record(path, [](CreatedFilesJournal& j, const std::string& p) { j.tree(p); });
}

void journal_removed(const std::string& path) {
  ProcessJournal& pj = process_journal();
  {
    std::lock_guard<std::mutex> lock(pj.mutex);
    if (!pj.journal) return;  // nothing was journaled, so nothing to take back
  }
  pj.record(path, [](CreatedFilesJournal& j, const std::string& p) { j.removed(p); });
}

std::string create_journaled_directory(const std::string& parent, const std::string& prefix, bool tree) {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::uint64_t state = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                        (static_cast<std::uint64_t>(::getpid()) << 32);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path = (std::filesystem::path(parent) / prefix).string();
    for (int i = 0; i < 6; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      path += kLetters[(state >> 33) % (sizeof kLetters - 1)];
    }
    journal_creating(path);
    if (::mkdir(path.c_str(), 0700) == 0) {
      tree ? journal_created_tree(path) : journal_created(path);
      return path;
    }
    const int error = errno;
    journal_removed(path);
    if (error != EEXIST) {
      errno = error;
      return "";
    }
  }
  errno = EEXIST;
  return "";
}

void end_created_files_journal() {
  ProcessJournal& pj = process_journal();
  std::lock_guard<std::mutex> lock(pj.mutex);
  if (pj.journal) pj.journal->discard();
  pj.journal.reset();
}

LeftoverReport remove_leftovers(const std::vector<std::string>& dirs) {
  LeftoverReport report;
  for (const std::string& dir : dirs) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) continue;
    std::vector<std::string> journals;
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind(kPrefix, 0) == 0 && name.ends_with(kSuffix)) journals.push_back(dir + "/" + name);
    }
    ::closedir(d);
    for (const std::string& journal : journals) replay_one(journal, report);
  }
  return report;
}

std::string describe_leftovers(const LeftoverReport& report) {
  std::string text;
  for (const std::string& r : report.removed) text += "removed " + r + "\n";
  for (const std::string& k : report.kept) text += k + "\n";
  for (const std::string& f : report.failures) text += f + "\n";
  return text;
}

}  // namespace sluice
