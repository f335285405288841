#include "report/logs/log_naming.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>

#include "common/error.h"

namespace sluice {

std::string fio_log_path(const std::string& prefix, const std::string& kind, int lognum, bool per_job) {
  if (!per_job) return prefix + "_" + kind + ".log";
  return prefix + "_" + kind + "." + std::to_string(lognum + 1) + ".log";
}

std::FILE* open_fio_log(const std::string& path, bool shared) {
  static std::mutex mutex;
  static std::set<std::string> opened;  // shared logs truncated so far in this process
  bool truncate = true;
  if (shared) {
    std::lock_guard lock(mutex);
    truncate = opened.insert(path).second;
    // Every writer of a shared file appends (O_APPEND), also the first: a plain "w" stream would write at
    // its own offset over the others' lines.
    if (truncate) {
      std::FILE* created = std::fopen(path.c_str(), "we");
      if (created == nullptr) throw UserError(fmt::format("cannot create log file {}: {}", path, std::strerror(errno)));
      std::fclose(created);
    }
  }
  std::FILE* file = std::fopen(path.c_str(), shared ? "ae" : "we");
  if (file == nullptr) throw UserError(fmt::format("cannot create log file {}: {}", path, std::strerror(errno)));
  // Unbuffered: each fwrite of whole lines is one append, so jobs sharing the file never split a line.
  if (shared) std::setvbuf(file, nullptr, _IONBF, 0);
  return file;
}

}  // namespace sluice
