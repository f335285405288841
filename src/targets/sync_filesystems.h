#pragma once
// end_syncfs (fio 3.42): one syncfs(2) per file system that holds a job's files, instead of an fsync per file.
#include <string>
#include <vector>

namespace sluice {

// Calls syncfs(2) once for each distinct file system holding one of `paths`, told apart as fio does: by the
// st_dev of each regular file's directory, synced through a descriptor of the first such directory. Block
// devices and paths that are not regular files are skipped. Returns how many file systems were synced.
// Throws nothing; on a failure returns what failed in `failure` ("syncfs of DIR: reason", with its errno in
// `error`) and goes on with the others, as fio logs a failed syncfs and goes on.
struct SyncfsOutcome {
  int synced = 0;
  int error = 0;
  std::string failure;
};
SyncfsOutcome sync_filesystems(const std::vector<std::string>& paths);

}  // namespace sluice
