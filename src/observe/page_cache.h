#pragma once
// Dropping the kernel's clean page cache, dentries and inodes between benchmark steps, so the next step reads
// from the device and not from memory (`sync; echo 3 > /proc/sys/vm/drop_caches`).
#include <string>

#include "observe/system_roots.h"

namespace sluice {

// What drop_page_cache() did: done, or why not ("not root", "cannot write /proc/sys/vm/drop_caches: ...").
struct CacheDrop {
  bool done = false;
  std::string reason;  // empty when done
};

// Calls sync() and writes "3" to <proc_root>/sys/vm/drop_caches. Never throws; needs root (CAP_SYS_ADMIN)
// for the real /proc. Blocks until the kernel has written back and dropped the cache (can take seconds).
CacheDrop drop_page_cache(const SystemRoots& roots = {});

// True when the process runs as root (effective uid 0): the default of commands' --drop-caches.
bool may_drop_page_cache();

}  // namespace sluice
