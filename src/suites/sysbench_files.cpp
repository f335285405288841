#include "suites/sysbench_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/aligned_buffer.h"
#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "engine/engine.h"

namespace sluice {
namespace {

std::string errno_text(int e) { return std::strerror(e); }

std::unique_ptr<void, FreeDeleter> zero_buffer(std::uint64_t bytes) {
  const std::size_t rounded = round_to_direct_alignment(bytes);
  void* p = std::aligned_alloc(kDirectIoAlignment, rounded);
  if (p == nullptr) throw UserError("sysbench fileio: cannot allocate a " + std::to_string(bytes) + "-byte buffer");
  std::memset(p, 0, rounded);
  return std::unique_ptr<void, FreeDeleter>(p);
}

// Runs one io to completion on a synchronous engine; returns its result (bytes or -errno).
std::int64_t perform(Engine& engine, IoUnit& unit) {
  IoUnit* batch[1] = {&unit};
  if (engine.submit(batch) != 1) return -EAGAIN;
  IoUnit* done[1] = {nullptr};
  while (engine.reap(1, done) == 0) {
  }
  return unit.result;
}

}  // namespace

int sysbench_extra_open_flags(const SysbenchOptions& o) noexcept {
  return (o.o_sync ? O_SYNC : 0) | (o.o_dsync ? O_DSYNC : 0) | (o.o_direct ? O_DIRECT : 0);
}

std::string sysbench_extra_flags_text(const SysbenchOptions& o) {
  std::string s;
  auto add = [&s](const char* name) { s += s.empty() ? name : fmt::format(" {}", name); };
  if (o.o_sync) add("sync");
  if (o.o_dsync) add("dsync");
  if (o.o_direct) add("directio");
  return s.empty() ? "(none)" : s;
}

SysbenchPrepareResult sysbench_prepare(const SysbenchOptions& o) {
  SysbenchPrepareResult result;
  const std::uint64_t file_size = o.file_size();
  auto buffer = zero_buffer(o.block_size);
  const std::uint64_t start = monotonic_ns();
  // The files prepare creates are kept for `run`, but one killed mid-prepare is removed by the next start.
  std::vector<std::string> missing;
  for (std::uint64_t i = 0; i < o.file_num; ++i) {
    struct stat st {};
    if (::stat(sysbench_file_path(o, i).c_str(), &st) != 0 && errno == ENOENT)
      missing.push_back(sysbench_file_path(o, i));
  }
  journal_creating(missing);
  for (std::uint64_t i = 0; i < o.file_num; ++i) {
    const std::string path = sysbench_file_path(o, i);
    const std::string name = fmt::format("test_file.{}", i);
    const bool is_new = std::find(missing.begin(), missing.end(), path) != missing.end();
    const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | sysbench_extra_open_flags(o), 0600);
    if (fd < 0 && is_new) journal_removed(path);
    if (fd < 0)
      throw UserError(fmt::format("sysbench fileio prepare: cannot create '{}': {}", path, errno_text(errno)));
    if (is_new) journal_created(path);
    struct stat st {};
    ::fstat(fd, &st);
    std::uint64_t pos = static_cast<std::uint64_t>(st.st_size);
    if (pos >= file_size) {
      result.lines.push_back("Reusing existing file " + name);
      ::close(fd);
      continue;
    }
    result.lines.push_back((pos > 0 ? "Extending existing file " : "Creating file ") + name);
    std::unique_ptr<Engine> engine = make_engine(EngineKind::kPsync);
    EngineSetup setup;
    setup.fds = {fd};
    setup.direct = o.o_direct;
    setup.writes = true;
    engine->open(setup);
    while (pos < file_size) {
      IoUnit unit;
      unit.op = IoOp::kWrite;
      unit.offset = pos;
      unit.length = static_cast<std::uint32_t>(o.block_size);
      unit.buffer = buffer.get();
      const std::int64_t n = perform(*engine, unit);
      if (n <= 0) {
        engine->close();
        ::close(fd);
        throw UserError(fmt::format("sysbench fileio prepare: writing '{}' at offset {}: {}", path, pos,
                                    n < 0 ? errno_text(static_cast<int>(-n)) : "nothing written"));
      }
      pos += static_cast<std::uint64_t>(n);
      result.bytes_written += static_cast<std::uint64_t>(n);
    }
    IoUnit sync;
    sync.op = IoOp::kFsync;
    const std::int64_t rc = perform(*engine, sync);
    engine->close();
    ::close(fd);
    if (rc < 0)
      throw UserError(
          fmt::format("sysbench fileio prepare: fsync of '{}': {}", path, errno_text(static_cast<int>(-rc))));
  }
  result.seconds = static_cast<double>(monotonic_ns() - start) / 1e9;
  return result;
}

std::uint64_t sysbench_cleanup(const SysbenchOptions& o) {
  std::uint64_t removed = 0;
  for (std::uint64_t i = 0; i < o.file_num; ++i) {
    if (::unlink(sysbench_file_path(o, i).c_str()) == 0) ++removed;
  }
  return removed;
}

void sysbench_close_files(std::vector<int>& fds) noexcept {
  for (int fd : fds) ::close(fd);
  fds.clear();
}

std::vector<int> sysbench_open_files(const SysbenchOptions& o) {
  std::vector<int> fds;
  const std::uint64_t file_size = o.file_size();
  const bool recreate = o.mode == SysbenchMode::kSeqwr;
  for (std::uint64_t i = 0; i < o.file_num; ++i) {
    const std::string path = sysbench_file_path(o, i);
    if (recreate) ::unlink(path.c_str());
    const int fd = ::open(path.c_str(), O_RDWR | (recreate ? O_CREAT : 0) | sysbench_extra_open_flags(o), 0600);
    if (fd < 0) {
      const int e = errno;
      sysbench_close_files(fds);
      throw UserError(
          fmt::format("sysbench fileio run: cannot open file '{}': {}; did you forget to run the prepare step? "
                      "(expected {} files of {}B each: sluice sysbench fileio prepare with the same --file-total-size "
                      "and --file-num)",
                      path, errno_text(e), o.file_num, sysbench_size_text(static_cast<double>(file_size))));
    }
    fds.push_back(fd);
    struct stat st {};
    ::fstat(fd, &st);
    if (recreate && o.io_mode == SysbenchIoMode::kMmap && ::ftruncate(fd, static_cast<off_t>(file_size)) != 0) {
      const int e = errno;
      sysbench_close_files(fds);
      throw UserError(fmt::format("sysbench fileio run: cannot size '{}' for mmap: {}", path, errno_text(e)));
    }
    if (!recreate && static_cast<std::uint64_t>(st.st_size) < file_size) {
      sysbench_close_files(fds);
      throw UserError(fmt::format(
          "sysbench fileio run: size of file '{}' is {}B, but at least {}B is expected; did you run 'prepare' with "
          "different --file-total-size or --file-num values?",
          path, sysbench_size_text(static_cast<double>(st.st_size)),
          sysbench_size_text(static_cast<double>(file_size))));
    }
  }
  return fds;
}

}  // namespace sluice
