#pragma once
// EngineOptions: the job's ioengine and the options that belong to one engine (or to the few that share them),
// as fio's engines own theirs. A job's options hold them (JobSpec::engine); make_engine() hands each engine its
// own part, so EngineSetup carries only what every engine takes (files, buffers, depth).
#include <chrono>
#include <cstdint>
#include <string>

#include "engine/engine_traits.h"
#include "engine/file_stat_call.h"

namespace sluice {

// io_uring's ring setup (fio's io_uring engine options). sluice registers files and buffers by default.
struct UringOptions {
  bool registerfiles = true;            // register the job's files (fio's registerfiles; fio's default is 0)
  bool fixedbufs = true;                // register the io buffers (fio's fixedbufs; fio's default is 0)
  bool sqthread_poll = false;           // IORING_SETUP_SQPOLL: a kernel thread polls the submission queue
  std::int32_t sqthread_poll_cpu = -1;  // IORING_SETUP_SQ_AFF: the CPU of that thread; -1 = unpinned
  bool nonvectored = true;              // IORING_OP_READ/WRITE; false = READV/WRITEV with one iovec
  std::uint32_t force_async = 0;        // every Nth io gets IOSQE_ASYNC; 0 = never
};

// The per-io RWF_* flags options of pvsync2, io_uring and libaio (hipri also makes io_uring poll: IOPOLL).
struct RwFlagOptions {
  bool hipri = false;                    // io_uring: IORING_SETUP_IOPOLL (polled completions); pvsync2: RWF_HIPRI
  std::uint32_t hipri_percentage = 100;  // pvsync2 with hipri: share of the ios issued with RWF_HIPRI
  bool uncached = false;                 // RWF_DONTCACHE on buffered ios (pvsync2, io_uring)
  bool nowait = false;                   // RWF_NOWAIT (pvsync2, io_uring, libaio)
  bool atomic = false;                   // RWF_ATOMIC on writes: torn-write protection (pvsync2, io_uring, libaio)
};

struct LibaioOptions {
  bool userspace_reap = false;  // libaio: read completions from the ring when not waiting
};

struct FilestatOptions {
  FileStatCall stat_type = FileStatCall::kStat;  // ioengine=filestat's system call
};

// ioengine=cpuio: burn cpuload percent of a CPU in cycles of cpuchunks_us (spinning, or sorting for qsort);
// exit_on_io_done ends the job when the group's I/O jobs have all ended.
struct CpuioOptions {
  std::uint32_t cpuload = 0;  // 0 = not given (cpuio refuses to run without it, as fio)
  std::uint32_t cpuchunks_us = 50000;
  bool qsort = false;
  bool exit_on_io_done = false;
};

// ioengine=exec: run `program arguments` (%r: runtime in seconds, %n: job name) for the job's runtime, then
// SIGTERM, grace_time, SIGKILL; std_redirect sends its output to JOBNAME.stdout / JOBNAME.stderr.
struct ExecOptions {
  std::string program;
  std::string arguments;
  std::chrono::nanoseconds grace_time{std::chrono::seconds(1)};
  bool std_redirect = true;
};

// e4defrag: the donor file (under directory=) whose blocks EXT4_IOC_MOVE_EXT swaps in, and whether each io
// allocates and frees the donor's blocks itself (inplace=1) instead of once for the whole file.
struct E4defragOptions {
  std::string donorname;
  bool inplace = false;
};

struct EngineOptions {
  EngineKind ioengine = EngineKind::kPsync;
  UringOptions uring{};
  RwFlagOptions rw_flags{};
  LibaioOptions libaio{};
  FilestatOptions filestat{};
  CpuioOptions cpuio{};
  ExecOptions exec{};
  E4defragOptions e4defrag{};
};

}  // namespace sluice
