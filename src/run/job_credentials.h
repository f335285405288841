#pragma once
// JobCredentials: fio's uid= and gid= for one job's thread. While alive, the calling thread's real and
// effective user and group are the job's (as fio's setuid, so the job's hooks run as the user too); the saved
// ids stay sluice's, so the destructor gives the old ones back. Linux
// keeps credentials per thread at the system call level (glibc's setuid would change every thread of sluice),
// so the raw setresuid/setresgid calls are used. As in fio, the files are laid out by sluice itself (fio's
// parent with its default create_serialize) and the job's own access to them is what the job's user may do.
#include <optional>
#include <string>
#include <vector>

#include "job/placement_options.h"
#include "targets/target_file.h"

namespace sluice {

class JobCredentials {
 public:
  // Switches to the job's gid, then its uid, when given. Throws std::runtime_error naming the option and the
  // reason when the kernel refuses (not root: EPERM).
  explicit JobCredentials(const PlacementOptions& placement);
  ~JobCredentials();
  JobCredentials(const JobCredentials&) = delete;
  JobCredentials& operator=(const JobCredentials&) = delete;

 private:
  bool uid_switched_ = false;
  bool gid_switched_ = false;
  unsigned old_uid_ = 0;
  unsigned old_gid_ = 0;
};

// The first target the job's (current) effective user may not use as the job does (read, write), as errno and
// fio's "open(PATH)" wording; nullopt when all may be used. reads: the job reads or verifies; writes: it writes
// or trims.
std::optional<TargetFailure> inaccessible_target(const std::vector<TargetFile>& targets, bool reads, bool writes);

}  // namespace sluice
