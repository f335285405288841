// The kernel's view of a lab's parts: see observe/lab_resources.h.
#include "observe/lab_resources.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "observe/block_device_usage.h"

namespace sluice {

std::optional<std::uint64_t> process_start_ticks(pid_t pid, const SystemRoots& roots) {
  if (pid <= 0) return std::nullopt;
  std::ifstream in(roots.proc_root + "/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields count from the last ')'.
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 1));
  std::string state;
  fields >> state;
  if (state == "Z" || state == "X") return std::nullopt;
  std::string field;
  for (int i = 4; i < 22 && fields >> field; ++i) {
  }
  std::uint64_t start = 0;
  if (!(fields >> start)) return std::nullopt;
  return start;
}

bool process_is(pid_t pid, std::uint64_t start_ticks, const SystemRoots& roots) {
  const std::optional<std::uint64_t> now = process_start_ticks(pid, roots);
  return now && *now == start_ticks;
}

std::string own_executable(const SystemRoots& roots) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink(roots.proc_root + "/self/exe", ec);
  return ec ? std::string() : exe.string();
}

std::vector<MountEntry> mount_table(const SystemRoots& roots) {
  std::vector<MountEntry> mounts;
  std::ifstream in(roots.proc_root + "/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mountpoint options... - fstype source superoptions
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mount_point, word;
    fields >> id >> parent >> majmin >> root >> mount_point;
    while (fields >> word && word != "-") {
    }
    MountEntry e;
    fields >> e.fstype >> e.source;
    e.mount_point = unescape_proc_field(mount_point);
    e.source = unescape_proc_field(e.source);
    if (std::sscanf(majmin.c_str(), "%u:%u", &e.major, &e.minor) != 2) continue;
    mounts.push_back(std::move(e));
  }
  return mounts;
}

std::optional<MountEntry> mount_at(const std::string& mount_point, const SystemRoots& roots) {
  std::optional<MountEntry> top;
  for (MountEntry& e : mount_table(roots)) {
    if (e.mount_point == mount_point) top = std::move(e);
  }
  return top;
}

std::vector<LoopDeviceInfo> attached_loop_devices(const SystemRoots& roots) {
  std::vector<LoopDeviceInfo> loops;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(roots.sys_root + "/block", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("loop")) continue;
    std::ifstream in(entry.path() / "loop" / "backing_file");
    std::string backing;
    if (!std::getline(in, backing) || backing.empty()) continue;
    std::ifstream dio(entry.path() / "loop" / "dio");
    int on = 0;
    dio >> on;
    loops.push_back({"/dev/" + name, backing, on == 1});
  }
  return loops;
}

std::string abort_fuse_connection(unsigned id, const SystemRoots& roots) {
  const std::string connections = roots.sys_root + "/fs/fuse/connections";
  const std::string abort_file = connections + "/" + std::to_string(id) + "/abort";
  bool mounted_here = false;
  if (::access(abort_file.c_str(), F_OK) != 0 && !mount_at(connections, roots)) {
    if (::mount("fusectl", connections.c_str(), "fusectl", 0, nullptr) != 0) {
      return "cannot mount fusectl on " + connections + ": " + std::strerror(errno);
    }
    mounted_here = true;
  }
  std::string why;
  const int fd = ::open(abort_file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (::write(fd, "1", 1) != 1) why = abort_file + ": " + std::strerror(errno);
    ::close(fd);
  } else if (errno != ENOENT) {
    why = abort_file + ": " + std::strerror(errno);
  }
  if (mounted_here) ::umount2(connections.c_str(), 0);
  return why;
}

}  // namespace sluice
