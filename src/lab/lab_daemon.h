#pragma once
// The lab daemon: a FUSE filesystem (libfuse3, multi-threaded) at a mount point holding `device`, a file
// backed by a real file and served through the model (lab/model_engine.h), and `stats`, the daemon's record
// as JSON. Each request's data moves at once; its reply is sent when the engine says it is due, measured
// from its arrival on the daemon's clock, so the path's own time is absorbed rather than added.
#include <cstdint>
#include <string>

#include "lab/model.h"

namespace sluice {

struct LabDaemonOptions {
  ModelSpec model;
  std::string mountpoint;  // an existing empty directory
  std::string backing;     // the file holding the device's data; created (sparse) when missing
  std::uint64_t size = 0;  // the device's size; 0 = the model's size
  unsigned threads = 16;   // FUSE worker threads (a request holds one only until its data has moved)
};

// Whether this build has the daemon (libfuse3 was found when sluice was built).
bool lab_daemon_available() noexcept;

// Mounts and serves until unmounted (fusermount3 -u) or SIGINT/SIGTERM; returns the exit code. Throws
// UserError when it cannot start (no libfuse3 in this build, no /dev/fuse, mount point or backing file unusable).
int run_lab_daemon(const LabDaemonOptions& options);

}  // namespace sluice
