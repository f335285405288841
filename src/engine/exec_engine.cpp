// exec: no I/O; runs a program for the job's runtime (fio's exec engine): `program arguments` is started
// by the job's first io (arguments split on spaces, %r replaced by the runtime in seconds and %n by the job's
// name); each later io waits 50 ms and looks whether the program still runs (fio's queue sleeps its 50 ms
// think time too, so both count the same ios); when the job ends the program gets SIGTERM, then SIGKILL after
// grace_time if it is still there. Unlike fio, the program is always waited for (no zombie), a program that
// cannot be found is refused before the run starts (runner: check_exec_program), and it dies with sluice
// (PR_SET_PDEATHSIG) when sluice itself is killed. std_redirect=1 writes its output to JOBNAME.stdout and
// JOBNAME.stderr in the working directory (as fio); std_redirect=0 sends its stdout to sluice's stderr, so
// that sluice's own report on stdout stays parseable.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

extern char** environ;

namespace sluice {
namespace {

constexpr long kLookEveryMs = 50;  // fio's exec think time

void replace_all(std::string& text, const std::string& what, const std::string& with) {
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
}

bool executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// The file execvp would run for `program`: itself when it has a '/', else the first executable in PATH.
std::optional<std::string> resolve_program(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    return executable_file(program) ? std::optional<std::string>(program) : std::nullopt;
  }
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (executable_file(dir + "/" + program)) return dir + "/" + program;
    start = end + 1;
  }
  return std::nullopt;
}

void sleep_ms(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1'000'000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

// waitpid without blocking: true when the child has ended (or was reaped by someone else: ECHILD).
bool ended(pid_t pid) noexcept {
  const pid_t r = waitpid(pid, nullptr, WNOHANG);
  return r == pid || (r < 0 && errno == ECHILD);
}

// What one run of the program needs: the engine's options and the job's name and runtime.
struct ExecSetup {
  std::string job_name;
  std::string program;
  std::string arguments;        // split on spaces, %r and %n expanded
  std::uint64_t runtime_s = 0;  // %r
  std::uint64_t grace_ns = 1'000'000'000;
  bool std_redirect = true;  // JOBNAME.stdout / JOBNAME.stderr; else stdout goes to sluice's stderr
};

class ExecEngine final : public detail::SynchronousEngine<ExecEngine> {
  friend class detail::SynchronousEngine<ExecEngine>;

 public:
  explicit ExecEngine(const ExecOptions& options) : options_(options) {}
  ~ExecEngine() override { stop(); }
  std::string_view name() const noexcept override { return engine_name(EngineKind::kExec); }
  EngineCaps caps() const noexcept override { return engine_traits(EngineKind::kExec); }

  void open(const EngineSetup& setup) override {
    setup_ = {.job_name = setup.job_name,
              .program = options_.program,
              .arguments = options_.arguments,
              .runtime_s = setup.runtime_ns / 1'000'000'000,
              .grace_ns = static_cast<std::uint64_t>(options_.grace_time.count()),
              .std_redirect = options_.std_redirect};
    if (!setup_.program.empty()) check_exec_program(setup_.job_name, setup_.program);
    reset_completions(setup.depth);
  }
  void close() noexcept override { stop(); }

 private:
  std::int64_t perform(const IoUnit& u) noexcept {
    if (u.op != IoOp::kRead && u.op != IoOp::kWrite) return -EOPNOTSUPP;  // validation refuses trims and syncs
    if (setup_.program.empty()) return u.length;                          // engine_available()'s probe: nothing to run
    if (!started_) {
      started_ = true;
      const int error = start();
      if (error != 0) return -error;
      return u.length;
    }
    sleep_ms(kLookEveryMs);
    if (pid_ > 0 && ended(pid_)) pid_ = -1;  // it ended on its own; the job still runs its runtime, as fio's
    return u.length;
  }

  std::vector<std::string> command_words() const {
    std::string arguments = setup_.arguments;  // fio expands %r and %n in the arguments only
    replace_all(arguments, "%r", std::to_string(setup_.runtime_s));
    replace_all(arguments, "%n", setup_.job_name);
    std::vector<std::string> words = {setup_.program};
    std::size_t at = 0;
    while (at < arguments.size()) {
      const std::size_t begin = arguments.find_first_not_of(' ', at);
      if (begin == std::string::npos) break;
      const std::size_t end = std::min(arguments.find(' ', begin), arguments.size());
      words.push_back(arguments.substr(begin, end - begin));
      at = end;
    }
    return words;
  }

  // Starts the program; 0 or the errno that kept it from starting. Everything the child needs is prepared
  // before fork(): the child of a threaded process calls only async-signal-safe functions.
  int start() noexcept {
    try {
      const std::optional<std::string> path = resolve_program(setup_.program);
      if (!path) return ENOENT;
      std::vector<std::string> words = command_words();
      std::vector<char*> argv;
      argv.reserve(words.size() + 1);
      for (std::string& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      const std::string out = setup_.job_name + ".stdout";
      const std::string err = setup_.job_name + ".stderr";
      int report[2];
      if (pipe2(report, O_CLOEXEC) != 0) return errno;
      const pid_t parent = getpid();
      const pid_t pid = fork();
      if (pid < 0) {
        const int e = errno;
        ::close(report[0]);
        ::close(report[1]);
        return e;
      }
      if (pid == 0) run_child(path->c_str(), argv.data(), out.c_str(), err.c_str(), parent, report[1]);
      ::close(report[1]);
      int exec_error = 0;
      ssize_t got;
      while ((got = ::read(report[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
      }
      ::close(report[0]);
      if (got == static_cast<ssize_t>(sizeof exec_error)) {  // exec failed: the child is exiting
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        return exec_error;
      }
      pid_ = pid;
      return 0;
    } catch (...) {
      return ENOMEM;
    }
  }

  [[noreturn]] void run_child(const char* path, char* const* argv, const char* out, const char* err, pid_t parent,
                              int report) const noexcept {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with sluice's job thread, even when sluice is killed
    if (getppid() != parent) _exit(127);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT}) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (setup_.std_redirect) {
      const int o = ::open(out, O_CREAT | O_WRONLY | O_TRUNC, 0644);
      const int e = ::open(err, O_CREAT | O_WRONLY | O_TRUNC, 0644);
      if (o >= 0) dup2(o, STDOUT_FILENO);
      if (e >= 0) dup2(e, STDERR_FILENO);
    } else {
      dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    execve(path, argv, environ);
    const int e = errno;
    [[maybe_unused]] const ssize_t w = ::write(report, &e, sizeof e);
    _exit(127);
  }

  // SIGTERM, up to grace_time for it to end, then SIGKILL; always reaped.
  void stop() noexcept {
    if (pid_ <= 0) return;
    if (ended(pid_)) {
      pid_ = -1;
      return;
    }
    ::kill(pid_, SIGTERM);
    const long grace_ms = static_cast<long>(setup_.grace_ns / 1'000'000);
    for (long waited = 0; waited < grace_ms; waited += 10) {
      if (ended(pid_)) {
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

  ExecOptions options_;
  ExecSetup setup_;
  bool started_ = false;
  pid_t pid_ = -1;
};

}  // namespace

void check_exec_program(std::string_view job_name, const std::string& program) {
  if (program.empty() || resolve_program(program)) return;
  throw UserError("job " + std::string(job_name) + ": ioengine=exec: program=" + program +
                  " is not an executable file (nor one found in PATH)");
}

std::unique_ptr<Engine> make_exec_engine(const ExecOptions& options) { return std::make_unique<ExecEngine>(options); }

}  // namespace sluice
