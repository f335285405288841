#include "suites/filetree_steps.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <span>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/stop_signal.h"
#include "suites/filetree_parallel.h"

namespace sluice {
namespace {

[[noreturn]] void fail(const char* call, const std::string& path) {
  const int error = errno;
  throw IoError(fmt::format("filetree: {} {}: {}", call, path, std::strerror(error)), error);
}

// Writes all of `data`, timing each write call.
void write_all(int fd, const unsigned char* data, std::size_t size, const std::string& path, OpRecorder& rec) {
  while (size > 0) {
    const ssize_t n = rec.timed(FileOp::kWrite, [&] { return ::write(fd, data, size); });
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", path);
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

ssize_t read_some(int fd, unsigned char* buffer, std::size_t size, const std::string& path, OpRecorder& rec) {
  for (;;) {
    const ssize_t n = rec.timed(FileOp::kRead, [&] { return ::read(fd, buffer, size); });
    if (n >= 0) return n;
    if (errno != EINTR) fail("read", path);
  }
}

void close_file(int fd, const std::string& path, OpRecorder& rec) {
  if (rec.timed(FileOp::kClose, [&] { return ::close(fd); }) != 0) fail("close", path);
}

// Makes every 4 KiB block of the chunk unique: file, chunk and block numbers in its first 16 bytes.
void stamp_chunk(std::vector<unsigned char>& chunk, std::uint64_t file, std::uint64_t chunk_index) {
  for (std::size_t block = 0; block + 16 <= chunk.size(); block += 4096) {
    const std::uint64_t words[2] = {file, (chunk_index << 20) | (block >> 12)};
    std::memcpy(chunk.data() + block, words, sizeof words);
  }
}

void make_dir(const std::string& path, mode_t mode, OpRecorder& rec) {
  if (rec.timed(FileOp::kMkdir, [&] { return ::mkdir(path.c_str(), mode); }) != 0) fail("mkdir", path);
}

// Per-thread buffers, allocated once per thread and step rather than per file.
std::vector<unsigned char>& thread_buffer() {
  thread_local std::vector<unsigned char> buffer(kFiletreeChunk);
  return buffer;
}

// The data create writes: random, per thread and seed (a buffer of its own: the other steps' buffer holds
// whatever they read last).
std::vector<unsigned char>& random_buffer(std::uint64_t seed) {
  thread_local std::vector<unsigned char> buffer(kFiletreeChunk);
  thread_local std::uint64_t filled_for = 0;
  thread_local bool filled = false;
  if (!filled || filled_for != seed) {
    Rng rng(seed ^ mix64(static_cast<std::uint64_t>(::gettid())));
    fill_random(std::span(buffer), rng);
    filled_for = seed;
    filled = true;
  }
  return buffer;
}

}  // namespace

void sync_file_system(const std::string& path, OpRecorder& recorder) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open", path);
  const int rc = recorder.timed(FileOp::kSync, [&] { return ::syncfs(fd); });
  const int error = errno;
  ::close(fd);
  errno = error;
  if (rc != 0) fail("syncfs", path);
}

StepResult create_tree(const FiletreePlan& plan, const std::string& root, std::uint32_t threads, std::uint64_t seed) {
  StepResult step;
  step.name = "create";
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> files{0};
  const std::uint64_t start = monotonic_ns();
  make_dir(root, 0755, step.latency);
  bool done = run_parallel(
      threads, plan.dirs,
      [&](OpRecorder& rec, std::uint64_t d) {
        make_dir(root + "/" + FiletreePlan::dir_name(static_cast<std::uint32_t>(d)), 0755, rec);
      },
      step.latency);
  done = done && run_parallel(
                     threads, plan.files.size(),
                     [&](OpRecorder& rec, std::uint64_t i) {
                       const PlannedFile& file = plan.files[i];
                       const std::string path = root + "/" + plan.file_path(file);
                       std::vector<unsigned char>& chunk = random_buffer(seed);
                       const int fd = rec.timed(FileOp::kCreate, [&] {
                         return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, file.mode);
                       });
                       if (fd < 0) fail("create", path);
                       std::uint64_t left = file.size;
                       for (std::uint64_t c = 0; left > 0 && !stop_requested(); ++c) {
                         const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
                         stamp_chunk(chunk, file.index, c);
                         write_all(fd, chunk.data(), n, path, rec);
                         left -= n;
                         bytes.fetch_add(n, std::memory_order_relaxed);
                       }
                       close_file(fd, path, rec);
                       if (left == 0) files.fetch_add(1, std::memory_order_relaxed);
                     },
                     step.latency);
  sync_file_system(root, step.latency);
  step.seconds = seconds_since(start);
  step.bytes = bytes;
  step.files = files;
  step.completed = done && !stop_requested();
  return step;
}

StepResult read_tree(const FiletreePlan& plan, const std::string& root, std::uint32_t threads) {
  StepResult step;
  step.name = "read";
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> files{0};
  const std::uint64_t start = monotonic_ns();
  const bool done = run_parallel(
      threads, plan.files.size(),
      [&](OpRecorder& rec, std::uint64_t i) {
        const std::string path = root + "/" + plan.file_path(plan.files[i]);
        std::vector<unsigned char>& buffer = thread_buffer();
        const int fd = rec.timed(FileOp::kOpen, [&] { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); });
        if (fd < 0) fail("open", path);
        ssize_t n = 0;
        while (!stop_requested() && (n = read_some(fd, buffer.data(), buffer.size(), path, rec)) > 0) {
          bytes.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
        }
        close_file(fd, path, rec);
        if (n == 0) files.fetch_add(1, std::memory_order_relaxed);
      },
      step.latency);
  sync_file_system(root, step.latency);
  step.seconds = seconds_since(start);
  step.bytes = bytes;
  step.files = files;
  step.completed = done && !stop_requested();
  return step;
}

namespace {

void copy_times(const std::string& path, const struct stat& source, OpRecorder& rec) {
  const timespec times[2] = {source.st_atim, source.st_mtim};
  if (rec.timed(FileOp::kUtimens, [&] { return ::utimensat(AT_FDCWD, path.c_str(), times, 0); }) != 0) {
    fail("utimensat", path);
  }
}

// One file as cp -a copies it; returns false when stopped part-way.
bool copy_file(const std::string& from, const std::string& to, std::atomic<std::uint64_t>& bytes, OpRecorder& rec) {
  std::vector<unsigned char>& buffer = thread_buffer();
  const int in = rec.timed(FileOp::kOpen, [&] { return ::open(from.c_str(), O_RDONLY | O_CLOEXEC); });
  if (in < 0) fail("open", from);
  struct stat source {};
  if (::fstat(in, &source) != 0) fail("fstat", from);
  const int out = rec.timed(FileOp::kCreate, [&] {
    return ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, source.st_mode & 07777);
  });
  if (out < 0) fail("create", to);
  ssize_t n = 0;
  while (!stop_requested() && (n = read_some(in, buffer.data(), buffer.size(), from, rec)) > 0) {
    write_all(out, buffer.data(), static_cast<std::size_t>(n), to, rec);
    bytes.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
  }
  if (::geteuid() == 0 && ::fchown(out, source.st_uid, source.st_gid) != 0) fail("fchown", to);
  // After the chown (which clears set-id bits) and regardless of the umask the create applied.
  if (rec.timed(FileOp::kChmod, [&] { return ::fchmod(out, source.st_mode & 07777); }) != 0) fail("fchmod", to);
  const timespec times[2] = {source.st_atim, source.st_mtim};
  if (rec.timed(FileOp::kUtimens, [&] { return ::futimens(out, times); }) != 0) fail("futimens", to);
  close_file(out, to, rec);
  close_file(in, from, rec);
  return n == 0;
}

struct stat stat_of(const std::string& path) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) fail("stat", path);
  return s;
}

}  // namespace

StepResult copy_tree(const FiletreePlan& plan, const std::string& from, const std::string& to, std::uint32_t threads) {
  StepResult step;
  step.name = "copy";
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> files{0};
  const std::uint64_t start = monotonic_ns();
  const struct stat root_stat = stat_of(from);
  make_dir(to, 0700, step.latency);
  bool done = run_parallel(
      threads, plan.dirs,
      [&](OpRecorder& rec, std::uint64_t d) {
        make_dir(to + "/" + FiletreePlan::dir_name(static_cast<std::uint32_t>(d)), 0700, rec);
      },
      step.latency);
  done = done && run_parallel(
                     threads, plan.files.size(),
                     [&](OpRecorder& rec, std::uint64_t i) {
                       const std::string relative = plan.file_path(plan.files[i]);
                       if (copy_file(from + "/" + relative, to + "/" + relative, bytes, rec))
                         files.fetch_add(1, std::memory_order_relaxed);
                     },
                     step.latency);
  // Directories last, as cp -a does: creating their entries changed their times.
  done =
      done && run_parallel(
                  threads, plan.dirs,
                  [&](OpRecorder& rec, std::uint64_t d) {
                    const std::string name = FiletreePlan::dir_name(static_cast<std::uint32_t>(d));
                    const struct stat source = stat_of(from + "/" + name);
                    const std::string target = to + "/" + name;
                    if (::geteuid() == 0 && ::chown(target.c_str(), source.st_uid, source.st_gid) != 0)
                      fail("chown", target);
                    if (rec.timed(FileOp::kChmod, [&] { return ::chmod(target.c_str(), source.st_mode & 07777); }) != 0)
                      fail("chmod", target);
                    copy_times(target, source, rec);
                  },
                  step.latency);
  if (done) {
    if (::geteuid() == 0 && ::chown(to.c_str(), root_stat.st_uid, root_stat.st_gid) != 0) fail("chown", to);
    if (step.latency.timed(FileOp::kChmod, [&] { return ::chmod(to.c_str(), root_stat.st_mode & 07777); }) != 0) {
      fail("chmod", to);
    }
    copy_times(to, root_stat, step.latency);
  }
  sync_file_system(to, step.latency);
  step.seconds = seconds_since(start);
  step.bytes = bytes;
  step.files = files;
  step.completed = done && !stop_requested();
  return step;
}

StepResult delete_trees(const FiletreePlan& plan, const std::vector<std::string>& roots,
                        const std::vector<std::string>& extra_files, std::uint32_t threads) {
  StepResult step;
  step.name = "delete";
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> files{0};
  const auto remove_file = [&](const std::string& path, OpRecorder& rec) {
    struct stat s {};
    if (::lstat(path.c_str(), &s) != 0) return;  // never created (interrupted run)
    if (rec.timed(FileOp::kUnlink, [&] { return ::unlink(path.c_str()); }) != 0) fail("unlink", path);
    bytes.fetch_add(static_cast<std::uint64_t>(s.st_size), std::memory_order_relaxed);
    files.fetch_add(1, std::memory_order_relaxed);
  };
  const auto remove_dir = [&](const std::string& path, OpRecorder& rec) {
    if (rec.timed(FileOp::kRmdir, [&] { return ::rmdir(path.c_str()); }) != 0 && errno != ENOENT) fail("rmdir", path);
  };
  const std::uint64_t start = monotonic_ns();
  bool done = true;
  std::string sync_path = ".";
  for (const std::string& root : roots) {
    if (::access(root.c_str(), F_OK) != 0) continue;
    sync_path = root + "/..";
    done = done &&
           run_parallel(
               threads, plan.files.size(),
               [&](OpRecorder& rec, std::uint64_t i) { remove_file(root + "/" + plan.file_path(plan.files[i]), rec); },
               step.latency);
    done = done && run_parallel(
                       threads, plan.dirs,
                       [&](OpRecorder& rec, std::uint64_t d) {
                         remove_dir(root + "/" + FiletreePlan::dir_name(static_cast<std::uint32_t>(d)), rec);
                       },
                       step.latency);
    if (done) remove_dir(root, step.latency);
  }
  if (done) {
    for (const std::string& path : extra_files) remove_file(path, step.latency);
  }
  if (::access(sync_path.c_str(), F_OK) == 0) sync_file_system(sync_path, step.latency);
  step.seconds = seconds_since(start);
  step.bytes = bytes;
  step.files = files;
  step.completed = done && !stop_requested();
  return step;
}

}  // namespace sluice
