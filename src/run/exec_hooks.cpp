#include "run/exec_hooks.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace sluice {

std::string run_exec_hook(const std::string& option, const std::string& command, const std::string& output_path) {
  const std::string what = option + " `" + command + "`";
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0) return what + ": cannot prepare to start it";
  posix_spawn_file_actions_addopen(&actions, 1, output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  const int spawn_error = posix_spawn(&pid, "/bin/sh", &actions, nullptr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) return what + " could not start: " + std::strerror(spawn_error);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return what + ": waitpid failed: " + std::strerror(errno);
  }
  const std::string output = " (its output is in " + output_path + ")";
  if (WIFSIGNALED(status)) return what + " was killed by signal " + std::to_string(WTERMSIG(status)) + output;
  if (WEXITSTATUS(status) == 127) return what + " exited with status 127: command not found?" + output;
  if (WEXITSTATUS(status) != 0) return what + " exited with status " + std::to_string(WEXITSTATUS(status)) + output;
  return "";
}

}  // namespace sluice
