#pragma once
// Internal to lab/: the system calls a lab is built and taken apart with (lab_device.cpp, lab_teardown.cpp).
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sluice {

// Starts `argv` (argv[0] a path) as a detached process: its own session, stdin /dev/null, stdout and stderr
// appended to `log`, no other descriptor inherited. `before_exec` runs in the child first (it records the
// child, so a kill of the parent right after fork cannot leave it unrecorded); when it returns false the child
// ends (exit 126) without starting the program. Returns the pid; throws UserError when fork fails.
pid_t spawn_detached(const std::vector<std::string>& argv, const std::string& log,
                     const std::function<bool()>& before_exec);

// Runs a tool (argv[0] looked up in PATH) and waits for it, its stdout and stderr into `output`. Returns its
// exit code, 127 when it could not be started, -1 when it was killed (by the timeout or a signal).
int run_tool(const std::vector<std::string>& argv, std::string& output, std::chrono::seconds timeout);

// The path of `name` in PATH, /sbin or /usr/sbin; "" when there is none.
std::string find_tool(const std::string& name);

// Attaches a free loop device to `file` with direct I/O (LOOP_CONFIGURE with LO_FLAGS_DIRECT_IO, or
// LOOP_SET_FD then LOOP_SET_DIRECT_IO on kernels before 5.8). Returns "/dev/loopN"; throws UserError.
// `direct_io` says whether the kernel kept direct I/O on.
std::string attach_loop_device(const std::string& file, bool& direct_io);

// LOOP_CLR_FD on `device`; "" when done, else why not.
std::string detach_loop_device(const std::string& device);

// Sends `signal` to `pid` and waits up to `wait` for it to end, reaping it if it is our child. True when it
// has ended (or was not there).
bool signal_and_wait(pid_t pid, std::uint64_t start_ticks, int signal, std::chrono::milliseconds wait);

}  // namespace sluice
