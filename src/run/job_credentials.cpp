#include "run/job_credentials.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace sluice {
namespace {

// -1 leaves an id as it is (setresuid(2)).
constexpr long kKeep = -1;

// The real and effective ids both (a shell started by a hook drops an effective id that differs from the
// real one); the saved id stays sluice's, so the thread can take its own back.
long set_uid(unsigned uid) { return ::syscall(SYS_setresuid, static_cast<long>(uid), static_cast<long>(uid), kKeep); }
long set_gid(unsigned gid) { return ::syscall(SYS_setresgid, static_cast<long>(gid), static_cast<long>(gid), kKeep); }

}  // namespace

JobCredentials::JobCredentials(const PlacementOptions& placement) : old_uid_(::getuid()), old_gid_(::getgid()) {
  if (placement.gid >= 0) {
    if (set_gid(static_cast<unsigned>(placement.gid)) != 0) {
      throw std::runtime_error("gid=" + std::to_string(placement.gid) +
                               ": cannot switch to it: " + std::strerror(errno));
    }
    gid_switched_ = true;
  }
  if (placement.uid >= 0) {
    if (set_uid(static_cast<unsigned>(placement.uid)) != 0) {
      const int err = errno;
      if (gid_switched_) set_gid(old_gid_);
      gid_switched_ = false;
      throw std::runtime_error("uid=" + std::to_string(placement.uid) + ": cannot switch to it: " + std::strerror(err));
    }
    uid_switched_ = true;
  }
}

JobCredentials::~JobCredentials() {
  // The user first: as root again, the group may be changed back.
  if (uid_switched_) (void)set_uid(old_uid_);
  if (gid_switched_) (void)set_gid(old_gid_);
}

std::optional<TargetFailure> inaccessible_target(const std::vector<TargetFile>& targets, bool reads, bool writes) {
  const int mode = (reads ? R_OK : 0) | (writes ? W_OK : 0);
  for (const TargetFile& t : targets) {
    if (t.stand_in || mode == 0) continue;
    if (::faccessat(AT_FDCWD, t.path.c_str(), mode, AT_EACCESS) != 0 && errno != ENOENT) {
      const int err = errno;
      return TargetFailure{err,
                           "open(" + t.path + ") as uid " + std::to_string(::geteuid()) + ": " + std::strerror(err)};
    }
  }
  return std::nullopt;
}

}  // namespace sluice
