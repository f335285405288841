#pragma once
// The probes behind machine_features.h: each tries the feature the way the tests use it and returns "" when
// it works, else why not, in words a skip message can carry. Uncached; call them through probe(Feature).
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace sluice::testing::detail {

inline std::string errno_text(int error) { return std::strerror(error); }

// The probes' scratch directory: where the tests' temporary files go ($TMPDIR or /tmp).
inline std::string probe_tmp_base() {
  const char* base = std::getenv("TMPDIR");
  return base != nullptr && *base != '\0' ? base : "/tmp";
}

// A directory under probe_tmp_base(), removed with its files when the object goes away.
class ProbeDir {
 public:
  ProbeDir() {
    std::string pattern = probe_tmp_base() + "/sluice-probe-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ProbeDir() {
    for (const std::string& f : files_) ::unlink(f.c_str());
    if (!path_.empty()) ::rmdir(path_.c_str());
  }
  ProbeDir(const ProbeDir&) = delete;
  ProbeDir& operator=(const ProbeDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

// The executable `name` in PATH, or "".
inline std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

inline std::string probe_program(const std::string& name, const std::string& package) {
  if (!find_in_path(name).empty()) return "";
  return name + " is not in PATH (Debian package " + package + ")";
}

inline std::string probe_path(const std::string& path, const std::string& package) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return "";
  return path + " is missing (Debian package " + package + ")";
}

// Runs `command` through sh with output discarded; its exit status (-1 when it could not run).
inline int shell_status(const std::string& command) {
  const int status = std::system((command + " >/dev/null 2>&1").c_str());
  return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string probe_root() { return ::geteuid() == 0 ? "" : "the test needs root"; }

inline std::string probe_o_direct_tmp() {
  ProbeDir dir;
  if (dir.path().empty()) return "cannot create a directory in " + probe_tmp_base();
  const int fd = ::open(dir.file("direct").c_str(), O_CREAT | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  if (fd < 0) return probe_tmp_base() + " refuses O_DIRECT: " + errno_text(errno);
  ::close(fd);
  return "";
}

// EXT4_IOC_MOVE_EXT as the e4defrag engine calls it: one block of a written file moved onto a fallocated
// donor, on an ext4 temporary directory. Some kernels refuse it (EPERM) where others allow it.
inline std::string probe_ext4_move_ext() {
  constexpr long kExt4Magic = 0xef53;
  struct MoveExtent {
    std::uint32_t reserved;
    std::uint32_t donor_fd;
    std::uint64_t orig_start;
    std::uint64_t donor_start;
    std::uint64_t len;
    std::uint64_t moved_len;
  };
  constexpr unsigned long kMoveExt = _IOWR('f', 15, MoveExtent);
  ProbeDir dir;
  struct statfs fs {};
  if (dir.path().empty() || ::statfs(dir.path().c_str(), &fs) != 0 || fs.f_type != kExt4Magic) {
    return probe_tmp_base() + " is not on ext4";
  }
  const int orig = ::open(dir.file("orig").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  const int donor = ::open(dir.file("donor").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  std::string why;
  std::array<char, 4096> block{};
  block.fill('m');
  if (orig < 0 || donor < 0) {
    why = "cannot create the probe's files";
  } else if (::pwrite(orig, block.data(), block.size(), 0) != static_cast<ssize_t>(block.size()) ||
             ::fsync(orig) != 0 || ::fallocate(donor, 0, 0, static_cast<off_t>(block.size())) != 0) {
    why = "cannot prepare the probe's files: " + errno_text(errno);
  } else {
    struct stat st {};
    ::fstat(donor, &st);
    MoveExtent move{};
    move.donor_fd = static_cast<std::uint32_t>(donor);
    move.len = block.size() / static_cast<std::uint64_t>(st.st_blksize > 0 ? st.st_blksize : 4096);
    if (::ioctl(orig, kMoveExt, &move) != 0) why = "EXT4_IOC_MOVE_EXT: " + errno_text(errno) + " on this kernel";
  }
  if (orig >= 0) ::close(orig);
  if (donor >= 0) ::close(donor);
  return why;
}

// io_uring's ABI, as far as the probes need it (<linux/io_uring.h> would clash with liburing's copy of it in
// the tests that include both).
namespace uring_abi {
constexpr std::size_t kParamsSize = 120;   // struct io_uring_params
constexpr unsigned kRegisterProbe = 8;     // IORING_REGISTER_PROBE
constexpr std::uint16_t kOpSupported = 1;  // IO_URING_OP_SUPPORTED
struct ProbeOp {                           // struct io_uring_probe_op
  std::uint8_t op;
  std::uint8_t resv;
  std::uint16_t flags;
  std::uint32_t resv2;
};
struct ProbeHeader {  // struct io_uring_probe, before its ops[]
  std::uint8_t last_op;
  std::uint8_t ops_len;
  std::uint16_t resv;
  std::uint32_t resv2[3];
};
}  // namespace uring_abi

// A ring of 4 entries from io_uring_setup(2): its fd, or -1 with errno set.
inline int setup_probe_ring() {
  alignas(8) std::array<std::uint8_t, uring_abi::kParamsSize> params{};
  return static_cast<int>(::syscall(__NR_io_uring_setup, 4, params.data()));
}

// io_uring_setup(2) of a small ring (refused by old kernels, seccomp, or kernel.io_uring_disabled).
inline std::string probe_io_uring() {
  const int fd = setup_probe_ring();
  if (fd < 0) return "io_uring_setup: " + errno_text(errno);
  ::close(fd);
  return "";
}

// IORING_REGISTER_PROBE on a small ring: every opcode sluice's io_uring engine submits (kernels before 5.6
// lack some of them, e.g. FALLOCATE; before 5.2, SYNC_FILE_RANGE).
inline std::string probe_io_uring_ops() {
  struct Op {
    unsigned code;
    const char* name;
  };
  constexpr Op kUsed[] = {{1, "READV"},      {2, "WRITEV"},      {3, "FSYNC"},
                          {4, "READ_FIXED"}, {5, "WRITE_FIXED"}, {8, "SYNC_FILE_RANGE"},
                          {17, "FALLOCATE"}, {22, "READ"},       {23, "WRITE"}};
  const int fd = setup_probe_ring();
  if (fd < 0) return "io_uring_setup: " + errno_text(errno);
  constexpr unsigned kOps = 256;
  std::vector<std::uint64_t> memory((sizeof(uring_abi::ProbeHeader) + kOps * sizeof(uring_abi::ProbeOp)) / 8, 0);
  const long rc = ::syscall(__NR_io_uring_register, fd, uring_abi::kRegisterProbe, memory.data(), kOps);
  const int error = errno;
  ::close(fd);
  if (rc < 0) return "IORING_REGISTER_PROBE: " + errno_text(error);
  uring_abi::ProbeHeader header{};
  std::memcpy(&header, memory.data(), sizeof header);
  std::string missing;
  for (const Op& op : kUsed) {
    uring_abi::ProbeOp entry{};
    std::memcpy(&entry, reinterpret_cast<const char*>(memory.data()) + sizeof header + op.code * sizeof entry,
                sizeof entry);
    const bool supported = op.code <= header.last_op && (entry.flags & uring_abi::kOpSupported) != 0;
    if (!supported) missing += std::string(missing.empty() ? "" : ", ") + "IORING_OP_" + op.name;
  }
  return missing.empty() ? "" : "this kernel's io_uring lacks " + missing;
}

inline std::string probe_cgroup_v2_io() {
  std::ifstream controllers("/sys/fs/cgroup/cgroup.controllers");
  for (std::string name; controllers >> name;) {
    if (name == "io") return "";
  }
  return "no cgroup v2 io controller in /sys/fs/cgroup/cgroup.controllers";
}

inline std::string probe_cgroup_v1_blkio() {
  std::ifstream mounts("/proc/mounts");
  for (std::string line; std::getline(mounts, line);) {
    if (line.find(" cgroup ") != std::string::npos && line.find("blkio") != std::string::npos) return "";
  }
  return "no cgroup v1 blkio controller is mounted";
}

// get_mempolicy(2): ENOSYS on a kernel without NUMA support.
inline std::string probe_numa() {
  int mode = 0;
  if (::syscall(SYS_get_mempolicy, &mode, nullptr, 0, nullptr, 0) != 0) {
    return "get_mempolicy: " + errno_text(errno) + " (no NUMA support in this kernel)";
  }
  return "";
}

inline std::string probe_loop_devices() {
  if (::geteuid() != 0) return "loop devices need root";
  if (find_in_path("losetup").empty()) return "losetup is not in PATH (Debian package util-linux)";
  const int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) return "/dev/loop-control: " + errno_text(errno);
  const int free_index = ::ioctl(control, 0x4C82 /* LOOP_CTL_GET_FREE */);
  const int error = errno;
  ::close(control);
  if (free_index < 0) return "no free loop device: " + errno_text(error);
  return "";
}

inline std::string probe_fuse() {
  const int fd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd < 0) return "/dev/fuse: " + errno_text(errno);
  ::close(fd);
  if (::geteuid() != 0 && find_in_path("fusermount3").empty()) {
    return "not root and no fusermount3 (Debian package fuse3)";
  }
  return "";
}

// A child that unshares its network namespace (what `ip netns add` does), plus the ip tool.
inline std::string probe_net_namespaces() {
  if (::geteuid() != 0) return "network namespaces need root";
  if (find_in_path("ip").empty()) return "ip is not in PATH (Debian package iproute2)";
  const pid_t child = ::fork();
  if (child == 0) _exit(::unshare(CLONE_NEWNET) == 0 ? 0 : 1);
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return "unshare(CLONE_NEWNET) was refused";
  }
  return "";
}

inline std::string probe_fio() {
  if (find_in_path("fio").empty()) return "fio is not in PATH (Debian package fio)";
  if (shell_status("fio --version") != 0) return "fio --version failed";
  return "";
}

// The nbdkit cross-check of the lab (tests/lab/it_lab_nbdkit_test.cpp): nbdkit with its memory plugin and its
// delay filter, and nbdfuse to expose it as a file.
inline std::string probe_nbdkit() {
  if (find_in_path("nbdkit").empty()) return "nbdkit is not in PATH (Debian package nbdkit)";
  if (find_in_path("nbdfuse").empty()) return "nbdfuse is not in PATH (Debian package libnbd-bin)";
  if (shell_status("nbdkit --filter=delay memory 1M --dump-plugin >/dev/null 2>&1") != 0) {
    return "nbdkit cannot load its memory plugin with the delay filter (nbdkit --filter=delay memory --dump-plugin)";
  }
  return "";
}

inline std::string probe_nginx() {
  for (const char* p : {"/usr/sbin/nginx", "/usr/bin/nginx"}) {
    if (::access(p, X_OK) == 0) return "";
  }
  return "nginx is not installed (Debian package nginx-light)";
}

inline std::string probe_python_module(const std::string& module, const std::string& package) {
  if (::access("/usr/bin/python3", X_OK) != 0) return "/usr/bin/python3 is missing";
  if (shell_status("/usr/bin/python3 -c 'import " + module + "'") != 0) {
    return "python3 cannot import " + module + " (Debian package " + package + ")";
  }
  return "";
}

}  // namespace sluice::testing::detail
