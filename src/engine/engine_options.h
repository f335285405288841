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
};

// The per-io RWF_* flags options of pvsync2, io_uring and libaio (hipri also makes io_uring poll: IOPOLL).
struct RwFlagOptions {
};

struct LibaioOptions {
};

struct FilestatOptions {
};

// ioengine=cpuio: burn cpuload percent of a CPU in cycles of cpuchunks_us (spinning, or sorting for qsort);
// exit_on_io_done ends the job when the group's I/O jobs have all ended.
struct CpuioOptions {
};

// ioengine=exec: run `program arguments` (%r: runtime in seconds, %n: job name) for the job's runtime, then
// SIGTERM, grace_time, SIGKILL; std_redirect sends its output to JOBNAME.stdout / JOBNAME.stderr.
struct ExecOptions {
};

// e4defrag: the donor file (under directory=) whose blocks EXT4_IOC_MOVE_EXT swaps in, and whether each io
// allocates and frees the donor's blocks itself (inplace=1) instead of once for the whole file.
struct E4defragOptions {
};

struct EngineOptions {
  UringOptions uring{};
  RwFlagOptions rw_flags{};
  LibaioOptions libaio{};
  FilestatOptions filestat{};
  CpuioOptions cpuio{};
  ExecOptions exec{};
  E4defragOptions e4defrag{};
};

}  // namespace sluice
