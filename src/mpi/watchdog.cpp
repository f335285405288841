#include "mpi/watchdog.h"

#include <cstdio>

#include "mpi/world.h"

namespace sluice::mpi {

Watchdog::Watchdog(std::chrono::nanoseconds limit) {
  if (limit.count() <= 0) return;
  thread_ = std::thread([this, limit] {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, limit, [this] { return done_; })) return;
    std::fprintf(stderr,
                 "sluice[%s]: the MPI run did not finish within its time limit of %.0f s (the jobs' time plus a "
                 "grace; --mpi-timeout sets it): a rank hangs or cannot reach the others; ending every rank\n",
                 where().c_str(), std::chrono::duration<double>(limit).count());
    abort(1);
  });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace sluice::mpi
