#pragma once
// Engine traits: the one place that states what each I/O engine can do. Validation, the runner, the lint,
// the methods and the engines themselves (Engine::name(), Engine::caps()) read this table; nothing else
// compares EngineKind values to answer a capability question. tests/engine/engine_traits_test.cpp checks
// every claim of every row against the engine itself (all but may_be_refused, which only a kernel that
// refuses can show).
//
// Header-only and constexpr on purpose: job/ (option parsing, validation) and report/ read it without linking
// the engines (liburing, libaio).
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace sluice {

enum class EngineKind {
  kPsync,
  kSync,
  kLibaio,
  kIoUring,
  kMmap,
  kNull,
  kFalloc,
  kFtruncate,
  kFileCreate,
  kFileStat,
  kFileDelete,
  kCpuio,
  kExec,
  kPosixaio,
  kPvsync,
  kPvsync2,
  kVsync,
  kSplice,
  kE4defrag,
  kDirCreate,
  kDirStat,
  kDirDelete,
  kPageFault
};

struct EngineTraits {
  EngineKind kind = EngineKind::kPsync;
  std::string_view name;     // the ioengine= spelling (fio's)
  std::string_view summary;  // how it issues I/O, for --help
  // Completions can arrive after submit() returns: the engine keeps up to iodepth ios in flight and the
  // runner records slat (as fio). False: every io completes inside submit().
  bool async = false;
  bool reads = true;  // IoOp::kRead is an operation of this engine (ftruncate only writes: truncations)
  // A read changes the file system: falloc allocates, filecreate creates, filedelete deletes (--readonly
  // refuses them whatever rw= says).
  bool reads_change_files = false;
  bool trim = false;   // IoOp::kTrim: punches a hole in a file, BLKDISCARD on a block device
  bool flush = false;  // IoOp::kFsync / kFdatasync
  // direct=1 bypasses the page cache (the files are opened O_DIRECT and the engine reads them). False for
  // mmap: a mapping is the page cache whatever the open flags.
  bool direct = false;
  // Registers the job's files and buffers with the kernel by default (io_uring fixed files and buffers;
  // registerfiles=0 / fixedbufs=0 turn it off).
  bool registers = false;
  // Works on the job's files: they are resolved, checked and named to the engine (EngineSetup::paths). False
  // for null, which touches nothing: no file is laid out or opened, no data moves, nothing can be verified.
  bool uses_files = true;
  // The runner opens the job's files and hands the engine their descriptors (EngineSetup::fds). False for
  // null and for the engines whose operation is on the file's name (filecreate, filestat, filedelete).
  bool needs_fd = true;
  // The files are laid out (created and filled to their size) before the job, as for any read. False for
  // null and filecreate, whose operation is the creation.
  bool lays_out = true;
  // A read brings the file's bytes into the buffer and a write stores the buffer: the data can be verified.
  // False for null and the engines that only allocate, truncate or operate on names (falloc, ftruncate,
  // filecreate, filestat, filedelete): their ios move no data.
  bool moves_data = true;
  // Does one operation per file, on the io at the start of the file's region, and completes the file's other
  // ios without a call and without a latency sample (fio's file operation engines: the operation happens when
  // fio opens the file, its other ios are not timed).
  bool per_file = false;
  // A per-file engine whose files are directories (dircreate, dirstat, dirdelete): the runner makes the missing
  // ones (mkdir) where it would lay out files, and removes them with unlink=1.
  bool dirs = false;
  // Its ios are I/O. False for cpuio and exec (fio's FIO_NOIO): their ios are CPU cycles or waits, counted
  // with their latency but no bytes (as fio reports them); the job's CPU use is its result, and it runs for
  // its runtime (time_based).
  bool does_io = true;
  bool needs_size = false;  // needs each file's length at open (EngineSetup::file_sizes): mmap maps it
  // The kernel may refuse it at run time (io_uring: seccomp, kernel.io_uring_disabled, old kernels; libaio:
  // seccomp, fs.aio-max-nr used up), so callers that pick an engine themselves ask engine_available() first.
  bool may_be_refused = false;
  // vsync: holds iodepth ios and performs a submitted batch inside submit(), contiguous ios in one call.
  bool merges = false;

  // iodepth > 1 keeps more than one io in flight (only for engines whose completions arrive later).
  constexpr bool honours_iodepth() const noexcept { return async || merges; }
  // Every io is performed inline, inside submit() (psync, sync, mmap, null: SynchronousEngine).
  constexpr bool completes_in_submit() const noexcept { return !async; }
};

inline constexpr std::array<EngineTraits, 23> kEngineTable = {{
    {.kind = EngineKind::kPsync,
     .name = "psync",
     .summary = "pread/pwrite",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = true},
    {.kind = EngineKind::kSync,
     .name = "sync",
     .summary = "lseek + read/write",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = true},
    {.kind = EngineKind::kLibaio,
     .name = "libaio",
     .summary = "Linux native AIO, asynchronous, honours iodepth",
     .async = true,
     .trim = true,
     .flush = true,
     .direct = true,
     .may_be_refused = true},
    {.kind = EngineKind::kIoUring,
     .name = "io_uring",
     .summary = "asynchronous, honours iodepth, registered files and buffers",
     .async = true,
     .trim = true,
     .flush = true,
     .direct = true,
     .registers = true,
     .may_be_refused = true},
    {.kind = EngineKind::kMmap,
     .name = "mmap",
     .summary = "memory copies to and from a shared mapping",
     .async = false,
     .trim = false,
     .flush = true,
     .direct = false,
     .needs_size = true},
    {.kind = EngineKind::kNull,
     .name = "null",
     .summary = "no I/O; measures the harness",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = false,
     .uses_files = false,
     .needs_fd = false,
     .lays_out = false,
     .moves_data = false},
    {.kind = EngineKind::kFalloc,
     .name = "falloc",
     .summary = "fallocate: a read allocates (keeps the size), a write allocates and extends, a trim punches a hole",
     .async = false,
     .reads_change_files = true,
     .trim = true,
     .flush = false,
     .direct = false,
     .moves_data = false},
    {.kind = EngineKind::kFtruncate,
     .name = "ftruncate",
     .summary = "each write truncates the file to its offset",
     .async = false,
     .reads = false,
     .trim = false,
     .flush = false,
     .direct = false,
     .moves_data = false},
    {.kind = EngineKind::kFileCreate,
     .name = "filecreate",
     .summary = "creates each file (open O_CREAT), timing the open; moves no data",
     .async = false,
     .reads_change_files = true,
     .trim = true,
     .flush = false,
     .direct = false,
     .needs_fd = false,
     .lays_out = false,
     .moves_data = false,
     .per_file = true},
    {.kind = EngineKind::kFileStat,
     .name = "filestat",
     .summary = "stats each laid-out file (stat_type: stat, lstat or statx); moves no data",
     .async = false,
     .trim = true,
     .flush = false,
     .direct = false,
     .needs_fd = false,
     .moves_data = false,
     .per_file = true},
    {.kind = EngineKind::kFileDelete,
     .name = "filedelete",
     .summary = "unlinks each laid-out file, timing the unlink; moves no data",
     .async = false,
     .reads_change_files = true,
     .trim = true,
     .flush = false,
     .direct = false,
     .needs_fd = false,
     .moves_data = false,
     .per_file = true},
    {.kind = EngineKind::kCpuio,
     .name = "cpuio",
     .summary = "no I/O: burns cpuload percent of a CPU (cpumode noop spins, qsort sorts); reports CPU use",
     .async = false,
     .trim = false,
     .flush = false,
     .direct = false,
     .uses_files = false,
     .needs_fd = false,
     .lays_out = false,
     .moves_data = false,
     .does_io = false},
    {.kind = EngineKind::kExec,
     .name = "exec",
     .summary = "no I/O: runs program= for the job's runtime, then stops it (SIGTERM, grace_time, SIGKILL)",
     .async = false,
     .trim = false,
     .flush = false,
     .direct = false,
     .uses_files = false,
     .needs_fd = false,
     .lays_out = false,
     .moves_data = false,
     .does_io = false},
    {.kind = EngineKind::kPosixaio,
     .name = "posixaio",
     .summary = "POSIX AIO (aio_read/aio_write, glibc's helper threads), asynchronous, honours iodepth",
     .async = true,
     .trim = true,
     .flush = true,
     .direct = true},
    {.kind = EngineKind::kPvsync,
     .name = "pvsync",
     .summary = "preadv/pwritev with one iovec",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = true},
    {.kind = EngineKind::kPvsync2,
     .name = "pvsync2",
     .summary = "preadv2/pwritev2 with RWF flags (hipri, uncached, nowait)",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = true},
    {.kind = EngineKind::kVsync,
     .name = "vsync",
     .summary = "lseek + readv/writev, a submitted batch's sequential ios merged into one call",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = true,
     .merges = true},
    {.kind = EngineKind::kSplice,
     .name = "splice",
     .summary = "splice(2) through a pipe: file to pipe to buffer on reads, vmsplice and splice to the file on writes",
     .async = false,
     .trim = true,
     .flush = true,
     .direct = true},
    {.kind = EngineKind::kE4defrag,
     .name = "e4defrag",
     .summary = "ext4 defragmentation: each write moves its range onto a donor file's blocks (EXT4_IOC_MOVE_EXT)",
     .async = false,
     .reads = false,
     .trim = false,
     .flush = false,
     .direct = true,
     .moves_data = false},
    {.kind = EngineKind::kDirCreate,
     .name = "dircreate",
     .summary = "creates each file's name as a directory (mkdir), timing it; moves no data",
     .async = false,
     .reads_change_files = true,
     .trim = true,
     .flush = false,
     .direct = false,
     .needs_fd = false,
     .lays_out = false,
     .moves_data = false,
     .per_file = true,
     .dirs = true},
    {.kind = EngineKind::kDirStat,
     .name = "dirstat",
     .summary = "stats each directory (stat_type: stat, lstat or statx), made first when missing; moves no data",
     .async = false,
     .trim = true,
     .flush = false,
     .direct = false,
     .needs_fd = false,
     .moves_data = false,
     .per_file = true,
     .dirs = true},
    {.kind = EngineKind::kDirDelete,
     .name = "dirdelete",
     .summary = "removes each directory (rmdir), made first when missing, timing the rmdir; moves no data",
     .async = false,
     .reads_change_files = true,
     .trim = true,
     .flush = false,
     .direct = false,
     .needs_fd = false,
     .moves_data = false,
     .per_file = true,
     .dirs = true},
    {.kind = EngineKind::kPageFault,
     .name = "page_fault",
     .summary = "memory copies to and from an anonymous mapping of the job's size: the first touch of each page "
                "is a page fault; no file",
     .async = false,
     .trim = false,
     .flush = true,
     .direct = false,
     .uses_files = false,
     .needs_fd = false,
     .lays_out = false,
     .moves_data = false,
     .needs_size = true},
}};

namespace detail {
constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kEngineTable.size(); ++i) {
    if (static_cast<std::size_t>(kEngineTable[i].kind) != i) return false;
  }
  return true;
}
static_assert(table_in_enum_order(), "kEngineTable rows must follow EngineKind's order");
}  // namespace detail

// The row of `kind`.
constexpr const EngineTraits& engine_traits(EngineKind kind) noexcept {
  return kEngineTable[static_cast<std::size_t>(kind)];
}

// "psync", "io_uring", ...: the ioengine= spelling.
constexpr std::string_view engine_name(EngineKind kind) noexcept { return engine_traits(kind).name; }

// The engine spelled `name` (exactly, as ioengine= takes it), or nothing.
[[nodiscard]] constexpr std::optional<EngineKind> engine_by_name(std::string_view name) noexcept {
  for (const EngineTraits& t : kEngineTable) {
    if (t.name == name) return t.kind;
  }
  return std::nullopt;
}

// Every engine name, in table (EngineKind) order.
constexpr std::array<std::string_view, kEngineTable.size()> engine_names() noexcept {
  std::array<std::string_view, kEngineTable.size()> names{};
  for (std::size_t i = 0; i < kEngineTable.size(); ++i) names[i] = kEngineTable[i].name;
  return names;
}

}  // namespace sluice
