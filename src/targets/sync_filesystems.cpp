#include "targets/sync_filesystems.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace sluice {
namespace {

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

SyncfsOutcome sync_filesystems(const std::vector<std::string>& paths) {
  SyncfsOutcome outcome;
  std::vector<dev_t> done;
  for (const std::string& path : paths) {
    struct stat file {};
    if (::stat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) continue;
    const std::string dir = directory_of(path);
    struct stat dir_stat {};
    if (::stat(dir.c_str(), &dir_stat) != 0) continue;
    if (std::find(done.begin(), done.end(), dir_stat.st_dev) != done.end()) continue;
    done.push_back(dir_stat.st_dev);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const int failed = fd < 0 || ::syncfs(fd) != 0 ? errno : 0;
    if (fd >= 0) ::close(fd);
    if (failed != 0) {
      if (outcome.error == 0) {
        outcome.error = failed;
        outcome.failure = "syncfs of " + dir + ": " + std::strerror(failed);
      }
      continue;
    }
    ++outcome.synced;
  }
  return outcome;
}

}  // namespace sluice
