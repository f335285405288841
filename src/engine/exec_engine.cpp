// exec: no I/O; runs a program for the job's runtime (fio's exec engine): `program arguments` is started
// by the job's first io (arguments split on spaces, %r replaced by the runtime in seconds and %n by the job's
// name), the job's later ios only look whether it is still running (the runner paces them 50 ms apart, as
// fio), and when the job ends the program gets SIGTERM, then SIGKILL after grace_time if it is still there.
// Unlike fio, the program is always waited for (no zombie is left) and a program that cannot be found fails
// the job before it starts. std_redirect=1 writes its output to JOBNAME.stdout and JOBNAME.stderr in the
// working directory (as fio); std_redirect=0 sends its stdout to sluice's stderr, so that sluice's own report
// on stdout stays parseable.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

extern char** environ;

namespace sluice {
namespace {

void replace_all(std::string& text, const std::string& what, const std::string& with) {
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
}

// True when `program` names an executable file, directly (with a '/') or through PATH, as execvp finds it.
bool findable(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = ".";
    struct stat st {};
    const std::string candidate = dir + "/" + program;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

void sleep_ms(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1'000'000};
  nanosleep(&ts, nullptr);
}

class ExecEngine final : public detail::SynchronousEngine<ExecEngine> {
  friend class detail::SynchronousEngine<ExecEngine>;

 public:
  ~ExecEngine() override { stop(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kExec); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kExec); }

  void open(const EngineSetup& setup) override {
    setup_ = setup.exec;
    if (!setup_.program.empty() && !findable(setup_.program)) {
      throw UserError("job " + setup_.job_name + ": ioengine=exec: program=" + setup_.program +
                      " is not an executable file (nor one found in PATH)");
    }
    reset_completions(setup.depth);
  }
  void close() noexcept override { stop(); }

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    if (u.op != IoOp::kRead && u.op != IoOp::kWrite) return -EOPNOTSUPP;  // validation refuses trims and syncs
    if (setup_.program.empty()) return u.length;  // engine_available()'s probe: nothing to run
    if (!started_) {
      started_ = true;
      const int error = start();
      if (error != 0) return -error;
    } else if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;  // it ended on its own; the job still runs its runtime, as fio's
    }
    return u.length;
  }

  std::vector<std::string> command_words() const {
    std::string line = setup_.program + " " + setup_.arguments;
    replace_all(line, "%r", std::to_string(setup_.runtime_s));
    replace_all(line, "%n", setup_.job_name);
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < line.size()) {
      const std::size_t begin = line.find_first_not_of(' ', at);
      if (begin == std::string::npos) break;
      const std::size_t end = std::min(line.find(' ', begin), line.size());
      words.push_back(line.substr(begin, end - begin));
      at = end;
    }
    return words;
  }

  // Spawns the program; 0 or the errno that kept it from starting.
  int start() noexcept {
    try {
      std::vector<std::string> words = command_words();
      std::vector<char*> argv;
      for (std::string& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      const std::string out = setup_.job_name + ".stdout";
      const std::string err = setup_.job_name + ".stderr";
      if (setup_.std_redirect) {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
      } else {
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
      }
      posix_spawnattr_t attr;
      posix_spawnattr_init(&attr);
      sigset_t none, defaults;
      sigemptyset(&none);
      sigemptyset(&defaults);
      sigaddset(&defaults, SIGINT);
      sigaddset(&defaults, SIGTERM);
      sigaddset(&defaults, SIGPIPE);
      posix_spawnattr_setsigmask(&attr, &none);
      posix_spawnattr_setsigdefault(&attr, &defaults);
      posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
      pid_t pid = -1;
      const int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
      posix_spawnattr_destroy(&attr);
      posix_spawn_file_actions_destroy(&actions);
      if (rc != 0) return rc;
      pid_ = pid;
      return 0;
    } catch (...) {
      return ENOMEM;
    }
  }

  // SIGTERM, up to grace_time for it to end, then SIGKILL; always reaped.
  void stop() noexcept {
    if (pid_ <= 0) return;
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    ::kill(pid_, SIGTERM);
    const long grace_ms = static_cast<long>(setup_.grace_ns / 1'000'000);
    for (long waited = 0; waited < grace_ms; waited += 10) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      sleep_ms(10);
    }
    ::kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  ExecSetup setup_;
  bool started_ = false;
  pid_t pid_ = -1;
};

}  // namespace

std::unique_ptr<Engine> make_exec_engine() { return std::make_unique<ExecEngine>(); }

}  // namespace sluice
