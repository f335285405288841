#pragma once
// What the workers of `sluice metadata` share, as mdtest's ranks share it over MPI: a barrier between
// phases and the reductions of item counts and phase times. The phase code sees only WorkerComm, so a rank
// layer over MPI (MPI_Barrier, MPI_Allreduce with MPI_SUM / MPI_MAX) can replace the threads used here.
#include <cstdint>
#include <memory>

namespace sluice {

class WorkerComm {
 public:
  virtual ~WorkerComm() = default;
  virtual std::uint32_t rank() const noexcept = 0;  // 0 .. size()-1
  virtual std::uint32_t size() const noexcept = 0;
  // Collective (every rank calls it, in the same order): returns once all ranks arrived.
  virtual void barrier() = 0;
  // Collective: the sum / maximum of `value` over all ranks, returned to every rank.
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  virtual double max(double value) = 0;
};

struct ThreadTeamState;

// The threads implementation: `size` threads of one process, each holding member(rank).
class ThreadTeam {
 public:
  explicit ThreadTeam(std::uint32_t size);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  // The communicator of thread `rank`; valid while the team lives. Each thread uses only its own.
  std::unique_ptr<WorkerComm> member(std::uint32_t rank);

 private:
  std::unique_ptr<ThreadTeamState> state_;
};

}  // namespace sluice
