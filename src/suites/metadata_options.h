#pragma once
// What `sluice metadata` was asked to do: mdtest's options (hpc/ior 4.0.0 meaning) plus the worker threads.
#include <cstdint>
#include <string>

namespace sluice {

struct MetadataOptions {
  std::string directory = ".";      // -d: sluice works in a new subdirectory of it
  std::uint64_t items = 0;          // -n: items per worker (0: from -I)
  std::uint32_t depth = 0;          // -z: depth of the tree below its root
  std::uint32_t branching = 1;      // -b: subdirectories of each tree directory
  std::uint64_t items_per_dir = 0;  // -I: items in each tree directory (0: from -n)
  bool unique_dir = false;          // -u: every worker makes and uses its own tree
  std::uint64_t write_bytes = 0;    // -w: bytes written to each file at creation
  std::uint64_t read_bytes = 0;     // -e: bytes read from each file in the read phase
  bool files_only = false;          // -F
  bool dirs_only = false;           // -D
  std::uint32_t iterations = 1;     // -i
  // -C, -T, -E, -r: which phases are reported; none given means all (as in mdtest).
  bool only_create = false;
  bool only_stat = false;
  bool only_read = false;
  bool only_remove = false;
  bool fsync_files = false;   // -y: fsync each file after its write
  bool sync_phases = false;   // -Y: sync the file system at the end of each phase (inside its time)
  std::uint32_t threads = 1;  // workers; each is one of mdtest's ranks
};

}  // namespace sluice
