#pragma once
// What the workers of `sluice metadata` share, as mdtest's ranks share it over MPI: a barrier between
// phases and the reductions of item counts and phase times. The phase code sees only WorkerComm, so a rank
// layer over MPI (MPI_Barrier, MPI_Allreduce with MPI_SUM / MPI_MAX) can replace the threads used here.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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

// The processes a team of threads spans (MPI ranks; cli/metadata_mpi.h): the team's thread 0 calls these
// collectives on behalf of its threads. Every process calls them in the same order.
class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual std::uint32_t rank() const noexcept = 0;
  virtual std::uint32_t size() const noexcept = 0;
  virtual std::string host() const = 0;  // this process's host name
  virtual void barrier() = 0;
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  virtual double max(double value) = 0;
  // Every process receives process 0's `text`.
  virtual std::string broadcast(const std::string& text) = 0;
  // Process 0 receives every process's text in rank order; the others receive {}.
  virtual std::vector<std::string> gather(const std::string& text) = 0;
};

struct ThreadTeamState;

// The threads implementation: `size` threads of one process, each holding member(rank). With `processes`
// the team is this process's share of a team across processes: member(t) is worker
// processes->rank() x size + t of processes->size() x size, and every collective spans all of them.
class ThreadTeam {
 public:
  explicit ThreadTeam(std::uint32_t size, ProcessGroup* processes = nullptr);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  // The communicator of thread `rank`; valid while the team lives. Each thread uses only its own.
  std::unique_ptr<WorkerComm> member(std::uint32_t rank);

 private:
  std::unique_ptr<ThreadTeamState> state_;
};

}  // namespace sluice
