#pragma once
// Engine: the small interface every I/O engine implements (psync, sync, libaio, io_uring, mmap, null, and
// fio's falloc, ftruncate, filecreate, filestat, filedelete, cpuio, exec, posixaio).
// Engines move bytes and report completions; they know nothing of statistics or timing policy.
//
// Lifecycle (one engine instance per worker thread, never shared):
//   open(setup)  -> once, before any I/O: creates queues, registers files and buffers
//   submit(batch)-> queue ios; returns how many were accepted (the rest stay with the caller)
//   reap(min, max, out) -> waits for at least `min` completions (never more than `max`), fills `out`
//   close()      -> once; waits for in-flight ios and releases everything (the destructor calls it too)
// Synchronous engines (psync, sync, mmap, null) complete an io inside submit() and hand it back from the
// next reap(); their caps().async is false and the runner records no slat for them (as fio).
// What each engine can do is stated once, in engine/engine_traits.h; caps() returns that row.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/direction.h"
#include "common/error.h"
#include "engine/engine_options.h"
#include "engine/engine_traits.h"

namespace sluice {

// kSyncRange: sync_file_range(2) of [offset, offset + length) (length 0: to the end of the file) with the
// unit's range_flags (fio's sync_file_range option).
enum class IoOp : std::uint8_t { kRead, kWrite, kTrim, kFsync, kFdatasync, kSyncRange };

// The ops that flush written data instead of moving any: counted as fio's syncs.
constexpr bool is_flush(IoOp op) noexcept {
  return op == IoOp::kFsync || op == IoOp::kFdatasync || op == IoOp::kSyncRange;
}

// One in-flight operation. The runner owns a fixed pool of these (iodepth of them), so the hot path
// never allocates; engines may keep per-unit state in engine_data.
struct IoUnit {
  IoOp op = IoOp::kRead;
  int file_index = 0;  // index into EngineSetup::fds
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  void* buffer = nullptr;  // aligned, length bytes at least
  int buffer_index = -1;   // index into EngineSetup::buffers (for fixed buffers), -1 if none
  // Result, set by the engine: bytes transferred (>= 0) or -errno. Trim, fsync and fdatasync report
  // `length` on success, so result == length means "complete" for every op.
  std::int64_t result = 0;
  // Timestamps, set by the runner (monotonic ns). slat = submit_end - submit_begin; clat = completion seen -
  // submit_end. Synchronous engines finish inside the call: their submit_end_ns is submit_begin_ns.
  std::uint64_t submit_begin_ns = 0;  // the submit call began (open loop keeps the scheduled arrival in OpenLoopQueue)
  std::uint64_t submit_end_ns = 0;    // the submit call returned
  std::uint64_t index = 0;            // the unit's index in the pool; engines use it as user data
  // The io's priority (the kernel's ioprio, class << 13 | level; 0 = the thread's own). libaio and io_uring
  // issue reads and writes with it; prio_index says which per-priority latency statistics the io adds to.
  std::uint16_t ioprio = 0;
  std::uint8_t prio_index = 0;
  std::uint8_t range_flags = 0;  // kSyncRange: SYNC_FILE_RANGE_WAIT_BEFORE (1) | _WRITE (2) | _WAIT_AFTER (4)
  void* engine_data = nullptr;
  // Set by the engine: false when it completed the io without doing anything to time (a per-file engine's
  // ios after the file's operation). The io is counted; its latency is not recorded (fio's FIO_NOSTATS).
  bool timed = true;
};

// An engine's capabilities are its row of the traits table (engine/engine_traits.h).
using EngineCaps = EngineTraits;

struct EngineBuffer {
  void* data = nullptr;
  std::size_t length = 0;
};

// What every engine is opened with: the job's files and buffers, and the few facts of the job some engines use.
// The options of one engine are not here: make_engine() gives each engine its own (engine/engine_options.h).
struct EngineSetup {
  std::uint32_t depth = 1;                   // maximum ios in flight
  std::vector<int> fds{};                    // open file descriptors, indexed by IoUnit::file_index
  std::vector<std::uint64_t> file_sizes{};   // mmap maps these lengths
  std::vector<EngineBuffer> buffers{};       // io buffers (io_uring may register them as fixed buffers)
  std::vector<std::string> paths{};          // the files' names, indexed like fds (the per-file engines use them)
  std::vector<std::uint64_t> file_starts{};  // where each file's region begins (the per-file engines' operation io)
  bool direct = false;
  bool writes = false;           // mmap maps writable
  std::string job_name{};        // exec: %n and its output files' names
  std::string directory{};       // the job's directory= (e4defrag's donor file lives there)
  std::uint64_t runtime_ns = 0;  // the job's runtime (exec: %r)
  std::uint64_t seed = 0;        // of the engine's own random draws (pvsync2's hipri share)
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const noexcept = 0;
  virtual EngineCaps caps() const noexcept = 0;

  // Throws IoError / UserError with a clear message when the engine cannot start (no io_uring, ...).
  virtual void open(const EngineSetup& setup) = 0;
  // Queues up to batch.size() ios. Returns the number accepted (>= 0). A synchronous engine performs them
  // now. Errors of individual ios are reported through IoUnit::result, not by throwing; IoError is thrown
  // only when the engine itself can no longer work (e.g. the kernel refuses the io_uring ring).
  [[nodiscard]] virtual int submit(std::span<IoUnit* const> batch) = 0;
  // Waits until at least min_events completions are available (0 = do not wait), returns up to
  // out.size() of them in out. Returns the number written. Throws IoError as submit() does.
  [[nodiscard]] virtual int reap(unsigned min_events, std::span<IoUnit*> out) = 0;
  virtual void close() noexcept = 0;
};

// Throws UserError naming the job when ioengine=exec's program is not an executable file (given with a '/',
// or found in PATH as execvp would). The runner asks before anything runs.
void check_exec_program(std::string_view job_name, const std::string& program);

// Makes the engine options.ioengine names, with its own options out of `options` (the others' are ignored);
// throws UserError when the kernel lacks support (message says which).
[[nodiscard]] std::unique_ptr<Engine> make_engine(const EngineOptions& options);
// The same with the engine's default options.
[[nodiscard]] std::unique_ptr<Engine> make_engine(EngineKind kind);

// True when the engine can start here: made and opened (with no files) without error. io_uring may be
// refused by the kernel, seccomp or kernel.io_uring_disabled. Costs a ring setup for engines whose traits
// say may_be_refused; the others answer at once.
[[nodiscard]] bool engine_available(EngineKind kind) noexcept;

}  // namespace sluice
