#pragma once
// What a lab device is made of, as the kernel shows it (sluice lab up/down/list, sluice restore): processes
// (their start time, which tells a process from a later one that reuses its pid), mounts, loop devices and their
// backing files, FUSE connections. Reads <proc> and <sys> under SystemRoots, so tests point them at a
// synthetic tree.
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "observe/system_roots.h"

namespace sluice {

// The start time of process `pid` in clock ticks after boot (field 22 of <proc>/PID/stat); nullopt when there
// is no such process or it is a zombie (it has ended; only its parent has not reaped it yet).
std::optional<std::uint64_t> process_start_ticks(pid_t pid, const SystemRoots& roots = {});

// Whether process `pid` is still the one that started at `start_ticks` and has not ended.
bool process_is(pid_t pid, std::uint64_t start_ticks, const SystemRoots& roots = {});

// The path of the running executable (<proc>/self/exe), "" when it cannot be read.
std::string own_executable(const SystemRoots& roots = {});

struct MountEntry {
  std::string mount_point;  // unescaped
  std::string source;       // "/dev/loop3", "sluice-lab"
  std::string fstype;       // "ext4", "fuse.sluice-lab"
  unsigned major = 0;       // the mounted filesystem's device number (a FUSE mount's minor is its connection)
  unsigned minor = 0;
};

// The mounts of this process's namespace, in mount order (<proc>/self/mountinfo).
std::vector<MountEntry> mount_table(const SystemRoots& roots = {});

// The topmost mount at exactly `mount_point` (an absolute path without a trailing slash); nullopt when nothing
// is mounted there.
std::optional<MountEntry> mount_at(const std::string& mount_point, const SystemRoots& roots = {});

struct LoopDeviceInfo {
  std::string device;        // "/dev/loop3"
  std::string backing_file;  // as the kernel records it (<sys>/block/loopN/loop/backing_file)
  bool direct_io = false;    // <sys>/block/loopN/loop/dio
};

// The loop devices that have a backing file (attached ones).
std::vector<LoopDeviceInfo> attached_loop_devices(const SystemRoots& roots = {});

// Aborts FUSE connection `id` (<sys>/fs/fuse/connections/ID/abort): every request waiting on the daemon, and
// every later one, fails at once (ENOTCONN/EIO) instead of waiting. Mounts fusectl there for the call when it
// is not mounted (root), and unmounts it again. Returns "" when aborted or when the connection is already gone,
// else why not.
std::string abort_fuse_connection(unsigned id, const SystemRoots& roots = {});

}  // namespace sluice
