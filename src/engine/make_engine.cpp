#include "engine/engines.h"

namespace sluice {

std::unique_ptr<Engine> make_engine(const EngineOptions& options) {
  const EngineKind kind = options.ioengine;
  switch (kind) {
    case EngineKind::kNull:
      return make_null_engine();
    case EngineKind::kPsync:
      return make_psync_engine();
    case EngineKind::kSync:
      return make_sync_engine();
    case EngineKind::kMmap:
      return make_mmap_engine();
    case EngineKind::kLibaio:
      return make_libaio_engine(options.libaio, options.rw_flags);
    case EngineKind::kPosixaio:
      return make_posixaio_engine();
    case EngineKind::kPvsync:
      return make_pvsync_engine(false, options.rw_flags);
    case EngineKind::kPvsync2:
      return make_pvsync_engine(true, options.rw_flags);
    case EngineKind::kVsync:
      return make_vsync_engine();
    case EngineKind::kSplice:
      return make_splice_engine();
    case EngineKind::kE4defrag:
      return make_e4defrag_engine(options.e4defrag);
    case EngineKind::kFalloc:
      return make_falloc_engine();
    case EngineKind::kFtruncate:
      return make_ftruncate_engine();
    case EngineKind::kFileCreate:
    case EngineKind::kFileStat:
    case EngineKind::kFileDelete:
    case EngineKind::kDirCreate:
    case EngineKind::kDirStat:
    case EngineKind::kDirDelete:
      return make_file_op_engine(kind, options.filestat);
    case EngineKind::kPageFault:
      return make_page_fault_engine();
    case EngineKind::kCpuio:
      return make_cpuio_engine(options.cpuio);
    case EngineKind::kExec:
      return make_exec_engine(options.exec);
    case EngineKind::kIoUring:
      probe_io_uring();
      return make_io_uring_engine(options.uring, options.rw_flags);
  }
  throw UserError("unknown I/O engine");
}

std::unique_ptr<Engine> make_engine(EngineKind kind) { return make_engine(EngineOptions{.ioengine = kind}); }

}  // namespace sluice
