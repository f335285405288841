// fio's trigger: the file or the time that fires it, the command it runs, and a local run's watcher thread.
#include "run/trigger_watch.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/stop_signal.h"

namespace sluice {

bool TriggerClock::due(std::chrono::steady_clock::time_point now) {
  if (!settings_.file.empty()) {
    struct stat st {};
    if (::stat(settings_.file.c_str(), &st) == 0) {
      if (::unlink(settings_.file.c_str()) != 0) {
        std::fprintf(stderr, "sluice: cannot remove the trigger file %s: %s\n", settings_.file.c_str(),
                     std::strerror(errno));
      }
      return true;
    }
  }
  if (settings_.timeout && now - genesis_ >= *settings_.timeout) {
    settings_.timeout.reset();
    return true;
  }
  return false;
}

std::string run_trigger_command(const std::string& command) {
  if (command.empty()) return {};
  std::fflush(stdout);
  const int status = std::system(command.c_str());
  if (status == -1) return fmt::format("the trigger command `{}` could not be run: {}", command, std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status))
    return fmt::format("the trigger command `{}` exited with status {}", command, WEXITSTATUS(status));
  return fmt::format("the trigger command `{}` ended by signal {}", command,
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

LocalTrigger::LocalTrigger(TriggerSettings settings, std::chrono::steady_clock::time_point genesis)
    : clock_(std::move(settings), genesis), genesis_(genesis) {
  if (clock_.settings().armed()) thread_ = std::thread([this] { watch(); });
}

LocalTrigger::~LocalTrigger() {
  done_.store(true);
  if (thread_.joinable()) thread_.join();
}

void LocalTrigger::watch() {
  using namespace std::chrono_literals;
  while (!done_.load()) {
    const auto now = std::chrono::steady_clock::now();
    if (clock_.due(now)) {
      request_trigger_stop();  // as fio: the jobs stop first, then the command runs
      const std::string failure = run_trigger_command(clock_.settings().command);
      if (!failure.empty()) std::fprintf(stderr, "sluice: %s\n", failure.c_str());
      const double seconds = std::chrono::duration<double>(now - genesis_).count();
      note_ =
          fmt::format("the trigger fired {:.1f} s after the start: every job was stopped{}", seconds,
                      clock_.settings().command.empty() ? std::string()
                                                        : fmt::format(" and `{}` was run{}", clock_.settings().command,
                                                                      failure.empty() ? "" : " (" + failure + ")"));
      fired_.store(true);
      return;
    }
    std::this_thread::sleep_for(100ms);
  }
}

std::string LocalTrigger::note() {
  done_.store(true);
  if (thread_.joinable()) thread_.join();  // a command still running is waited for, as fio waits for it
  return fired_.load() ? note_ : std::string();
}

}  // namespace sluice
