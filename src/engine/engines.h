#pragma once
// Constructors of the concrete engines (one per file); make_engine() picks among them.
#include <memory>

#include "engine/engine.h"

namespace sluice {

std::unique_ptr<Engine> make_null_engine();
std::unique_ptr<Engine> make_psync_engine();
std::unique_ptr<Engine> make_sync_engine();
std::unique_ptr<Engine> make_mmap_engine();
std::unique_ptr<Engine> make_libaio_engine(const LibaioOptions& options, const RwFlagOptions& rw_flags);
std::unique_ptr<Engine> make_posixaio_engine();
std::unique_ptr<Engine> make_pvsync_engine(bool v2, const RwFlagOptions& rw_flags);  // pvsync, or pvsync2
std::unique_ptr<Engine> make_vsync_engine();
std::unique_ptr<Engine> make_splice_engine();
std::unique_ptr<Engine> make_e4defrag_engine(const E4defragOptions& options);
std::unique_ptr<Engine> make_io_uring_engine(const UringOptions& options, const RwFlagOptions& rw_flags);
std::unique_ptr<Engine> make_falloc_engine();
std::unique_ptr<Engine> make_ftruncate_engine();
// filecreate, filestat, filedelete, dircreate, dirstat or dirdelete
std::unique_ptr<Engine> make_file_op_engine(EngineKind kind, const FilestatOptions& options);
std::unique_ptr<Engine> make_page_fault_engine();
std::unique_ptr<Engine> make_cpuio_engine(const CpuioOptions& options);
std::unique_ptr<Engine> make_exec_engine(const ExecOptions& options);

// Throws UserError (naming --ioengine=libaio as the alternative) when the kernel refuses io_uring.
void probe_io_uring();

}  // namespace sluice
