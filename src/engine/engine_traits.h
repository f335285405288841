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

enum class EngineKind { kPsync, kSync, kLibaio, kIoUring, kMmap, kNull };

struct EngineTraits {
  EngineKind kind = EngineKind::kPsync;
  std::string_view name;     // the ioengine= spelling (fio's)
  std::string_view summary;  // how it issues I/O, for --help
  // Completions can arrive after submit() returns: the engine keeps up to iodepth ios in flight and the
  // runner records slat (as fio). False: every io completes inside submit().
  bool async = false;
  bool trim = false;   // IoOp::kTrim: punches a hole in a file, BLKDISCARD on a block device
  bool flush = false;  // IoOp::kFsync / kFdatasync
  // direct=1 bypasses the page cache (the files are opened O_DIRECT and the engine reads them). False for
  // mmap: a mapping is the page cache whatever the open flags.
  bool direct = false;
  // Registers the job's files and buffers with the kernel by default (io_uring fixed files and buffers;
  // registerfiles=0 / fixedbufs=0 turn it off).
  bool registers = false;
  // Works on the job's open files. False for null, which touches nothing: no file is laid out or opened,
  // no data moves, nothing can be verified.
  bool needs_fd = true;
  bool needs_size = false;  // needs each file's length at open (EngineSetup::file_sizes): mmap maps it
  // The kernel may refuse it at run time (io_uring: seccomp, kernel.io_uring_disabled, old kernels; libaio:
  // seccomp, fs.aio-max-nr used up), so callers that pick an engine themselves ask engine_available() first.
  bool may_be_refused = false;

  // iodepth > 1 keeps more than one io in flight (only for engines whose completions arrive later).
  constexpr bool honours_iodepth() const noexcept { return async; }
  // Every io is performed inline, inside submit() (psync, sync, mmap, null: SynchronousEngine).
  constexpr bool completes_in_submit() const noexcept { return !async; }
};

inline constexpr std::array<EngineTraits, 6> kEngineTable = {{
    {.kind = EngineKind::kPsync, .name = "psync", .summary = "pread/pwrite", .async = false, .trim = true,
     .flush = true, .direct = true},
    {.kind = EngineKind::kSync, .name = "sync", .summary = "lseek + read/write", .async = false, .trim = true,
     .flush = true, .direct = true},
    {.kind = EngineKind::kLibaio, .name = "libaio", .summary = "Linux native AIO, asynchronous, honours iodepth",
     .async = true, .trim = true, .flush = true, .direct = true, .may_be_refused = true},
    {.kind = EngineKind::kIoUring, .name = "io_uring",
     .summary = "asynchronous, honours iodepth, registered files and buffers", .async = true, .trim = true,
     .flush = true, .direct = true, .registers = true, .may_be_refused = true},
    {.kind = EngineKind::kMmap, .name = "mmap", .summary = "memory copies to and from a shared mapping",
     .async = false, .trim = false, .flush = true, .direct = false, .needs_size = true},
    {.kind = EngineKind::kNull, .name = "null", .summary = "no I/O; measures the harness", .async = false,
     .trim = true, .flush = true, .direct = false, .needs_fd = false},
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
