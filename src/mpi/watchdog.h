#pragma once
// Ends every MPI rank (MPI_Abort, exit status 1) when a run is not over after its time limit: a rank that
// hangs, or cannot reach the others, must not hang the run. A limit of 0 means no watchdog.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace sluice::mpi {

class Watchdog {
 public:
  explicit Watchdog(std::chrono::nanoseconds limit);
  ~Watchdog();  // the run is over: the watchdog stops
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace sluice::mpi
